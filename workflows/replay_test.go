package workflows_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"

	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/workflows"
)

// TestReplayHistories replays recorded runs against today's workflow code: a change that
// would break a run in flight fails here. The histories are real runs recorded by the
// end-to-end tests (go test ./e2e -run <Test> -args -update-histories), one per feature:
// the demo goal; the same goal with its worker killed mid-run; a model's replan; the first
// run of a long run that continued as new; a sign-in whose input said where the worker
// read its secrets (the "worker-secrets" version); a goal verified by the value it read,
// which teaches the skills library (its IDs are kept beside it, since the skill child is
// named after the run); a goal run as parts, and its suite; and the Updates people answer
// with — a step held for approval, a hint, a pause and resume, the model's confirmation
// (computer use), a step in doubt answered by a person — each recorded twice: before the
// one wait for a person (before-one-wait-*, replayed by legacy.go) and after it; a run
// that tells its webhook when it waits and ends (the "notify-webhook" version). Every
// run begun since the search attributes keeps them, so most histories upsert them; a goal
// not achieved fails its execution with the output in the failure (goal-not-achieved).
func TestReplayHistories(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "histories", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no histories under testdata/histories")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			workflows.RegisterAll(r)
			h, err := client.HistoryFromJSON(mustOpen(t, f), client.HistoryJSONOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := r.ReplayWorkflowHistoryWithOptions(nil, h, worker.ReplayWorkflowHistoryOptions{OriginalExecution: originalExecution(t, f)}); err != nil {
				t.Fatalf("replay %s: %v", f, err)
			}
		})
	}
}

func mustOpen(t *testing.T, path string) io.Reader {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(data)
}

// originalExecution is the recorded run's IDs, kept beside its history in a .execution
// file when the run started a child (whose ID the workflow derives from its own); without
// one the replayer's made-up IDs do.
func originalExecution(t *testing.T, history string) workflow.Execution {
	t.Helper()
	data, err := os.ReadFile(strings.TrimSuffix(history, ".json") + ".execution")
	if errors.Is(err, fs.ErrNotExist) {
		return workflow.Execution{}
	}
	var ids struct{ WorkflowID, RunID string }
	if err == nil {
		err = json.Unmarshal(data, &ids)
	}
	if err != nil {
		t.Fatalf("the IDs beside %s: %v", history, err)
	}
	return workflow.Execution{ID: ids.WorkflowID, RunID: ids.RunID}
}
