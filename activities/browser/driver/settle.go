package driver

import (
	"context"
	"time"

	"github.com/playwright-community/playwright-go"
)

// quietJS resolves once the page has painted two frames since the action and its DOM has
// had no mutation for shortMs, or, on a page that is still changing (a mutation came
// while it waited), for longMs since the last one; then, when the page is still moving
// (a transition or an animation that ends within animMs: a dialog fading in, an editor
// sliding into place), once that movement ends: a control drawn at opacity 0 on the
// first frames of its entrance is not yet one the observation sees. It resolves after
// maxMs in any case. It resolves with when the page last asked for a new window
// (listeners.js), 0 for never, how many mutations came while it waited, and how many
// movements it waited for. A movement with no end (a spinner) or a longer one is not
// waited for.
const quietJS = `([shortMs, longMs, maxMs, animMs]) => new Promise((resolve) => {
  const start = performance.now();
  let timer, frames = 0, still = false, seen = 0, ended = false;
  const obs = new MutationObserver((records) => { seen += records.length; still = false; clearTimeout(timer); timer = setTimeout(quiet, longMs); });
  const answer = (moved) => resolve([window.__webagentOpenedAt || 0, seen, moved]);
  function moving() {
    if (!document.getAnimations) return [];
    return document.getAnimations().filter((a) => {
      if (a.playState !== "running" || !a.effect || !a.effect.getComputedTiming) return false;
      const t = a.effect.getComputedTiming();
      return isFinite(t.endTime) && t.endTime - (t.localTime || 0) <= animMs;
    });
  }
  function done() {
    if (ended) return;
    ended = true;
    obs.disconnect();
    clearTimeout(timer);
    const now = moving(), left = Math.min(animMs, maxMs - (performance.now() - start));
    if (!now.length || left <= 0) return answer(0);
    Promise.race([Promise.all(now.map((a) => a.finished.catch(() => {}))), new Promise((r) => setTimeout(r, left))]).then(() => answer(now.length));
  }
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
	// quietMoving is the longest entrance or exit (a transition, an animation) the window
	// waits to end: apps' own run 150–400 ms.
	quietMoving = 1000
)

// Settle waits, at most limit, for the page's requests to finish and its DOM to stay
// quiet. It returns ctx's error, at once, when ctx ends first.
func (s *Session) Settle(ctx context.Context, limit time.Duration) error {
	_, err := s.settle(ctx, limit, false)
	return err
}

// settledShot is a screenshot taken while the page settled, and when it was taken.
type settledShot struct {
	png  []byte
	at   time.Time
	page playwright.Page
}

// settle is Settle. With shoot, the page's screenshot is taken while its quiet window
// runs, and returned when no DOM change came during the window: the picture then shows
// the settled page, and the step after an action need not take it once the window is
// over (the window and the picture, about 30 and 40 ms, overlap instead of adding up).
func (s *Session) settle(ctx context.Context, limit time.Duration, shoot bool) (*settledShot, error) {
	s.windows.asked = time.Time{}
	deadline := time.Now().Add(limit)
	if err := s.traffic.idle(ctx, deadline); err != nil {
		return nil, err
	}
	left := func() time.Duration { return bounded(ctx, time.Until(deadline)) }
	if time.Until(deadline) <= 0 {
		return nil, nil
	}
	_ = s.page.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateLoad, Timeout: ms(left())})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var shot chan *settledShot
	if shoot {
		shot = make(chan *settledShot, 1)
		go func() {
			sh := &settledShot{at: time.Now(), page: s.page}
			if sh.png = s.plainShot(); sh.png == nil {
				sh = nil // one with masks is taken after the window, as before
			}
			shot <- sh
		}()
	}
	quiet := min(left(), 1500*time.Millisecond)
	v, err := s.page.Evaluate(quietJS, []int{quietShort, quietLong, int(quiet.Milliseconds()), quietMoving})
	if err != nil && isContextGone(err) {
		_ = s.page.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateLoad, Timeout: ms(max(left(), 100*time.Millisecond))})
	}
	// Unless the window says it saw no mutation and nothing moving, the page may have
	// changed.
	changed := true
	if r, ok := v.([]any); ok && len(r) == 3 {
		if at, ok := r[0].(int); ok && at > 0 {
			s.windows.asked = time.UnixMilli(int64(at))
		}
		n, ok := r[1].(int)
		moved, ok2 := r[2].(int)
		changed = err != nil || !ok || !ok2 || n > 0 || moved > 0
	}
	var sh *settledShot
	if shot != nil {
		// A picture asked for while the page leaves for another (a list that sends its
		// form when chosen from) may never come: it is not waited for past the window,
		// and the one taken after the window stands in for it.
		select {
		case sh = <-shot:
		case <-time.After(shotWait):
			changed = true
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if changed {
			sh = nil // the page changed while it was taken
		}
	}
	return sh, s.traffic.idle(ctx, deadline)
}

// shotWait is how long settle waits for the picture it took while the page settled, past
// the quiet window.
const shotWait = 2 * time.Second
