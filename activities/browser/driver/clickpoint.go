package driver

//lint:file-ignore SA1019 The agent acts on the exact node its observation numbered; only an ElementHandle names that node, where a locator would query the page again by selector.

import "github.com/playwright-community/playwright-go"

// A click is Playwright's ElementHandle.Click: before it presses, it checks that the
// element is visible, enabled, receives the click and is stable — its box the same over
// two animation frames, which costs about 30 ms on every click. The step has just
// observed the page, settled after the step before, so most of that is known already:
// clickable checks all of it on the page at once, in one script, before and after the
// pointer moves there, and the click is then pressed without Playwright's checks
// (forced), where the script checked it lands. When any part does not hold, or cannot be
// told from here, the click is Playwright's, with every check and its waits.

// clickPointJS is the point a click on the element presses, when the element can be
// clicked there right now without waiting: it is in the top frame's document, where the
// observation saw it (its box, in the page's coordinates, within a pixel: it has not
// moved since), no control disables it, nothing moves it (no animation or transition
// runs on it or a box around it), and the middle of its first box in the viewport (where
// Playwright presses) hits the element itself or something inside it, through open
// shadow roots. Otherwise null.
const clickPointJS = `(el, seen) => {
  if (!el || !el.isConnected || window !== window.top || el.ownerDocument !== document || !seen || seen.length !== 4) return null;
  const b = el.getBoundingClientRect();
  const off = (a, v) => Math.abs(Math.round(a) - v) > 1;
  if (off(b.left + window.scrollX, seen[0]) || off(b.top + window.scrollY, seen[1]) || off(b.width, seen[2]) || off(b.height, seen[3])) return null;
  if (el.disabled || (el.closest && el.closest('[aria-disabled="true"], fieldset[disabled]'))) return null;
  if (document.getAnimations && document.getAnimations().some((a) => {
    const t = a.effect && a.effect.target;
    return a.playState === "running" && t && (t === el || t.contains(el));
  })) return null;
  const vw = window.innerWidth, vh = window.innerHeight;
  for (const r of el.getClientRects()) {
    const x1 = Math.max(r.left, 0), y1 = Math.max(r.top, 0), x2 = Math.min(r.right, vw), y2 = Math.min(r.bottom, vh);
    if (x2 <= x1 || y2 <= y1 || (x2 - x1) * (y2 - y1) <= 0.99) continue;
    const x = (x1 + x2) / 2, y = (y1 + y2) / 2;
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    for (let n = hit; n; n = n.parentNode || n.host) if (n === el) return [x, y];
    return null;
  }
  return null;
}`

// clickable is the point where the action's element can be clicked at once
// (clickPointJS); ok is false when the click must be Playwright's, with its checks and
// waits.
func (a *action) clickable() (x, y float64, ok bool) {
	t := a.out.Target
	if t == nil || t.Box.W <= 0 || t.Box.H <= 0 {
		return 0, 0, false
	}
	return a.point(clickPointJS, []int{t.Box.X, t.Box.Y, t.Box.W, t.Box.H})
}

// clickAtOnce clicks the action's element without Playwright's checks when the page
// shows the click lands on it: checked, the pointer moved there, and checked again —
// moving the pointer may change the page (a menu the pointer leaves folds and the rows
// below move up, a hover draws something over the element). It reports false, having
// pressed nothing, when the click must be Playwright's.
func (a *action) clickAtOnce() (bool, error) {
	x, y, ok := a.clickable()
	if !ok {
		return false, nil
	}
	if err := a.s.page.Mouse().Move(x, y); err != nil {
		return false, nil
	}
	if x2, y2, ok := a.clickable(); !ok || x2 != x || y2 != y {
		return false, nil
	}
	return true, a.el.Click(playwright.ElementHandleClickOptions{Timeout: timeout, Force: playwright.Bool(true)})
}
