package main

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
)

// TestAliveHeartbeats: an activity that says nothing while it waits heartbeats all the
// same; one that heartbeats itself, with its phase, is left to it, so that no empty
// heartbeat replaces its phase (what the Web UI shows of it).
func TestAliveHeartbeats(t *testing.T) {
	for _, tc := range []struct {
		name    string
		own     bool
		details string
	}{{"Quiet", false, ""}, {"Phased", true, "waiting in line"}} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &heartbeats{}
			var s testsuite.WorkflowTestSuite
			env := s.NewTestActivityEnvironment()
			env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{rec, &alive{own: map[string]bool{"Phased": true}}}})
			env.RegisterActivityWithOptions(func(ctx context.Context) error {
				if tc.own {
					activity.RecordHeartbeat(ctx, tc.details)
				}
				time.Sleep(2500 * time.Millisecond)
				return nil
			}, activity.RegisterOptions{Name: tc.name})
			if _, err := env.ExecuteActivity(tc.name); err != nil {
				t.Fatal(err)
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if len(rec.seen) == 0 {
				t.Fatal("no heartbeat while the activity ran")
			}
			for _, d := range rec.seen {
				if d != tc.details {
					t.Errorf("heartbeat details %q, want %q only: %q", d, tc.details, rec.seen)
				}
			}
		})
	}
}

// heartbeats records the details of every heartbeat the activity's code and its
// interceptors record.
type heartbeats struct {
	interceptor.WorkerInterceptorBase
	mu   sync.Mutex
	seen []string
}

func (h *heartbeats) InterceptActivity(_ context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &heartbeatsIn{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}, h: h}
}

type heartbeatsIn struct {
	interceptor.ActivityInboundInterceptorBase
	h *heartbeats
}

func (i *heartbeatsIn) Init(outbound interceptor.ActivityOutboundInterceptor) error {
	return i.Next.Init(&heartbeatsOut{ActivityOutboundInterceptorBase: interceptor.ActivityOutboundInterceptorBase{Next: outbound}, h: i.h})
}

type heartbeatsOut struct {
	interceptor.ActivityOutboundInterceptorBase
	h *heartbeats
}

func (o *heartbeatsOut) RecordHeartbeat(ctx context.Context, details ...any) {
	d := ""
	if len(details) == 1 {
		d, _ = details[0].(string)
	}
	o.h.mu.Lock()
	o.h.seen = append(o.h.seen, d)
	o.h.mu.Unlock()
	o.Next.RecordHeartbeat(ctx, details...)
}
