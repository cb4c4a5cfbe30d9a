package driver

import (
	"context"
	"strings"
	"sync"
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
	// last is when a request last started or ended, or a step last acted (unix nanos).
	last atomic.Int64
}

// touch records that the page was just busy: a request, or an action.
func (t *traffic) touch() { t.last.Store(time.Now().UnixNano()) }

// watch counts page p's requests. A request is done when its response arrives, or when
// it fails: the browser says a request finished only once the page has read its whole
// body, and a page that sends a save and never reads the answer (or reads a stream that
// never ends) would keep it in flight for good, and every step after it would wait out its
// whole settling time.
func (t *traffic) watch(p playwright.Page) {
	var open sync.Map // the requests in flight, each counted once
	p.OnRequest(func(r playwright.Request) {
		if strings.HasPrefix(r.URL(), "data:") {
			return
		}
		open.Store(r, struct{}{})
		t.inflight.Add(1)
		t.touch()
		switch r.Method() {
		case "GET", "HEAD", "OPTIONS":
		default:
			t.mutations.Add(1)
		}
	})
	done := func(r playwright.Request) {
		if _, ok := open.LoadAndDelete(r); ok {
			t.inflight.Add(-1)
			t.touch()
		}
	}
	p.OnResponse(func(r playwright.Response) { done(r.Request()) })
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

// quiet waits until the page has been idle for window — no request in flight, none
// started or ended and no action — or until limit has passed.
func (t *traffic) quiet(window, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if t.inflight.Load() == 0 && time.Since(time.Unix(0, t.last.Load())) >= window {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
