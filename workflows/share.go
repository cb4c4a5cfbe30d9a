package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
)

// ShareRunWorkflowName is the ShareRun workflow's registered type name.
const ShareRunWorkflowName = "ShareRun"

// ShareRun hands out time-limited links to what one finished run stored (its dataset, its
// screenshots), made by a worker that holds the store's credentials, so that whoever asks
// needs only Temporal. The activity decides what may be shared: the workflow only carries
// the question.
func ShareRun(ctx workflow.Context, in activities.ShareRunInput) (activities.ShareRunResult, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:           TaskQueue,
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3, NonRetryableErrorTypes: []string{activities.ErrBadInput}},
		Summary:             "links to run " + in.RunID + " of " + in.WorkflowID,
	})
	return activities.ShareRun.Execute(ctx, in)
}
