package driver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/plan"
)

// TestRerenderedWhileActing ticks a checkbox whose row the app renders again while the
// box is being ticked (the lab's part-rerender page: the click saves the task and
// replaces the row's DOM). The node ticked is gone when the tick returns; the step finds
// the row's box again, sees it ticked, and ends OK, having saved once — not in doubt. A
// row the app renders again unticked (a locked task) fails as before: it acted, and the
// tick did not hold.
func TestRerenderedWhileActing(t *testing.T) {
	pool := newPool(t)
	for _, tt := range []struct {
		row string
		ok  bool
	}{{"Write the report", true}, {"Pay the invoice", false}} {
		t.Run(tt.row, func(t *testing.T) {
			ctx := t.Context()
			s, app := openLab(t, pool, tt.row, "part-rerender.html")
			step := plan.Step{Action: plan.Check, TargetDescription: `the "Done" checkbox in the row "` + tt.row + `"`}
			out, err := s.Do(ctx, step, driver.DoOptions{WaitBudget: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("actions: %q; feedback: %+v", out.Actions, out.Feedback)
			refound := strings.Contains(strings.Join(out.Actions, "\n"), "re-rendered while acting")
			switch {
			case tt.ok && !out.OK:
				t.Fatalf("the step failed: %+v", out.Feedback)
			case tt.ok && !refound:
				t.Errorf("the actions should say the box was re-rendered and found again: %q", out.Actions)
			case !tt.ok && (out.OK || !out.Acted || refound):
				t.Fatalf("a tick that did not hold must fail, having acted: ok %v, acted %v, actions %q", out.OK, out.Acted, out.Actions)
			}
			if n := ticked(t, s); tt.ok && (len(n) != 1 || !strings.Contains(n[0], tt.row)) || !tt.ok && len(n) != 0 {
				t.Errorf("the ticked boxes are in the rows %q", n)
			}
			deadline := time.Now().Add(2 * time.Second)
			for app.Saves() == 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if n := app.Saves(); n != 1 {
				t.Errorf("the task was saved %d times; want once", n)
			}
		})
	}
}

// ticked are the rows of the ticked checkboxes on the page.
func ticked(t *testing.T, s *driver.Session) []string {
	obs, err := s.Observe(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, e := range obs.Elements {
		if e.Role == "checkbox" && e.Checked != nil && *e.Checked {
			rows = append(rows, e.Row)
		}
	}
	return rows
}
