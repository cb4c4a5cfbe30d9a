package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
)

// linkStore holds keys and links each one to a fake URL; like MinIO it answers List for a
// plain string prefix.
type linkStore struct {
	keys   []string
	linked int
}

func (l *linkStore) List(_ context.Context, prefix string) ([]string, error) {
	var out []string
	for _, k := range l.keys {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	return out, nil
}

func (l *linkStore) Link(_ context.Context, key string, ttl time.Duration) (string, error) {
	l.linked++
	return fmt.Sprintf("https://store.test/%s?ttl=%s", key, ttl), nil
}

// run is one execution the fake Temporal knows.
type execution struct {
	wf, id, first string
	status        enums.WorkflowExecutionStatus
}

// fakeRuns answers DescribeWorkflowExecution like the server: runID "" is the workflow's
// latest run (the last listed), an unknown run is NotFound.
type fakeRuns struct {
	runs []execution
	err  error
}

func (f *fakeRuns) DescribeWorkflowExecution(_ context.Context, wf, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	if f.err != nil {
		return nil, f.err
	}
	var found *execution
	for i, r := range f.runs {
		if r.wf == wf && (runID == "" || r.id == runID) {
			found = &f.runs[i]
		}
	}
	if found == nil {
		return nil, serviceerror.NewNotFound("workflow execution not found")
	}
	return &workflowservice.DescribeWorkflowExecutionResponse{WorkflowExecutionInfo: &workflowpb.WorkflowExecutionInfo{
		Execution: &commonpb.WorkflowExecution{WorkflowId: found.wf, RunId: found.id}, FirstRunId: found.first, Status: found.status,
	}}, nil
}

const (
	done    = enums.WORKFLOW_EXECUTION_STATUS_COMPLETED
	running = enums.WORKFLOW_EXECUTION_STATUS_RUNNING
)

// bucket holds two runs of goal-1, one of goal-10 (whose keys start with goal-1's
// "runs/goal-1"), one of "a", and the runs of two workflows whose IDs hold a "/", kept
// beside it escaped (activities.RunPrefix).
var bucket = []string{
	"runs/goal-1/r1/dataset/001.png",
	"runs/goal-1/r1/dataset/manifest.json",
	"runs/goal-1/r1/state/003.json",
	"runs/goal-1/r1/steps/001-1-before.png",
	"runs/goal-1/r2/steps/001-1-before.png",
	"runs/goal-10/r9/steps/001-1-before.png",
	"runs/a/" + runB + "/steps/001-1-before.png",
	"runs/a%2F" + runB + "/" + runC + "/steps/001-1-before.png",
	"runs/a%2F" + runB + "%2Fc/" + runC + "/final.png",
}

// runB is a run of workflow "a"; runC a run of "a/<runB>" and of "a/<runB>/c".
const (
	runB = "0195f2a4-7c1e-7b3a-9d2e-5f6a7b8c9d0e"
	runC = "0195f2a4-8d2f-7c4b-8e3f-6a7b8c9d0e1f"
)

func sharing(runs ...execution) (*Sharing, *linkStore) {
	st := &linkStore{keys: bucket}
	return &Sharing{Store: st, Runs: &fakeRuns{runs: runs}}, st
}

func keysOf(res activities.ShareRunResult) []string {
	var out []string
	for _, o := range res.Objects {
		out = append(out, o.Key)
	}
	return out
}

func TestShareRunSharesOneClosedRun(t *testing.T) {
	s, _ := sharing(execution{"goal-1", "r1", "r1", done}, execution{"goal-1", "r2", "r2", done}, execution{"goal-10", "r9", "r9", done})
	res, err := s.ShareRun(context.Background(), activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	// Not r2's, not goal-10's, and not the sealed browser state.
	want := []string{"runs/goal-1/r1/dataset/001.png", "runs/goal-1/r1/dataset/manifest.json", "runs/goal-1/r1/steps/001-1-before.png"}
	if got := keysOf(res); strings.Join(got, " ") != strings.Join(want, " ") || res.Truncated {
		t.Fatalf("shared %v (truncated %v); want %v", got, res.Truncated, want)
	}
	if u := res.Objects[0].URL; !strings.HasSuffix(u, "ttl=15m0s") {
		t.Errorf("default TTL: link %s", u)
	}

	res, err = s.ShareRun(context.Background(), activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r1", Folder: "dataset", TTL: 48 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if got := keysOf(res); len(got) != 2 || !strings.HasSuffix(res.Objects[0].URL, "ttl=24h0m0s") {
		t.Fatalf("dataset folder: %v, %s", got, res.Objects[0].URL)
	}
}

func TestShareRunRefuses(t *testing.T) {
	cases := []struct {
		name string
		in   activities.ShareRunInput
		runs []execution
		want string
	}{
		{"bare runs/ prefix", activities.ShareRunInput{Prefix: "runs/"}, nil, "no longer shared by key prefix"},
		{"a run's exact prefix", activities.ShareRunInput{Prefix: "runs/goal-1/r1/"}, []execution{{"goal-1", "r1", "r1", done}}, "workflowId and runId"},
		{"prefix beside IDs", activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r1", Prefix: "runs/"}, []execution{{"goal-1", "r1", "r1", done}}, "key prefix"},
		{"no IDs", activities.ShareRunInput{}, nil, "is missing"},
		{"no run ID", activities.ShareRunInput{WorkflowID: "goal-1"}, []execution{{"goal-1", "r1", "r1", done}}, "is missing"},
		{"an escaping run ID names no run", activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r1/../../goal-10/r9"}, []execution{{"goal-1", "r1", "r1", done}}, "there is no run"},
		{"escaping folder", activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r1", Folder: "../r2"}, []execution{{"goal-1", "r1", "r1", done}}, "folder"},
		{"state folder", activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r1", Folder: "state"}, []execution{{"goal-1", "r1", "r1", done}}, "never shared"},
		{"unknown run", activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r7"}, []execution{{"goal-1", "r1", "r1", done}}, "there is no run r7"},
		{"unknown workflow", activities.ShareRunInput{WorkflowID: "goal-2", RunID: "r1"}, []execution{{"goal-1", "r1", "r1", done}}, "there is no run"},
		{"open run", activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r1"}, []execution{{"goal-1", "r1", "r1", running}}, "has not finished (running)"},
		{"paused run", activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r1"}, []execution{{"goal-1", "r1", "r1", enums.WORKFLOW_EXECUTION_STATUS_PAUSED}}, "has not finished (paused)"},
		// The chain writes under r1 while r2 runs.
		{"continued, still running", activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r1"},
			[]execution{{"goal-1", "r1", "r1", enums.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW}, {"goal-1", "r2", "r1", running}}, "has not finished"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, st := sharing(c.runs...)
			res, err := s.ShareRun(context.Background(), c.in)
			var ae *temporal.ApplicationError
			if !errors.As(err, &ae) || ae.Type() != activities.ErrBadInput || !ae.NonRetryable() {
				t.Fatalf("want a non-retryable %s error; got %v (shared %v)", activities.ErrBadInput, err, keysOf(res))
			}
			if !strings.Contains(ae.Message(), c.want) {
				t.Errorf("message %q does not say %q", ae.Message(), c.want)
			}
			if st.linked != 0 {
				t.Errorf("%d links were made for a refused input", st.linked)
			}
		})
	}
}

func TestShareRunKeepsSlashedIDsApart(t *testing.T) {
	// Temporal allows "/" in a workflow ID: the runs of "a/<runB>" and "a/<runB>/c" keep
	// their objects beside run runB of "a", escaped, not inside its folder.
	s, _ := sharing(execution{"a", runB, runB, done}, execution{"a/" + runB, runC, runC, done})
	res, err := s.ShareRun(context.Background(), activities.ShareRunInput{WorkflowID: "a", RunID: runB})
	if got := keysOf(res); err != nil || len(got) != 1 || got[0] != "runs/a/"+runB+"/steps/001-1-before.png" {
		t.Fatalf("shared %v, %v; want only run %s's own step", got, err, runB)
	}
	res, err = s.ShareRun(context.Background(), activities.ShareRunInput{WorkflowID: "a/" + runB, RunID: runC})
	if got := keysOf(res); err != nil || len(got) != 1 || got[0] != "runs/a%2F"+runB+"/"+runC+"/steps/001-1-before.png" {
		t.Fatalf("shared %v, %v; want only the slashed run's own step", got, err)
	}
}

func TestShareRunContinuedChain(t *testing.T) {
	// r1 continued as new into r2, which has ended; a later chain (r3) of the same ID runs.
	for _, latest := range []execution{{"goal-1", "r2", "r1", done}, {"goal-1", "r3", "r3", running}} {
		s, _ := sharing(execution{"goal-1", "r1", "r1", enums.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW}, execution{"goal-1", "r2", "r1", done}, latest)
		res, err := s.ShareRun(context.Background(), activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r1"})
		if err != nil || len(res.Objects) != 3 {
			t.Fatalf("latest %v: %v, %v", latest, keysOf(res), err)
		}
	}
}

func TestShareRunTemporalDown(t *testing.T) {
	s := &Sharing{Store: &linkStore{}, Runs: &fakeRuns{err: serviceerror.NewUnavailable("connection refused")}}
	_, err := s.ShareRun(context.Background(), activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r1"})
	var ae *temporal.ApplicationError
	if err == nil || errors.As(err, &ae) {
		t.Fatalf("an unreachable server should be retried, not bad input: %v", err)
	}
}

func TestShareRunTruncates(t *testing.T) {
	st := &linkStore{}
	for i := range MaxSharedObjects + 5 {
		st.keys = append(st.keys, fmt.Sprintf("runs/goal-1/r1/steps/%04d-1-before.png", i))
	}
	// MinIO lists in key order; a fake that does not must not change which are first.
	sort.Sort(sort.Reverse(sort.StringSlice(st.keys)))
	s := &Sharing{Store: st, Runs: &fakeRuns{runs: []execution{{"goal-1", "r1", "r1", done}}}}
	res, err := s.ShareRun(context.Background(), activities.ShareRunInput{WorkflowID: "goal-1", RunID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Objects) != MaxSharedObjects || !res.Truncated || res.Objects[0].Key != "runs/goal-1/r1/steps/0000-1-before.png" {
		t.Fatalf("%d objects, truncated %v, first %s", len(res.Objects), res.Truncated, res.Objects[0].Key)
	}
	if st.linked != MaxSharedObjects {
		t.Errorf("%d links made for %d shared", st.linked, MaxSharedObjects)
	}

	// Long keys hit the byte bound before the count: the answer stays under it.
	long := strings.Repeat("w", 900)
	st = &linkStore{}
	for i := range 600 {
		st.keys = append(st.keys, fmt.Sprintf("runs/%s/r1/steps/%04d.png", long, i))
	}
	s = &Sharing{Store: st, Runs: &fakeRuns{runs: []execution{{long, "r1", "r1", done}}}}
	res, err = s.ShareRun(context.Background(), activities.ShareRunInput{WorkflowID: long, RunID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := json.Marshal(res)
	if !res.Truncated || len(res.Objects) >= 600 || len(enc) > MaxSharedBytes+64 {
		t.Fatalf("%d objects in %d bytes, truncated %v", len(res.Objects), len(enc), res.Truncated)
	}
}
