package driver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/plan"
)

// TestWhatOneElementHolds checks what one element holds or shows, as people write it
// before or after a form: a field's value, an item's row; a value it does not hold fails
// the check, and a secret field's value is never read.
func TestWhatOneElementHolds(t *testing.T) {
	pool := newPool(t)
	for _, tt := range []struct {
		goal string
		ok   bool
		why  string
	}{
		{`make sure the field labelled "User" holds admin`, true, ""},
		{`check that "User" in the Login window contains "admin"`, true, ""},
		{`check that "family-recipes" shows "Paused"`, true, ""},
		{`verify that "podcast" shows "Paused"`, false, `holds "podcast", not "Paused"`},
		{`make sure "User" holds root`, false, `holds "admin", not "root"`},
		{`make sure "Password" in the Login window holds x`, false, "never read"},
	} {
		t.Run(tt.goal, func(t *testing.T) {
			steps, err := plan.Parse(tt.goal)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := openLab(t, pool, tt.goal, "unseen-window.html")
			out, err := s.Do(t.Context(), plan.WithTargets(steps)[0], driver.DoOptions{WaitBudget: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			why := ""
			if out.Feedback != nil {
				why = out.Feedback.Details
			}
			if out.OK != tt.ok || !strings.Contains(why, tt.why) || out.Mutated {
				t.Errorf("ok %v mutated %v (%s; actions %q); want ok %v, %q", out.OK, out.Mutated, why, out.Actions, tt.ok, tt.why)
			}
		})
	}
}
