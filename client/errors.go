package client

import (
	"errors"

	"go.temporal.io/sdk/temporal"
)

// appError is the type and message of the application error that ended a workflow, if
// one did.
func appError(err error) (string, string, bool) {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		return ae.Type(), ae.Message(), true
	}
	return "", "", false
}
