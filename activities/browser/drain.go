package browser

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
)

// errDraining is the answer of a worker that is stopping to a run's next browser
// activity: the run takes it as a lost browser that did nothing, and rebuilds the
// browser on another worker at the step it was on (no attempt used, no step in doubt).
var errDraining = errors.New("this worker is shutting down and handed the run's browser on")

// Drain begins a graceful stop: from now on no browser is opened here, the activities
// already running in a browser finish (their step done and its state saved), and each
// run's next activity in its browser here closes the browser and answers that the
// session is lost, so that the run carries on on another worker. Drained says when no
// browser is left.
func (a *Activities) Drain() {
	a.lastUsed.Store(time.Now().UnixNano())
	if a.draining.CompareAndSwap(false, true) {
		a.Pool.Logger().Info("draining: the runs' next steps go to other workers", "open", a.Pool.Sessions())
	}
}

// drainGrace is how long a draining worker with no step under way waits for its runs'
// next steps to come and be handed on. A run that does not come in that time (planning,
// or with no other worker to run its workflow yet) finds this worker gone at its next
// step, and rebuilds its browser after WorkerLossTimeout: as safely, a little later.
const drainGrace = 5 * time.Second

// Drained waits until this worker holds no run's browser, or none of its browsers has
// been used for drainGrace with no step under way, or limit passes; it reports how many
// browsers are still open.
func (a *Activities) Drained(limit time.Duration) int {
	deadline := time.Now().Add(limit)
	for {
		n := a.Pool.Sessions()
		quiet := a.inflight.Load() == 0 && time.Since(time.Unix(0, a.lastUsed.Load())) > drainGrace
		if n == 0 || quiet || time.Now().After(deadline) {
			return n
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// busy counts a browser activity under way until the function it returns is called.
func (a *Activities) busy() func() {
	a.inflight.Add(1)
	return func() {
		a.lastUsed.Store(time.Now().UnixNano())
		a.inflight.Add(-1)
	}
}

// handOff closes a draining worker's session, which an activity holds now, and says why
// the run must rebuild its browser elsewhere; it returns nil when the worker is not
// draining.
func (a *Activities) handOff(ctx context.Context, id string) error {
	if !a.draining.Load() {
		return nil
	}
	if _, err := a.Pool.Close(id); err != nil {
		activity.GetLogger(ctx).Warn("closing a handed-on browser", "session", id, "err", err)
	}
	a.Pool.Logger().Info("browser handed on", "session", id)
	a.forgetGone()
	err := fmt.Errorf("%w (session %s)", errDraining, id)
	return temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrSessionLost, err)
}

// refuseOpen keeps a draining worker from opening browsers: the open fails and is retried
// on another worker. The context it returns also ends when the worker stops, so that an
// open waiting in line for a browser here gives up its place for one elsewhere.
func (a *Activities) refuseOpen(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if a.draining.Load() {
		return ctx, func() {}, errDraining
	}
	if !activity.IsActivity(ctx) {
		return ctx, func() {}, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := activity.GetWorkerStopChannel(ctx)
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel, nil
}

// Free is how many more browsers this worker can open now: none while it drains.
func (a *Activities) Free() int {
	if a.draining.Load() {
		return 0
	}
	return a.Pool.Free()
}
