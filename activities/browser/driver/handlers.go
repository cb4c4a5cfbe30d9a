package driver

//lint:file-ignore SA1019 The agent acts on the exact node its observation numbered; only an ElementHandle names that node, where a locator would query the page again by selector.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/internal/jsnum"
	"github.com/webagent-dev/webagent/plan"
)

// The handlers of the actions that need no field: one function per action of the plan's
// action table (plan.Spec), registered in act.go's handlers.

func click(_ context.Context, a *action) *plan.Feedback {
	if p := a.opts.Point; p != nil {
		a.note("clicked at (%.0f, %.0f)", p[0], p[1])
		return a.failed(a.s.page.Mouse().Click(p[0], p[1]))
	}
	a.note("clicked %s", a.ref)
	if done, err := a.clickAtOnce(); done {
		return a.failed(err)
	}
	return a.failed(a.el.Click(playwright.ElementHandleClickOptions{Timeout: timeout}))
}

// doubleClick double-clicks the element: what edits an item in place on many lists. The
// element may be text with only a dblclick handler (the observation lists such text).
func doubleClick(_ context.Context, a *action) *plan.Feedback {
	if x, y, ok := a.throughItem(); ok {
		a.note("double-clicked %s where it is drawn, on the item it labels", a.ref)
		return a.failed(a.s.page.Mouse().Dblclick(x, y))
	}
	if x, y, ok := a.point(boxLabelJS); ok {
		// A to-do's checkbox is named by its text: a person double-clicks the words, which
		// is where such a list opens its edit box; the box itself would be ticked twice.
		a.note("double-clicked the words of %s, its label", a.ref)
		return a.failed(a.s.page.Mouse().Dblclick(x, y))
	}
	a.note("double-clicked %s", a.ref)
	return a.failed(a.el.Dblclick(playwright.ElementHandleDblclickOptions{Timeout: timeout}))
}

// rightClick clicks the element with the right button: the page's context menu, if it
// has one, opens.
func rightClick(_ context.Context, a *action) *plan.Feedback {
	if x, y, ok := a.throughItem(); ok {
		a.note("right-clicked %s where it is drawn, on the item it labels", a.ref)
		return a.failed(a.s.page.Mouse().Click(x, y, playwright.MouseClickOptions{Button: playwright.MouseButtonRight}))
	}
	a.note("right-clicked %s", a.ref)
	return a.failed(a.el.Click(playwright.ElementHandleClickOptions{Timeout: timeout, Button: playwright.MouseButtonRight}))
}

// clearField empties the field, as a person selecting its text and deleting it would.
func clearField(_ context.Context, a *action) *plan.Feedback {
	a.note("cleared %s", a.ref)
	return a.failed(a.el.Fill("", playwright.ElementHandleFillOptions{Timeout: timeout}))
}

func hover(ctx context.Context, a *action) *plan.Feedback {
	a.note("hovered over %s", a.ref)
	if fb := a.failed(a.el.Hover(playwright.ElementHandleHoverOptions{Timeout: timeout})); fb != nil || a.step.Opens == "" {
		return fb
	}
	return a.followPath(ctx)
}

// wayOnJS tells what an item of a path is when pointing at it showed nothing: "leaves", a
// link to another page; "opens", a control that says it opens a menu or a part of the
// page (aria-haspopup, aria-expanded="false"), or a button (Actual's "More" in its side
// menu, which shows Payees and Rules when pressed): a button is pressed, never chosen as
// a menu's item is; or "".
const wayOnJS = `(el) => {
  const a = el.closest("a[href]");
  if (a && !/^(#|javascript:)/i.test(a.getAttribute("href") || "")) return "leaves";
  const t = el.closest("[aria-haspopup]:not([aria-haspopup=false]), [aria-expanded=false]");
  if (t) return "opens";
  const b = el.closest("button, [role=button]");
  return b && !b.closest("[role=menu], [role=menubar], [role=listbox]") ? "opens" : "";
}`

// followPath takes an item of a path ("Virtual Hosts > example.org > Users") on to the
// next: pointing at it may have shown the next item (a menu that opens on hover); where
// it did not, a link to another page is followed and a control that opens a menu is
// clicked, as a person would. Any other control is left alone: a click on it may choose
// it, which the path did not ask for, and the next step then finds its item not there.
func (a *action) followPath(ctx context.Context) *plan.Feedback {
	if a.s.cameIntoSight(ctx, a.step.Opens, false) {
		return nil
	}
	way, err := a.el.Evaluate(wayOnJS)
	if err != nil {
		return a.failed(err)
	}
	switch way {
	case "leaves":
		a.note("followed the link: pointing at it did not show %q", a.step.Opens)
	case "opens":
		a.note("clicked it: pointing at it did not show %q", a.step.Opens)
	default:
		return nil
	}
	return a.failed(a.el.Click(playwright.ElementHandleClickOptions{Timeout: timeout}))
}

func setChecked(_ context.Context, a *action) *plan.Feedback {
	want := !a.step.Uncheck
	a.note("set %s to %s", a.ref, map[bool]string{true: "checked", false: "unchecked"}[want])
	return a.failed(a.el.SetChecked(want, playwright.ElementHandleSetCheckedOptions{Timeout: timeout}))
}

func press(_ context.Context, a *action) *plan.Feedback {
	if fb := a.clipboardGuard(); fb != nil {
		return fb
	}
	if a.el != nil {
		if err := a.el.Focus(); err != nil {
			return a.failed(err)
		}
		a.note("pressed %s in %s", a.step.Key, a.ref)
	} else {
		a.note("pressed %s", a.step.Key)
	}
	return a.failed(a.s.page.Keyboard().Press(a.step.Key))
}

func navigate(ctx context.Context, a *action) *plan.Feedback {
	a.note("opened %s", a.step.URL)
	code, err := a.s.Goto(ctx, a.step.URL)
	var blocked *BlockedError
	if errors.As(err, &blocked) {
		a.out.Actions = append(a.out.Actions, "did not open it: "+blocked.Reason)
		return &plan.Feedback{Type: plan.PageState, Details: "not opened: " + blocked.Reason,
			Suggestion: "a run goes only to its start URL's site and the domains it allows (--allow-domain); internal addresses only with --allow-private"}
	}
	if err != nil {
		return &plan.Feedback{Type: plan.PageState, Details: err.Error(), Suggestion: "check the address"}
	}
	if code >= 400 {
		return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("%s answered HTTP %d", a.step.URL, code), Suggestion: "check the address, or whether the session is signed in"}
	}
	if code > 0 {
		// The address answered and its page loaded: that is the step's effect, even when
		// it is the page the run was already on ("go to" the start page again).
		a.out.ownCheck = true
	}
	return nil
}

func scroll(_ context.Context, a *action) *plan.Feedback {
	if a.el != nil {
		if v := a.step.Scroll; v == "top" || v == "bottom" {
			// The element's own scroll: "to the bottom of the text area".
			a.note("scrolled %s to its %s", a.ref, v)
			if err := a.el.ScrollIntoViewIfNeeded(); err != nil {
				return a.failed(err)
			}
			_, err := a.el.Evaluate(`(el, v) => { el.scrollTop = v === "top" ? 0 : el.scrollHeight; }`, v)
			return a.failed(err)
		}
		a.note("scrolled %s into view", a.ref)
		return a.failed(a.el.ScrollIntoViewIfNeeded())
	}
	a.note("scrolled %s", a.step.Scroll)
	_, err := a.s.page.Evaluate(scrollJS, a.step.Scroll)
	return a.failed(err)
}

// MaxWait caps a WAIT step's duration.
const MaxWait = 5 * time.Minute

func wait(ctx context.Context, a *action) *plan.Feedback {
	if a.step.TargetDescription != "" {
		a.note("waited for %s", a.ref)
		return nil
	}
	d := min(a.step.Wait, MaxWait)
	a.phase(PhaseWaiting)
	pause := a.s.pace.wait(a.s.page, d, a.opts.PaceNext)
	if pause != d {
		a.note("waited %s after the last action (%s here)", d, pause.Round(time.Millisecond))
	} else {
		a.note("waited %s", d)
	}
	if err := sleep(ctx, pause); err != nil {
		return &plan.Feedback{Type: plan.Other, Details: "the wait was cut short: " + err.Error()}
	}
	return nil
}

const scrollJS = `(how) => {
  const [dir, n] = how.toLowerCase().split(/\s+/);
  const by = n ? parseInt(n, 10) : Math.round(window.innerHeight * 0.8);
  if (dir === "top") window.scrollTo(0, 0);
  else if (dir === "bottom") window.scrollTo(0, document.documentElement.scrollHeight);
  else if (dir === "up") window.scrollBy(0, -by);
  else window.scrollBy(0, by);
}`

// throughItemJS answers the middle of el when el is a label the page draws over its item
// and lets the item take the pointer (a node's name in a flow editor's canvas: the text
// takes no events, the node's shape under it does): the element the pointer meets there
// is inside the smallest box that holds both, and that box says no more than el does, or
// is the row (of a table, a list, a tree) el's text is in (a torrent's name in Flood's
// list, whose row takes the pointer over its cells). Else null: el takes the pointer
// itself, or something else covers it.
const throughItemJS = `(el) => {
  if (window !== window.top) return null; // a frame's coordinates are not the page's
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return null;
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const top = el.ownerDocument.elementFromPoint(x, y);
  if (!top || top === el || el.contains(top)) return null;
  let box = el.parentElement;
  while (box && !box.contains(top)) box = box.parentElement;
  if (!box || box === el.ownerDocument.body || box === el.ownerDocument.documentElement) return null;
  const said = (n) => (n.textContent || "").replace(/\s+/g, " ").trim();
  if (said(box) === said(el)) return [x, y];
  const row = el.closest("tr,[role=row],li,[role=listitem],[role=option],[role=treeitem]");
  return row && row.contains(box) ? [x, y] : null;
}`

// boxLabelJS answers the middle of the visible label of el when el is a checkbox or a
// radio button a label names; else null.
const boxLabelJS = `(el) => {
  if (window !== window.top || !/^(checkbox|radio)$/i.test(el.type || "")) return null;
  for (const l of Array.from(el.labels || [])) {
    const r = l.getBoundingClientRect();
    if (r.width >= 4 && r.height >= 4 && (l.textContent || "").trim()) return [r.left + r.width / 2, r.top + r.height / 2];
  }
  return null;
}`

// throughItem is where to press for a label its item takes the pointer for (throughItemJS),
// in the page's coordinates; ok is false for an element that takes it itself.
func (a *action) throughItem() (x, y float64, ok bool) { return a.point(throughItemJS) }

// point is the point the page script js answers for the element, in the page's coordinates;
// ok is false when it answers none.
func (a *action) point(js string, arg ...any) (x, y float64, ok bool) {
	if a.el == nil {
		return 0, 0, false
	}
	v, err := a.el.Evaluate(js, arg...)
	p, _ := v.([]any)
	if err != nil || len(p) != 2 {
		return 0, 0, false
	}
	x, okx := jsnum.Number(p[0])
	y, oky := jsnum.Number(p[1])
	return x, y, okx && oky
}
