package browser

import (
	"context"
	"fmt"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
)

// caller is the workflow the activity of ctx runs for; ok is false outside an activity (a
// test calling it directly), where there is no run to hold to a session.
func caller(ctx context.Context) (workflow string, ok bool) {
	if !activity.IsActivity(ctx) {
		return "", false
	}
	return activity.GetInfo(ctx).WorkflowExecution.ID, true
}

// notYours is the refusal of a session to a run of another workflow.
func notYours(id string) error {
	return temporal.NewNonRetryableApplicationError(fmt.Sprintf("browser session %s is another workflow's", id), activities.ErrNotYourSession, nil)
}
