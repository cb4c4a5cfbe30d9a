package browser

import (
	"context"
	"time"

	"github.com/playwright-community/playwright-go"
)

// sleep waits d, or less when ctx ends first, and then returns ctx's error.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}

// bounded is the time left before ctx's deadline, at most d (and at least a millisecond,
// so that a Playwright call with it as its timeout fails at once rather than never).
func bounded(ctx context.Context, d time.Duration) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(dl))
	}
	return max(d, time.Millisecond)
}

// ms is a duration as Playwright's timeouts take it.
func ms(d time.Duration) *float64 { return playwright.Float(float64(d.Milliseconds())) }

// paced is how long a WAIT of d sleeps so that the action after it comes d after the
// action before it, as "click ONE, wait 1 second, then click TWO" means. The WAIT sets
// when the next action may come (d after the last action) and sleeps until a margin
// before it: the margin allows for the next step's lead-in (twice the last acting step's,
// from its start to its action, plus the activities between; at most three quarters of d —
// the next step looks for its target until the wait's end and its own wait after), and the
// next step sleeps the rest (keepPace): one that acts just before it acts (a click once
// the browser's checks on its target are done), any other before it looks — so the
// action lands on time whether the lead-in is long or short. A WAIT with no action after it
// (next false: the last step, or one that only reads) leaves nothing to it and sleeps to
// d after the last action; with no action before it in this browser, all of d.
func (s *Session) paced(d time.Duration, next bool) time.Duration {
	if s.actedAt.IsZero() {
		return d
	}
	// When the page saw the last action's input, if it can say (a page that navigated
	// since cannot; an iframe's input is not seen from the top).
	if v, err := s.page.Evaluate(`() => window.__webagentInputAt || 0`); err == nil {
		if ms, ok := v.(int); ok && ms > 0 {
			at := time.UnixMilli(int64(ms))
			if at.After(s.actedAt) && at.Before(s.actedAt.Add(10*time.Second)) {
				s.actedAt = at
			}
		}
	}
	if !next {
		return max(0, time.Until(s.actedAt.Add(d)))
	}
	s.notBefore = s.actedAt.Add(d)
	margin := min(2*s.leadIn+paceSlack, d*3/4)
	return max(0, time.Until(s.notBefore)-margin)
}

// paceSlack is what the margin of a paced WAIT allows for the activities between it and
// the next action (a Temporal round trip each, and an observation).
const paceSlack = 300 * time.Millisecond

// paces reports whether a WAIT set a time for the next action.
func (s *Session) paces() bool { return !s.notBefore.IsZero() }

// keepPace sleeps until the time a WAIT set for the next action, once.
func (s *Session) keepPace(ctx context.Context) error {
	t := s.notBefore
	s.notBefore = time.Time{}
	if d := time.Until(t); d > 0 {
		return sleep(ctx, d)
	}
	return nil
}
