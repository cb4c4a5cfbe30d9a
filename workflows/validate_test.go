package workflows

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// TestValidationIsRecordedOnce: a run's input is judged once, when it starts, and the
// verdict is in its history, so a cap tightened later does not change a run under way.
// The recorded run asked for one attempt per step; replayed with a cap that forbids it,
// it replays the same. Without the recorded verdict it fails at its first task instead.
func TestValidationIsRecordedOnce(t *testing.T) {
	const name = "testdata/histories/goal-not-achieved"
	f, err := os.Open(name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ids, err := os.ReadFile(name + ".execution")
	if err != nil {
		t.Fatal(err)
	}
	var exec struct{ WorkflowID, RunID string }
	if err := json.Unmarshal(ids, &exec); err != nil {
		t.Fatal(err)
	}
	was := limitCaps.AttemptsPerStep
	limitCaps.AttemptsPerStep = 0
	defer func() { limitCaps.AttemptsPerStep = was }()
	if err := (GoalInput{Goal: `click "A"`, StartURL: "http://app.test", Limits: Limits{AttemptsPerStep: 1}}).Validate(); err == nil || !strings.Contains(err.Error(), "attemptsPerStep") {
		t.Fatalf("the tightened cap should refuse the recorded run's input: %v", err)
	}
	r := worker.NewWorkflowReplayer()
	RegisterAll(r)
	if err := r.ReplayWorkflowHistoryWithOptions(nil, h, worker.ReplayWorkflowHistoryOptions{OriginalExecution: workflow.Execution{ID: exec.WorkflowID, RunID: exec.RunID}}); err != nil {
		t.Fatalf("a run under way should replay under the tightened cap: %v", err)
	}
}
