package workflows_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// The test environment's own IDs, which the lease names its sessions after.
const (
	testWorkflowID = "default-test-workflow-id"
	testRunID      = "default-test-run-id"
)

// started records the activities a test run starts.
func started(env *testsuite.TestWorkflowEnvironment) func() []string {
	var mu sync.Mutex
	var names []string
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		mu.Lock()
		defer mu.Unlock()
		names = append(names, info.ActivityType.Name)
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), names...)
	}
}

// carried is a state a run could hand over, naming browser session sid.
func carried(sid string) *workflows.Carry {
	return &workflows.Carry{
		Next:    0,
		Steps:   []workflows.StepRecord{{Order: 1, Step: plan.Step{Step: 1, Action: plan.Extract, Into: "notes"}, Status: workflows.StepPending}},
		Session: activities.OpenBrowserResult{SessionID: sid, TaskQueue: "browser-victim"},
	}
}

// A carried state is the run's own or nothing: one a caller sends (the run was not begun
// by its workflow's continue-as-new), one naming another workflow's browser, or one with
// steps no plan could hold is refused before anything runs — no browser opened, used or
// closed.
func TestContinuedIsOnlyTheRunsOwn(t *testing.T) {
	tests := []struct {
		name      string
		continued bool // begun by a continue-as-new
		carry     *workflows.Carry
		want      string
	}{
		{"sent by a caller, naming another run's browser", false, carried("victim-goal/5f1c/1"), "continued is set only by a run's own continue-as-new; start a goal without it"},
		{"sent by a caller, naming the workflow's own browser", false, carried(testWorkflowID + "/" + testRunID + "/1"), "continued is set only by a run's own continue-as-new"},
		{"another workflow's browser", true, carried("victim-goal/5f1c/1"), "is not a browser of this workflow"},
		{"a workflow whose ID starts like this one's", true, carried(testWorkflowID + "/x/5f1c/1"), "is not a browser of this workflow"},
		{"a step no plan could hold", true, func() *workflows.Carry {
			c := carried(testWorkflowID + "/prev/1")
			c.Steps[0].Step = plan.Step{Step: 1, Action: "EXFILTRATE"}
			return c
		}(), "continued.steps: step 1: unknown action"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
			env := newEnv(t, f)
			ran := started(env)
			if tt.continued {
				env.SetContinuedExecutionRunID("prev")
			}
			env.ExecuteWorkflow(workflows.GoalWorkflowName, workflows.GoalInput{Goal: "read the notes", StartURL: startURL, Continued: tt.carry})
			var ae *temporal.ApplicationError
			err := env.GetWorkflowError()
			if !errors.As(err, &ae) || ae.Type() != workflows.ErrBadInput || !strings.Contains(ae.Error(), tt.want) {
				t.Fatalf("want a BadInput error saying %q, got %v", tt.want, err)
			}
			if names := ran(); len(names) > 0 || len(f.calls) > 0 || len(f.opens) > 0 {
				t.Errorf("a refused run started activities: %v", names)
			}
		})
	}
	// A caller checking its input before it starts a run hears the same.
	in := workflows.GoalInput{Goal: "read the notes", StartURL: startURL, Continued: carried("victim-goal/5f1c/1")}
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "continued is set only by a run's own continue-as-new") {
		t.Errorf("Validate: %v", err)
	}
}

// A run that continues as new hands its state to the next run of its workflow, which goes
// on from the next step with the same browser: nothing opened again, no step run twice.
func TestContinueAsNewCarriesOn(t *testing.T) {
	script := func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }
	first := &fakeBrowser{script: script}
	env := newEnv(t, first)
	validates(env, true)
	env.ExecuteWorkflow(workflows.GoalWorkflowName, workflows.GoalInput{Goal: "g", StartURL: startURL,
		Plan: steps(t, `click "A", click "B", click "C", then check that "C" is visible`), Limits: workflows.Limits{StepsPerRun: 2}})
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("the first run should continue as new after 2 steps, got %v", err)
	}
	if len(first.calls) != 2 || len(first.opens) != 1 {
		t.Fatalf("the first run made %d step calls and %d opens", len(first.calls), len(first.opens))
	}
	var next workflows.GoalInput
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	if next.Continued == nil || next.Continued.Next != 2 || next.Continued.Session.SessionID != testWorkflowID+"/"+testRunID+"/1" {
		t.Fatalf("carried %+v", next.Continued)
	}

	second := &fakeBrowser{script: script}
	env = newEnv(t, second)
	validates(env, true)
	env.SetContinuedExecutionRunID(testRunID)
	res := execute(t, env, next)
	if res.Execution.Status != workflows.StatusSuccess || res.Execution.Continuations != 1 || res.Execution.StepsCompleted != 4 {
		t.Fatalf("execution %+v errors %+v", res.Execution, res.Errors)
	}
	if len(second.opens) != 0 {
		t.Errorf("the continued run opened %d browsers; it goes on with the one it was handed", len(second.opens))
	}
	var seqs []int
	for _, c := range second.calls {
		seqs = append(seqs, c.Seq)
		if c.SessionID != next.Continued.Session.SessionID {
			t.Errorf("step %d went to session %q", c.Seq, c.SessionID)
		}
	}
	if len(seqs) != 2 || seqs[0] != 3 || seqs[1] != 4 {
		t.Errorf("the continued run ran steps %v, want [3 4]", seqs)
	}
}

// A run that continued as new keeps its evidence and its saved cookies and storage in the
// folder of the run it continues, and its browser's last close deletes that folder's state,
// not a folder of its own that nothing was saved in.
func TestContinuedRunClosesInItsFolder(t *testing.T) {
	const firstRun = "first-run-id"
	c := carried(testWorkflowID + "/" + firstRun + "/1")
	c.Result.Metadata = workflows.Metadata{WorkflowID: testWorkflowID, RunID: firstRun}
	c.Steps[0].Step = plan.Step{Step: 1, Action: plan.Click, TargetDescription: "Save"}
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
	env := newEnv(t, f)
	c.Started = env.Now()
	validates(env, true)
	var mu sync.Mutex
	var closes []activities.CloseBrowserInput
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, args converter.EncodedValues) {
		if info.ActivityType.Name != activities.CloseBrowser.Name {
			return
		}
		var in activities.CloseBrowserInput
		if err := args.Get(&in); err != nil {
			t.Error(err)
		}
		mu.Lock()
		defer mu.Unlock()
		closes = append(closes, in)
	})
	env.SetContinuedExecutionRunID(firstRun)
	execute(t, env, workflows.GoalInput{Goal: "read the notes", StartURL: startURL, Continued: c})
	want := activities.RunPrefix(testWorkflowID, firstRun)
	if len(f.calls) != 1 || f.calls[0].KeyPrefix != want {
		t.Fatalf("the step ran %d times, saving under %+v; want once, under %q", len(f.calls), f.calls, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if n := len(closes); n == 0 || !closes[n-1].Final || closes[n-1].KeyPrefix != want {
		t.Errorf("the browser's closes %+v; the last should be final, in %q", closes, want)
	}
}
