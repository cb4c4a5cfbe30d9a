package workflows_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser"
	"github.com/webagent-dev/webagent/activities/planning"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

const startURL = "http://app.test/projects"

// fakeBrowser answers RunStep from a script and records every call.
type fakeBrowser struct {
	mu     sync.Mutex
	calls  []activities.RunStepInput
	opens  []activities.OpenBrowserInput
	script func(in activities.RunStepInput, call int) (activities.RunStepResult, error)
	// intents are the attempts that recorded their intent to act, by "seq/attempt".
	intents map[string]bool
}

// intend records, as the browser step does right before it acts, that the attempt may act.
func (f *fakeBrowser) intend(in activities.RunStepInput) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.intents == nil {
		f.intents = map[string]bool{}
	}
	f.intents[fmt.Sprintf("%d/%d", in.Seq, in.Attempt)] = true
}

// intended answers Intended from what the attempts recorded.
func (f *fakeBrowser) intended(_ context.Context, in activities.IntendedInput) (activities.IntendedResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return activities.IntendedResult{Told: f.intents[fmt.Sprintf("%d/%d", in.Seq, in.Attempt)]}, nil
}

func (f *fakeBrowser) runStep(_ context.Context, in activities.RunStepInput) (activities.RunStepResult, error) {
	f.mu.Lock()
	f.calls = append(f.calls, in)
	n := len(f.calls)
	f.mu.Unlock()
	res, err := f.script(in, n)
	if err == nil && res.After.URL == "" {
		res.After.URL = startURL
	}
	return res, err
}

func (f *fakeBrowser) open(_ context.Context, in activities.OpenBrowserInput) (activities.OpenBrowserResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opens = append(f.opens, in)
	return activities.OpenBrowserResult{SessionID: in.SessionID, TaskQueue: fmt.Sprintf("browser-%d", len(f.opens)), URL: in.URL}, nil
}

func ok(in activities.RunStepInput) activities.RunStepResult {
	key := fmt.Sprintf("runs/x/steps/%03d-%d", in.Seq, in.Attempt)
	return activities.RunStepResult{OK: true, Acted: true, Actions: []string{in.Step.String()},
		Before: activities.Snapshot{URL: startURL, ScreenshotKey: key + "-before.png"},
		After:  activities.Snapshot{URL: startURL, ScreenshotKey: key + "-after.png"}, StorageStateKey: fmt.Sprintf("runs/x/state/%03d.json", in.Seq)}
}

func failed(fb plan.Feedback) activities.RunStepResult {
	return activities.RunStepResult{Feedback: &fb, After: activities.Snapshot{URL: startURL}}
}

// newEnv is a test environment with the workflow, the planner, f as the browser and the
// activities register puts in (before any mock: the test suite wants them first).
func newEnv(t *testing.T, f *fakeBrowser, register ...func(*testsuite.TestWorkflowEnvironment)) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(workflows.Goal, workflow.RegisterOptions{Name: workflows.GoalWorkflowName})
	p := &planning.Activities{}
	env.RegisterActivityWithOptions(p.PlanGoal, activity.RegisterOptions{Name: activities.PlanGoal.Name})
	env.RegisterActivityWithOptions(p.Replan, activity.RegisterOptions{Name: activities.Replan.Name})
	env.RegisterActivityWithOptions(f.open, activity.RegisterOptions{Name: activities.OpenBrowser.Name})
	env.RegisterActivityWithOptions(f.runStep, activity.RegisterOptions{Name: activities.RunStep.Name})
	env.RegisterActivityWithOptions(f.intended, activity.RegisterOptions{Name: activities.Intended.Name})
	b := &browser.Activities{}
	env.RegisterActivityWithOptions(b.ValidateGoal, activity.RegisterOptions{Name: activities.ValidateGoal.Name})
	env.RegisterActivityWithOptions(b.CloseBrowser, activity.RegisterOptions{Name: activities.CloseBrowser.Name})
	for _, r := range register {
		r(env)
	}
	env.OnActivity("CloseBrowser", mock.Anything, mock.Anything).Return(activities.CloseBrowserResult{}, nil)
	return env
}

func validates(env *testsuite.TestWorkflowEnvironment, success bool) {
	env.OnActivity("ValidateGoal", mock.Anything, mock.Anything).Return(activities.ValidateGoalResult{
		Success: success, Confidence: 0.9, Reason: map[bool]string{true: "checks hold", false: "Apollo is not on the page"}[success],
		Final: activities.Snapshot{URL: startURL + "/final"},
	}, nil)
}

func execute(t *testing.T, env *testsuite.TestWorkflowEnvironment, in workflows.GoalInput) workflows.GoalResult {
	t.Helper()
	env.ExecuteWorkflow(workflows.GoalWorkflowName, in)
	if !env.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	// A goal not achieved fails the execution, with the output in the failure's details.
	var res workflows.GoalResult
	err := env.GetWorkflowError()
	failed := err != nil
	if err := workflows.ResultOf(&res, err); err != nil {
		t.Fatalf("workflow error: %v", err)
	}
	if !failed {
		if err := env.GetWorkflowResult(&res); err != nil {
			t.Fatal(err)
		}
	}
	st := res.Execution.Status
	if want := st == workflows.StatusFailed || st == workflows.StatusPartial; failed != want {
		t.Errorf("a run that ended %s: execution failed %v, want %v", st, failed, want)
	}
	return res
}

func steps(t *testing.T, goal string) []plan.Step {
	t.Helper()
	s, err := plan.Parse(goal)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRetryCarriesFeedback(t *testing.T) {
	fb := plan.Feedback{Type: plan.WrongElement, Details: "clicked element 5, the search input is element 7", Suggestion: "click element 7"}
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		if in.Seq == 2 && in.Attempt == 1 {
			return failed(fb), nil
		}
		return ok(in), nil
	}}
	env := newEnv(t, f)
	validates(env, true)
	res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, `click "A", click "B", click "C", then check that "C" is visible`)})

	if res.Execution.Status != workflows.StatusSuccess || res.Execution.TotalRetries != 1 || res.Steps[1].Attempts != 2 {
		t.Fatalf("execution %+v, step 2 attempts %d", res.Execution, res.Steps[1].Attempts)
	}
	var second *activities.RunStepInput
	for i, c := range f.calls {
		if c.Seq == 2 && c.Attempt == 2 {
			second = &f.calls[i]
		}
	}
	if second == nil || len(second.Feedback) != 1 || second.Feedback[0].String() != fb.String() {
		t.Fatalf("the second attempt should carry the first one's feedback, got %+v", second)
	}
	if second.WaitBudget != f.calls[1].WaitBudget {
		t.Errorf("every attempt waits the same for its target (a missing one fails fast): %v then %v", f.calls[1].WaitBudget, second.WaitBudget)
	}
	if len(res.Steps[1].Feedback) != 1 || res.Steps[1].Evidence.AfterScreenshot == "" {
		t.Errorf("step 2 record: %+v", res.Steps[1])
	}
}

func TestReplanAfterAttemptsRunOut(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		if in.Step.TargetDescription == "Archive" && in.Purpose == activities.PurposeAttempt && in.Seq == 2 {
			return failed(plan.Feedback{Type: plan.NotVisible, Details: fmt.Sprintf("no Archive (attempt %d)", in.Attempt)}), nil
		}
		return ok(in), nil
	}}
	env := newEnv(t, f)
	validates(env, true)
	var got activities.ReplanInput
	newSteps := steps(t, `click "Project actions" in the row "Q4-bugs", click "Archive", check that "Archived" is visible`)
	env.OnActivity("Replan", mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.ReplanInput) (activities.ReplanResult, error) {
		got = in
		return activities.ReplanResult{Strategy: plan.StrategyAddSteps, Reason: "open the row menu first", Steps: newSteps}, nil
	}).Once()
	res := execute(t, env, workflows.GoalInput{Goal: "archive Q4-bugs", StartURL: startURL,
		Plan: steps(t, `click "Active", click "Archive", check that "Archived" is visible`)})

	if len(got.Feedback) != 3 || got.Failed.TargetDescription != "Archive" || len(got.Completed) != 1 || len(got.Remaining) != 1 {
		t.Fatalf("replan input: %+v", got)
	}
	if res.Execution.Status != workflows.StatusSuccess || res.Execution.Replans != 1 || res.Execution.StepsFailed != 1 || res.Execution.StepsCompleted != 4 {
		t.Fatalf("execution %+v", res.Execution)
	}
	var statuses []string
	for _, s := range res.Steps {
		statuses = append(statuses, string(s.Status))
	}
	if want := "completed replanned completed completed completed"; strings.Join(statuses, " ") != want {
		t.Errorf("statuses %v, want %s", statuses, want)
	}
	// The step before the failure ran once: replanning keeps completed steps.
	n := 0
	for _, c := range f.calls {
		if c.Seq == 1 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("step 1 ran %d times", n)
	}
}

func TestReplanAbortEndsPartial(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		if in.Seq == 2 {
			return failed(plan.Feedback{Type: plan.WrongElement, Details: "2 elements match"}), nil
		}
		return ok(in), nil
	}}
	env := newEnv(t, f)
	env.OnActivity("Replan", mock.Anything, mock.Anything).Return(activities.ReplanResult{Strategy: activities.StrategyAbort, Reason: "needs a model"}, nil)
	validates(env, false)
	res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, `click "A", click "B", click "C"`)})
	if res.Execution.Status != workflows.StatusPartial || res.Execution.StepsCompleted != 1 || res.Execution.StepsFailed != 1 || res.Execution.StepsSkipped != 1 {
		t.Fatalf("execution %+v", res.Execution)
	}
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "needs a model") || !strings.Contains(res.Errors[0].Message, "2 elements match") {
		t.Fatalf("errors %+v", res.Errors)
	}
}

func TestWorkerLossDoesNotRepeatCompletedSteps(t *testing.T) {
	lost := map[string]error{
		"heartbeat timeout": temporal.NewTimeoutError(enums.TIMEOUT_TYPE_HEARTBEAT, nil, activities.PhaseActing),
		"session lost":      temporal.NewNonRetryableApplicationError("no session", activities.ErrSessionLost, nil),
	}
	for name, lossErr := range lost {
		t.Run(name, func(t *testing.T) {
			// Step 2 creates something on the server; step 3 only types into a form.
			once := false
			f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
				if in.Seq == 4 && !once {
					once = true
					return activities.RunStepResult{}, lossErr
				}
				r := ok(in)
				if in.Seq == 2 {
					r.Mutated, r.After.URL = true, startURL+"/apollo"
				}
				return r, nil
			}}
			env := newEnv(t, f)
			validates(env, true)
			res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL,
				Plan: steps(t, `click "New", click "Create", type "x" into "Notes", click "Save", check that "Saved" is visible`)})

			if res.Execution.Status != workflows.StatusSuccess || res.Execution.BrowserRecoveries != 1 {
				t.Fatalf("execution %+v errors %+v", res.Execution, res.Errors)
			}
			if len(f.opens) != 2 || f.opens[1].URL != startURL+"/apollo" || f.opens[1].StorageStateKey != "runs/x/state/003.json" {
				t.Fatalf("the new browser should open where the last state-changing step left off, with the latest storage: %+v", f.opens)
			}
			if f.opens[0].SessionID == f.opens[1].SessionID {
				t.Error("the rebuilt browser needs a new session id")
			}
			var trail []string
			for _, c := range f.calls {
				trail = append(trail, fmt.Sprintf("%s%d", map[activities.Purpose]string{activities.PurposeAttempt: "", activities.PurposeRestore: "r"}[c.Purpose], c.Seq))
			}
			// 1, 2, 3 run once; 4 is lost; 3 (typing, after the create) is replayed to
			// restore the form; 4 is tried again; 5 runs.
			if want := "1 2 3 4 r3 4 5"; strings.Join(trail, " ") != want {
				t.Fatalf("calls %v, want %s", trail, want)
			}
			if res.Steps[3].Attempts != 1 {
				t.Errorf("a lost attempt should not count: step 4 attempts %d", res.Steps[3].Attempts)
			}
		})
	}
}

func TestFailedValidationFailsTheRun(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
	env := newEnv(t, f)
	validates(env, false)
	res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, `check that "Apollo" is visible, click "A"`)})
	if res.Execution.Status != workflows.StatusFailed || res.Validation.Success || res.Execution.StepsCompleted != 2 {
		t.Fatalf("execution %+v validation %+v", res.Execution, res.Validation)
	}
	if !strings.Contains(res.Summary.Brief, "Apollo is not on the page") {
		t.Errorf("the brief should say why: %q", res.Summary.Brief)
	}
}

// A plan that ends with its closing checks has validated itself when they held: the run
// does not look at the same page again.
func TestClosingChecksAreTheValidation(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
	env := newEnv(t, f)
	validated := false
	env.OnActivity("ValidateGoal", mock.Anything, mock.Anything).Return(func(context.Context, activities.ValidateGoalInput) (activities.ValidateGoalResult, error) {
		validated = true
		return activities.ValidateGoalResult{}, nil
	})
	res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, `click "A", check that "Apollo" is visible`)})
	if res.Execution.Status != workflows.StatusSuccess || !res.Validation.Verified || validated || res.Validation.FinalScreenshot == "" {
		t.Fatalf("validated again %v; execution %+v validation %+v", validated, res.Execution, res.Validation)
	}
}

func TestLimitsEndTheRunWithPartialOutput(t *testing.T) {
	t.Run("max steps", func(t *testing.T) {
		f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
		env := newEnv(t, f)
		validates(env, false)
		res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, `click "A", click "B", click "C", click "D"`),
			Limits: workflows.Limits{MaxSteps: 2}})
		if res.Execution.Status != workflows.StatusPartial || res.Execution.StepsCompleted != 2 || res.Execution.StepsSkipped != 2 {
			t.Fatalf("execution %+v", res.Execution)
		}
		if len(res.Errors) != 1 || res.Errors[0].Type != "limit" {
			t.Fatalf("errors %+v", res.Errors)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
		env := newEnv(t, f)
		validates(env, false)
		env.OnActivity("RunStep", mock.Anything, mock.Anything).After(40 * time.Second).Return(f.runStep)
		res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, `click "A", click "B", click "C", click "D"`),
			Limits: workflows.Limits{Deadline: time.Minute}})
		if res.Execution.Status != workflows.StatusPartial || res.Execution.StepsCompleted != 2 || res.Execution.StepsSkipped != 2 {
			t.Fatalf("execution %+v errors %+v", res.Execution, res.Errors)
		}
		if !strings.Contains(res.Errors[0].Message, "deadline") {
			t.Fatalf("errors %+v", res.Errors)
		}
	})
}

func TestBadInputFailsFast(t *testing.T) {
	f := &fakeBrowser{}
	env := newEnv(t, f)
	env.ExecuteWorkflow(workflows.GoalWorkflowName, workflows.GoalInput{Goal: " ", StartURL: "not a url"})
	err := env.GetWorkflowError()
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != workflows.ErrBadInput || !strings.Contains(ae.Error(), "goal is empty") || !strings.Contains(ae.Error(), "not an absolute") {
		t.Fatalf("want a BadInput error naming both problems, got %v", err)
	}
	if len(f.opens) != 0 {
		t.Error("nothing should start on bad input")
	}
}

func TestUnreadableGoalFailsWithTheReason(t *testing.T) {
	f := &fakeBrowser{}
	env := newEnv(t, f)
	res := execute(t, env, workflows.GoalInput{Goal: "Archive my Q4 bugs project", StartURL: startURL})
	if res.Execution.Status != workflows.StatusFailed || len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "GEMINI_API_KEY") {
		t.Fatalf("execution %+v errors %+v", res.Execution, res.Errors)
	}
	if len(f.calls) != 0 {
		t.Error("nothing should be done for a goal that cannot be planned")
	}
}

// Every bad input sent straight to the workflow (no starter to check it) ends the run at
// once, failed with the reason: none loops on a failing workflow task.
func TestBoundedInput(t *testing.T) {
	wait := []plan.Step{{Step: 1, Action: plan.Wait, Value: "99999999999999999999 minutes"}}
	tests := []struct {
		name string
		in   workflows.GoalInput
		want string
	}{
		{"over-long wait", workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: wait}, "longer than the 1h0m0s"},
		{"over-long goal", workflows.GoalInput{Goal: strings.Repeat("click \"A\", ", 3000), StartURL: startURL}, "at most 20000"},
		{"too many attempts", workflows.GoalInput{Goal: `click "A"`, StartURL: startURL, Limits: workflows.Limits{AttemptsPerStep: 1000}}, "limits.attemptsPerStep is 1000"},
		{"negative deadline", workflows.GoalInput{Goal: `click "A"`, StartURL: startURL, Limits: workflows.Limits{Deadline: -time.Second}}, "limits.deadline is -1s"},
		{"a secret given as a value", workflows.GoalInput{Goal: `type "{{secret:pw}}" into "Password"`, StartURL: startURL, Secrets: map[string]string{"pw": "hunter2"}}, `remove "secrets" from the input`},
		{"a secret the run says where to read", workflows.GoalInput{Goal: `type "{{secret:pw}}" into "Password"`, StartURL: startURL, Secrets: map[string]string{"pw": "env:MINIO_SECRET_KEY"}}, "the worker's operator grants secrets by name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeBrowser{}
			env := newEnv(t, f)
			env.ExecuteWorkflow(workflows.GoalWorkflowName, tt.in)
			var ae *temporal.ApplicationError
			if err := env.GetWorkflowError(); !errors.As(err, &ae) || ae.Type() != workflows.ErrBadInput || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want a BadInput error saying %q, got %v", tt.want, err)
			}
			if msg := env.GetWorkflowError().Error(); strings.Contains(msg, "hunter2") || strings.Contains(msg, "MINIO_SECRET_KEY") {
				t.Error("the error repeats what the run gave as a secret")
			}
			if len(f.opens) > 0 {
				t.Error("a browser was opened for a bad input")
			}
		})
	}
}

func TestNavigationOutsideTheRunsSitesIsRefused(t *testing.T) {
	for _, u := range []string{"file:///etc/passwd", "chrome://settings", "http://169.254.169.254/latest/meta-data/", "https://evil.example/"} {
		f := &fakeBrowser{}
		env := newEnv(t, f)
		env.ExecuteWorkflow(workflows.GoalWorkflowName, workflows.GoalInput{Goal: "g", StartURL: "https://www.example.com/",
			Plan: []plan.Step{{Step: 1, Action: plan.Navigate, URL: u}}})
		var ae *temporal.ApplicationError
		if err := env.GetWorkflowError(); !errors.As(err, &ae) || ae.Type() != workflows.ErrBadInput {
			t.Errorf("%s: want a BadInput error, got %v", u, err)
		}
	}
}

func TestModelBudgetEndsTheRun(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
	env := newEnv(t, f)
	validates(env, true)
	env.OnActivity("PlanGoal", mock.Anything, mock.Anything).Return(activities.PlanGoalResult{
		Planner: activities.PlannerModel, ModelAvailable: true, Steps: steps(t, `click "A", click "B"`),
		Usage: activities.Usage{Calls: 4, CostUSD: 0.02},
	}, nil)
	res := execute(t, env, workflows.GoalInput{Goal: "do A then B", StartURL: startURL, Limits: workflows.Limits{MaxModelCalls: 3}})
	if res.Execution.Status == workflows.StatusSuccess || len(f.calls) != 0 {
		t.Fatalf("status %s after %d steps: the budget was spent by planning", res.Execution.Status, len(f.calls))
	}
	if n := len(res.Errors); n == 0 || !strings.Contains(res.Errors[n-1].Message, "budget of 3 model calls") {
		t.Errorf("the run should say the budget was spent: %+v", res.Errors)
	}
}

// TestCopiedTextIsPasted: what an EXTRACT step read is the value of the {{copied}} a later
// step types, bound by the activity that types it; the output shows the value typed.
func TestCopiedTextIsPasted(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		res := ok(in)
		if in.Step.Action == plan.Extract {
			res.Extracted = map[string]any{in.Step.Into: "Lorem ipsum"}
		}
		return res, nil
	}}
	env := newEnv(t, f)
	validates(env, true)
	res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL,
		Plan: steps(t, `Copy the text in "Notes", paste it into "Reply" and press Submit`)})
	// Nothing checks that the reply was sent: done, not confirmed.
	if res.Execution.Status != workflows.StatusUnverified {
		t.Fatalf("execution %+v", res.Execution)
	}
	var typed *activities.RunStepInput
	for i := range f.calls {
		if f.calls[i].Step.Action == plan.Type {
			typed = &f.calls[i]
		}
	}
	if typed == nil || typed.Step.Value != "{{copied}}" || typed.Params["copied"] != "Lorem ipsum" {
		t.Fatalf("the TYPE should carry the copied text as its parameter: %+v", typed)
	}
	if got := res.Steps[1].Description; !strings.Contains(got, `"Lorem ipsum"`) {
		t.Errorf("the output should show the value typed: %q", got)
	}
}

// TestUnreadValueIsNeverAPlaceholder: when the copy fails, the paste never runs, and the
// output says in words what it would have typed, not "{{copied}}".
func TestUnreadValueIsNeverAPlaceholder(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		if in.Step.Action == plan.Extract {
			return failed(plan.Feedback{Type: plan.NotVisible, Details: "no visible element matches \"Notes\""}), nil
		}
		return ok(in), nil
	}}
	env := newEnv(t, f)
	validates(env, false)
	res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL,
		Plan: steps(t, `Copy the text in "Notes", paste it into "Reply" and press Submit`)})
	for _, s := range res.Steps {
		if strings.Contains(s.Description, "{{") {
			t.Errorf("step %d is reported with a placeholder: %q", s.Order, s.Description)
		}
	}
	if got := res.Steps[1].Description; got != `type "<what was read as copied>" into "Reply"` {
		t.Errorf("step 2 reads %q", got)
	}
}
