// Package fault kills the worker at a named point of a browser step when the environment
// asks for it: fault injection for the end-to-end tests, done the way a machine dies — the
// whole process group at once, with SIGKILL, no clean-up, at the worst moment on purpose.
//
// WEBAGENT_FAULT=point:step (for example "before-act:4") arms one point for one step of any
// run this worker holds; unset, every call is a no-op. The points are:
//
//	before-act  the run has been told the attempt is about to act; nothing was done yet
//	settle      the action was dispatched; the page is settling
//	store       the step's screenshot is in the store, its element list is not
package fault

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Env is the variable that arms a point.
const Env = "WEBAGENT_FAULT"

// The points a browser step passes.
const (
	BeforeAct = "before-act"
	Settle    = "settle"
	Store     = "store"
)

type stepKey struct{}

// WithStep marks ctx as belonging to the step with this number.
func WithStep(ctx context.Context, seq int) context.Context {
	return context.WithValue(ctx, stepKey{}, seq)
}

var armed = sync.OnceValues(func() (string, int) {
	point, step, ok := strings.Cut(os.Getenv(Env), ":")
	if !ok {
		return "", 0
	}
	n, err := strconv.Atoi(step)
	if err != nil {
		return "", 0
	}
	return point, n
})

// At kills this process's group if WEBAGENT_FAULT names point and ctx's step.
func At(ctx context.Context, point string) {
	p, n := armed()
	if p == "" || p != point {
		return
	}
	if seq, _ := ctx.Value(stepKey{}).(int); seq != n {
		return
	}
	_ = syscall.Kill(0, syscall.SIGKILL)
	select {} // the signal is on its way
}
