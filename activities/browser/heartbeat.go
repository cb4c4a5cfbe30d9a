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
