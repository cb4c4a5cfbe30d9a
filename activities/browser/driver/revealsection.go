package driver

//lint:file-ignore SA1019 The toggle a page script found is a node, not a selector; only an ElementHandle names it.

import (
	"context"
	"fmt"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/webagent-dev/webagent/plan"
)

// headingSelector is what the page marks as a heading: a menu's section may be named by one.
const headingSelector = "h1, h2, h3, h4, h5, h6, [role=heading]"

// revealSectionJS looks for what a description names (a control, or the heading of a
// menu's section: Icinga Web 2's "Configuration" over its links) in the part of a menu or
// a page the page keeps folded (Cacti's "Management" in its side menu, LDAP Account Manager's
// "Accounts" over "Users" and "Groups", a <details> shut): the control whose whole text is
// the name, hidden in a box the page draws with no size or not at all, whose parent is in
// sight and which has a control in sight just before it — the header a person clicks or
// points at to unfold it (and, for an item said to be in a row, a header naming that row). Found under one such header only (or under several with "the
// first" asked for), the header is kept, and whether clicking it would leave the page.
const revealSectionJS = `({ name, first, row }) => {
  const HEADINGS = "` + headingSelector + `";
  const norm = (t) => (t || "").replace(/\s+/g, " ").trim().toLowerCase();
  const want = norm(name);
  const rendered = (el) => !el.checkVisibility || el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  const folds = (el) => {
    if (!rendered(el)) return true;
    const r = el.getBoundingClientRect();
    return (r.width < 1 || r.height < 1) && getComputedStyle(el).overflow !== "visible";
  };
  const seen = (el) => {
    for (let n = el; n && n !== document.documentElement; n = n.parentElement) if (folds(n)) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 1 && r.height >= 1;
  };
  const control = "a, button, summary, [role=button], [role=menuitem], [aria-expanded]";
  const headers = [];
  let heading = false;
  for (const el of document.querySelectorAll("a[href], button, [role=menuitem], [role=link], [role=button], [role=tab], " + HEADINGS)) {
    if (norm(el.textContent) !== want || seen(el)) continue;
    // The outermost box that folds it, whose parent is in sight.
    let box = null;
    for (let n = el.parentElement; n && n !== document.body; n = n.parentElement) {
      if (folds(n)) box = n;
    }
    // A wrapper with no size of its own around the box (a CSS menu's <div> around its
    // hidden <ul>) folds with it.
    while (box && box.parentElement && box.parentElement !== document.body && !seen(box.parentElement) && rendered(box.parentElement)) {
      const r = box.parentElement.getBoundingClientRect();
      if (r.width >= 1 && r.height >= 1) break;
      box = box.parentElement;
    }
    if (!box || !box.parentElement || !seen(box.parentElement)) continue;
    // The header is the control just before the box (or its summary), the one thing in
    // that place a person can press: a box whose neighbour is a bar of several controls,
    // or none, is no section of it.
    let header = null;
    if (box.tagName === "DETAILS") header = box.querySelector(":scope > summary");
    const prev = box.previousElementSibling;
    if (!header && prev) {
      const cs = prev.matches(control) ? [prev] : Array.from(prev.querySelectorAll(control));
      if (cs.length === 1 && seen(cs[0])) header = cs[0];
    }
    // An item placed in a row ("Users" under "Configuration") is under a header that says so.
    if (header && row && !norm(header.textContent).includes(norm(row))) header = null;
    if (header && !headers.includes(header)) headers.push(header);
    if (header) heading = heading || el.matches(HEADINGS);
  }
  if (headers.length === 0 || (headers.length > 1 && !first)) return { found: headers.length };
  const h = headers[0];
  const href = h.tagName === "A" ? (h.getAttribute("href") || "") : "";
  window.__webagentHeader = h;
  return { found: 1, header: (h.innerText || h.getAttribute("aria-label") || h.getAttribute("title") || "").trim().split("\n")[0].slice(0, 40), leaves: href !== "" && !/^(#|javascript:)/i.test(href), heading };
}`

// shownNamedJS counts the controls in sight whose whole text is the name (and the
// headings, when asked).
const shownNamedJS = `([name, headings]) => {
  const norm = (t) => (t || "").replace(/\s+/g, " ").trim().toLowerCase();
  let n = 0;
  for (const el of document.querySelectorAll("a[href], button, [role=menuitem], [role=link], [role=button], [role=tab]" + (headings ? ", ` + headingSelector + `" : ""))) {
    if (norm(el.textContent) !== norm(name) || (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true }))) continue;
    const r = el.getBoundingClientRect();
    const hit = r.width >= 1 && r.height >= 1 && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (hit && (hit === el || el.contains(hit))) n += Math.round(r.top * 10 + r.left) + 100000;
  }
  return n;
}`

// shownNamed reports a control in sight named name, and where (a number that changes
// while it moves: a menu sliding open).
func (s *Session) shownNamed(name string, headings bool) (bool, int) {
	var n int
	v, err := s.page.Evaluate(shownNamedJS, []any{name, headings})
	if err == nil {
		err = decode(v, &n)
	}
	return err == nil && n > 0, n
}

// cameIntoSight waits up to a second and a half for a control named name (or a heading,
// when asked) to be in sight and still (a menu that slides open moves what it shows until
// it is open).
func (s *Session) cameIntoSight(ctx context.Context, name string, headings bool) bool {
	last := -1
	for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end); {
		ok, at := s.shownNamed(name, headings)
		if ok && at == last {
			return true
		}
		last = at
		if sleep(ctx, 100*time.Millisecond) != nil {
			return false
		}
	}
	return false
}

// revealInSection unfolds the part of the page that holds what desc names (see
// revealSectionJS): it points at the header, as a menu that opens on hover wants, and
// clicks it when pointing did not show the target and the click does not leave the page.
// Unfolding changes what the page shows, not what it holds.
func (s *Session) revealInSection(ctx context.Context, desc plan.Target) (bool, error) {
	var got struct {
		Found   int    `json:"found"`
		Header  string `json:"header"`
		Leaves  bool   `json:"leaves"`
		Heading bool   `json:"heading"`
	}
	s.unfolded = ""
	name, ok := s.searchHidden(revealSectionJS, desc, &got)
	if !ok || got.Found != 1 {
		return false, nil
	}
	el := s.kept(`() => window.__webagentHeader || null`)
	if el == nil {
		return false, nil
	}
	defer el.Dispose()
	if err := el.Hover(playwright.ElementHandleHoverOptions{Timeout: ms(bounded(ctx, 3*time.Second))}); err != nil {
		return false, ctx.Err()
	}
	how := "pointed at"
	if !s.cameIntoSight(ctx, name, got.Heading) {
		if got.Leaves {
			return false, nil
		}
		if err := el.Click(playwright.ElementHandleClickOptions{Timeout: ms(bounded(ctx, 3*time.Second))}); err != nil {
			return false, ctx.Err()
		}
		how = "opened"
		if !s.cameIntoSight(ctx, name, got.Heading) {
			return false, ctx.Err()
		}
	}
	if got.Heading {
		s.unfolded = name
	}
	s.notes.add(fmt.Sprintf("%s %q, under which %q is", how, got.Header, name))
	return true, nil
}
