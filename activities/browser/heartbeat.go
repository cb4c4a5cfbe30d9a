package browser

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser/driver"
)

// HeartbeatEvery is how often a browser activity heartbeats. The worker sends them on at
// most once a second (worker.Options.MaxHeartbeatThrottleInterval), so a cancelled run
// reaches the activity within about a second, and a dead worker is noticed within the
// activity's heartbeat timeout.
const HeartbeatEvery = time.Second

// heartbeat reports an activity's phase from its first instruction until it returns.
type heartbeat struct {
	phase atomic.Value
	done  chan struct{}
	wg    sync.WaitGroup
}

// beat starts heartbeating for the activity of ctx; stop ends it before the activity
// returns, so that no heartbeat follows its result.
func beat(ctx context.Context) *heartbeat {
	h := &heartbeat{done: make(chan struct{})}
	h.phase.Store(activities.PhaseStarting)
	if !activity.IsActivity(ctx) {
		return h // a test calling the activity directly
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		t := time.NewTicker(HeartbeatEvery)
		defer t.Stop()
		for {
			activity.RecordHeartbeat(ctx, h.phase.Load())
			select {
			case <-h.done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return h
}

// set records the activity's phase for the next heartbeat.
func (h *heartbeat) set(p activities.Phase) { h.phase.Store(p) }

// setDriver records the phase the driver reports, in the activities' words (the same).
func (h *heartbeat) setDriver(p driver.Phase) { h.set(activities.Phase(p)) }

func (h *heartbeat) stop() {
	close(h.done)
	h.wg.Wait()
}

// withSession runs fn on the run's session, when it is the run's own (mine): it
// heartbeats from the first instruction, takes the session's page for fn alone (waiting
// for an activity before it, or giving up when ctx ends), and gives it back when fn
// returns, also when ctx was cancelled.
func (a *Activities) withSession(ctx context.Context, id string, fn func(*driver.Session, *heartbeat) error) error {
	defer a.busy()()
	hb := beat(ctx)
	defer hb.stop()
	if err := a.mine(ctx, id); err != nil {
		return err
	}
	s, err := a.session(id)
	if err != nil {
		return err
	}
	if err := s.Acquire(ctx); err != nil {
		return err
	}
	defer s.Release()
	if err := a.handOff(ctx, id); err != nil {
		return err
	}
	return fn(s, hb)
}

// caller is the workflow the activity of ctx runs for; ok is false outside an activity (a
// test calling it directly), where there is no run to hold to a session.
func caller(ctx context.Context) (workflow string, ok bool) {
	if !activity.IsActivity(ctx) {
		return "", false
	}
	return activity.GetInfo(ctx).WorkflowExecution.ID, true
}

// mine refuses the activity of ctx a session another workflow opened, before the session
// is touched: a session's ID and task queue are in its run's history, which others may
// read, and a run may be started with any input. The workflow that opened a session, and
// the runs it continues as (same workflow ID), are served.
func (a *Activities) mine(ctx context.Context, id string) error {
	who, ok := caller(ctx)
	if !ok {
		return nil
	}
	if !activities.SessionOf(id, who) {
		return notYours(id)
	}
	if s := a.Pool.Peek(id); s != nil && !s.OwnedBy(who) {
		return notYours(id)
	}
	return nil
}

// notYours is the refusal of a session to a run of another workflow.
func notYours(id string) error {
	return temporal.NewNonRetryableApplicationError(fmt.Sprintf("browser session %s is another workflow's", id), activities.ErrNotYourSession, nil)
}
