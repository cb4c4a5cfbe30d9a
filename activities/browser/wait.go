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
// action before it, as "click ONE, wait 1 second, then click TWO" means: the time since
// the last action is counted, and so is the lead-in the next step will take before it
// acts (the last acting step's, from its start to its action; at most half of d, for a
// step that waited long for its target). With no action before it in this browser, a
// WAIT sleeps all of d.
func (s *Session) paced(d time.Duration) time.Duration {
	if s.actedAt.IsZero() {
		return d
	}
	return max(0, d-time.Since(s.actedAt)-min(s.leadIn, d/2))
}
