package main

import (
	"context"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/interceptor"

	"github.com/webagent-dev/webagent/activities/browser"
)

// alive heartbeats for every activity of the worker it is given to, for as long as the
// activity runs: a model call or a plan that waits on an answer says nothing of its own,
// and without a heartbeat a worker killed in the middle of one is noticed only when the
// activity's whole time limit (minutes) has passed. With it, the run's heartbeat timeout
// (its WorkerLossTimeout) notices, and another worker takes the activity. The activities
// named in own heartbeat themselves, with their phase as details (shown in the Web UI),
// and are left to it.
type alive struct {
	interceptor.WorkerInterceptorBase
	own map[string]bool
}

func (a *alive) InterceptActivity(_ context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &aliveActivity{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}, own: a.own}
}

type aliveActivity struct {
	interceptor.ActivityInboundInterceptorBase
	own map[string]bool
}

func (a *aliveActivity) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	if !a.own[activity.GetInfo(ctx).ActivityType.Name] {
		defer browser.KeepBeating(ctx, nil)()
	}
	return a.Next.ExecuteActivity(ctx, in)
}
