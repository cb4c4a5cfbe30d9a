package client

import (
	"context"
	"testing"
	"time"

	tclient "go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/workflows"
)

// endsFailed stands for a run that continues as new once, then ends as a Failed
// execution with the standard output in its failure's details.
func endsFailed(ctx workflow.Context, continued bool) (*Result, error) {
	if !continued {
		return nil, workflow.NewContinueAsNewError(ctx, endsFailed, true)
	}
	res := Result{}
	res.Execution.Status = workflows.StatusFailed
	res.Metadata.WorkflowID = workflow.GetInfo(ctx).WorkflowExecution.ID
	res.Summary.Brief = "Failed: click \"Delete everything\""
	return nil, temporal.NewApplicationErrorWithOptions(res.Summary.Brief, "GoalFailed", temporal.ApplicationErrorOptions{NonRetryable: true, Details: []any{res}})
}

// TestResultOfAFailedRun: Result follows the run it continued as, and reads the output of
// a run that failed from its failure's details, as from one that completed.
func TestResultOfAFailedRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := Dial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c.Temporal(), "client-test", worker.Options{})
	w.RegisterWorkflowWithOptions(endsFailed, workflow.RegisterOptions{Name: "EndsFailed"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	wr, err := c.Temporal().ExecuteWorkflow(ctx, tclient.StartWorkflowOptions{ID: "ends-failed", TaskQueue: "client-test"}, "EndsFailed", false)
	if err != nil {
		t.Fatal(err)
	}
	// From the first run, as Start returns it.
	res, err := c.run(wr.GetID(), wr.GetRunID()).Result(ctx)
	if err != nil || res.Execution.Status != workflows.StatusFailed || res.Metadata.WorkflowID != "ends-failed" {
		t.Fatalf("result %+v, %v", res.Execution, err)
	}
}
