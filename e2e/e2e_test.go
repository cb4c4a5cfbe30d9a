// Package e2e runs goals end to end against the real thing: a Temporal dev server, MinIO,
// Chromium driven by worker processes, and the demo app — all started by the tests on
// free ports of their own, so they also run beside `make up`.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/store"
	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

var updateHistories = flag.Bool("update-histories", false, "write the runs' histories to workflows/testdata/histories for the replay test")
var updateScreenshots = flag.Bool("update-screenshots", false, "write the README's pictures (docs/*.png) from the tests that take them")

var workerBin, starterBin string

// shared are the Temporal dev server and the MinIO the tests share, each test in a
// namespace and a bucket of its own (newStack); tests that kill or restart them start
// their own.
var shared *testenv.Shared

func TestMain(m *testing.M) {
	flag.Parse()
	main := &testenv.MainTB{}
	shared = testenv.NewShared(main, workflows.SearchAttributes)
	dir, err := os.MkdirTemp("", "webagent-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for bin, command := range map[*string]string{&workerBin: "workers", &starterBin: "starter"} {
		if *bin, err = testenv.Build(dir, command); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	code := m.Run()
	main.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}

const demoGoal = `Click "New project", type "Apollo" into "Project name", select "High" from "Priority", click "Create", then check that "Apollo" is visible`

// stack is one test's Temporal namespace, MinIO bucket and demo app (with the lab's
// pages beside it).
type stack struct {
	testenv.Stack
	client client.Client
	store  *store.MinIO
	app    *lab.Server
	appURL string
}

// newStack is a namespace and a bucket of the test's own on the shared servers, and a
// demo app of its own.
func newStack(t *testing.T) *stack {
	t.Helper()
	s := &stack{Stack: shared.Stack(t)}
	s.client = s.Client(t)
	s.store = s.Store(t)
	s.app = lab.New()
	s.serveApp(t)
	return s
}

// serveApp serves s.app (after a test replaced it) at s.appURL.
func (s *stack) serveApp(t *testing.T) {
	srv := httptest.NewServer(s.app)
	t.Cleanup(srv.Close)
	s.appURL = srv.URL + "/projects"
}

func (s *stack) worker(t *testing.T, env ...string) *testenv.Worker {
	return testenv.StartWorker(t, workerBin, s.Stack, env...)
}

func (s *stack) start(t *testing.T, in workflows.GoalInput) client.WorkflowRun {
	t.Helper()
	run, err := s.client.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{
		ID: workflows.GoalWorkflowID(time.Now(), t.Name()), TaskQueue: workflows.TaskQueue,
	}, workflows.GoalWorkflowName, in)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return run
}

func (s *stack) result(t *testing.T, run client.WorkflowRun) workflows.GoalResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var res workflows.GoalResult
	if err := workflows.ResultOf(&res, run.Get(ctx, &res)); err != nil {
		t.Fatalf("run %s: %v", run.GetID(), err)
	}
	if t.Failed() || res.Execution.Status != workflows.StatusSuccess {
		b, _ := json.MarshalIndent(res, "", "  ")
		t.Logf("result:\n%s", b)
	}
	return res
}

// history returns the run's events, replays them against today's workflow code (any
// non-determinism fails the test), and writes them for the replay test when asked to.
func (s *stack) history(t *testing.T, run client.WorkflowRun, name string) []*historypb.HistoryEvent {
	t.Helper()
	return s.historyOf(t, workflow.Execution{ID: run.GetID(), RunID: run.GetRunID()}, name)
}

// historyOf is history for a run known by its IDs (one the starter began, or a child).
func (s *stack) historyOf(t *testing.T, exec workflow.Execution, name string) []*historypb.HistoryEvent {
	t.Helper()
	h := &historypb.History{}
	it := s.client.GetWorkflowHistory(context.Background(), exec.ID, exec.RunID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatalf("history: %v", err)
		}
		h.Events = append(h.Events, e)
	}
	r := worker.NewWorkflowReplayer()
	workflows.RegisterAll(r)
	if err := r.ReplayWorkflowHistoryWithOptions(nil, h, worker.ReplayWorkflowHistoryOptions{OriginalExecution: exec}); err != nil {
		t.Errorf("replaying the run's history: %v", err)
	}
	if *updateHistories && name != "" {
		data, err := protojson.MarshalOptions{Indent: "  "}.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("..", "workflows", "testdata", "histories", name+".json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// The run's own IDs beside it: the replayer names children after them.
		ids, _ := json.Marshal(map[string]string{"workflowId": exec.ID, "runId": exec.RunID})
		if err := os.WriteFile(strings.TrimSuffix(path, ".json")+".execution", ids, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
	}
	return h.Events
}

// stepInputs decodes the RunStep activities the workflow scheduled, in order.
func stepInputs(t *testing.T, events []*historypb.HistoryEvent) []activities.RunStepInput {
	var ins []activities.RunStepInput
	for _, e := range events {
		a := e.GetActivityTaskScheduledEventAttributes()
		if a == nil || a.GetActivityType().GetName() != "RunStep" {
			continue
		}
		var in activities.RunStepInput
		if err := converter.GetDefaultDataConverter().FromPayloads(a.GetInput(), &in); err != nil {
			t.Fatalf("decode RunStep input: %v", err)
		}
		ins = append(ins, in)
	}
	return ins
}

func activityTypes(events []*historypb.HistoryEvent) []string {
	var names []string
	for _, e := range events {
		if a := e.GetActivityTaskScheduledEventAttributes(); a != nil {
			names = append(names, a.GetActivityType().GetName())
		}
	}
	return names
}

// TestDemoGoal runs the demo goal on a worker that serves its metrics, and scrapes them
// after the run (checkMetrics).
func TestDemoGoal(t *testing.T) {
	s := newStack(t)
	w := s.worker(t, "WEBAGENT_METRICS_ADDR=127.0.0.1:0")
	run := s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL})
	res := s.result(t, run)
	checkMetrics(t, w, workflows.Site(s.appURL))

	if res.Execution.Status != workflows.StatusSuccess || !res.Validation.Success {
		t.Fatalf("status %s, validation %+v", res.Execution.Status, res.Validation)
	}
	st := s.app.Snapshot()
	if len(st.Projects) != 1 || st.Projects[0] != (demoapp.Project{Name: "Apollo", Priority: "High"}) || st.CreateRequests != 1 {
		t.Fatalf("want exactly one project Apollo/High from one create request, got %+v", st)
	}
	if res.Execution.StepsCompleted != 5 || res.Execution.TotalRetries != 0 || res.Metadata.Planner != activities.PlannerOffline {
		t.Errorf("execution %+v planner %q", res.Execution, res.Metadata.Planner)
	}
	for _, step := range res.Steps {
		for _, key := range []string{step.Evidence.BeforeScreenshot, step.Evidence.AfterScreenshot} {
			if key == "" {
				t.Errorf("step %d has no screenshot key: %+v", step.Order, step.Evidence)
				continue
			}
			png, err := s.store.Get(context.Background(), key)
			if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
				t.Errorf("step %d screenshot %s: %v (%d bytes)", step.Order, key, err, len(png))
			}
		}
	}
	// The run's saved cookies and storage go beside its end (the worker deletes them in
	// the background once the browser is closed).
	eventually(t, 15*time.Second, "the run's browser state should be deleted at its end", func() bool {
		keys, err := s.store.List(context.Background(), fmt.Sprintf("runs/%s/%s/state/", run.GetID(), run.GetRunID()))
		return err == nil && len(keys) == 0
	})
	events := s.history(t, run, "demo-goal")
	// The browser opens while the goal is planned; the closing check was the last step, so
	// nothing looks at the final page again.
	want := []string{"OpenBrowser", "PlanGoal", "RunStep", "RunStep", "RunStep", "RunStep", "RunStep", "CloseBrowser"}
	if got := activityTypes(events); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("activities:\n got %v\nwant %v", got, want)
	}
}

func TestWorkerKilledMidRun(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	s := newStack(t)
	first := s.worker(t)
	run := s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL, Limits: workflows.Limits{WorkerLossTimeout: 5 * time.Second}})

	// Kill the worker — browser, driver and all — the moment step 2's activity completes:
	// the history is followed as the server writes it, so step 3 has barely begun.
	waitForCompletedSteps(t, s.client, run, 2)
	first.Kill()
	s.worker(t)
	res := s.result(t, run)

	if res.Execution.Status != workflows.StatusSuccess {
		t.Fatalf("status %s: %v", res.Execution.Status, res.Errors)
	}
	if res.Execution.BrowserRecoveries < 1 {
		t.Errorf("the run should report the browser recovery: %+v", res.Execution)
	}
	st := s.app.Snapshot()
	if st.CreateRequests != 1 || len(st.Projects) != 1 || st.Projects[0].Name != "Apollo" || st.Projects[0].Priority != "High" {
		t.Fatalf("want one create request for Apollo/High, got %+v", st)
	}
	// No completed step ran again as an attempt; the replays that rebuilt the dialog
	// after the loss are restores of steps that sent nothing to the server.
	attempts := map[int]int{}
	for _, in := range stepInputs(t, s.history(t, run, "worker-killed")) {
		if in.Purpose == activities.PurposeAttempt {
			attempts[in.Seq]++
		} else if in.Seq > 2 {
			t.Errorf("step %d was replayed to restore the page, but only steps 1-2 preceded the loss", in.Seq)
		}
	}
	for seq := 1; seq <= 2; seq++ {
		if attempts[seq] != 1 {
			t.Errorf("completed step %d was attempted %d times", seq, attempts[seq])
		}
	}
}

// waitForCompletedSteps follows the run's history with a long poll until n RunStep
// activities have completed.
func waitForCompletedSteps(t *testing.T, c client.Client, run client.WorkflowRun, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	scheduled := map[int64]string{}
	done := 0
	it := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), true, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatalf("follow the history: %v", err)
		}
		if a := e.GetActivityTaskScheduledEventAttributes(); a != nil {
			scheduled[e.GetEventId()] = a.GetActivityType().GetName()
		}
		if a := e.GetActivityTaskCompletedEventAttributes(); a != nil && scheduled[a.GetScheduledEventId()] == "RunStep" {
			if done++; done == n {
				return
			}
		}
	}
	t.Fatalf("the run ended before %d steps completed", n)
}
