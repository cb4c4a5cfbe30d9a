package driver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/plan"
)

// TestSortList sorts the lab's list of numbers, a list reordered with the browser's drag
// and drop, by dragging its items one at a time, in either order, and reads the order the
// page saved; on a page with two lists of numbers the sort is refused and nothing is
// dragged; a list that stops taking drops after the first ends the sort there, acted in
// part.
func TestSortList(t *testing.T) {
	pool := newPool(t)
	for _, tt := range []struct {
		name, page, order, want, why string
	}{
		{"increasing", "sortlist.html", "increasing", `"numbers":[-7,3,15,42,108]`, ""},
		{"decreasing", "sortlist.html", "decreasing", `"numbers":[108,42,15,3,-7]`, ""},
		{"two lists", "sortlist.html?lists=2", "increasing", "", "2 lists whose items each show one number"},
		{"stuck after one drag", "sortlist.html?stuck=1", "increasing", `"numbers":[-7,42,15,3,108]`, "the list did not change"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, app := openLab(t, pool, tt.name, tt.page)
			step := plan.Step{Action: plan.Drag, TargetDescription: plan.NumberList, Move: &plan.Move{Sort: tt.order}}
			out, err := s.Do(t.Context(), step.WithTarget(), driver.DoOptions{WaitBudget: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%q", out.Actions)
			if tt.why != "" && tt.want != "" {
				// It dragged once, then the list stopped taking drops: done in part,
				// never to be redone whole.
				if out.OK || !out.ActedInPart || out.Feedback == nil || !strings.Contains(out.Feedback.Details, tt.why) {
					t.Fatalf("want a failure in part (%q); got OK %v, in part %v, %+v", tt.why, out.OK, out.ActedInPart, out.Feedback)
				}
				t.Log(out.Feedback.Details)
				if got := string(app.LabState("sortlist")); !strings.Contains(got, tt.want) {
					t.Errorf("the page saved %s; want %s in it", got, tt.want)
				}
				return
			}
			if tt.why != "" {
				if out.OK || out.Acted || out.Feedback == nil || !strings.Contains(out.Feedback.Details, tt.why) {
					t.Fatalf("want it refused (%q) without acting; got OK %v, acted %v, %+v", tt.why, out.OK, out.Acted, out.Feedback)
				}
				if got := app.LabState("sortlist"); got != nil {
					t.Errorf("the page saved %s: something was dragged", got)
				}
				return
			}
			if !out.OK {
				t.Fatalf("%+v (actions %q)", out.Feedback, out.Actions)
			}
			if got := labSaved(app, "sortlist", holds(tt.want)); !strings.Contains(got, tt.want) {
				t.Errorf("the page saved %s; want %s in it", got, tt.want)
			}
			if !strings.Contains(strings.Join(out.Actions, "; "), " drag") {
				t.Errorf("the step's notes do not say how many drags it took: %q", out.Actions)
			}
		})
	}
}
