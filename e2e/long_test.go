package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// longPlan is 60 steps on the lab's settings page: a name typed, and every tenth step
// the page opened afresh (a checkpoint a rebuilt browser starts from). Step 46 waits a
// few seconds, so that the worker is killed while the run is still on it however slowly
// a loaded machine answers the test's queries.
func longPlan(n int) []plan.Step {
	steps := make([]plan.Step, 0, n)
	for k := 1; k <= n; k++ {
		if k == 46 {
			steps = append(steps, plan.Step{Step: k, Action: plan.Wait, Wait: 5 * time.Second})
			continue
		}
		if k%10 == 0 {
			steps = append(steps, plan.Step{Step: k, Action: plan.Navigate, URL: fmt.Sprintf("/static/lab/settings.html?page=%d", k)})
			continue
		}
		steps = append(steps, plan.Step{Step: k, Action: plan.Type, TargetDescription: "Display name", Value: fmt.Sprintf("name-%d", k)})
	}
	return steps
}

// progressOf asks the workflow's latest run for its progress.
func progressOf(s *stack, id string) (workflows.Progress, error) {
	var p workflows.Progress
	v, err := s.client.QueryWorkflow(context.Background(), id, "", workflows.ProgressQuery)
	if err == nil {
		err = v.Get(&p)
	}
	return p, err
}

// TestLongRunContinuesAsNew: a 60-step run told to continue as new every 20 steps ends
// with its 60 steps in one output; its latest run answers the progress query with the
// steps of the runs before it; and a worker killed in its third run is recovered from
// the checkpoints and saved state the earlier runs carried over, without any completed
// step done again.
func TestLongRunContinuesAsNew(t *testing.T) {
	s := newStack(t)
	first := s.worker(t)
	run := s.start(t, workflows.GoalInput{
		Goal: "Type sixty names", StartURL: strings.TrimSuffix(s.appURL, "/projects") + "/static/lab/settings.html", Plan: longPlan(60),
		Limits: workflows.Limits{StepsPerRun: 20, MaxSteps: 60, WorkerLossTimeout: 5 * time.Second},
	})

	// Kill the worker once the latest run reports 45 completed steps: it is the third
	// run, and it must know the 40 steps the runs before it completed.
	deadline := time.Now().Add(3 * time.Minute)
	for {
		p, err := progressOf(s, run.GetID())
		if err == nil {
			done := 0
			for _, st := range p.Steps {
				if st.Status == workflows.StepCompleted {
					done++
				}
			}
			if len(p.Steps) != 0 && len(p.Steps) != 60 {
				t.Fatalf("the latest run's progress shows %d steps, want 60", len(p.Steps))
			}
			if p.Phase == workflows.PhaseDone || done > 50 {
				t.Fatalf("the run got past step 50 before the worker was killed (%d steps done): %+v", done, p.Steps[:min(3, len(p.Steps))])
			}
			if done >= 45 {
				break
			}
		}
		if time.Now().After(deadline) {
			p, err := progressOf(s, run.GetID())
			d, derr := s.client.DescribeWorkflowExecution(context.Background(), run.GetID(), "")
			t.Fatalf("45 steps were not completed in time: progress %+v (%v); latest run %v (%v)", p, err, d.GetWorkflowExecutionInfo(), derr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	first.Kill()
	s.worker(t)
	done := make(chan workflows.GoalResult, 1)
	go func() { done <- s.result(t, run) }()
	var res workflows.GoalResult
wait:
	for {
		select {
		case res = <-done:
			break wait
		case <-time.After(time.Second):
			// A step the lost worker may have typed is in doubt: typing a name again
			// is harmless, and a person says so.
			if p, err := progressOf(s, run.GetID()); err == nil && p.Doubt != nil {
				r := workflows.Resolution{Step: p.Doubt.Step, Decision: "repeat", By: "tester"}
				if _, err := updateRun[workflows.ResolutionResult](context.Background(), s, s.client.GetWorkflow(context.Background(), run.GetID(), ""), workflows.ResolveUpdate, r); err != nil {
					t.Logf("resolve: %v", err)
				}
			}
		}
	}

	// The plan types names and checks nothing at the end: done, not confirmed.
	ex := res.Execution
	if ex.Status != workflows.StatusUnverified || ex.StepsCompleted != 60 || len(res.Steps) != 60 || ex.Continuations != 2 || ex.BrowserRecoveries < 1 {
		t.Fatalf("status %s, %d of %d steps completed, %d continuations, %d recoveries; errors %v", ex.Status, ex.StepsCompleted, len(res.Steps), ex.Continuations, ex.BrowserRecoveries, res.Errors)
	}
	for i, st := range res.Steps {
		if st.Order != i+1 || st.Status != workflows.StepCompleted {
			t.Errorf("step %d: order %d, status %s", i+1, st.Order, st.Status)
		}
	}

	// Three runs of one workflow: two continued as new, the last completed. No step
	// was attempted again once completed; the history of each run replays.
	// Visibility follows the runs' ends a moment later.
	var list *workflowservice.ListWorkflowExecutionsResponse
	eventually(t, 30*time.Second, "the last run shows as completed", func() bool {
		var err error
		list, err = s.client.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{Query: fmt.Sprintf("WorkflowId = %q", run.GetID())})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range list.GetExecutions() {
			if e.GetStatus() == enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
				return false
			}
		}
		return true
	})
	statuses := map[enums.WorkflowExecutionStatus]int{}
	attempts := map[int]int{}
	maxEvents, maxSteps, carried := 0, 0, 0
	var start time.Time
	firstRun := ""
	for _, e := range list.GetExecutions() {
		if firstRun == "" || e.GetStartTime().AsTime().Before(start) {
			firstRun, start = e.GetExecution().GetRunId(), e.GetStartTime().AsTime()
		}
	}
	for _, e := range list.GetExecutions() {
		statuses[e.GetStatus()]++
		r := s.client.GetWorkflow(context.Background(), run.GetID(), e.GetExecution().GetRunId())
		name := ""
		if e.GetExecution().GetRunId() == firstRun {
			name = "continued-as-new" // the first run, for the replay test
		}
		events := s.history(t, r, name)
		ins := stepInputs(t, events)
		if in := events[0].GetWorkflowExecutionStartedEventAttributes().GetInput(); in.Size() > carried {
			carried = in.Size()
		}
		seqs := map[int]bool{}
		for _, in := range ins {
			if in.Purpose == activities.PurposeAttempt {
				attempts[in.Seq]++
				seqs[in.Seq] = true
			}
		}
		if e.GetStatus() == enums.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW && len(events) > maxEvents {
			maxEvents, maxSteps = len(events), len(seqs)
		}
	}
	if statuses[enums.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW] != 2 || statuses[enums.WORKFLOW_EXECUTION_STATUS_COMPLETED] != 1 {
		t.Errorf("runs by status: %v", statuses)
	}
	again := 0
	for seq, n := range attempts {
		if n > 1 {
			again++
			if seq < 45 {
				t.Errorf("step %d, completed before the worker was lost, was attempted %d times", seq, n)
			}
		}
	}
	if again > 1 {
		t.Errorf("%d steps were attempted more than once; only the one in flight when the worker died may be", again)
	}
	t.Logf("a run of %d steps without failures has %d history events (%.1f a step); the last run's input, with 40 steps carried, is %d bytes", maxSteps, maxEvents, float64(maxEvents)/float64(maxSteps), carried)
}
