package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/internal/config"
	"github.com/webagent-dev/webagent/workflows"
)

// ask runs a short workflow on the workers and waits for its result: the starter holds
// no worker's configuration (no store or skills credentials, no model key), so what
// needs them is done by a worker.
func ask(ctx context.Context, workflowType, idPrefix string, in, out any) error {
	tc := config.TemporalFromEnv()
	c, err := tc.Dial(ctx, 10*time.Second, nil)
	if err != nil {
		return badInput{err}
	}
	defer c.Close()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       fmt.Sprintf("%s-%s-%s", idPrefix, time.Now().UTC().Format("20060102-150405"), randomSuffix()),
		TaskQueue:                workflows.TaskQueue,
		WorkflowExecutionTimeout: 5 * time.Minute,
		StaticSummary:            idPrefix,
	}, workflowType, in)
	if err != nil {
		return fmt.Errorf("start %s: %w", workflowType, err)
	}
	return run.Get(ctx, out)
}

// badInput marks an error that is the caller's to fix (exit status 2).
type badInput struct{ err error }

func (b badInput) Error() string { return b.err.Error() }
func (b badInput) Unwrap() error { return b.err }

// appError is the type and message of the application error that ended a workflow, if
// one did.
func appError(err error) (string, string, bool) {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		return ae.Type(), ae.Message(), true
	}
	return "", "", false
}
