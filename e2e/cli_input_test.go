package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// TestBadInputThroughTheCLI sends bad input straight to the workflow with the temporal
// CLI, past every check of the starter: each run ends failed with the reason within
// seconds, and none fails a workflow task (a failing task is retried forever, and the run
// would show "Running" with nothing to say why).
func TestBadInputThroughTheCLI(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	s := newStack(t)
	s.worker(t)
	app := strings.TrimSuffix(s.appURL, "/projects")
	tests := []struct {
		name, input, want string
	}{
		{"over-long wait", fmt.Sprintf(`{"goal":"wait","startUrl":%q,"plan":[{"step":1,"action":"WAIT","value":"99999999999999999999 minutes"}]}`, app), "longer than"},
		{"over-long goal", fmt.Sprintf(`{"goal":%q,"startUrl":%q}`, strings.Repeat(`click "A", `, 3000), app), "at most 20000"},
		{"limits past their caps", fmt.Sprintf(`{"goal":"click \"A\"","startUrl":%q,"limits":{"attemptsPerStep":1000,"stepsPerRun":-1}}`, app), "limits.attemptsPerStep is 1000"},
		{"a duration that is none", fmt.Sprintf(`{"goal":"click \"A\"","startUrl":%q,"limits":{"deadline":"soon"}}`, app), `"soon" is not a duration`},
		{"a field of the wrong type", fmt.Sprintf(`{"goal":42,"startUrl":%q}`, app), `field "goal" is a JSON number; it must be a string`},
		{"a file address", `{"goal":"click \"A\"","startUrl":"file:///etc/passwd"}`, "http"},
		{"a navigation to the metadata address", fmt.Sprintf(`{"goal":"g","startUrl":%q,"plan":[{"step":1,"action":"NAVIGATE","value":"http://169.254.169.254/latest/meta-data/"}]}`, "https://www.example.com/"), "internal address"},
		{"a carried state by hand", fmt.Sprintf(`{"goal":"g","startUrl":%q,"continued":{"next":5}}`, app), "continued is set only by a run's own continue-as-new"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := fmt.Sprintf("bad-input-%d-%d", time.Now().UnixNano(), i)
			cmd := exec.Command(testenv.TemporalBin(t), "workflow", "start", "--address", s.TemporalAddr, "--namespace", s.Namespace,
				"--type", workflows.GoalWorkflowName, "--task-queue", workflows.TaskQueue, "--workflow-id", id, "--input", tt.input)
			cmd.Env = os.Environ()
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("temporal workflow start: %v\n%s", err, out.String())
			}
			started := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			err := s.client.GetWorkflow(ctx, id, "").Get(ctx, nil)
			took := time.Since(started)
			var ae *temporal.ApplicationError
			if !errors.As(err, &ae) || ae.Type() != workflows.ErrBadInput || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want the run failed with a BadInput error saying %q, got %v", tt.want, err)
			}
			if took > 10*time.Second {
				t.Errorf("the run took %s to end", took)
			}
			it := s.client.GetWorkflowHistory(ctx, id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
			for it.HasNext() {
				e, err := it.Next()
				if err != nil {
					t.Fatal(err)
				}
				if e.GetEventType() == enums.EVENT_TYPE_WORKFLOW_TASK_FAILED {
					t.Errorf("a workflow task failed: %v", e.GetWorkflowTaskFailedEventAttributes().GetFailure().GetMessage())
				}
			}
			d, err := s.client.DescribeWorkflowExecution(ctx, id, "")
			if err != nil || d.GetWorkflowExecutionInfo().GetStatus() != enums.WORKFLOW_EXECUTION_STATUS_FAILED {
				t.Errorf("status %v (%v), want failed", d.GetWorkflowExecutionInfo().GetStatus(), err)
			}
		})
	}
}
