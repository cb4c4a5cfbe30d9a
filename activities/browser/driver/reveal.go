package driver

//lint:file-ignore SA1019 The tab or menu item a page script found is a node, not a selector; only an ElementHandle names it.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// revealJS looks for what a description names in the tab panels the page hides, as a
// person switches tabs to find a link: the element whose whole text is the name, in a
// hidden [role=tabpanel] whose tab is visible. Found in one panel only (or in several,
// with "the first" asked for: the first in page order), its tab is kept for a click.
const revealJS = `({ name, first }) => {
  const norm = (t) => (t || "").replace(/\s+/g, " ").trim().toLowerCase();
  const want = norm(name);
  const panels = [];
  for (const panel of document.querySelectorAll("[role=tabpanel]")) {
    if (panel.checkVisibility && panel.checkVisibility()) continue;
    for (const el of panel.querySelectorAll("*")) {
      if (norm(el.textContent) !== want) continue;
      if (Array.from(el.children).some((c) => norm(c.textContent) === want)) continue;
      if (!panels.includes(panel)) panels.push(panel);
    }
  }
  if (panels.length === 0) return { found: 0 };
  if (panels.length > 1 && !first) return { found: panels.length };
  const panel = panels[0];
  const by = panel.getAttribute("aria-labelledby");
  const tab = (panel.id && document.querySelector('[role=tab][aria-controls="' + CSS.escape(panel.id) + '"]')) ||
    (by && document.getElementById(by));
  if (!tab || (tab.checkVisibility && !tab.checkVisibility())) return { found: 0 };
  window.__webagentTab = tab;
  return { found: 1, tab: (tab.innerText || "").trim().slice(0, 60) };
}`

// revealMenuJS looks for what a description names in the submenus a menu hides, as a
// person points through "Playback" to find "Prev": the element whose whole text is the
// name, in a hidden [role=menu] below a visible menu. The items that open the way to it,
// outermost first, are kept for the pointer.
const revealMenuJS = `({ name, first }) => {
  const norm = (t) => (t || "").replace(/\s+/g, " ").trim().toLowerCase();
  const want = norm(name);
  const shown = (el) => !el.checkVisibility || el.checkVisibility();
  const hits = [];
  for (const menu of document.querySelectorAll("[role=menu]")) {
    if (shown(menu)) continue;
    for (const el of menu.querySelectorAll("[role=menuitem], [role=menuitemcheckbox], [role=menuitemradio]")) {
      if (norm(el.textContent) === want && el.closest("[role=menu]") === menu) hits.push(el);
    }
  }
  if (hits.length === 0 || (hits.length > 1 && !first)) return { found: hits.length };
  const path = [];
  for (let menu = hits[0].closest("[role=menu]"); menu && !shown(menu); ) {
    const owner = menu.parentElement && menu.parentElement.closest("[role=menuitem], li");
    const item = owner && (owner.matches("[role=menuitem]") ? owner : owner.querySelector(":scope > [role=menuitem]") || owner);
    if (!item) return { found: 0 };
    path.unshift(item);
    menu = item.closest("[role=menu]");
    if (!menu) return { found: 0 };
    if (shown(menu)) break;
  }
  if (path.length === 0 || !shown(path[0])) return { found: 0 };
  window.__webagentPath = path;
  return { found: 1, path: path.map((el) => (el.innerText || "").trim().split("\n")[0].slice(0, 40)) };
}`

// reveal brings into sight what desc names when the page hides it where a person would
// look — in a tab (revealInTab), in a submenu (revealInMenu) — and exactly one place
// holds it, or shows it on another page of a paged list (revealByPaging); it does
// nothing, and says nothing, otherwise. why is set when a list was paged through to its
// end without it: it is on none of the pages, and not to be waited for. A step that waits
// for its target to appear (a WAIT) does not page: what it waits for is to come here.
func (s *Session) reveal(ctx context.Context, desc plan.Target, paging bool) (ok bool, why string, err error) {
	if ok, err := s.revealInTab(ctx, desc); ok || err != nil {
		return ok, "", err
	}
	if ok, err := s.revealInMenu(ctx, desc); err != nil || ok && s.cameIntoSight(ctx, named(desc), false) {
		return ok, "", err
	}
	if ok, err := s.revealInSection(ctx, desc); ok || err != nil {
		return ok, "", err
	}
	if !paging {
		return false, "", nil
	}
	return s.revealByPaging(ctx, desc)
}

// kept is the node a page script kept for the next action (window.__webagentTab, a
// path's i-th item), as an element, or nil when the page no longer holds it.
func (s *Session) kept(js string, arg ...any) playwright.ElementHandle {
	h, err := s.page.EvaluateHandle(js, arg...)
	if err != nil {
		return nil
	}
	return h.AsElement()
}

// named is the name a description quotes, or "".
func named(desc plan.Target) string {
	n, _, _ := page.Named(desc)
	return n
}

// revealByPaging pages the page's paged list until it shows what desc names: the item
// it places the target in ("the "Call" button for "Clementine"": Clementine's), or else
// the target's quoted name. The step's actions say how far it paged.
func (s *Session) revealByPaging(ctx context.Context, desc plan.Target) (bool, string, error) {
	name := desc.Row
	if name == "" {
		n, ordinal, ok := page.Named(desc)
		if !ok || ordinal > 1 || ordinal < 0 || desc.Labelled {
			return false, "", nil
		}
		name = n
	}
	p, err := s.pageTo(ctx, name)
	if err != nil || p.clicks == 0 {
		return false, p.why, err
	}
	if p.found {
		s.notes.add(p.note(name))
	}
	return p.found, p.why, nil
}

// searchHidden runs a page search for the name desc quotes (with "the first" or no
// ordinal; any other asks for more than a search can say) into got. A page that cannot
// be searched so is a page with nothing hidden.
func (s *Session) searchHidden(js string, desc plan.Target, got any) (string, bool) {
	name, ordinal, ok := page.Named(desc)
	if !ok || ordinal > 1 || ordinal < 0 {
		return "", false
	}
	v, err := s.page.Evaluate(js, map[string]any{"name": name, "first": ordinal == 1, "row": desc.Row})
	if err == nil {
		err = decode(v, got)
	}
	return name, err == nil
}

// revealInMenu points through the menu items that open the submenu holding what desc
// names (see revealMenuJS), outermost first.
func (s *Session) revealInMenu(ctx context.Context, desc plan.Target) (bool, error) {
	var got struct {
		Found int      `json:"found"`
		Path  []string `json:"path"`
	}
	name, ok := s.searchHidden(revealMenuJS, desc, &got)
	if !ok || got.Found != 1 {
		return false, nil
	}
	for i := range got.Path {
		el := s.kept(`(i) => window.__webagentPath[i] || null`, i)
		if el == nil {
			return false, nil
		}
		err := el.Hover(playwright.ElementHandleHoverOptions{Timeout: ms(bounded(ctx, 5*time.Second))})
		el.Dispose()
		if err != nil {
			return false, nil
		}
	}
	s.notes.add(fmt.Sprintf("pointed at %s, where %q is", strings.ReplaceAll(quoteAll(got.Path), ", ", ", then "), name))
	return true, nil
}

// revealInTab opens the tab that hides the element desc names, when exactly one tab does
// (see revealJS), and says so. Switching a tab changes what the page shows, not what it
// holds.
func (s *Session) revealInTab(ctx context.Context, desc plan.Target) (bool, error) {
	var got struct {
		Found int    `json:"found"`
		Tab   string `json:"tab"`
	}
	name, ok := s.searchHidden(revealJS, desc, &got)
	if !ok || got.Found != 1 {
		return false, nil
	}
	el := s.kept(`() => window.__webagentTab || null`)
	if el == nil {
		return false, nil
	}
	defer el.Dispose()
	if err := el.Click(playwright.ElementHandleClickOptions{Timeout: ms(bounded(ctx, 5*time.Second))}); err != nil {
		return false, nil
	}
	s.notes.add(fmt.Sprintf("opened the tab %q, which holds %q", got.Tab, name))
	return true, nil
}

// revealInRow hovers the row the target is placed in, when the page shows that row but
// not the target: a row's icon buttons (delete, edit) often show only while the row is
// hovered. It hovers one control of the row, which hovers the row around it, and says
// so in the step's notes; it reports whether it hovered.
func (s *Session) revealInRow(ctx context.Context, t plan.Target, obs page.Observation) (bool, error) {
	if t.Row == "" {
		return false, nil
	}
	for _, e := range obs.Elements {
		if !page.InRow(t, e) || e.Offscreen {
			continue
		}
		el, err := s.element(e.Index)
		if err != nil {
			return false, nil
		}
		if err := el.Hover(playwright.ElementHandleHoverOptions{Timeout: ms(bounded(ctx, 3*time.Second))}); err != nil {
			return false, ctx.Err()
		}
		s.notes.add(fmt.Sprintf("hovered over the row %q (%s) to show its controls", t.Row, e.Ref()))
		return true, nil
	}
	return false, nil
}
