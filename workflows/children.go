package workflows

import (
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/workflow"
)

// childClosePolicy is what becomes of a suite's goals, or a goal's parts, when their
// parent ends before them (it was terminated, timed out, or failed): they are asked to
// cancel, so that each closes its browser and deletes its saved state as a cancelled run
// does. Terminated, as before the "cancel-children" version, a child's browser waited for
// the worker's idle reaper and its state for the bucket's one-day rule.
func childClosePolicy(ctx workflow.Context) enumspb.ParentClosePolicy {
	if !patched(ctx, "cancel-children") {
		return enumspb.PARENT_CLOSE_POLICY_TERMINATE
	}
	return enumspb.PARENT_CLOSE_POLICY_REQUEST_CANCEL
}
