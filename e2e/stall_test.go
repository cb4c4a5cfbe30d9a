package e2e

import (
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/geminitest"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/workflows"
)

// TestWorkerKilledWhilePlanning kills the only worker (SIGKILL) while the model plans the
// goal, and starts another. The plan is a model call that says nothing while it waits
// for its answer; before every model activity heartbeated, the run waited for its whole
// time limit (ModelTimeout, 3 minutes) before anyone planned again: the stall `make load`
// showed. Now the run's WorkerLossTimeout notices the lost worker, the new worker plans,
// and the run succeeds.
func TestWorkerKilledWhilePlanning(t *testing.T) {
	s := newStack(t)
	s.app = lab.New(demoapp.Project{Name: "Website relaunch", Priority: "High"}, demoapp.Project{Name: "Q4-bugs", Priority: "Medium"})
	s.serveApp(t)
	// The first plan never comes in time: its worker is killed while it waits.
	gemini := geminitest.New(t, func(c geminitest.Call, n int) geminitest.Reply {
		r := archiveScript(c, n)
		if c.Role == "planner" && n == 1 {
			r.Delay = 10 * time.Minute
		}
		return r
	})
	first := s.worker(t, "GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL="+gemini.URL)
	run := s.start(t, workflows.GoalInput{Goal: archiveGoal, StartURL: s.appURL, Limits: workflows.Limits{WaitBudget: 300 * time.Millisecond, WorkerLossTimeout: 5 * time.Second}})
	eventually(t, time.Minute, "the model is asked to plan", func() bool { return len(gemini.Calls("planner")) > 0 })
	first.Kill()
	killed := time.Now()
	s.modelWorker(t, gemini, "test-key")
	res := s.result(t, run)
	if res.Execution.Status != workflows.StatusSuccess || len(gemini.Calls("planner")) != 2 {
		t.Fatalf("execution %+v, %d plans asked for, errors %v", res.Execution, len(gemini.Calls("planner")), res.Errors)
	}
	// The plan's first try ended by its heartbeat, not its time limit.
	var lost bool
	for _, e := range s.history(t, run, "") {
		if a := e.GetActivityTaskTimedOutEventAttributes(); a != nil && a.GetFailure().GetTimeoutFailureInfo().GetTimeoutType() == enums.TIMEOUT_TYPE_HEARTBEAT {
			lost = true // the run asked again itself
		}
		if a := e.GetActivityTaskStartedEventAttributes(); a != nil && a.GetAttempt() > 1 &&
			a.GetLastFailure().GetTimeoutFailureInfo().GetTimeoutType() == enums.TIMEOUT_TYPE_HEARTBEAT {
			lost = true // the server tried it again
		}
	}
	if !lost {
		t.Errorf("no activity was tried again after a heartbeat timeout: %v", activityTypes(s.history(t, run, "")))
	}
	t.Logf("the run ended %s after its worker was killed while planning", time.Since(killed).Round(100*time.Millisecond))
}
