package driver

//lint:file-ignore SA1019 The text a page script found is a node, not a selector; only an ElementHandle names it.

import (
	"fmt"
	"strings"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// An item's text that a person double-clicks to edit, right-clicks for its menu, or drags,
// is often no control at all: the page listens for the double click on the list, not on the
// text (frameworks delegate their handlers), so nothing marks it. For those two actions, a
// target named by its text alone that no control matches is that text, when the page shows
// it exactly once.

// textTargetJS finds the visible innermost elements whose whole text is the name.
const textTargetJS = `(name) => {
  const norm = (t) => (t || "").replace(/\s+/g, " ").trim().toLowerCase();
  const want = norm(name);
  const hits = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|HTML|BODY)$/.test(el.tagName)) continue;
    const tc = el.textContent || "";
    if (tc.length > want.length * 2 + 40 || norm(tc) !== want) continue;
    if (Array.from(el.children).some((c) => norm(c.textContent) === want)) continue;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    hits.push(el);
  }
  if (hits.length !== 1) return { n: hits.length };
  const r = hits[0].getBoundingClientRect();
  window.__webagentText = hits[0];
  return { n: 1, tag: hits[0].tagName.toLowerCase(), box: [r.x, r.y, r.width, r.height] };
}`

// rowClickedJS reports whether the text textTargetJS kept is in a table row or list item
// the page made to be clicked: the row says so (a title, a click or pointer handler in its
// markup, a pointer cursor), as DAViCal's "Click to display user details" rows do, or the
// page's script listens for a click on the row or a box in it (a data studio's table,
// whose rows open their item).
const rowClickedJS = `() => {
  const el = window.__webagentText;
  const row = el && el.closest("tr, li, [role=row]");
  if (!row || row.closest("thead")) return false;
  const marks = window.__webagentClicks;
  const said = (n) => n.hasAttribute("onclick") || n.hasAttribute("onmouseover") || n.hasAttribute("onmousedown") || getComputedStyle(n).cursor === "pointer" ||
    (!!marks && marks.has(n));
  for (let n = el; n && n !== row.parentElement; n = n.parentElement) if (said(n)) return true;
  return row.hasAttribute("title") && row.querySelectorAll("a[href]").length === 1;
}`

// rowClicked reports what rowClickedJS does.
func (s *Session) rowClicked() bool {
	v, err := s.page.Evaluate(rowClickedJS)
	var clicked bool
	return err == nil && decode(v, &clicked) == nil && clicked
}

// headingUnfolded reports whether the text textTargetJS kept is the heading of a menu's
// section the step's reveal just brought into sight, named name: a person told to click
// "Configuration" points at the menu, sees the heading and clicks it (the click does
// nothing more than keep the menu open; its links are the next step's).
func (s *Session) headingUnfolded(name string) bool {
	if s.unfolded == "" || !strings.EqualFold(s.unfolded, name) {
		return false
	}
	v, err := s.page.Evaluate(`(sel) => !!window.__webagentText && window.__webagentText.matches(sel)`, headingSelector)
	var heading bool
	return err == nil && decode(v, &heading) == nil && heading
}

// aimAtText makes the text the step names its target when no control is named so: a
// double or right click may be aimed at an item's text, which is no control; a click, at
// the text of a row the page made to be clicked (rowClicked), or at the heading of a
// menu's section the step unfolded (headingUnfolded): then the page before the step is
// first, its look before the menu was unfolded, for the step did both. Why not is written
// into res.
func (at *attempt) aimAtText(res *page.Resolution, obs, first page.Observation) bool {
	step := at.step
	if res.Resolved() || len(res.Candidates) > 0 || !(textAimed[step.Action] || step.Action == plan.Click) {
		return false
	}
	el, t, why := at.s.textTarget(step.Parts(), step.TargetDescription)
	if el != nil && step.Action == plan.Click && !at.s.rowClicked() {
		if !at.s.headingUnfolded(t.Name) {
			el, why = nil, ""
		} else {
			obs = first
		}
	}
	if el != nil {
		at.out.Target, at.el, at.out.Before = &t, el, obs
		return true
	}
	if why != "" {
		res.Reason = why
	}
	return false
}

// textAimed are the actions that may be aimed at text that is no control.
var textAimed = map[plan.Action]bool{plan.DoubleClick: true, plan.RightClick: true, plan.Drag: true, plan.SelectText: true}

// textTarget finds the text a target t (described as desc) names, for an action that may
// be aimed at text: only a target named by its text and nothing else (no kind, row,
// container, ordinal or position: those need the controls the observation lists), shown
// exactly once. reason says why not.
func (s *Session) textTarget(t plan.Target, desc string) (playwright.ElementHandle, page.Element, string) {
	if t.Name == "" || t.Kind != "" || t.Row != "" || t.Container != "" || t.Ordinal != 0 || t.Position != "" || t.InList {
		return nil, page.Element{}, ""
	}
	name := t.Name
	if !t.Quoted {
		// The whole description is the name (the planner unquotes it): every word counts,
		// "the" in "Water the plants" too.
		name = strings.Trim(desc, "\"' ")
	}
	var got struct {
		N   int       `json:"n"`
		Tag string    `json:"tag"`
		Box []float64 `json:"box"`
	}
	v, err := s.page.Evaluate(textTargetJS, name)
	if err == nil {
		err = decode(v, &got)
	}
	switch {
	case err != nil || got.N == 0:
		return nil, page.Element{}, ""
	case got.N > 1:
		return nil, page.Element{}, fmt.Sprintf("the text %q is on the page %d times: say which (in the row of ...)", name, got.N)
	}
	el := s.kept(`() => window.__webagentText || null`)
	if el == nil {
		return nil, page.Element{}, ""
	}
	e := page.Element{Index: -1, Role: "text", Tag: got.Tag, Name: name}
	if len(got.Box) == 4 {
		e.Box = page.Box{X: int(got.Box[0]), Y: int(got.Box[1]), W: int(got.Box[2]), H: int(got.Box[3])}
	}
	return el, e, ""
}

// namedExactly reports whether the element's own name or text is the target's name, not a
// longer text that holds it.
func namedExactly(e page.Element, t plan.Target) bool {
	// An unquoted name lost its fillers ("Write the report" is "Write report"): the
	// element's texts are read without them too.
	same := func(v string) string {
		if !t.Quoted {
			v = plan.Fillers.ReplaceAllString(v, " ")
		}
		return strings.ToLower(strings.Join(strings.Fields(v), " "))
	}
	n := same(t.Name)
	for _, v := range []string{e.Name, e.Text, e.Label} {
		if same(v) == n {
			return true
		}
	}
	return n == ""
}
