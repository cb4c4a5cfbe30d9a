package driver

import (
	"context"
	"fmt"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/jsnum"
	"github.com/webagent-dev/webagent/plan"
)

// A click "outside it" (plan.Target.Outside) is on a blank spot of the page, away from the
// field the step before left focused: where a person clicks to take the focus away, as an
// editor opened in place (a wiki's paragraph, a cell) saves when it loses it. The spot is
// under no control, link, label or text, and nothing there looks clickable: the click can
// do nothing but blur what was focused, and whatever the page does on that.

// outsideJS finds the blank spot nearest to the focused element, outside its box, in the
// viewport: [x, y], or null when the page shows none.
const outsideJS = `() => {
  const act = document.activeElement && document.activeElement !== document.body && document.activeElement !== document.documentElement ? document.activeElement : null;
  const CLICKABLE = "a,button,input,select,textarea,label,summary,option,img,svg,canvas,video,iframe,[onclick],[tabindex]:not([tabindex='-1']),[contenteditable=''],[contenteditable=true],[draggable=true]," +
    "[role=button],[role=link],[role=menuitem],[role=tab],[role=checkbox],[role=radio],[role=option],[role=switch],[role=textbox],[role=combobox],[role=slider],[role=treeitem],[role=row],[role=gridcell],[role=listitem]";
  const r = act ? act.getBoundingClientRect() : { left: innerWidth / 2, right: innerWidth / 2, top: innerHeight / 2, bottom: innerHeight / 2 };
  const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const blank = (x, y) => {
    const el = document.elementFromPoint(x, y);
    if (!el || (act && (act === el || act.contains(el))) || el.closest(CLICKABLE)) return false;
    if (ownText(el)) return false;
    for (let p = el; p && p !== document.documentElement; p = p.parentElement) {
      if (getComputedStyle(p).cursor === "pointer") return false;
    }
    return true;
  };
  const out = [];
  for (let y = 8; y < innerHeight - 4; y += 16) {
    for (let x = 8; x < innerWidth - 4; x += 16) {
      if (act && x >= r.left - 8 && x <= r.right + 8 && y >= r.top - 8 && y <= r.bottom + 8) continue;
      const dx = Math.max(r.left - x, 0, x - r.right), dy = Math.max(r.top - y, 0, y - r.bottom);
      out.push([dx * dx + dy * dy, x, y]);
    }
  }
  out.sort((a, b) => a[0] - b[0]);
  for (const [, x, y] of out.slice(0, 2000)) if (blank(x, y)) return [x, y];
  return null;
}`

// targetOutside aims the click at the blank spot outsideJS finds, as a point; a page that
// shows none is refused, nothing clicked.
func (at *attempt) targetOutside(ctx context.Context, obs page.Observation) (*Outcome, error) {
	v, err := at.s.page.Evaluate(outsideJS)
	if err != nil {
		return nil, fmt.Errorf("finding a blank spot of the page: %w", err)
	}
	p, _ := v.([]any)
	x, okx := jsnum.Number(index(p, 0))
	y, oky := jsnum.Number(index(p, 1))
	if !okx || !oky {
		return at.s.without(ctx, at.out, obs, &plan.Feedback{Type: plan.NotVisible,
			Details:    "the page shows no blank spot outside the focused element: everything in view is a control, a link or text",
			Suggestion: "name the element to click instead, or press Escape or Tab to leave the field"})
	}
	at.opts.Point = &[2]float64{x, y}
	at.out.Actions = append(at.out.Actions, fmt.Sprintf("a blank spot of the page at (%.0f, %.0f), outside the focused element", x, y))
	at.out.Before = obs
	return nil, nil
}

// index is p[i], or nil past its end.
func index(p []any, i int) any {
	if i < len(p) {
		return p[i]
	}
	return nil
}
