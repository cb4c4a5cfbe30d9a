package activities

import (
	"errors"

	"go.temporal.io/sdk/temporal"
)

// WithUsage is err with the usage of the model calls made before it failed, carried in
// the error's details: a failed or refused model call is paid for too, and the workflow
// counts it (UsageOf). An application error keeps its type, message, retryability and
// retry delay; any other error becomes a retryable one of type ErrModelUnavailable.
func WithUsage(err error, u Usage) error {
	if err == nil || u == (Usage{}) {
		return err
	}
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) {
		return temporal.NewApplicationErrorWithOptions(err.Error(), ErrModelUnavailable,
			temporal.ApplicationErrorOptions{Cause: err, Details: []any{u}})
	}
	var had Usage
	if ae.HasDetails() {
		_ = ae.Details(&had)
	}
	had.Add(u)
	return temporal.NewApplicationErrorWithOptions(ae.Message(), ae.Type(), temporal.ApplicationErrorOptions{
		NonRetryable: ae.NonRetryable(), Cause: errors.Unwrap(ae), Details: []any{had}, NextRetryDelay: ae.NextRetryDelay()})
}

// UsageOf is the usage a failed model activity carried in its error (WithUsage); zero
// when it carried none.
func UsageOf(err error) Usage {
	var ae *temporal.ApplicationError
	var u Usage
	if errors.As(err, &ae) && ae.HasDetails() {
		_ = ae.Details(&u)
	}
	return u
}

// The model activities' inputs take the budget the run has left (WithBudget), and their
// results say what they spent (Spent), so that the workflow runs them all one way.

func (in DecideInput) WithBudget(b Budget) DecideInput             { in.Budget = b; return in }
func (in EvaluateStepInput) WithBudget(b Budget) EvaluateStepInput { in.Budget = b; return in }
func (in JudgeGoalInput) WithBudget(b Budget) JudgeGoalInput       { in.Budget = b; return in }
func (in SummarizeInput) WithBudget(b Budget) SummarizeInput       { in.Budget = b; return in }
func (in ExtractInput) WithBudget(b Budget) ExtractInput           { in.Budget = b; return in }
func (in PlanGoalInput) WithBudget(b Budget) PlanGoalInput         { in.Budget = b; return in }
func (in ReplanInput) WithBudget(b Budget) ReplanInput             { in.Budget = b; return in }

func (r DecideResult) Spent() Usage       { return r.Usage }
func (r EvaluateStepResult) Spent() Usage { return r.Usage }
func (r JudgeGoalResult) Spent() Usage    { return r.Usage }
func (r SummarizeResult) Spent() Usage    { return r.Usage }
func (r ExtractResult) Spent() Usage      { return r.Usage }
func (r PlanGoalResult) Spent() Usage     { return r.Usage }
func (r ReplanResult) Spent() Usage       { return r.Usage }
