package e2e

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// TestCancelWhileWaiting cancels a run while its step waits for a target that never
// appears, and checks, on the page's side, that the browser stopped looking at the page
// within 2 s, and that the session was released and closed.
func TestCancelWhileWaiting(t *testing.T) {
	s := newStack(t)
	w := s.worker(t)
	base := strings.TrimSuffix(s.appURL, "/projects")
	run := s.start(t, workflows.GoalInput{
		Goal: "wait for something that never comes", StartURL: base + "/static/lab/watch.html",
		Plan:   []plan.Step{{Step: 1, Action: plan.Wait, TargetDescription: "Never appears"}},
		Limits: workflows.Limits{WaitBudget: time.Minute},
	})
	// The step is waiting once the page has seen the agent look at it a few times.
	deadline := time.Now().Add(time.Minute)
	for len(s.app.Observations()) < 5 {
		if time.Now().After(deadline) {
			t.Fatalf("the agent never looked at the watch page:\n%s", w.Output())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancelled := time.Now()
	if err := s.client.CancelWorkflow(context.Background(), run.GetID(), run.GetRunID()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var canceled *temporal.CanceledError
	if err := run.Get(ctx, nil); !errors.As(err, &canceled) {
		t.Fatalf("want the run cancelled, got %v", err)
	}
	time.Sleep(3 * time.Second) // long enough to see a browser that goes on looking
	obs := s.app.Observations()
	last := obs[len(obs)-1]
	if stopped := last.Sub(cancelled); stopped > 2*time.Second {
		t.Errorf("the browser went on looking at the page %s after the cancel (%d looks in all)", stopped.Round(time.Millisecond), len(obs))
	} else {
		t.Logf("the browser's last look at the page was %s after the cancel was sent (negative: before it was acknowledged)", stopped.Round(time.Millisecond))
	}

	// The session was released and closed: CloseBrowser found it and closed it.
	closes := resultsOf(t, s.history(t, run, ""), activities.CloseBrowser)
	if len(closes) == 0 || !closes[len(closes)-1].Closed {
		t.Errorf("CloseBrowser did not close the run's session:\n%s", w.Output())
	}
	if !strings.Contains(w.Output(), "browser session closed") {
		t.Errorf("the worker did not log the session's closing:\n%s", w.Output())
	}
}

// TestSlowPageIsNotALostWorker runs a step whose page takes 15 s to answer, with a
// worker-loss timeout of 5 s: the activity heartbeats all along, so the run goes on in the
// same browser, without a recovery and with the step tried once.
func TestSlowPageIsNotALostWorker(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	s := newStack(t)
	s.worker(t)
	base := strings.TrimSuffix(s.appURL, "/projects")
	run := s.start(t, workflows.GoalInput{
		Goal: "open a slow page", StartURL: s.appURL,
		Plan: []plan.Step{
			{Step: 1, Action: plan.Navigate, URL: base + "/lab/slow?ms=15000"},
			{Step: 2, Action: plan.Assert, Value: "Slow report"},
		},
		Limits: workflows.Limits{WorkerLossTimeout: 5 * time.Second},
	})
	res := s.result(t, run)
	if res.Execution.Status != workflows.StatusSuccess || res.Execution.BrowserRecoveries != 0 {
		t.Fatalf("status %s, recoveries %d: %v %v", res.Execution.Status, res.Execution.BrowserRecoveries, res.Errors, res.Summary.Warnings)
	}
	if d := res.Steps[0].DurationMs; d < 15000 {
		t.Errorf("the slow step took %d ms; the page answers after 15 s", d)
	}
	events := s.history(t, run, "")
	n := 0
	for _, in := range stepInputs(t, events) {
		if in.Seq == 1 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the slow step ran %d times", n)
	}
	for _, e := range events {
		if e.GetEventType() == enums.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT {
			t.Errorf("an activity timed out: %v", e)
		}
	}
}
