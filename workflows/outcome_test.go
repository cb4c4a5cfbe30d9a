package workflows_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"

	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// TestSuccessMeansVerified: a run ends success only when a check specific to the goal
// held and every step has evidence it worked; every step done with nothing to confirm the
// goal, or a step that changed nothing, is unverified, never success.
func TestSuccessMeansVerified(t *testing.T) {
	for _, c := range []struct {
		name      string
		goal      string
		unchanged bool // the click changed nothing visible
		validates bool
		want      workflows.Status
		verified  bool
		brief     string
	}{
		{"a closing check held", `click "A", then check that "Done" is visible`, false, true, workflows.StatusSuccess, true, "Done: "},
		{"no closing check", `click "A"`, false, true, workflows.StatusUnverified, false, "Done, not verified: "},
		{"a click that changed nothing", `click "A"`, true, true, workflows.StatusUnverified, false, "Done, not verified: "},
		// The closing check holds, but says nothing of the click that changed nothing.
		{"a click that changed nothing, then a check that held", `click "A", then check that "Done" is visible`, true, true, workflows.StatusUnverified, false, "Done, not verified: "},
		{"the final page does not hold", `click "A"`, false, false, workflows.StatusFailed, false, "Failed: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
				res := ok(in)
				if c.unchanged && in.Step.Action == plan.Click {
					res.OK, res.Unchanged = false, true
				}
				return res, nil
			}}
			env := newEnv(t, f)
			validates(env, c.validates)
			res := execute(t, env, workflows.GoalInput{Goal: c.goal, StartURL: startURL, Plan: steps(t, c.goal)})
			if res.Execution.Status != c.want || res.Validation.Verified != c.verified {
				t.Fatalf("status %s, verified %v; want %s, verified %v (validation %+v)", res.Execution.Status, res.Validation.Verified, c.want, c.verified, res.Validation)
			}
			if !strings.HasPrefix(res.Summary.Brief, c.brief) {
				t.Errorf("brief %q; want it to start %q", res.Summary.Brief, c.brief)
			}
			if c.want != workflows.StatusUnverified {
				return
			}
			warnings := strings.Join(res.Summary.Warnings, "\n")
			if !strings.Contains(warnings, "add a closing check") || !strings.Contains(res.Validation.Reason, "not verified") {
				t.Errorf("an unverified run should say what was not verified and how to fix it: warnings %q, reason %q", warnings, res.Validation.Reason)
			}
			if c.unchanged && (!res.Steps[0].Unverified || !strings.Contains(res.Summary.Brief, "changed nothing visible")) {
				t.Errorf("the step that changed nothing should be named: step %+v, brief %q", res.Steps[0], res.Summary.Brief)
			}
		})
	}
}

// TestReadBackVerifies: a goal that ends by reading a value is verified by the value read;
// a read that found nothing is not evidence.
func TestReadBackVerifies(t *testing.T) {
	for _, c := range []struct {
		read string
		want workflows.Status
	}{
		{"Male", workflows.StatusSuccess},
		{"", workflows.StatusUnverified},
	} {
		t.Run(string(c.want), func(t *testing.T) {
			f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
				res := ok(in)
				if in.Step.Action == plan.Extract {
					res.Extracted = map[string]any{in.Step.Into: c.read}
				}
				return res, nil
			}}
			env := newEnv(t, f)
			validates(env, true)
			res := execute(t, env, workflows.GoalInput{Goal: "read the gender", StartURL: startURL, Plan: []plan.Step{
				{Step: 1, Action: plan.Click, TargetDescription: "Profile"},
				{Step: 2, Action: plan.Extract, TargetDescription: "Gender", Into: "gender"},
			}})
			if res.Execution.Status != c.want {
				t.Fatalf("status %s; want %s (validation %+v)", res.Execution.Status, c.want, res.Validation)
			}
			if c.want == workflows.StatusSuccess && !strings.Contains(res.Validation.Reason, `gender = "Male"`) {
				t.Errorf("the reason should name the value read: %q", res.Validation.Reason)
			}
		})
	}
}

// TestSuiteUnverifiedIsNotAPass: a suite entry that expects success does not pass with an
// unverified run, and is not tried again (its steps are done: another try would do them
// twice); an entry may expect unverified.
func TestSuiteUnverifiedIsNotAPass(t *testing.T) {
	for _, c := range []struct {
		expect workflows.Status
		passed bool
	}{
		{workflows.StatusSuccess, false},
		{workflows.StatusUnverified, true},
	} {
		t.Run(string(c.expect), func(t *testing.T) {
			f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
			env := newEnv(t, f)
			env.RegisterWorkflowWithOptions(workflows.Suite, workflow.RegisterOptions{Name: workflows.SuiteWorkflowName})
			validates(env, true)
			in := workflows.SuiteInput{Entries: []workflows.SuiteEntry{{Goal: `click "A"`, StartURL: startURL,
				Expect: c.expect, OnFailure: workflows.OnFailureRetry, Retries: 2}}}
			env.ExecuteWorkflow(workflows.SuiteWorkflowName, in)
			if err := env.GetWorkflowError(); err != nil {
				t.Fatalf("suite: %v", err)
			}
			var res workflows.SuiteResult
			if err := env.GetWorkflowResult(&res); err != nil {
				t.Fatal(err)
			}
			e := res.Entries[0]
			if e.Status != workflows.StatusUnverified || e.Passed != c.passed || e.Attempts != 1 || len(f.calls) != 1 {
				t.Fatalf("entry %+v after %d clicks; want unverified, passed %v, one attempt, one click", e, len(f.calls), c.passed)
			}
		})
	}
}

// TestPartsUnverified: a goal written as parts is unverified when every part was done and
// one of them was not confirmed, and a success when each part was verified.
func TestPartsUnverified(t *testing.T) {
	for _, c := range []struct {
		goal string
		want workflows.Status
	}{
		{`In parallel: click "A"; click "B", then check that "B" is visible`, workflows.StatusUnverified},
		{`In parallel: click "A", then check that "A" is visible; click "B", then check that "B" is visible`, workflows.StatusSuccess},
	} {
		t.Run(string(c.want), func(t *testing.T) {
			f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
			env := newEnv(t, f)
			env.RegisterWorkflowWithOptions(workflows.Suite, workflow.RegisterOptions{Name: workflows.SuiteWorkflowName})
			validates(env, true)
			res := execute(t, env, workflows.GoalInput{Goal: c.goal, StartURL: startURL})
			if res.Execution.Status != c.want || len(res.Errors) != 0 || len(res.Steps) != 2 {
				t.Fatalf("status %s, %d steps, errors %+v; want %s and no errors", res.Execution.Status, len(res.Steps), res.Errors, c.want)
			}
			for _, s := range res.Steps {
				if s.Status != workflows.StepCompleted {
					t.Errorf("part %q: %s; want completed", s.Description, s.Status)
				}
			}
		})
	}
}

// TestShownFormVerifies: a goal that ends by taking a form, and states no check, is
// verified when the final page shows what the form was given outside every field (the
// browser says which, ValidateGoalResult.Shown): the workflow asks about the last form's
// values only, secrets and one-letter values left out, and only for a plan that ends with
// the clicks that take it.
func TestShownFormVerifies(t *testing.T) {
	for _, c := range []struct {
		name, goal string
		typed      []string // what the workflow should ask about
		shown      bool     // what the page answers
		want       workflows.Status
	}{
		{"the form's values shown", `click "Contacts", type "Fiona" into "First", type "x" into "Middle", type "Green" into "Last", click "Save"`,
			[]string{"Fiona", "Green"}, true, workflows.StatusSuccess},
		// A sign-in's user name is shown for as long as one is signed in: no evidence of
		// the clicks after it.
		{"a sign-in, then clicks", `type "alice@example.org" into "User", type "{{secret:pw}}" into "Password", click "Login", click "Budget", click "Mark", click "As flagged"`,
			nil, true, workflows.StatusUnverified},
		// A search's words on the page a run went on to from its results are no evidence
		// of the click there.
		{"a search, then clicks unchecked", `type "Apollo" into "Search", press "Enter", click "Apollo", click "Archive"`,
			nil, true, workflows.StatusUnverified},
		{"not shown", `click "Contacts", type "Fiona" into "First", click "Save"`, []string{"Fiona"}, false, workflows.StatusUnverified},
		{"a form before a later click and check", `type "Lunch moves" into "Text", click "Preview", check that "Lunch moves" is visible, click "Save Page"`,
			[]string{"Lunch moves"}, true, workflows.StatusSuccess},
		{"the plan does not end by taking it", `click "Save", type "Fiona" into "First"`, nil, false, workflows.StatusUnverified},
		{"only short values", `type "ab" into "First", click "Save"`, nil, false, workflows.StatusUnverified},
		// A new account's password is typed into a field that hides it: no page shows it,
		// and the rest of the form is the evidence.
		{"a password among the values", `click "Users", type "dave" into "Username", type "Harbour-7" into "New password", click "Create"`,
			[]string{"dave"}, true, workflows.StatusSuccess},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
				res := ok(in)
				if in.Step.TargetDescription == "New password" {
					res.Element = &activities.ElementRef{Role: "textbox", Name: "New password", Secret: true}
				}
				return res, nil
			}}
			env := newEnv(t, f)
			var asked []string
			env.OnActivity("ValidateGoal", mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.ValidateGoalInput) (activities.ValidateGoalResult, error) {
				asked = in.Typed
				res := activities.ValidateGoalResult{Success: true, Confidence: 0.6, Reason: "all steps completed", Final: activities.Snapshot{URL: startURL + "/final"}}
				if c.shown && len(in.Typed) > 0 {
					res.Shown = strings.Join(in.Typed, ", ")
				}
				return res, nil
			})
			res := execute(t, env, workflows.GoalInput{Goal: c.goal, StartURL: startURL, Plan: steps(t, c.goal)})
			if !slices.Equal(asked, c.typed) {
				t.Errorf("asked about %q; want %q", asked, c.typed)
			}
			if res.Execution.Status != c.want {
				t.Fatalf("status %s; want %s (validation %+v)", res.Execution.Status, c.want, res.Validation)
			}
			if c.want == workflows.StatusSuccess && !strings.Contains(res.Validation.Reason, "outside any field") {
				t.Errorf("the reason should say what was shown: %q", res.Validation.Reason)
			}
		})
	}
}
