package browser

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/webagent-dev/webagent/activities"
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

func (h *heartbeat) stop() {
	close(h.done)
	h.wg.Wait()
}

// withSession runs fn on the run's session: it heartbeats from the first instruction,
// takes the session's page for fn alone (waiting for an activity before it, or giving up
// when ctx ends), and gives it back when fn returns, also when ctx was cancelled.
func (a *Activities) withSession(ctx context.Context, id string, fn func(*Session, *heartbeat) error) error {
	defer a.busy()()
	hb := beat(ctx)
	defer hb.stop()
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
