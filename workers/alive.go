package main

import (
	"context"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/interceptor"

	"github.com/webagent-dev/webagent/activities/browser"
)

// alive heartbeats for every activity of the worker it is given to, for as long as the
// activity runs: a model call or a plan that waits on an answer says nothing of its own,
// and without a heartbeat a worker killed in the middle of one is noticed only when the
// activity's whole time limit (minutes) has passed. With it, the run's heartbeat timeout
// (its WorkerLossTimeout) notices, and another worker takes the activity.
type alive struct {
	interceptor.WorkerInterceptorBase
}

func (*alive) InterceptActivity(_ context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &aliveActivity{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}}
}

type aliveActivity struct {
	interceptor.ActivityInboundInterceptorBase
}

func (a *aliveActivity) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(browser.HeartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	defer func() {
		close(done)
		<-stopped // no heartbeat after the result
	}()
	return a.Next.ExecuteActivity(ctx, in)
}
