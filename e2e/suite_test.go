package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

func createGoal(name string) string {
	return fmt.Sprintf(`Click "New project", type %q into "Project name", click "Create", then check that %q is visible`, name, name)
}

// suiteResult reads the result of the suite the test started.
func suiteResult(t *testing.T, s *stack) workflows.SuiteResult {
	t.Helper()
	ids := listRuns(t, s, `WorkflowType="Suite"`)
	if len(ids) != 1 {
		t.Fatalf("%d suites", len(ids))
	}
	var res workflows.SuiteResult
	if err := s.client.GetWorkflow(context.Background(), ids[0], "").Get(context.Background(), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// overlap is the most entries that ran at one moment.
func overlap(entries []workflows.EntryResult) int {
	most := 0
	for _, a := range entries {
		n := 0
		for _, b := range entries {
			if !b.Started.After(a.Started) && b.Ended.After(a.Started) {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// TestSuiteFromAFile: `starter run --file` with six goals runs them three at a time as
// one Suite with a child Goal each, prints the table, and exits 1 for the one that fails.
func TestSuiteFromAFile(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	s := newStack(t)
	s.worker(t)
	var lines []string
	for k := 1; k <= 5; k++ {
		lines = append(lines, createGoal(fmt.Sprintf("Suite-%d", k)))
	}
	lines = append(lines[:3], append([]string{`Click "No such button"`}, lines[3:]...)...)
	file := filepath.Join(t.TempDir(), "goals.txt")
	if err := os.WriteFile(file, []byte("# the team's checks\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := s.starter(t, "run", "--file", file, "--parallel", "3", "--url", s.appURL, "--attempts", "1")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (one goal fails)\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "5 passed, 1 failed, 0 not run") || !strings.Contains(out, "FAIL failed") || strings.Count(out, "ok success") != 5 {
		t.Errorf("the table:\n%s", out)
	}
	res := suiteResult(t, s)
	if n := overlap(res.Entries); n != 3 {
		t.Errorf("at most %d goals ran at once, want 3", n)
	}
	if st := s.app.Snapshot(); st.CreateRequests != 5 {
		t.Errorf("%d create requests for 5 goals", st.CreateRequests)
	}
	if _, errOut, code := s.starter(t, "run", "--file", file, "--parallel", "0", "--url", "not a url"); code != 2 || !strings.Contains(errOut, "entry g1") {
		t.Errorf("a suite with bad entries: exit %d\n%s", code, errOut)
	}
}

// browserQueue is the task queue of the worker that holds a Goal run's browser.
func browserQueue(t *testing.T, s *stack, id string) string {
	t.Helper()
	it := s.client.GetWorkflowHistory(context.Background(), id, "", false, 0)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := e.GetActivityTaskCompletedEventAttributes(); a != nil {
			var r activities.OpenBrowserResult
			if err := converter.GetDefaultDataConverter().FromPayloads(a.GetResult(), &r); err == nil && r.TaskQueue != "" {
				return r.TaskQueue
			}
		}
	}
	return ""
}

// TestSuiteGraph: two independent sub-goals run in parallel, each with its own browser on
// its own worker; a third that depends on both runs after them. Killing the worker of
// one of them mid-run recovers that one only.
func TestSuiteGraph(t *testing.T) {
	s := newStack(t)
	one := []string{"WEBAGENT_MAX_BROWSERS=1"}
	workers := []*testenv.Worker{s.worker(t, one...), s.worker(t, one...)}
	file := filepath.Join(t.TempDir(), "graph.yaml")
	yaml := fmt.Sprintf(`name: two projects
parallel: 2
entries:
  - id: alpha
    goal: '%s'
    limits: {workerLossTimeout: "5s"}
  - id: beta
    goal: '%s'
    limits: {workerLossTimeout: "5s"}
  - id: both
    goal: 'Check that "Alpha" is visible, then check that "Beta" is visible'
    depends_on: [alpha, beta]
`, createGoal("Alpha"), createGoal("Beta"))
	if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	var out, errOut string
	go func() {
		var code int
		out, errOut, code = s.starter(t, "run", "--file", file, "--url", s.appURL)
		done <- code
	}()

	// Once alpha has done two steps, kill the worker that holds its browser.
	var alpha string
	eventually(t, time.Minute, "alpha starts", func() bool {
		ids := listRuns(t, s, `WorkflowType="Goal"`)
		i := slices.IndexFunc(ids, func(id string) bool { return strings.HasSuffix(id, "-alpha") })
		if i >= 0 {
			alpha = ids[i]
		}
		return alpha != ""
	})
	run := s.client.GetWorkflow(context.Background(), alpha, "")
	waitForCompletedSteps(t, s.client, run, 2)
	queue := browserQueue(t, s, alpha)
	killed := false
	for _, w := range workers {
		if strings.Contains(w.Output(), "browserQueue="+queue) {
			w.Kill()
			killed = true
		}
	}
	if !killed {
		t.Fatalf("no worker holds alpha's browser (%s)", queue)
	}
	s.worker(t, one...)

	var code int
	select {
	case code = <-done:
	case <-time.After(4 * time.Minute):
		t.Fatal("the suite did not end")
	}
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	res := suiteResult(t, s)
	e := map[string]workflows.EntryResult{}
	for _, r := range res.Entries {
		e[r.ID] = r
	}
	if !e["alpha"].Started.Before(e["beta"].Ended) || !e["beta"].Started.Before(e["alpha"].Ended) {
		t.Errorf("alpha and beta did not run side by side: %+v %+v", e["alpha"], e["beta"])
	}
	if e["both"].Started.Before(e["alpha"].Ended) || e["both"].Started.Before(e["beta"].Ended) {
		t.Errorf("both started before its dependencies ended")
	}
	goal := func(id string) workflows.GoalResult {
		var r workflows.GoalResult
		if err := s.client.GetWorkflow(context.Background(), e[id].WorkflowID, "").Get(context.Background(), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if a, b := goal("alpha"), goal("beta"); a.Execution.BrowserRecoveries < 1 || b.Execution.BrowserRecoveries != 0 {
		t.Errorf("recoveries: alpha %d (want ≥ 1), beta %d (want 0)", a.Execution.BrowserRecoveries, b.Execution.BrowserRecoveries)
	}
	if st := s.app.Snapshot(); st.CreateRequests != 2 {
		t.Errorf("%d create requests, want 2", st.CreateRequests)
	}
}

// TestAStartPageThatIsNoneFailsFast: a start URL that answers 404 ends the run at once,
// failed, saying so — nothing is tried on an error page.
func TestAStartPageThatIsNoneFailsFast(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	s := newStack(t)
	s.worker(t)
	out, errOut, code := s.starter(t, "run", "--url", strings.TrimSuffix(s.appURL, "/projects")+"/no-such-page", createGoal("Nowhere"))
	if code != 1 || !strings.Contains(out, "answered HTTP 404") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	// At once: no step tried, none retried, no browser reopened (counted, not timed).
	if !strings.Contains(out, "steps: 0 completed, 0 failed, 4 skipped of 4; retries 0; replans 0; browser recoveries 0") {
		t.Errorf("the run tried something on the error page:\n%s", out)
	}
}

// TestParallelGoal: a goal written "In parallel: A; B. After both: C" runs A and B side by
// side as goals of their own, then C, and reads as one run.
func TestParallelGoal(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	s := newStack(t)
	s.worker(t)
	goal := fmt.Sprintf(`In parallel: %s; %s. After both: check that "Alpha" is visible, then check that "Beta" is visible`, createGoal("Alpha"), createGoal("Beta"))
	out, errOut, code := s.starter(t, "run", "--json", "--url", s.appURL, goal)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var res workflows.GoalResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Execution.StepsCompleted != 3 || !res.Validation.Verified {
		t.Errorf("%+v %+v", res.Execution, res.Validation)
	}
	sr := suiteResult(t, s)
	s.historyOf(t, workflow.Execution{ID: res.Metadata.WorkflowID, RunID: res.Metadata.RunID}, "parts")
	suite := listRuns(t, s, `WorkflowType="Suite"`)[0]
	d, err := s.client.DescribeWorkflowExecution(context.Background(), suite, "")
	if err != nil {
		t.Fatal(err)
	}
	s.historyOf(t, workflow.Execution{ID: suite, RunID: d.GetWorkflowExecutionInfo().GetExecution().GetRunId()}, "suite")
	a, b, c := sr.Entries[0], sr.Entries[1], sr.Entries[2]
	if !a.Started.Before(b.Ended) || !b.Started.Before(a.Ended) || c.Started.Before(a.Ended) || c.Started.Before(b.Ended) {
		t.Errorf("parts: %+v", sr.Entries)
	}
}
