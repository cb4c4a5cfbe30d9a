package browser

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"github.com/playwright-community/playwright-go"
)

// traffic counts the requests of the session's windows: those in flight, which Settle
// waits for, and those that may change server state (not GET, HEAD or OPTIONS), which
// make a step that sent one unsafe to replay.
type traffic struct {
	inflight  atomic.Int64
	mutations atomic.Int64
}

// watch counts page p's requests.
func (t *traffic) watch(p playwright.Page) {
	p.OnRequest(func(r playwright.Request) {
		if strings.HasPrefix(r.URL(), "data:") {
			return
		}
		t.inflight.Add(1)
		switch r.Method() {
		case "GET", "HEAD", "OPTIONS":
		default:
			t.mutations.Add(1)
		}
	})
	done := func(r playwright.Request) {
		if !strings.HasPrefix(r.URL(), "data:") {
			t.inflight.Add(-1)
		}
	}
	p.OnRequestFinished(done)
	p.OnRequestFailed(done)
}

// idle waits until no request is in flight or deadline passes; it returns ctx's error
// when ctx ends first.
func (t *traffic) idle(ctx context.Context, deadline time.Time) error {
	for t.inflight.Load() > 0 && time.Now().Before(deadline) {
		if err := sleep(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Mutations returns the count of state-changing requests the page has sent so far.
func (s *Session) Mutations() int64 { return s.traffic.mutations.Load() }
