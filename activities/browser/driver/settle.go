package driver

import (
	"context"
	"time"

	"github.com/playwright-community/playwright-go"
)

// quietJS resolves once the page has painted two frames since the action and its DOM has
// had no mutation for shortMs, or, on a page that is still changing (a mutation came
// while it waited), for longMs since the last one; and after maxMs in any case. It
// resolves with when the page last asked for a new window (listeners.js), 0 for never.
const quietJS = `([shortMs, longMs, maxMs]) => new Promise((resolve) => {
  let timer, frames = 0, still = false;
  const obs = new MutationObserver(() => { still = false; clearTimeout(timer); timer = setTimeout(quiet, longMs); });
  function done() { obs.disconnect(); resolve(window.__webagentOpenedAt || 0); }
  function quiet() { still = true; if (frames >= 2) done(); }
  function frame() { if (++frames < 2) requestAnimationFrame(frame); else if (still) done(); }
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  timer = setTimeout(quiet, shortMs);
  requestAnimationFrame(frame);
  setTimeout(done, maxMs);
})`

// The quiet windows of Settle, in milliseconds: a page that answered an action at once
// (its change done when the action returned) is read once it has painted the change and
// quietShort passed without a DOM change; one still changing, after quietLong without
// one. A request the page sends is waited for either way, and what comes later still is
// the step's check's to wait for (a click whose effect is not yet visible waits up to
// 1.5 s for a change) and the next step's target wait's.
const (
	quietShort = 30
	quietLong  = 120
)

// Settle waits, at most limit, for the page's requests to finish and its DOM to stay
// quiet. It returns ctx's error, at once, when ctx ends first.
func (s *Session) Settle(ctx context.Context, limit time.Duration) error {
	s.windows.asked = time.Time{}
	deadline := time.Now().Add(limit)
	if err := s.traffic.idle(ctx, deadline); err != nil {
		return err
	}
	left := func() time.Duration { return bounded(ctx, time.Until(deadline)) }
	if time.Until(deadline) <= 0 {
		return nil
	}
	_ = s.page.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateLoad, Timeout: ms(left())})
	if err := ctx.Err(); err != nil {
		return err
	}
	quiet := min(left(), 1500*time.Millisecond)
	v, err := s.page.Evaluate(quietJS, []int{quietShort, quietLong, int(quiet.Milliseconds())})
	if err != nil && isContextGone(err) {
		_ = s.page.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateLoad, Timeout: ms(max(left(), 100*time.Millisecond))})
	}
	if at, ok := v.(int); ok && at > 0 {
		s.windows.asked = time.UnixMilli(int64(at))
	}
	return s.traffic.idle(ctx, deadline)
}
