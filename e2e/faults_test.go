package e2e

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/store"
	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/fault"
	"github.com/webagent-dev/webagent/internal/geminitest"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// faultRuns is how many runs each fault test makes: WEBAGENT_FAULT_RUNS, default 1
// (`make faults` runs 10 of each).
func faultRuns() int {
	if n, err := strconv.Atoi(os.Getenv("WEBAGENT_FAULT_RUNS")); err == nil && n > 0 {
		return n
	}
	return 1
}

// TestWorkerKilled kills the worker's whole process group (SIGKILL: browser, driver and
// all) at each point of the demo goal's state-changing step 4, click "Create", and starts
// another worker: before the action (the run was told the attempt is about to act),
// right after the demo app received the create request, while the page settles, between
// the step's writes to MinIO, and after the activity completed. Every run must end in
// success with exactly one create request at the demo app. Where the run cannot tell
// whether the click happened (the effect is absent, and a click on "Create" may have
// sent a request), it waits for a person; the test answers as one would, from the demo
// app's own count.
//
// The worker killed is built with -tags faultinject, the only build with the hook. The
// worker that takes over is the one that ships, given the same WEBAGENT_FAULT: it must
// ignore it, and pass the armed point of step 4 when it does the step again.
func TestWorkerKilled(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	hooked, err := testenv.Build(t.TempDir(), "workers", fault.Tag)
	if err != nil {
		t.Fatal(err)
	}
	points := []struct {
		name string
		env  string // WEBAGENT_FAULT for the first worker, or ""
	}{
		{name: "before the action", env: fault.BeforeAct + ":4"},
		{name: "right after the request"},
		{name: "during the settle wait", env: fault.Settle + ":4"},
		{name: "during the MinIO writes", env: fault.Store + ":4"},
		{name: "after the activity completed"},
	}
	for _, p := range points {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel() // each point on a stack of its own, beside the others
			s := newStack(t)
			asked := 0
			for k := range faultRuns() {
				s.app.Reset()
				var env []string
				if p.env != "" {
					env = append(env, fault.Env+"="+p.env)
				}
				w := testenv.StartWorker(t, hooked, s.Stack, env...)
				var once sync.Once
				if p.name == "right after the request" {
					s.app.OnCreate(func() { once.Do(w.Kill) })
				}
				run := s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL, Limits: workflows.Limits{WorkerLossTimeout: 5 * time.Second}})
				switch {
				case p.name == "after the activity completed":
					waitForCompletedSteps(t, s.client, run, 4)
					w.Kill()
				default:
					select {
					case <-w.Exited():
					case <-time.After(90 * time.Second):
						t.Fatalf("run %d: the worker was not killed %s", k+1, p.name)
					}
				}
				s.app.OnCreate(nil)
				next := s.worker(t, env...)
				// The run is waited for beside the loop that answers a person; a failure
				// is reported from the test's goroutine, where t.Fatalf may stop it.
				type outcome struct {
					res workflows.GoalResult
					err error
				}
				done := make(chan outcome, 1)
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
					defer cancel()
					var o outcome
					o.err = workflows.ResultOf(&o.res, run.Get(ctx, &o.res))
					done <- o
				}()
				var res workflows.GoalResult
				var answered time.Time
			wait:
				for {
					select {
					case o := <-done:
						if o.err != nil {
							t.Fatalf("run %d: %v", k+1, o.err)
						}
						res = o.res
						break wait
					case <-time.After(time.Second):
						if d := doubt(s, run); d != nil && !d.Since.Equal(answered) {
							// A person looks at the server: one create request means the
							// click happened.
							decision := "repeat"
							if s.app.Snapshot().CreateRequests > 0 {
								decision = "done"
							}
							asked++
							answered = d.Since
							if _, err := resolve(context.Background(), s, run, workflows.Resolution{Step: d.Step, Decision: decision, By: "tester"}); err != nil {
								t.Fatalf("run %d: resolve: %v", k+1, err)
							}
						}
					}
				}
				st := s.app.Snapshot()
				if res.Execution.Status != workflows.StatusSuccess || !res.Validation.Verified || st.CreateRequests != 1 || len(st.Projects) != 1 {
					t.Fatalf("run %d: status %s (verified %v), %d create requests, projects %+v; errors %v; step 4 %q", k+1, res.Execution.Status, res.Validation.Verified, st.CreateRequests, st.Projects, res.Errors, res.Steps[3].Actions)
				}
				if told, notTold := intentsAsked(t, s, run); p.name != "after the activity completed" && (told == 0 || notTold > 0) {
					// Killed after it stored its intent to act: the run asked for the object
					// and found it (a store that could not answer would count too, but not
					// as an answer).
					t.Errorf("run %d: the lost attempt's intent object should be asked for and found: %d found, %d not", k+1, told, notTold)
				}
				if p.name == "right after the request" || p.name == "during the MinIO writes" {
					if acts := strings.Join(res.Steps[3].Actions, "\n"); !strings.Contains(acts, "in doubt") || !strings.Contains(acts, "not repeated") {
						t.Errorf("run %d: step 4 should say it was in doubt and found done:\n%s", k+1, acts)
					}
				}
				next.Kill()
			}
			t.Logf("%d runs killed %s: all succeeded with one create request; a person was asked %d times", faultRuns(), p.name, asked)
		})
	}
}

// intentsAsked counts the run's answers from Intended: attempts whose intent object was
// found, and not.
func intentsAsked(t *testing.T, s *stack, run client.WorkflowRun) (told, notTold int) {
	t.Helper()
	for _, r := range resultsOf(t, eventsOf(t, s, run.GetID()), activities.Intended) {
		if r.Told {
			told++
		} else {
			notTold++
		}
	}
	return told, notTold
}

func doubt(s *stack, run client.WorkflowRun) *workflows.Doubt {
	v, err := s.client.QueryWorkflow(context.Background(), run.GetID(), run.GetRunID(), workflows.ProgressQuery)
	if err != nil {
		return nil
	}
	var p workflows.Progress
	if v.Get(&p) != nil {
		return nil
	}
	return p.Doubt
}

func resolve(ctx context.Context, s *stack, run client.WorkflowRun, a workflows.Resolution) (workflows.ResolutionResult, error) {
	return updateRun[workflows.ResolutionResult](ctx, s, run, workflows.ResolveUpdate, a)
}

// TestSilentSaveIsPressedOnce clicks a "Save" that sends a request and shows nothing:
// without a model nothing can say whether it worked, so it is not clicked again, the
// step is done but unverified, and the run does not claim success: unverified, saying why.
func TestSilentSaveIsPressedOnce(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	base := strings.TrimSuffix(s.appURL, "/projects")
	res := s.result(t, s.start(t, workflows.GoalInput{Goal: `Click "Save"`, StartURL: base + "/static/lab/settings.html"}))
	if n := s.app.Saves(); n != 1 {
		t.Fatalf("Save reached the server %d times; want once", n)
	}
	// Done, but nothing says it worked: success is not claimed.
	if res.Execution.Status != workflows.StatusUnverified || res.Validation.Verified || res.Execution.TotalRetries != 0 {
		t.Fatalf("status %s, verified %v, retries %d: want unverified (done, not confirmed) without retries", res.Execution.Status, res.Validation.Verified, res.Execution.TotalRetries)
	}
	if !res.Steps[0].Unverified || !strings.Contains(res.Validation.Reason, "not verified") || !strings.HasPrefix(res.Summary.Brief, "Done, not verified") ||
		!strings.Contains(res.Summary.Brief, "changed nothing visible") {
		t.Errorf("the output should say what was not verified: step %+v, validation %q, brief %q", res.Steps[0], res.Validation.Reason, res.Summary.Brief)
	}
}

// TestServersRestartedMidRun kills Temporal, then MinIO, in the middle of demo goals and
// starts them again: the runs complete, and no request is sent twice.
func TestServersRestartedMidRun(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	temporal, c := testenv.RestartableTemporal(t, workflows.SearchAttributes)
	minio := testenv.RestartableMinIO(t)
	st, err := store.Open(context.Background(), store.Config{Endpoint: minio.Addr, AccessKey: testenv.MinIOUser, SecretKey: testenv.MinIOPassword, Bucket: testenv.MinIOBucket})
	if err != nil {
		t.Fatal(err)
	}
	at := testenv.Stack{TemporalAddr: temporal.Addr, Namespace: "default", MinIOAddr: minio.Addr, Bucket: testenv.MinIOBucket}
	s := &stack{Stack: at, client: c, store: st, app: lab.New()}
	s.serveApp(t)
	s.worker(t)
	for _, srv := range []struct {
		name string
		*testenv.Server
	}{{"temporal", temporal}, {"minio", minio}} {
		t.Run(srv.name, func(t *testing.T) {
			s.app.Reset()
			run := s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL})
			waitForCompletedSteps(t, s.client, run, 2)
			srv.Kill()
			time.Sleep(3 * time.Second)
			srv.Restart()
			res := s.result(t, run)
			app := s.app.Snapshot()
			if res.Execution.Status != workflows.StatusSuccess || app.CreateRequests != 1 {
				t.Fatalf("status %s, %d create requests; errors %v; warnings %v", res.Execution.Status, app.CreateRequests, res.Errors, res.Summary.Warnings)
			}
		})
	}
}

// TestSlowModelIsNotALostWorker has the model stand-in answer the first decision after
// the model call's timeout: the call is given up and tried again, in the same browser —
// no second browser, no "worker lost" warning.
func TestSlowModelIsNotALostWorker(t *testing.T) {
	s := newStack(t)
	s.app = lab.New(demoapp.Project{Name: "Website relaunch", Priority: "High"}, demoapp.Project{Name: "Q4-bugs", Priority: "Medium"})
	s.serveApp(t)
	gemini := geminitest.New(t, func(c geminitest.Call, n int) geminitest.Reply {
		r := archiveScript(c, n)
		if c.Role == "decider" && n == 1 {
			r.Delay = 6 * time.Second
		}
		return r
	})
	s.modelWorker(t, gemini, "test-key")
	run := s.start(t, workflows.GoalInput{Goal: archiveGoal, StartURL: s.appURL,
		Limits: workflows.Limits{WaitBudget: 300 * time.Millisecond, ModelTimeout: 2 * time.Second, WorkerLossTimeout: 5 * time.Second}})
	res := s.result(t, run)
	if res.Execution.Status != workflows.StatusSuccess || res.Execution.BrowserRecoveries != 0 {
		t.Fatalf("status %s, %d recoveries; %v", res.Execution.Status, res.Execution.BrowserRecoveries, res.Errors)
	}
	for _, w := range res.Summary.Warnings {
		if strings.Contains(w, "lost") {
			t.Errorf("a slow model is not a lost worker: %q", w)
		}
	}
	opened, timedOut := 0, 0
	for _, e := range s.history(t, run, "") {
		if a := e.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == "OpenBrowser" {
			opened++
		}
		// A model call's tries are the run's own: each is an activity of its own. The
		// slow one gave up its HTTP try in time to report it (or, failing that, timed out).
		if e.GetActivityTaskTimedOutEventAttributes() != nil || e.GetActivityTaskFailedEventAttributes() != nil {
			timedOut++
		}
	}
	if opened != 1 {
		t.Errorf("%d browsers opened; want one", opened)
	}
	if timedOut == 0 || len(gemini.Calls("decider")) < 2 {
		t.Errorf("the slow decision should have timed out and been asked again: %d timed-out attempts, %d decider calls", timedOut, len(gemini.Calls("decider")))
	}
}

// TestSlowStartPageDoesNotStallOtherRuns starts a run whose start page takes 30 s to
// answer, then the demo goal on the same worker: the demo goal is not held up by the
// other run's page load, and does not rebuild its browser.
func TestSlowStartPageDoesNotStallOtherRuns(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	base := strings.TrimSuffix(s.appURL, "/projects")
	limits := workflows.Limits{WorkerLossTimeout: 5 * time.Second}
	slow := s.start(t, workflows.GoalInput{Goal: "look at the slow report", StartURL: base + "/lab/slow?ms=30000",
		Plan: []plan.Step{{Step: 1, Action: plan.Assert, Value: "Slow report"}}, Limits: limits})
	time.Sleep(time.Second)
	demo := s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL, Limits: limits})
	res := s.result(t, demo)
	if res.Execution.Status != workflows.StatusSuccess || res.Execution.BrowserRecoveries != 0 {
		t.Fatalf("demo goal: status %s, %d recoveries; %v %v", res.Execution.Status, res.Execution.BrowserRecoveries, res.Errors, res.Summary.Warnings)
	}
	if s.app.Snapshot().CreateRequests != 1 {
		t.Errorf("%d create requests", s.app.Snapshot().CreateRequests)
	}
	// The slow run's page answers just as the browser's 30 s navigation limit ends: it
	// may open or fail to open, but it never takes the other run's browser for lost.
	if err := s.client.CancelWorkflow(context.Background(), slow.GetID(), slow.GetRunID()); err != nil {
		t.Fatal(err)
	}
	for _, e := range s.history(t, demo, "") {
		if e.GetEventType() == enums.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT {
			t.Errorf("an activity of the demo goal timed out: %v", e)
		}
	}
}
