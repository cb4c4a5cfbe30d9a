package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
)

// GrantsWorkflowName is the Grants workflow's registered type name.
const GrantsWorkflowName = "Grants"

// Grants asks a worker on the shared queue what its operator grants runs: the secrets a
// goal may name and the internal addresses its browsers may reach. Workers of one queue
// should be configured alike; the answer is the one that took the task.
func Grants(ctx workflow.Context, in activities.WorkerGrantsInput) (activities.WorkerGrantsResult, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:           TaskQueue,
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3},
		Summary:             "what the worker grants",
	})
	return activities.WorkerGrants.Execute(ctx, in)
}
