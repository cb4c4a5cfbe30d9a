//go:build faultinject

package fault

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
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
