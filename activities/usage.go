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
