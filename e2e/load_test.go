//go:build load

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/workflow"

	agent "github.com/webagent-dev/webagent/client"
	"github.com/webagent-dev/webagent/workflows"
)

// TestLoad runs a file of 20 goals, 8 at once, over two workers of four browsers, and
// kills one worker (SIGKILL, browser and all) once a third of the goals have succeeded.
// Every goal must end success and create its project exactly once. A step the kill left
// in doubt is answered as a person would, from the demo app's own list; the test says
// how often. `make load` runs it (it is not part of `make test`).
func TestLoad(t *testing.T) {
	s := newStack(t)
	workers := [2]func(){}
	for i := range workers {
		workers[i] = s.worker(t).Kill
	}
	const goals, parallel = 20, 8
	var b strings.Builder
	fmt.Fprintf(&b, "name: load\nparallel: %d\nentries:\n", parallel)
	for i := 1; i <= goals; i++ {
		fmt.Fprintf(&b, "  - id: g%02d\n    goal: '%s'\n    limits: {workerLossTimeout: \"5s\"}\n", i, createGoal(loadName(i)))
	}
	file := filepath.Join(t.TempDir(), "load.yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var asked, killedAt atomic.Int64
	watching := make(chan struct{})
	go func() { // the killer, and a person who answers for steps in doubt
		defer close(watching)
		for ctx.Err() == nil {
			time.Sleep(500 * time.Millisecond)
			if killedAt.Load() == 0 && len(listRuns(t, s, `WorkflowType="Goal" AND WebagentStatus="success"`)) >= goals/3 {
				workers[0]()
				killedAt.Store(int64(time.Since(started)))
			}
			for _, id := range listRuns(t, s, `WorkflowType="Goal" AND ExecutionStatus="Running"`) {
				run := s.client.GetWorkflow(ctx, id, "")
				if d := doubt(s, run); d != nil {
					decision := "repeat"
					if slices.Contains(projectNames(s), loadName(entryNumber(id))) {
						decision = "done"
					}
					if _, err := resolve(ctx, s, run, workflows.Resolution{Step: d.Step, Decision: decision, By: "load test"}); err == nil {
						asked.Add(1)
					}
				}
			}
		}
	}()
	out, errOut, code := s.starter(t, "run", "--file", file, "--url", s.appURL)
	took := time.Since(started)
	stop()
	<-watching // it lists runs with the test's client: done before the test ends
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if killedAt.Load() == 0 {
		t.Fatal("no worker was killed")
	}
	res := suiteResult(t, s)
	recoveries := 0
	for _, e := range res.Entries {
		if e.Status != workflows.StatusSuccess {
			t.Errorf("%s: %s (%s)", e.ID, e.Status, e.Reason)
		}
		var g workflows.GoalResult
		if err := workflows.ResultOf(&g, s.client.GetWorkflow(context.Background(), e.WorkflowID, "").Get(context.Background(), &g)); err == nil {
			recoveries += g.Execution.BrowserRecoveries
			if g.Execution.BrowserRecoveries > 0 || e.DurationMs > 10_000 {
				t.Logf("%s: %s in %s, %d recoveries, warnings %v", e.ID, e.Status, time.Duration(e.DurationMs)*time.Millisecond, g.Execution.BrowserRecoveries, g.Summary.Warnings)
			}
			if e.DurationMs > 30_000 {
				t.Logf("%s waited: %s\n%s", e.ID, gaps(t, s, e.WorkflowID), accountText(t, s, e.WorkflowID))
			}
		}
	}
	st := s.app.Snapshot()
	names := projectNames(s)
	slices.Sort(names)
	if st.CreateRequests != goals || len(slices.Compact(names)) != goals {
		t.Errorf("%d create requests, %d projects (%d distinct), want %d each", st.CreateRequests, len(st.Projects), len(slices.Compact(names)), goals)
	}
	t.Logf("%d goals, %d at once, on two workers of 4 browsers, one killed at %s: %d success, %d create requests, %d browser recoveries, a person asked %d times; %s in all (%.2f goals/s)",
		goals, parallel, time.Duration(killedAt.Load()).Round(100*time.Millisecond), len(res.Entries), st.CreateRequests, recoveries, asked.Load(), took.Round(100*time.Millisecond), float64(goals)/took.Seconds())
}

// accountText is where a run's time went (starter time), for a goal that took long.
func accountText(t *testing.T, s *stack, id string) string {
	a, err := agent.New(s.client, s.Namespace, "").Run(id).Account(context.Background())
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	if err := a.WriteText(&b); err != nil {
		t.Log(err)
	}
	return b.String()
}

// loadName is the project the i-th goal of the load creates.
func loadName(i int) string { return fmt.Sprintf("Load%02d", i) }

// entryNumber is the number of the load's entry a child run's ID names ("...-g07").
func entryNumber(id string) int {
	var n int
	if i := strings.LastIndex(id, "-g"); i >= 0 {
		fmt.Sscanf(id[i+2:], "%d", &n)
	}
	return n
}

// projectNames are the projects the demo app holds.
func projectNames(s *stack) []string {
	var names []string
	for _, p := range s.app.Snapshot().Projects {
		names = append(names, p.Name)
	}
	return names
}

// gaps lists the waits of more than five seconds in a run's history: the event that ended
// each, and how long it came after the one before.
func gaps(t *testing.T, s *stack, id string) string {
	var out []string
	var last time.Time
	for _, e := range s.historyOf(t, workflow.Execution{ID: id}, "") {
		at := e.GetEventTime().AsTime()
		if !last.IsZero() && at.Sub(last) > 5*time.Second {
			out = append(out, fmt.Sprintf("%s after %s", e.GetEventType(), at.Sub(last).Round(100*time.Millisecond)))
		}
		last = at
	}
	return strings.Join(out, "; ")
}
