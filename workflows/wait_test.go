package workflows_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// sendUpdate sends an Update the test expects to be accepted.
func sendUpdate(t *testing.T, env *testsuite.TestWorkflowEnvironment, name string, arg any) {
	t.Helper()
	env.UpdateWorkflow(name, name+"-"+time.Now().Format("150405.000000000"), &testsuite.TestUpdateCallback{
		OnReject: func(err error) { t.Errorf("the %s Update was refused: %v", name, err) }, OnAccept: func() {}, OnComplete: func(any, error) {},
	}, arg)
}

// sentRequest is a browser whose first attempt at step 3 sends a state-changing request
// and then fails its check: in doubt, with nothing on the page to tell.
func sentRequest() *fakeBrowser {
	return &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		if in.Seq == 3 && in.Attempt == 1 && in.Purpose == activities.PurposeAttempt {
			r := failed(plan.Feedback{Type: plan.PageState, Details: `the value is "Merc", not "Mercury"`})
			r.Acted, r.Mutated = true, true
			return r, nil
		}
		return ok(in), nil
	}}
}

// alwaysFails is a browser whose step 2 never works.
func alwaysFails() *fakeBrowser {
	return &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		if in.Seq == 2 {
			return failed(plan.Feedback{Type: plan.NotVisible, Details: "no such field"}), nil
		}
		return ok(in), nil
	}}
}

// waitCase is one of the waits for a person, set up in a fresh environment; the run is
// at the wait one minute in.
type waitCase struct {
	name  string
	setup func(t *testing.T) (*testsuite.TestWorkflowEnvironment, *fakeBrowser, workflows.GoalInput)
}

var hour = workflows.Limits{ApprovalTimeout: time.Hour, HintTimeout: time.Hour, AttemptsPerStep: 1, Replans: 0}

func waitCases() []waitCase {
	return []waitCase{
		{"approval", func(t *testing.T) (*testsuite.TestWorkflowEnvironment, *fakeBrowser, workflows.GoalInput) {
			f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
			env := newEnv(t, f)
			validates(env, true)
			p := steps(t, doubtGoal)
			p[2].RequiresApproval = true
			return env, f, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: p, Limits: hour}
		}},
		{"doubt", func(t *testing.T) (*testsuite.TestWorkflowEnvironment, *fakeBrowser, workflows.GoalInput) {
			f := sentRequest()
			env := newEnv(t, f)
			effect(env, false)
			return env, f, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, doubtGoal), Limits: hour}
		}},
		{"hint", func(t *testing.T) (*testsuite.TestWorkflowEnvironment, *fakeBrowser, workflows.GoalInput) {
			f := alwaysFails()
			env := newEnv(t, f)
			validates(env, true)
			return env, f, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, doubtGoal), Limits: hour}
		}},
		{"pause", func(t *testing.T) (*testsuite.TestWorkflowEnvironment, *fakeBrowser, workflows.GoalInput) {
			// The run waits for an approval of step 1; a person pauses it and approves:
			// step 1 is done and the run waits, paused, before step 2.
			f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
			env := newEnv(t, f)
			validates(env, true)
			p := steps(t, doubtGoal)
			p[0].RequiresApproval = true
			env.RegisterDelayedCallback(func() {
				sendUpdate(t, env, workflows.PauseUpdate, workflows.Control{By: "lead"})
				sendUpdate(t, env, workflows.ApproveUpdate, workflows.Approval{Step: 1, Approve: true, By: "lead"})
			}, 30*time.Second)
			return env, f, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: p, Limits: hour}
		}},
	}
}

// TestCancelEndsEveryWait: a cancel sent while the run waits for a person — for an
// approval, an answer to a step in doubt, a hint, or to be resumed — ends the run at once,
// partial, naming who cancelled it. (The model's confirmation is the fifth wait: the
// end-to-end test TestComputerUseWaitsForApproval cancels it.)
func TestCancelEndsEveryWait(t *testing.T) {
	for _, c := range waitCases() {
		t.Run(c.name, func(t *testing.T) {
			env, _, in := c.setup(t)
			env.RegisterDelayedCallback(func() {
				sendUpdate(t, env, workflows.CancelUpdate, workflows.Control{By: "ops", Note: "not today"})
			}, time.Minute)
			res := execute(t, env, in)
			if res.Execution.Status != workflows.StatusPartial {
				t.Errorf("status %s, want partial: %+v", res.Execution.Status, res.Errors)
			}
			if took := time.Duration(res.Metadata.DurationMs) * time.Millisecond; took > 2*time.Minute {
				t.Errorf("the run ended %s in, long after the cancel a minute in", took)
			}
			n := len(res.Errors)
			if n == 0 || res.Errors[n-1].Type != "cancelled" || !strings.Contains(res.Errors[n-1].Message, "ops cancelled the run") || !strings.Contains(res.Errors[n-1].Message, "not today") {
				t.Errorf("the run should say who cancelled it: %+v", res.Errors)
			}
		})
	}
}

// TestEveryWaitReleasesTheBrowser: while a person is asked, the run holds no browser; it
// opens one again to go on, and that is not a lost worker.
func TestEveryWaitReleasesTheBrowser(t *testing.T) {
	for _, c := range waitCases() {
		t.Run(c.name, func(t *testing.T) {
			env, f, in := c.setup(t)
			closes := 0
			env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
				if info.ActivityType.Name == activities.CloseBrowser.Name {
					closes++
				}
			})
			var opensAtWait, closesAtWait int
			env.RegisterDelayedCallback(func() {
				opensAtWait, closesAtWait = len(f.opens), closes
				answer(t, env, c.name)
			}, time.Minute)
			res := execute(t, env, in)
			if opensAtWait-closesAtWait != 0 {
				t.Errorf("while it waited the run had opened %d browsers and closed %d: it should hold none", opensAtWait, closesAtWait)
			}
			if len(f.opens) < 2 {
				t.Errorf("the run should open a browser again to go on: %d opens", len(f.opens))
			}
			if n := res.Execution.BrowserRecoveries; n != 0 {
				t.Errorf("a person's answer counted as %d browser recoveries", n)
			}
			for _, w := range res.Summary.Warnings {
				if strings.Contains(w, "lost") {
					t.Errorf("a person's answer is not a lost worker: %q", w)
				}
			}
		})
	}
}

// answer answers the wait of the named case as a person would.
func answer(t *testing.T, env *testsuite.TestWorkflowEnvironment, wait string) {
	switch wait {
	case "approval":
		sendUpdate(t, env, workflows.ApproveUpdate, workflows.Approval{Step: 3, Approve: true, By: "ops"})
	case "doubt":
		sendUpdate(t, env, workflows.ResolveUpdate, workflows.Resolution{Step: 3, Decision: "done", By: "ops"})
	case "hint":
		sendUpdate(t, env, workflows.HintUpdate, workflows.Hint{Text: `click "New"`, By: "ops"})
	case "pause":
		sendUpdate(t, env, workflows.ResumeUpdate, workflows.Control{By: "ops"})
	}
}

// TestUnattendedWaitsForNobody: an unattended run never waits for a person; the step that
// would have waited fails and says what it would have asked. A pause is still honoured.
func TestUnattendedWaitsForNobody(t *testing.T) {
	for _, c := range waitCases() {
		if c.name == "pause" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			env, f, in := c.setup(t)
			in.Unattended = true
			res := execute(t, env, in)
			if took := time.Duration(res.Metadata.DurationMs) * time.Millisecond; took > time.Minute {
				t.Errorf("the unattended run waited %s", took)
			}
			if res.Execution.Status == workflows.StatusSuccess || res.Execution.StepsFailed != 1 {
				t.Errorf("execution %+v: the step that would have waited should fail", res.Execution)
			}
			n := len(res.Errors)
			if n == 0 {
				t.Fatal("no error says why the step failed")
			}
			last := res.Errors[n-1]
			switch c.name {
			case "hint":
				// Nobody is asked for a hint: the step fails with its own reason.
				if last.Type == "no_hint" || last.Type == "unattended" {
					t.Errorf("an unattended run should not ask for a hint: %+v", last)
				}
			default:
				if last.Type != "unattended" || !strings.Contains(last.Message, "unattended") || !strings.Contains(last.Message, "step 3") {
					t.Errorf("the error should say the step needed a person and the run is unattended: %+v", last)
				}
				if c.name == "approval" && attemptsOf(f, 3) != 0 {
					t.Errorf("the step that needed approval was attempted %d times", attemptsOf(f, 3))
				}
			}
		})
	}
}

// TestFeedbacklessFailureFailsTheStep: a step result that failed without saying why fails
// that attempt, not the workflow task.
func TestFeedbacklessFailureFailsTheStep(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		if in.Seq == 2 {
			return activities.RunStepResult{After: activities.Snapshot{URL: startURL}}, nil
		}
		return ok(in), nil
	}}
	env := newEnv(t, f)
	validates(env, false)
	env.OnActivity("Replan", mock.Anything, mock.Anything).Return(activities.ReplanResult{Strategy: activities.StrategyAbort, Reason: "no other way"}, nil)
	res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, doubtGoal), Limits: workflows.Limits{AttemptsPerStep: 2}})
	if res.Execution.StepsFailed != 1 || res.Steps[1].Attempts != 2 {
		t.Fatalf("execution %+v, step 2 attempts %d", res.Execution, res.Steps[1].Attempts)
	}
	if fb := res.Steps[1].Feedback; len(fb) == 0 || !strings.Contains(fb[0].Details, "said nothing about why") {
		t.Errorf("the step's feedback should say the attempt failed without a reason: %+v", fb)
	}
}
