package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	agent "github.com/webagent-dev/webagent/client"
	"github.com/webagent-dev/webagent/workflows"
)

// TestRunAccount runs the demo goal and reads where its time went with `starter time`: the
// browser's opening and each step's attempt are timed by the worker part by part, the
// parts fit in the activity's own time, and the time between activities is what is left.
func TestRunAccount(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	out, errOut, code := s.starter(t, "run", "--json", "--url", s.appURL, demoGoal)
	if code != 0 {
		t.Fatalf("starter: exit %d\n%s\n%s", code, out, errOut)
	}
	var res workflows.GoalResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("the starter's JSON: %v\n%s", err, out)
	}
	text, errOut, code := s.starter(t, "time", res.Metadata.WorkflowID)
	if code != 0 {
		t.Fatalf("starter time: exit %d\n%s\n%s", code, text, errOut)
	}
	t.Logf("\n%s", text)
	for _, want := range []string{"OpenBrowser", "step 1 attempt 1: click", "steps: act", "steps: settle", "between activities", "total"} {
		if !strings.Contains(text, want) {
			t.Errorf("the account does not say %q", want)
		}
	}
	out, errOut, code = s.starter(t, "time", "--json", res.Metadata.WorkflowID)
	if code != 0 {
		t.Fatalf("starter time --json: exit %d\n%s\n%s", code, out, errOut)
	}
	var a agent.Account
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("the account's JSON: %v\n%s", err, out)
	}
	if a.Running || a.Total <= 0 || a.Between <= 0 || a.Between >= a.Total {
		t.Errorf("the run's total %v and the time between its activities %v", a.Total, a.Between)
	}
	steps, opened := 0, false
	for _, act := range a.Activities {
		switch act.Type {
		case activities.RunStep.Name:
			steps++
			if act.Step == nil {
				t.Errorf("%s: the worker's timings are missing", act.Summary)
				continue
			}
			// The parts are laps of one watch inside the activity: they never add up to
			// more than it ran.
			if parts := act.Step.Browser() + act.Step.Store; parts > act.Ran || act.Step.Act <= 0 || act.Step.Look <= 0 {
				t.Errorf("%s: parts %+v (%v) against %v run", act.Summary, *act.Step, parts, act.Ran)
			}
		case activities.OpenBrowser.Name:
			opened = act.Open != nil && act.Open.Load > 0 && act.Open.Load+act.Open.Context+act.Open.Wait <= act.Ran
			if !opened {
				t.Errorf("opening the browser: %+v against %v run", act.Open, act.Ran)
			}
		}
	}
	if steps != len(res.Steps) {
		t.Errorf("%d step attempts in the account, %d steps in the result", steps, len(res.Steps))
	}
	// A new run records one marker for all the workflow's changes (workflows/patches.go),
	// not one per change, each with a visibility write.
	markers := 0
	for _, e := range s.historyOf(t, workflow.Execution{ID: res.Metadata.WorkflowID}, "") {
		if m := e.GetMarkerRecordedEventAttributes(); m != nil && m.GetMarkerName() == "Version" {
			markers++
		}
	}
	if markers != 1 {
		t.Errorf("%d version markers in a new run's history, want 1", markers)
	}
	if _, _, code := s.starter(t, "time", "no-such-run"); code == 0 {
		t.Error("starter time on a run that does not exist should fail")
	}
}
