package e2e

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/workflows"
)

// TestRollingRestart deploys a new worker in the middle of a run: the run's worker gets
// SIGTERM while step 4, click "Create", is under way (the demo app has the request), and
// a new worker starts. The old one finishes the step, hands the run on at its next step
// and exits; the run succeeds on the new worker with one create request, no step in
// doubt and nobody asked (a doubt would wait for a person, and the run would not end).
func TestRollingRestart(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	s := newStack(t)
	old := s.worker(t, "WEBAGENT_STOP_TIMEOUT=1m")
	created := make(chan struct{})
	var once sync.Once
	s.app.OnCreate(func() { once.Do(func() { old.Terminate(); close(created) }) })
	defer s.app.OnCreate(nil)
	run := s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL})
	select {
	case <-created:
	case <-time.After(90 * time.Second):
		t.Fatal("step 4 did not reach the demo app")
	}
	s.worker(t)
	res := s.result(t, run)
	select {
	case <-old.Exited():
	case <-time.After(time.Minute):
		t.Fatal("the stopped worker did not exit")
	}
	st := s.app.Snapshot()
	if res.Execution.Status != workflows.StatusSuccess || st.CreateRequests != 1 || len(st.Projects) != 1 {
		t.Fatalf("status %s, %d create requests, projects %+v, errors %v", res.Execution.Status, st.CreateRequests, st.Projects, res.Errors)
	}
	for _, step := range res.Steps {
		if acts := strings.Join(step.Actions, "\n"); strings.Contains(acts, "in doubt") {
			t.Errorf("step %d was in doubt:\n%s", step.Order, acts)
		}
	}
	attempts := map[int]int{}
	for _, in := range stepInputs(t, s.history(t, run, "")) {
		if in.Purpose == activities.PurposeAttempt {
			attempts[in.Seq]++
		}
	}
	// Step 4 finished on the stopping worker; step 5 came to it and was handed on
	// before it began, so it ran again, once, on the new worker.
	if attempts[4] != 1 || attempts[5] != 2 || res.Steps[3].Attempts != 1 {
		t.Errorf("attempts by step %v; step 4 counted %d", attempts, res.Steps[3].Attempts)
	}
	out := old.Output()
	for _, want := range []string{"browser handed on", "worker stopped", "browsersLeft=0"} {
		if !strings.Contains(out, want) {
			t.Errorf("the stopped worker's log lacks %q", want)
		}
	}
	if strings.Contains(out, "graceful stop timed out") {
		t.Error("the stopped worker waited out its stop timeout")
	}
	t.Logf("recoveries %d; old worker: %s", res.Execution.BrowserRecoveries, lastLine(out, "worker stopped"))
}

// TestOnlyWorkerReplaced: the run's only worker gets SIGTERM mid-step, and its
// replacement starts only once it has exited (as `docker compose up` replaces a
// container). No workflow worker is left to send the run's next step to the stopping one,
// so it does not wait out its stop timeout: a few seconds after its step, it exits; the
// run carries on with the new worker, its step done, nothing in doubt.
func TestOnlyWorkerReplaced(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	s := newStack(t)
	old := s.worker(t, "WEBAGENT_STOP_TIMEOUT=1m")
	var once sync.Once
	s.app.OnCreate(func() { once.Do(old.Terminate) })
	defer s.app.OnCreate(nil)
	run := s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL, Limits: workflows.Limits{WorkerLossTimeout: 5 * time.Second}})
	select {
	case <-old.Exited():
	case <-time.After(45 * time.Second):
		t.Fatal("the stopped worker did not exit within 45 s (it waited for a step no one could send)")
	}
	s.worker(t)
	res := s.result(t, run)
	st := s.app.Snapshot()
	if res.Execution.Status != workflows.StatusSuccess || st.CreateRequests != 1 || res.Steps[3].Attempts != 1 {
		t.Fatalf("status %s, %d create requests, step 4 attempted %d times, errors %v", res.Execution.Status, st.CreateRequests, res.Steps[3].Attempts, res.Errors)
	}
	for _, step := range res.Steps {
		if acts := strings.Join(step.Actions, "\n"); strings.Contains(acts, "in doubt") {
			t.Errorf("step %d was in doubt:\n%s", step.Order, acts)
		}
	}
	t.Logf("old worker: %s", lastLine(old.Output(), "worker stopped"))
}

// lastLine is the last line of out that holds s.
func lastLine(out, s string) string {
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], s) {
			return lines[i]
		}
	}
	return ""
}
