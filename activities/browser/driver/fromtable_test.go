package driver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/plan"
)

// TestFillFromTable fills each labelled field of the lab's lookup form with its label's
// value in the page's table (a trailing colon and case aside) and submits it; a field whose
// label is in no row, or in two, is refused before anything is typed.
func TestFillFromTable(t *testing.T) {
	pool := newPool(t)
	steps, err := plan.Parse("Enter the value that corresponds with each label into the form and submit when done.")
	if err != nil || len(steps) != 2 {
		t.Fatalf("%v %v", steps, err)
	}
	steps = plan.WithTargets(steps)
	t.Run("each field from its row", func(t *testing.T) {
		s, app := openLab(t, pool, "fills", "lookup.html")
		for _, step := range steps {
			out, err := s.Do(t.Context(), step, driver.DoOptions{WaitBudget: 2 * time.Second})
			if err != nil || !out.OK {
				t.Fatalf("%s: %v %+v (actions %q)", step, err, out.Feedback, out.Actions)
			}
			t.Logf("%s: %q", step, out.Actions)
		}
		want := `{"year":"1987","color":"Red"}`
		if got := labSaved(app, "lookup", func(got string) bool { return got == want }); got != want {
			t.Errorf("the form sent %s; want %s", got, want)
		}
	})
	for _, tt := range []struct{ name, page, why string }{
		{"a label in no row", "lookup.html?missing", `"Religion:" has no row`},
		{"a label in two rows", "lookup.html?twice", `"Color:" has 2 rows`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openLab(t, pool, tt.name, tt.page)
			out, err := s.Do(t.Context(), steps[0], driver.DoOptions{WaitBudget: time.Second})
			if err != nil || out.OK || out.Acted || out.Feedback == nil || !strings.Contains(out.Feedback.Details, tt.why) {
				t.Fatalf("want a refusal saying %q, nothing typed: %v %+v (actions %q)", tt.why, err, out.Feedback, out.Actions)
			}
			year, err := s.Do(t.Context(), plan.Step{Action: plan.Extract, TargetDescription: "Year of birth", Into: "y"}.WithTarget(), driver.DoOptions{WaitBudget: time.Second})
			if err != nil || year.Extracted["y"] != "" {
				t.Errorf("the first field holds %v (%v)", year.Extracted, err)
			}
		})
	}
}
