package driver_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/plan"
)

// TestClickWhen clicks the lab ticker's Buy button only when the price it shows is below a
// bound: the price dips below it for one tick of 100 ms in eight, and the click saved must
// be in that tick, once. A bound never reached clicks nothing and says the last value
// seen; a page with two prices clicks nothing and says so; a wait for the price alone
// clicks nothing.
func TestClickWhen(t *testing.T) {
	pool := newPool(t)
	for _, tt := range []struct {
		name, page, goal string
		bound            time.Duration
		want, why        string
	}{
		{"below the bound", "ticker.html", `click "Buy" when the price is less than $47.10`, 20 * time.Second, `{"bought":["$46.95"]}`, ""},
		{"a bound never reached", "ticker.html", `click "Buy" when the price is less than $10`, 5 * time.Second, "", "the last value seen was"},
		{"a wait alone clicks nothing", "ticker.html", "wait until the price is less than $47.10", 20 * time.Second, "", ""},
		{"two prices", "ticker.html?two", `click "Buy" when the price is less than $47.10`, 20 * time.Second, "", "2 numbers named the price"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			steps, err := plan.Parse(tt.goal)
			if err != nil || len(steps) != 1 {
				t.Fatalf("%v %v", steps, err)
			}
			s, app := openLab(t, pool, tt.name, tt.page)
			ctx, cancel := context.WithTimeout(t.Context(), tt.bound)
			defer cancel()
			out, err := s.Do(ctx, steps[0].WithTarget(), driver.DoOptions{WaitBudget: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%q %+v", out.Actions, out.Feedback)
			if tt.why == "" && !out.OK {
				t.Fatalf("%+v (actions %q)", out.Feedback, out.Actions)
			}
			if tt.why != "" && (out.OK || out.Feedback == nil || !strings.Contains(out.Feedback.Details, tt.why)) {
				t.Errorf("want a failure saying %q: %+v", tt.why, out.Feedback)
			}
			time.Sleep(300 * time.Millisecond) // the page saves a click at once
			if got := string(app.LabState("ticker")); got != tt.want {
				t.Errorf("the page saved %q; want %q", got, tt.want)
			}
		})
	}
}
