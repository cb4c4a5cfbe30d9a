package workflows

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// ErrGoalNotAchieved is the error type of a run whose goal was not achieved: it ended
// failed (nothing confirmed the goal, or a step failed for good) or partial (some steps
// were done, not all: a person stopped it, a limit ran out, a step was aborted). Its run
// is a Failed execution — in the Web UI's list, `ExecutionStatus="Failed"`, schedules'
// recent actions and the SDK's failure metrics — whose failure's details hold the whole
// output (GoalResult); ResultOf reads it back. An unverified run did every step, and ends
// Completed: only a check of its own was missing.
const ErrGoalNotAchieved = "GoalNotAchieved"

// notAchieved says whether a run that ended with status st ends as a Failed execution.
func notAchieved(st Status) bool { return st == StatusFailed || st == StatusPartial }

// ended is what the workflow returns for the run's output: the output itself, or, for a
// goal not achieved (and a run begun since "failed-goals-fail"), the failure that holds it.
func ended(ctx workflow.Context, res *GoalResult) (*GoalResult, error) {
	if !notAchieved(res.Execution.Status) || !patched(ctx, "failed-goals-fail") {
		return res, nil
	}
	msg := fmt.Sprintf("%s: %s", res.Execution.Status, res.Summary.Brief)
	return nil, temporal.NewNonRetryableApplicationError(msg, ErrGoalNotAchieved, nil, res)
}

// ResultOf reads a run's output from how the run ended, for whoever waits for it (the
// starter, a suite, the report, a client): err is what getting the result returned. A run
// whose goal was not achieved failed with its output in the failure's details: res gets
// it and the error is nil. Any other error is returned as it is.
func ResultOf(res *GoalResult, err error) error {
	var ae *temporal.ApplicationError
	if err == nil || !errors.As(err, &ae) || ae.Type() != ErrGoalNotAchieved {
		return err
	}
	if derr := ae.Details(res); derr != nil {
		return fmt.Errorf("read the output of a run whose goal was not achieved: %w (%v)", derr, err)
	}
	return nil
}
