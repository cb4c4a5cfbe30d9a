package driver

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
