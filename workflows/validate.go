package workflows

import (
	"errors"

	"go.temporal.io/sdk/workflow"
)

// validated is what is wrong with the run's input ("" for nothing). Since the
// "validate-once" version the verdict is recorded in the history when the run starts, so
// that caps tightened later never change a run already under way when its history is
// replayed; a run begun before is checked as it always was, by today's rules.
func validated(ctx workflow.Context, in GoalInput) string {
	legacy := legacySecrets(ctx, len(in.Secrets) > 0)
	info := workflow.GetInfo(ctx)
	// A retry or a cron run also has a run before it, and is started with its first run's
	// input, which a caller wrote: only a continue-as-new carries state the run wrote.
	from := origin{workflowID: info.WorkflowExecution.ID,
		continued: info.ContinuedExecutionRunID != "" && info.Attempt <= 1 && info.CronSchedule == ""}
	check := func() string {
		if err := errors.Join(in.validate(legacy), in.checkContinued(from)); err != nil {
			return err.Error()
		}
		return ""
	}
	if !patched(ctx, "validate-once") {
		return check()
	}
	var msg string
	if err := workflow.SideEffect(ctx, func(workflow.Context) any { return check() }).Get(&msg); err != nil {
		return err.Error()
	}
	return msg
}
