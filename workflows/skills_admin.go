package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
)

// ManageSkillsWorkflowName is the ManageSkills workflow's registered type name.
const ManageSkillsWorkflowName = "ManageSkills"

// ManageSkills runs one command on the skills library (list, show, delete, import) on a
// worker, which holds the library's address and the embedder: whoever starts it, the
// starter included, needs only Temporal. A deletion or an import is in the history.
func ManageSkills(ctx workflow.Context, in activities.ManageSkillsInput) (activities.ManageSkillsResult, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:           ModelTaskQueue,
		StartToCloseTimeout: 2 * time.Minute,
		HeartbeatTimeout:    aliveTimeout,
		RetryPolicy: &temporal.RetryPolicy{
			MaximumAttempts:        3,
			NonRetryableErrorTypes: append([]string{activities.ErrBadInput, activities.ErrSkillNotFound, activities.ErrNoSkillsLibrary}, activities.ModelNonRetryable...),
		},
		Summary: "skills " + string(in.Command),
	})
	return activities.ManageSkills.Execute(ctx, in)
}
