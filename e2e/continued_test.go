package e2e

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// victimGoal types a project's name and then waits with its browser open: the window in
// which another run tries to take the browser over.
const victimGoal = `Click "New project", type "Apollo" into "Project name", wait 15 seconds, select "High" from "Priority", click "Create", then check that "Apollo" is visible`

// TestContinuedIsNotACallersToSet: a run's session ID and its worker's task queue are in
// its history. A goal started with "continued" naming them — to read what the other run
// typed, and close its browser at its end — is refused before anything runs; a workflow
// of its own that asks the worker, by name, to open, use or close that session is refused
// by the worker. The run whose browser it was completes as if nothing happened.
func TestContinuedIsNotACallersToSet(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	s := newStack(t)
	w := s.worker(t)
	victim := s.start(t, workflows.GoalInput{Goal: victimGoal, StartURL: s.appURL})
	waitForCompletedSteps(t, s.client, victim, 2) // the name is typed; the run waits
	session := openedSession(t, s, victim.GetID())
	if session.SessionID == "" || session.TaskQueue == "" {
		t.Fatalf("the victim's history names no session: %+v", session)
	}

	t.Run("a goal carrying its session", func(t *testing.T) {
		attacker, err := s.client.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{ID: workflows.GoalWorkflowID(time.Now(), "attacker"), TaskQueue: workflows.TaskQueue},
			workflows.GoalWorkflowName, workflows.GoalInput{
				Goal: "read what the other run typed", StartURL: s.appURL,
				Continued: &workflows.Carry{
					Started: time.Now(),
					Steps: []workflows.StepRecord{{Order: 1, Status: workflows.StepPending,
						Step: plan.Step{Step: 1, Action: plan.Extract, TargetDescription: "Project name", Into: "typed"}}},
					Session: session,
				},
			})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var ae *temporal.ApplicationError
		err = attacker.Get(ctx, nil)
		if !errors.As(err, &ae) || ae.Type() != workflows.ErrBadInput || !strings.Contains(ae.Error(), "continued is set only by a run's own continue-as-new") {
			t.Fatalf("want the run refused as bad input, got %v", err)
		}
		if names := activityTypes(eventsOf(t, s, attacker.GetID())); len(names) > 0 {
			t.Errorf("the refused run scheduled activities: %v", names)
		}
	})

	t.Run("a workflow asking the worker for it", func(t *testing.T) {
		queue := "rogue-" + fmt.Sprint(time.Now().UnixNano())
		rw := worker.New(s.client, queue, worker.Options{})
		rw.RegisterWorkflowWithOptions(rogue, workflow.RegisterOptions{Name: "Rogue"})
		if err := rw.Start(); err != nil {
			t.Fatal(err)
		}
		defer rw.Stop()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		run, err := s.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "rogue-" + victim.GetID(), TaskQueue: queue}, "Rogue", session)
		if err != nil {
			t.Fatal(err)
		}
		var answers []string
		if err := run.Get(ctx, &answers); err != nil {
			t.Fatal(err)
		}
		for _, a := range answers {
			if !strings.HasSuffix(a, activities.ErrNotYourSession) {
				t.Errorf("the worker should refuse another workflow its run's session: %s", a)
			}
		}
		if len(answers) != 3 {
			t.Errorf("answers %v", answers)
		}
	})

	// The victim's browser was neither used nor closed: the run goes on in it, with no
	// recovery, and creates its project once.
	res := s.result(t, victim)
	if res.Execution.Status != workflows.StatusSuccess || res.Execution.BrowserRecoveries != 0 {
		t.Fatalf("the victim ended %s with %d recoveries: %v", res.Execution.Status, res.Execution.BrowserRecoveries, res.Errors)
	}
	if st := s.app.Snapshot(); len(st.Projects) != 1 || st.Projects[0] != (demoapp.Project{Name: "Apollo", Priority: "High"}) || st.CreateRequests != 1 {
		t.Errorf("want one project Apollo/High from one create request, got %+v", st)
	}
	if n := strings.Count(w.Output(), `msg="browser opened"`); n != 1 {
		t.Errorf("the worker opened %d browsers, want the victim's one:\n%s", n, w.Output())
	}
}

// rogue is a workflow of its own asking the worker that holds another run's browser for
// what that run asks of it: to open the session, run a step in it and close it. Each
// answer is the activity's name and its error type ("ok" when it was done).
func rogue(ctx workflow.Context, victim activities.OpenBrowserResult) ([]string, error) {
	ask := func(queue, name string, in any) string {
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			TaskQueue: queue, ScheduleToStartTimeout: 10 * time.Second, StartToCloseTimeout: 20 * time.Second,
			RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1},
		})
		err := workflow.ExecuteActivity(actx, name, in).Get(ctx, nil)
		var ae *temporal.ApplicationError
		switch {
		case err == nil:
			return name + ": ok"
		case errors.As(err, &ae):
			return name + ": " + ae.Type()
		default:
			return name + ": " + err.Error()
		}
	}
	step := plan.Step{Step: 1, Action: plan.Extract, TargetDescription: "Project name", Into: "typed"}
	return []string{
		ask(workflows.TaskQueue, activities.OpenBrowser.Name, activities.OpenBrowserInput{SessionID: victim.SessionID, URL: "about:blank"}),
		ask(victim.TaskQueue, activities.RunStep.Name, activities.RunStepInput{SessionID: victim.SessionID, Seq: 1, Attempt: 1,
			Purpose: activities.PurposeAttempt, Step: step, WaitBudget: time.Second}),
		ask(victim.TaskQueue, activities.CloseBrowser.Name, activities.CloseBrowserInput{SessionID: victim.SessionID}),
	}, nil
}

// openedSession is the session a run's first browser open answered with, read from its
// history as anyone who may read it can.
func openedSession(t *testing.T, s *stack, id string) activities.OpenBrowserResult {
	t.Helper()
	if opens := resultsOf(t, eventsOf(t, s, id), activities.OpenBrowser); len(opens) > 0 {
		return opens[0]
	}
	return activities.OpenBrowserResult{}
}

// resultsOf are the results of the activities of kind a that completed in events, in the
// order they completed.
func resultsOf[In, Out any](t *testing.T, events []*historypb.HistoryEvent, a activities.Activity[In, Out]) []Out {
	t.Helper()
	scheduled := map[int64]bool{}
	var out []Out
	for _, e := range events {
		if s := e.GetActivityTaskScheduledEventAttributes(); s != nil && s.GetActivityType().GetName() == a.Name {
			scheduled[e.GetEventId()] = true
		}
		if c := e.GetActivityTaskCompletedEventAttributes(); c != nil && scheduled[c.GetScheduledEventId()] {
			var r Out
			if err := converter.GetDefaultDataConverter().FromPayloads(c.GetResult(), &r); err != nil {
				t.Fatalf("%s's result: %v", a.Name, err)
			}
			out = append(out, r)
		}
	}
	return out
}

// eventsOf is the history of a workflow's latest run so far.
func eventsOf(t *testing.T, s *stack, id string) []*historypb.HistoryEvent {
	t.Helper()
	var events []*historypb.HistoryEvent
	it := s.client.GetWorkflowHistory(context.Background(), id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	return events
}
