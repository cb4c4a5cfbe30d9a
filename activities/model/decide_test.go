package model

import (
	"strings"
	"testing"

	"go.temporal.io/sdk/testsuite"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/geminitest"
	"github.com/webagent-dev/webagent/plan"
)

// decide runs DecideTarget as an activity, for the step with the model's answer.
func decide(t *testing.T, answer geminitest.Reply, computerUse bool, avoid ...activities.ElementRef) (activities.DecideResult, *geminitest.Server) {
	t.Helper()
	a, s, _, snap := newActivities(t, func(geminitest.Call, int) geminitest.Reply { return answer })
	a.Client.cfg.ComputerUse = computerUse
	var ts testsuite.WorkflowTestSuite
	env := ts.NewTestActivityEnvironment()
	env.RegisterActivity(a.DecideTarget)
	step := plan.Step{Step: 2, Action: plan.Click, TargetDescription: `the "Project actions" button in the row "Q4-bugs"`}
	v, err := env.ExecuteActivity(a.DecideTarget, activities.DecideInput{Goal: "Archive Q4-bugs", Step: step, Attempt: 1, Page: snap, Avoid: avoid})
	if err != nil {
		t.Fatal(err)
	}
	var res activities.DecideResult
	if err := v.Get(&res); err != nil {
		t.Fatal(err)
	}
	return res, s
}

func element(n int) geminitest.Reply {
	return geminitest.Reply{JSON: map[string]any{"reason": "the row's menu", "action": "element", "element": n, "confidence": 0.9}}
}

// TestDecisionsAreHeldToTheStep checks a pick that contradicts a part of the step, or
// that an earlier attempt found wrong, comes back as a WrongElement failure that names the
// part and the elements that hold every part, never as a decision to act on.
func TestDecisionsAreHeldToTheStep(t *testing.T) {
	q4 := activities.ElementRef{Index: 2, Role: "button", Name: "Project actions", Row: "Q4-bugs 3 open"}
	tests := []struct {
		name   string
		answer geminitest.Reply
		cu     bool
		avoid  []activities.ElementRef
		says   string // "" for a decision that holds
		cands  string
	}{
		{"the row's own button holds", element(2), false, nil, "", ""},
		{"another row's button is refused", element(1), false, nil,
			`the model chose #1 button "Project actions" in the row "Website relaunch 12 open", but the step names the row "Q4-bugs"`, `#2 button "Project actions"`},
		{"a link is not a button", element(3), false, nil, "the step names a button", `#2 button "Project actions"`},
		{"an element found wrong before is refused", element(2), false, []activities.ElementRef{q4}, "an earlier attempt acted on that element and found it wrong", ""},
		{"a point on another row's button is refused", geminitest.Reply{JSON: map[string]any{"reason": "r", "action": "coordinates", "x": 915, "y": 115, "confidence": 0.6}}, false, nil,
			`but the step names the row "Q4-bugs"`, `#2 button`},
		{"a point on the row's button holds", geminitest.Reply{JSON: map[string]any{"reason": "r", "action": "coordinates", "x": 915, "y": 155, "confidence": 0.6}}, false, nil, "", ""},
		{"the computer-use tool's point is held too", geminitest.Reply{Call: &geminitest.FunctionCall{Name: "click_at", Args: map[string]any{"x": 715, "y": 144}}}, true, nil,
			`the model chose #1 button "Project actions" in the row "Website relaunch 12 open"`, `#2 button`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, s := decide(t, tt.answer, tt.cu, tt.avoid...)
			if n := len(s.Calls("")); res.Usage.Calls != n {
				t.Errorf("usage counts %d call(s); the stand-in received %d", res.Usage.Calls, n)
			}
			if tt.says == "" {
				if res.Decision == nil || res.Failure != nil {
					t.Fatalf("want a decision, got failure %+v", res.Failure)
				}
				return
			}
			f := res.Failure
			if res.Decision != nil || f == nil || f.Type != plan.WrongElement || !strings.Contains(f.Details, tt.says) ||
				!strings.Contains(strings.Join(f.Candidates, "; "), tt.cands) {
				t.Fatalf("want a wrong_element refusal saying %q with candidates %q, got decision %+v failure %+v", tt.says, tt.cands, res.Decision, f)
			}
		})
	}
}
