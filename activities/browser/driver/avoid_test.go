package driver_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/plan"
)

// TestAvoidedElementIsNotActedOnAgain: an element an earlier attempt acted on and the run
// found wrong is not acted on again, whether the page's own search, a decision or a point names
// it: the attempt ends without acting and says which element it passed over.
func TestAvoidedElementIsNotActedOnAgain(t *testing.T) {
	ctx := t.Context()
	app := demoapp.New(demoapp.Project{Name: "Apollo", Priority: "Low"}, demoapp.Project{Name: "Zeus", Priority: "Low"})
	srv := httptest.NewServer(app)
	defer srv.Close()
	s, _, err := newPool(t).Open(ctx, "avoid", driver.OpenOptions{URL: srv.URL + "/projects"})
	if err != nil {
		t.Fatal(err)
	}
	step := plan.Step{Action: plan.Click, TargetDescription: `"Project actions" in the row "Zeus"`}
	var zeus *page.Element
	var obs page.Observation
	for deadline := time.Now().Add(5 * time.Second); zeus == nil && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		// The rows load after the page does.
		if obs, err = s.Observe(ctx); err != nil {
			t.Fatal(err)
		}
		for _, e := range obs.Elements {
			if e.Name == "Project actions" && strings.Contains(e.Row, "Zeus") {
				zeus = &e
			}
		}
	}
	if zeus == nil {
		t.Fatalf("no Project actions in the row Zeus:\n%s", obs.Compact())
	}
	for name, opts := range map[string]driver.DoOptions{
		"resolved": {WaitBudget: time.Second, Avoid: []page.Element{*zeus}},
		"decided":  {WaitBudget: time.Second, Avoid: []page.Element{*zeus}, Element: &zeus.Index, ElementWas: zeus},
		"pointed": {WaitBudget: time.Second, Avoid: []page.Element{*zeus},
			Point: &[2]float64{float64(zeus.Box.X + zeus.Box.W/2 - obs.ScrollX), float64(zeus.Box.Y + zeus.Box.H/2 - obs.ScrollY)}},
	} {
		out, err := s.Do(ctx, step, opts)
		if err != nil {
			t.Fatal(err)
		}
		if out.OK || out.Acted || out.Feedback == nil || out.Feedback.Type != plan.WrongElement || !strings.Contains(out.Feedback.Details, "not acted on again") {
			t.Errorf("%s: acted on an avoided element: %+v", name, out.Feedback)
		}
	}
	out, err := s.Do(ctx, step, driver.DoOptions{WaitBudget: time.Second})
	if err != nil || !out.OK || !out.Acted {
		t.Fatalf("without it to avoid, the same step acts: %v %+v", err, out.Feedback)
	}
}
