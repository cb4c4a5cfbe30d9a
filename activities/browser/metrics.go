package browser

import (
	"context"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
)

// The browser pool's metrics that opens report (the worker sets the pool's gauges).
const (
	MetricOpens    = "webagent_browser_opens" // browsers opened for runs
	MetricWaits    = "webagent_browser_waits" // opens that waited in line for a free browser
	MetricWaitTime = "webagent_browser_wait"  // how long they waited
)

// metrics is the activity's metrics handler (none outside an activity: a test).
func metrics(ctx context.Context) client.MetricsHandler {
	if !activity.IsActivity(ctx) {
		return client.MetricsNopHandler
	}
	return activity.GetMetricsHandler(ctx)
}

// waitClock measures an open's wait in line for a free browser.
type waitClock struct {
	ctx   context.Context
	since time.Time
}

// waiting notes that the open waits; the first time counts a wait.
func (w *waitClock) waiting() {
	if w.since.IsZero() {
		w.since = time.Now()
		metrics(w.ctx).Counter(MetricWaits).Inc(1)
	}
}

// opened records the wait, if there was one, and counts the open.
func (w *waitClock) opened(created bool) {
	if !w.since.IsZero() {
		metrics(w.ctx).Timer(MetricWaitTime).Record(time.Since(w.since))
	}
	if created {
		metrics(w.ctx).Counter(MetricOpens).Inc(1)
	}
}
