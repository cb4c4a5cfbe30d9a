package workflows_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// doubtGoal: step 3 ("Create") changes server state; step 4 is the check that shows it.
const doubtGoal = `click "New", type "x" into "Name", click "Create", check that "x" is visible`

// lostAfterActing is a browser whose first attempt at step 3 records its intent to act
// (the object the run asked for, or the signal of a run begun before those) and is then
// lost.
func lostAfterActing(env **testsuite.TestWorkflowEnvironment) *fakeBrowser {
	return lostAfterActingSaying(env, false)
}

// lostAfterActingSaying is lostAfterActing; signal makes the attempt signal whatever the
// run asked for, as a worker of the version before the intent object does.
func lostAfterActingSaying(env **testsuite.TestWorkflowEnvironment, signal bool) *fakeBrowser {
	lost := false
	f := &fakeBrowser{}
	f.script = func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		if in.Seq == 3 && !lost {
			lost = true
			if in.Intent && !signal {
				f.intend(in)
			} else {
				(*env).SignalWorkflow(activities.ActingSignal, activities.ActingNotice{Seq: in.Seq, Attempt: in.Attempt})
			}
			return activities.RunStepResult{}, temporal.NewTimeoutError(enums.TIMEOUT_TYPE_HEARTBEAT, nil, activities.PhaseActing)
		}
		r := ok(in)
		r.After.TextKey = "runs/x/steps/after.txt"
		return r, nil
	}
	return f
}

// effect answers ValidateGoal: the effect check (it has a baseline) says present; the
// closing validation succeeds.
func effect(env *testsuite.TestWorkflowEnvironment, present bool) *[]activities.ValidateGoalInput {
	var calls []activities.ValidateGoalInput
	env.OnActivity("ValidateGoal", mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.ValidateGoalInput) (activities.ValidateGoalResult, error) {
		calls = append(calls, in)
		if in.Baseline != "" {
			return activities.ValidateGoalResult{Success: present, Confidence: 0.9, Reason: "looked"}, nil
		}
		return activities.ValidateGoalResult{Success: true, Confidence: 0.9, Reason: "checks hold"}, nil
	})
	return &calls
}

func attemptsOf(f *fakeBrowser, seq int) int {
	n := 0
	for _, c := range f.calls {
		if c.Seq == seq && c.Purpose == activities.PurposeAttempt {
			n++
		}
	}
	return n
}

// The attempt said it may act, as a run's attempts do now (an object in the store), or as
// a worker of the version before does (a signal), and was lost: either way it is in doubt,
// and its effect, found on the page, makes it done without a second try.
func TestStepInDoubtFoundDone(t *testing.T) {
	for _, signal := range []bool{false, true} {
		t.Run(map[bool]string{false: "intent object", true: "signal of an older worker"}[signal], func(t *testing.T) {
			var env *testsuite.TestWorkflowEnvironment
			f := lostAfterActingSaying(&env, signal)
			env = newEnv(t, f)
			calls := effect(env, true)
			res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, doubtGoal)})
			if res.Execution.Status != workflows.StatusSuccess || !res.Validation.Verified {
				t.Fatalf("execution %+v validation %+v errors %v", res.Execution, res.Validation, res.Errors)
			}
			if n := attemptsOf(f, 3); n != 1 {
				t.Fatalf("the step in doubt was attempted %d times; its effect was on the page", n)
			}
			if !f.calls[2].Intent {
				t.Errorf("a new run's attempt should record its intent as an object: %+v", f.calls[2])
			}
			if (*calls)[0].Baseline != "runs/x/steps/after.txt" {
				t.Errorf("the effect check should compare with the page before the step: %+v", (*calls)[0])
			}
			if acts := strings.Join(res.Steps[2].Actions, "\n"); !strings.Contains(acts, "its effect is on the page, so it is done and not repeated") {
				t.Errorf("step 3 should say why it was not repeated:\n%s", acts)
			}
		})
	}
}

func TestStepInDoubtAsksAPerson(t *testing.T) {
	for _, tt := range []struct {
		decision string
		attempts int
		status   workflows.Status
	}{
		{"repeat", 2, workflows.StatusSuccess},
		{"done", 1, workflows.StatusSuccess},
		{"abort", 1, workflows.StatusPartial},
		{"", 1, workflows.StatusPartial}, // nobody answers
	} {
		t.Run(tt.decision, func(t *testing.T) {
			var env *testsuite.TestWorkflowEnvironment
			f := lostAfterActing(&env)
			env = newEnv(t, f)
			effect(env, false) // absent, and "Create" may have sent its request
			var rejected, accepted error
			if tt.decision != "" {
				env.RegisterDelayedCallback(func() {
					env.UpdateWorkflow(workflows.ResolveUpdate, "wrong", &testsuite.TestUpdateCallback{
						OnReject: func(err error) { rejected = err }, OnAccept: func() {}, OnComplete: func(any, error) {},
					}, workflows.Resolution{Step: 2, Decision: tt.decision, By: "ops"})
					env.UpdateWorkflow(workflows.ResolveUpdate, "right", &testsuite.TestUpdateCallback{
						OnReject: func(err error) { accepted = err }, OnAccept: func() {}, OnComplete: func(any, error) {},
					}, workflows.Resolution{Step: 3, Decision: tt.decision, By: "ops"})
				}, time.Minute)
			}
			res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, doubtGoal)})
			if res.Execution.Status != tt.status {
				t.Fatalf("status %s, want %s: %+v", res.Execution.Status, tt.status, res.Errors)
			}
			if n := attemptsOf(f, 3); n != tt.attempts {
				t.Errorf("step 3 attempted %d times, want %d", n, tt.attempts)
			}
			if tt.decision == "" {
				if len(res.Errors) == 0 || res.Errors[len(res.Errors)-1].Type != "in_doubt" {
					t.Errorf("the run should say the step is in doubt: %+v", res.Errors)
				}
				return
			}
			if rejected == nil || !strings.Contains(rejected.Error(), "step 3 is in doubt, not step 2") || accepted != nil {
				t.Errorf("the validator: wrong step %v; right step %v", rejected, accepted)
			}
			if len(f.opens) < 2 {
				t.Errorf("the browser should be released while the person decides and rebuilt after: %d opens", len(f.opens))
			}
		})
	}
}

// A check that already held before the step is no evidence that the step happened.
func TestEffectCheckNeedsABaseline(t *testing.T) {
	var env *testsuite.TestWorkflowEnvironment
	f := lostAfterActing(&env)
	env = newEnv(t, f)
	env.OnActivity("ValidateGoal", mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.ValidateGoalInput) (activities.ValidateGoalResult, error) {
		if in.Baseline != "" {
			return activities.ValidateGoalResult{Inconclusive: true, Reason: `"x" held on the page before the step as well`}, nil
		}
		return activities.ValidateGoalResult{Success: true, Confidence: 0.9}, nil
	})
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(workflows.ResolveUpdate, "u", &testsuite.TestUpdateCallback{OnReject: func(error) {}, OnAccept: func() {}, OnComplete: func(any, error) {}},
			workflows.Resolution{Step: 3, Decision: "done", By: "ops"})
	}, time.Minute)
	res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, doubtGoal)})
	if res.Execution.Status != workflows.StatusSuccess || attemptsOf(f, 3) != 1 {
		t.Fatalf("status %s, %d attempts", res.Execution.Status, attemptsOf(f, 3))
	}
	if acts := strings.Join(res.Steps[2].Actions, "\n"); !strings.Contains(acts, `ops answered "done"`) {
		t.Errorf("an inconclusive check must go to a person:\n%s", acts)
	}
}

// TestActedInPartIsNotRedone: a step on every element so named that clicked some and then
// failed is settled as a step that may have acted — its effect looked for, found, and the
// step done — never attempted again whole.
func TestActedInPartIsNotRedone(t *testing.T) {
	var f *fakeBrowser
	f = &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		r := ok(in)
		r.After.TextKey = "runs/x/steps/after.txt"
		if in.Seq == 3 && attemptsOf(f, 3) == 1 {
			r.OK, r.Acted, r.ActedInPart = false, true, true
			r.Feedback = &plan.Feedback{Type: plan.NotVisible, Details: "the 2nd of 3 is gone"}
		}
		return r, nil
	}}
	env := newEnv(t, f)
	effect(env, true)
	res := execute(t, env, workflows.GoalInput{Goal: "g", StartURL: startURL, Plan: steps(t, doubtGoal)})
	if n := attemptsOf(f, 3); n != 1 {
		t.Fatalf("the step done in part was attempted %d times", n)
	}
	if res.Execution.Status != workflows.StatusSuccess {
		t.Fatalf("execution %+v errors %v", res.Execution, res.Errors)
	}
	if acts := strings.Join(res.Steps[2].Actions, "\n"); !strings.Contains(acts, "acted on some of the elements") || !strings.Contains(acts, "not repeated") {
		t.Errorf("step 3 should say it acted in part and was not repeated:\n%s", acts)
	}
}
