package workflows_test

import (
	"path/filepath"
	"testing"

	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/workflows"
)

// TestReplayHistories replays recorded runs against today's workflow code: a change that
// would break a run in flight fails here. The histories are real runs recorded by the
// end-to-end tests (go test ./e2e -args -update-histories): the demo goal, the same goal
// with its worker killed mid-run, a model's replan, the first run of a long run that
// continued as new (with the "continue-as-new" version marker), and a sign-in whose input
// said where the worker read its secrets, recorded before the worker's operator granted
// them (replayed as it ran, by the "worker-secrets" version).
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
			r.RegisterWorkflowWithOptions(workflows.Goal, workflow.RegisterOptions{Name: workflows.GoalWorkflowName})
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, f); err != nil {
				t.Fatalf("replay %s: %v", f, err)
			}
		})
	}
}
