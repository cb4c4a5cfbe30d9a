package browser

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser/driver"
)

// HeartbeatEvery is how often a browser activity heartbeats. The worker sends them on at
// most once a second (worker.Options.MaxHeartbeatThrottleInterval), so a cancelled run
// reaches the activity within about a second, and a dead worker is noticed within the
// activity's heartbeat timeout.
const HeartbeatEvery = time.Second

// heartbeat reports an activity's phase, each second from its start, until it returns.
type heartbeat struct {
	phase atomic.Value
	end   func()
}

// beat starts heartbeating for the activity of ctx; stop ends it before the activity
// returns, so that no heartbeat follows its result.
func beat(ctx context.Context) *heartbeat {
	h := &heartbeat{}
	h.phase.Store(activities.PhaseStarting)
	h.end = KeepBeating(ctx, func() any { return h.phase.Load() })
	return h
}

// KeepBeating heartbeats for the activity of ctx every HeartbeatEvery, with what details
// returns (details nil: none), until stop, which returns once no heartbeat can follow.
// The first comes HeartbeatEvery after the start, not at once: most browser steps end
// within it, and a heartbeat is a request to the server that it writes down, once more for
// every activity of every run, where the activity's heartbeat timeout (the run's
// WorkerLossTimeout, seconds) needs none so soon. Outside an activity (a test calling one
// directly) it does nothing.
func KeepBeating(ctx context.Context, details func() any) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(HeartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if details != nil {
				activity.RecordHeartbeat(ctx, details())
			} else {
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// set records the activity's phase for the next heartbeat.
func (h *heartbeat) set(p activities.Phase) { h.phase.Store(p) }

// setDriver records the phase the driver reports, in the activities' words (the same).
func (h *heartbeat) setDriver(p driver.Phase) { h.set(activities.Phase(p)) }

func (h *heartbeat) stop() { h.end() }
