package main

import (
	"context"
	"fmt"
	"io"

	agent "github.com/webagent-dev/webagent/client"
)

// dial connects to the Temporal service the environment names.
func dial(ctx context.Context) (*agent.Client, error) { return agent.Dial(ctx) }

// exitFor writes err and returns its exit status: bad input for what the caller is to
// fix (an unreachable Temporal, a refused answer, no such run), a failure otherwise.
func exitFor(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "error: %v\n", err)
	if agent.IsBadInput(err) {
		return exitBadInput
	}
	return exitFailed
}
