package e2e

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// TestAdmission: two workers with one browser each. Two goals started at once run at
// once, one on each worker; four goals run two at a time, and none waits in line on a
// busy worker while the other is free (a worker asks for an open only when it has a
// browser free, so a run waits on the server for the first free one).
func TestAdmission(t *testing.T) {
	s := newStack(t)
	one := "WEBAGENT_MAX_BROWSERS=1"
	ws := []*testenv.Worker{s.worker(t, one), s.worker(t, one)}
	runAll := func(t *testing.T, names ...string) []workflows.GoalResult {
		runs := make([]workflows.GoalResult, len(names))
		var wg sync.WaitGroup
		for i, name := range names {
			run := s.startNamed(t, name, workflows.GoalInput{Goal: createGoal(name), StartURL: s.appURL})
			wg.Add(1)
			go func() {
				defer wg.Done()
				runs[i] = s.result(t, run)
			}()
		}
		wg.Wait()
		for i, res := range runs {
			if res.Execution.Status != workflows.StatusSuccess || res.Execution.BrowserRecoveries != 0 {
				t.Errorf("%s: status %s, recoveries %d", names[i], res.Execution.Status, res.Execution.BrowserRecoveries)
			}
		}
		return runs
	}

	t.Run("two at once", func(t *testing.T) {
		runs := runAll(t, "Castor", "Pollux")
		a, b := runs[0].Metadata, runs[1].Metadata
		if !a.StartedAt.Before(b.FinishedAt) || !b.StartedAt.Before(a.FinishedAt) {
			t.Errorf("the two runs did not overlap: %v-%v and %v-%v", a.StartedAt, a.FinishedAt, b.StartedAt, b.FinishedAt)
		}
		if qa, qb := browserQueue(t, s, a.WorkflowID), browserQueue(t, s, b.WorkflowID); qa == qb {
			t.Errorf("both runs had their browser on one worker (%s)", qa)
		}
	})

	t.Run("four", func(t *testing.T) {
		before := []int{opened(ws[0]), opened(ws[1])}
		runAll(t, "Io", "Europa", "Ganymede", "Callisto")
		for i, w := range ws {
			if n := opened(w) - before[i]; n == 0 {
				t.Errorf("worker %d opened no browser for the four runs", i+1)
			}
			if n := strings.Count(w.Output(), "waiting for a free browser"); n > 0 {
				t.Errorf("worker %d kept %d runs waiting in line for its browser", i+1, n)
			}
		}
		t.Logf("browsers opened for the four runs: %d and %d", opened(ws[0])-before[0], opened(ws[1])-before[1])
	})
	t.Run("a run waits on the server", func(t *testing.T) {
		// Both browsers are held by runs that wait eight seconds; a third run asks for
		// one, and its progress says since when it waits. (Three seconds were too few on a
		// loaded machine: the holds ended before the third run's wait was a second old.)
		hold := []plan.Step{{Action: plan.Wait, Wait: 8 * time.Second}, {Action: plan.Assert, Value: "Projects"}}
		var held []client.WorkflowRun
		for i := range 2 {
			held = append(held, s.startNamed(t, fmt.Sprintf("hold-%d", i), workflows.GoalInput{Goal: "hold a browser", StartURL: s.appURL, Plan: hold}))
		}
		waitForStarted(t, s, held)
		third := s.startNamed(t, "third", workflows.GoalInput{Goal: "hold a browser", StartURL: s.appURL, Plan: hold})
		eventually(t, 10*time.Second, "the third run says it waits for a browser", func() bool {
			p, err := progressOf(s, third.GetID())
			return err == nil && p.BrowserAsked != nil && time.Since(*p.BrowserAsked) > time.Second
		})
		for _, run := range append(held, third) {
			if res := s.result(t, run); res.Execution.Status != workflows.StatusSuccess {
				t.Errorf("%s: %s", run.GetID(), res.Execution.Status)
			}
		}
		if p, err := progressOf(s, third.GetID()); err != nil || p.BrowserAsked != nil {
			t.Errorf("the ended run still says it waits for a browser: %v %v", p.BrowserAsked, err)
		}
	})
	if n := s.app.Snapshot().CreateRequests; n != 6 {
		t.Errorf("%d create requests, want 6", n)
	}
}

// opened is how many browsers the worker has opened for runs.
func opened(w *testenv.Worker) int { return strings.Count(w.Output(), `msg="browser opened"`) }

// startNamed starts a run whose workflow ID names the test and name, so that runs started
// in the same second are distinct.
func (s *stack) startNamed(t *testing.T, name string, in workflows.GoalInput) client.WorkflowRun {
	t.Helper()
	run, err := s.client.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{
		ID: workflows.GoalWorkflowID(time.Now(), t.Name()+"-"+name), TaskQueue: workflows.TaskQueue,
	}, workflows.GoalWorkflowName, in)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// waitForStarted waits until each run has begun its first step (it holds its browser).
func waitForStarted(t *testing.T, s *stack, runs []client.WorkflowRun) {
	t.Helper()
	for _, run := range runs {
		eventually(t, 30*time.Second, run.GetID()+" holds a browser", func() bool {
			p, err := progressOf(s, run.GetID())
			return err == nil && p.Current > 0
		})
	}
}
