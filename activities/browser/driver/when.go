package driver

//lint:file-ignore SA1019 A conditional click acts on the exact node its observation numbered; only an ElementHandle names that node.

import (
	"context"
	"fmt"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/plan"
)

// A step with a condition (plan.Step.Condition, "the price < 47.10") waits until the one number
// the page shows under that name meets the bound, and then acts at once. The value may
// change every few milliseconds, so a look from here and a click after it would click on
// a value that is already gone: the watch runs in the page (a MutationObserver, and a
// short poll for field values, which change without a mutation), and a CLICK is done in
// the same turn of the page's event loop that saw the condition hold, so no tick of the
// page comes between. The click is dispatched by the page script (pointer and mouse
// events, then the element's click()), after the browser's own checks on the button
// (visible, still, enabled, not covered) were done beforehand; at the moment of the click
// the script checks again that the button is connected, enabled, shown and not covered,
// and skips a moment when it is not. What the script saw when it clicked is returned,
// and checked here once more against the condition.

// whenJS watches the number named w.subject and, when it meets the bound, clicks el (when
// el is given) in the same turn. It answers {error} when the page does not show exactly
// one such number, {held, value, clicked} when it held, or {held: false, last, seen} when
// the time ran out.
const whenJS = `async (el, w) => {
  const doc = el ? el.ownerDocument : document;
  const norm = (t) => (t || "").replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[-_]+/g, " ").replace(/\s+/g, " ").trim().replace(/:$/, "").trim().toLowerCase();
  const want = norm(w.subject.replace(/^\s*(the|a|an)\s+/i, "").replace(/^"(.*)"$/, "$1"));
  const names = (t) => (" " + norm(t) + " ").includes(" " + want + " ");
  const amount = /^\s*([-+]?)\s*[$€£¥]?\s*([-+]?)\s*((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s*$/;
  const num = (t) => { const m = amount.exec(t || ""); if (!m) return null; const n = parseFloat(m[3].replace(/,/g, "")); return (m[1] === "-" || m[2] === "-") ? -n : n; };
  const shown = (e) => (e.matches("input, textarea, select") ? e.value : e.innerText || "").trim();
  const visible = (e) => !e.checkVisibility || e.checkVisibility({ visibilityProperty: true });
  const isLabel = (e) => e && (/^(LABEL|TH|DT)$/.test(e.tagName) || /:\s*$/.test(e.innerText || ""));
  const named = (e) => {
    const attrs = ["id", "class", "name", "aria-label", "title", "itemprop"].map((a) => e.getAttribute(a) || "");
    if (attrs.some(names)) return true;
    if (e.labels && Array.from(e.labels).some((l) => names(l.innerText))) return true;
    const by = e.getAttribute("aria-labelledby");
    if (by && by.split(/\s+/).some((id) => { const l = doc.getElementById(id); return l && names(l.innerText); })) return true;
    const prev = e.previousElementSibling;
    if (isLabel(prev) && names(prev.innerText)) return true;
    const cell = e.closest("td, dd");
    if (cell && cell.previousElementSibling && names(cell.previousElementSibling.innerText)) return true;
    return false;
  };
  const find = () => {
    const hits = [];
    for (const e of doc.body.querySelectorAll("*")) {
      if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(e.tagName) || e.closest("svg")) continue;
      const t = shown(e);
      if (num(t) === null || !visible(e)) continue;
      if (Array.from(e.children).some((c) => shown(c) === t)) continue;
      if (named(e)) hits.push(e);
    }
    return hits;
  };
  const holds = (n) => ({ "<": n < w.bound, "<=": n <= w.bound, ">": n > w.bound, ">=": n >= w.bound })[w.op];
  const ready = () => {
    if (!el.isConnected || el.disabled || !visible(el)) return false;
    if (el.getRootNode() !== doc) return true;
    const r = el.getBoundingClientRect();
    const top = doc.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!top && (top === el || el.contains(top));
  };
  const press = () => {
    const r = el.getBoundingClientRect();
    const at = { bubbles: true, cancelable: true, composed: true, button: 0, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, view: doc.defaultView };
    el.dispatchEvent(new PointerEvent("pointerdown", { ...at, pointerType: "mouse", isPrimary: true }));
    el.dispatchEvent(new MouseEvent("mousedown", { ...at, buttons: 1 }));
    if (el.focus) el.focus();
    el.dispatchEvent(new PointerEvent("pointerup", { ...at, pointerType: "mouse", isPrimary: true }));
    el.dispatchEvent(new MouseEvent("mouseup", at));
    el.click();
  };
  const first = find();
  if (first.length !== 1) return { error: first.length === 0 ? "none" : "several", n: first.length, shown: first.map(shown).slice(0, 5) };
  let target = first[0], last = shown(target), seen = 0, blocked = 0;
  return await new Promise((resolve) => {
    let done = false, obs = null, poll = 0, stop = 0;
    const finish = (r) => { if (done) return; done = true; if (obs) obs.disconnect(); clearInterval(poll); clearTimeout(stop); resolve(r); };
    const look = () => {
      if (done) return;
      if (!target.isConnected) {
        const hits = find();
        if (hits.length > 1) return finish({ error: "several", n: hits.length, shown: hits.map(shown).slice(0, 5) });
        if (hits.length === 0) return;
        target = hits[0];
      }
      const t = shown(target);
      if (t !== last) seen++;
      last = t;
      const n = num(t);
      if (n === null || !holds(n)) return;
      if (el) {
        if (!ready()) { blocked++; return; }
        press();
      }
      finish({ held: true, value: t, clicked: !!el });
    };
    obs = new MutationObserver(look);
    obs.observe(doc.documentElement, { subtree: true, childList: true, characterData: true });
    poll = setInterval(look, 20);
    stop = setTimeout(() => finish({ held: false, last, seen, blocked }), w.ms);
    look();
  });
}`

// whenResult is what whenJS answers.
type whenResult struct {
	Error   string   `json:"error"`
	N       int      `json:"n"`
	Shown   []string `json:"shown"`
	Held    bool     `json:"held"`
	Value   string   `json:"value"`
	Clicked bool     `json:"clicked"`
	Last    string   `json:"last"`
	Seen    int      `json:"seen"`
	Blocked int      `json:"blocked"`
}

// whenBound is how long a step watches for its condition: plan.MaxWhen, less when the
// activity ends sooner (with a margin to report what it saw).
func whenBound(ctx context.Context) time.Duration {
	d := plan.MaxWhen
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(dl)-2*time.Second)
	}
	return max(d, 100*time.Millisecond)
}

// clickWhen is a CLICK with a condition: the browser's checks on the target first (as
// for a click a WAIT times), then the watch, which clicks in the moment the condition
// holds, and never otherwise.
func clickWhen(ctx context.Context, a *action) *plan.Feedback {
	if a.el == nil {
		return &plan.Feedback{Type: plan.WrongElement, Details: "a click that waits for a condition needs an element, not a point on the screen"}
	}
	if err := a.el.Click(playwright.ElementHandleClickOptions{Timeout: timeout, Trial: playwright.Bool(true)}); err != nil {
		return a.failed(err)
	}
	return watch(ctx, a, a.el)
}

// waitWhen is a WAIT for a condition alone.
func waitWhen(ctx context.Context, a *action) *plan.Feedback {
	return watch(ctx, a, nil)
}

// watch runs whenJS for the step's condition, clicking el when it is given, and turns
// what the page saw into the step's record: the value the condition held at, or why it
// did not.
func watch(ctx context.Context, a *action, el playwright.ElementHandle) *plan.Feedback {
	cond := *a.step.Condition
	a.phase(PhaseWaiting)
	bound := whenBound(ctx)
	arg := map[string]any{"subject": cond.Subject, "op": cond.Op, "bound": cond.Number, "ms": float64(bound.Milliseconds())}
	var raw any
	var err error
	if el != nil {
		raw, err = el.Evaluate(whenJS, arg)
	} else {
		raw, err = a.s.page.Evaluate(`(w) => (`+whenJS+`)(null, w)`, arg)
	}
	var got whenResult
	if err == nil {
		err = decode(raw, &got)
	}
	if err != nil {
		// The page may have gone with the click (a navigation): the step may have acted,
		// which the check after it settles.
		return a.failed(err)
	}
	return whenOutcome(a, cond, got, bound)
}

// whenOutcome says what a watch did. A click is recorded with the value it was made at,
// which is checked against the condition once more here.
func whenOutcome(a *action, cond plan.Condition, got whenResult, bound time.Duration) *plan.Feedback {
	switch {
	case got.Error == "none":
		return &plan.Feedback{Type: plan.NotVisible, Details: fmt.Sprintf("the page shows no number named %s (by its id, class, label or the label beside it)", cond.Subject),
			Suggestion: "name the value as the page labels it"}
	case got.Error != "":
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("the page shows %d numbers named %s (%q): which one is meant is not clear", got.N, cond.Subject, got.Shown),
			Suggestion: "name the value more exactly"}
	case !got.Held:
		why := ""
		if got.Blocked > 0 {
			why = fmt.Sprintf("; it held %d times while %s could not be clicked (disabled, hidden or covered)", got.Blocked, a.ref)
		}
		return &plan.Feedback{Type: plan.Timing, Details: fmt.Sprintf("%s was never true in %s: the last value seen was %q (%d changes seen)%s; nothing was clicked",
			cond.Words(), bound.Round(time.Second), got.Last, got.Seen, why)}
	}
	n, ok := plan.ParseNumber(got.Value)
	if got.Clicked {
		// The action is timed from the click, not from the start of the watch (pace.go).
		a.at = time.Now()
		a.note("clicked %s when %s showed %q (%s)", a.ref, cond.Subject, got.Value, cond.Words())
	} else {
		a.note("waited until %s showed %q (%s)", cond.Subject, got.Value, cond.Words())
	}
	if !ok || !cond.Holds(n) {
		return &plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("the page script acted when %s showed %q, which does not meet %s", cond.Subject, got.Value, cond.Words())}
	}
	return nil
}
