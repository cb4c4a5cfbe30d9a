package page

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/webagent-dev/webagent/plan"
)

// Resolution is the outcome of resolving a target description against an observation:
// exactly one element, or none and the reason, with the candidates when several matched.
type Resolution struct {
	// Index is the element's index in the observation, or -1 when not resolved.
	Index int
	// Matched says which of the element's texts matched (name, label, placeholder...).
	Matched    string
	Candidates []Element
	Reason     string
}

// Resolved reports whether exactly one element was found.
func (r Resolution) Resolved() bool { return r.Index >= 0 }

// Resolve finds the one element that desc describes for the given action, by visible
// text, label, placeholder, accessible name or title — DOM-first, no model. Every part of
// the description holds for the element it returns: its kind, its name, the row or
// container it is in and its ordinal. Otherwise it returns Index -1 and a reason that
// names the part no element satisfied, or, when several satisfy all of them equally
// well, the candidates.
func Resolve(desc string, action plan.Action, elems []Element) Resolution {
	return resolve(ParseTarget(desc), strconv.Quote(desc), action, elems)
}

// ResolveTarget is Resolve for a target already read into its parts: a plan step's
// (plan.Step.Parts), which is how the browser resolves a step.
func ResolveTarget(target plan.Target, action plan.Action, elems []Element) Resolution {
	return resolve(Target{target}, target.Describe(), action, elems)
}

// resolve resolves t; said is how a refusal names what was described.
func resolve(t Target, said string, action plan.Action, elems []Element) Resolution {
	if (action == plan.Type || action == plan.Append || action == plan.Clear) && t.Kind == "" && strings.EqualFold(t.Name, "box") {
		// "the box next to "Search"": what one types into is a field.
		t.Kind, t.Name = "field", ""
	}
	if why := t.tabOpen(elems); why != "" {
		return Resolution{Index: -1, Reason: why}
	}
	pool := preferAll(elems, func(e Element) bool { return fits(action, e) })
	pool, why := t.place(pool, elems)
	if why != "" {
		return Resolution{Index: -1, Reason: why}
	}
	cands, matched, why := t.match(pool)
	if why != "" && (action == plan.Type || action == plan.Clear) {
		if e, ok := t.shownAs(pool); ok {
			return Resolution{Index: e.Index, Matched: ShownAs}
		}
	}
	if why != "" && action == plan.Type {
		if e, ok := t.opensEditor(elems); ok {
			return Resolution{Index: e.Index, Matched: OpensEditor}
		}
	}
	if action == plan.Check && (why != "" || !slices.ContainsFunc(cands, func(e Element) bool { return fits(plan.Check, e) })) {
		if box, ok := t.boxOfRow(elems); ok {
			return Resolution{Index: box.Index, Matched: "row"}
		}
	}
	if why != "" {
		return Resolution{Index: -1, Reason: why}
	}
	if t.Kind == "button" {
		// A button, said so, is what the page draws as one before a heading or a box a
		// script made clickable under the same words (a section's "Publish message"
		// heading, its form's "Publish message" button).
		cands = preferAll(cands, func(e Element) bool { return e.Role == "button" || e.Tag == "button" })
	}
	if t.Kind == "editor" {
		// A text editor, said plainly, is the box a rich-text editor draws, if the page has one.
		cands = preferAll(cands, func(e Element) bool { return e.Tag != "textarea" })
	}
	if t.Ordinal != 0 {
		// Counted on the page as it is, disabled ones too: "the second" is the second.
		return t.nth(cands, matched)
	}
	cands = preferAll(cands, func(e Element) bool { return !e.Disabled })
	if len(cands) > 1 {
		cands = t.spelledAsSaid(cands)
	}
	if len(cands) > 1 && t.Position != "" {
		cands = byPosition(t.Position, cands)
	}
	if len(cands) > 1 {
		cands = noChoice(action, cands, elems)
	}
	if len(cands) == 1 {
		return Resolution{Index: cands[0].Index, Matched: matched[cands[0].Index]}
	}
	refs := make([]string, 0, len(cands))
	for _, c := range cands {
		refs = append(refs, c.Ref())
	}
	if len(cands) > 8 {
		cands = cands[:8]
	}
	return Resolution{Index: -1, Candidates: cands, Reason: fmt.Sprintf("%d elements match %s equally well: %s", len(refs), said, strings.Join(refs, ", "))}
}

// ResolveEvery finds each element a target that says "every" describes: every part but
// the count holds for each (its kind, its name, the row or container it is in), read in
// reading order, disabled ones left out. None is a reason.
func ResolveEvery(target plan.Target, action plan.Action, elems []Element) ([]Element, string) {
	t := Target{target}
	if why := t.tabOpen(elems); why != "" {
		return nil, why
	}
	pool := preferAll(elems, func(e Element) bool { return fits(action, e) })
	pool, why := t.place(pool, elems)
	if why != "" {
		return nil, why
	}
	cands, _, why := t.match(pool)
	if why != "" {
		return nil, why
	}
	cands = filterAll(cands, func(e Element) bool { return !e.Disabled })
	if len(cands) == 0 {
		return nil, fmt.Sprintf("no %s%s is enabled", t.named(), t.where())
	}
	sort.SliceStable(cands, func(i, j int) bool { return readsBefore(cands[i].Box, cands[j].Box) })
	return cands, ""
}

// place keeps the elements where the description puts the target: inside the row or
// card it names (and not that row itself), inside the container, in a list's items. The
// reason says which place has nothing in it.
func (t Target) place(pool, elems []Element) ([]Element, string) {
	if t.Appeared {
		if pool = filterAll(pool, func(e Element) bool { return e.Fresh }); len(pool) == 0 {
			return nil, "the step before brought nothing onto the page (no list appeared)"
		}
	}
	if t.Row != "" && t.Opened && !slices.ContainsFunc(elems, func(e Element) bool { return t.rowFitOf(e) == rowWhole || t.isRow(e) }) {
		// "its Name", of an item whose row is no longer on the page: the page it opened.
		t.Row = ""
	}
	if t.Row != "" {
		in := t.bestRows(filterAll(pool, func(e Element) bool { return !t.isRow(e) }))
		if len(in) == 0 && t.Beside {
			in = t.besideOne(pool, elems)
		}
		if pool = in; len(pool) == 0 {
			return nil, fmt.Sprintf("nothing is%s: no element sits inside an item named %q", t.where(), t.Row)
		}
	}
	if t.band() {
		if pool = filterAll(pool, t.inBox); len(pool) == 0 {
			return nil, fmt.Sprintf("nothing is%s: the page marks no %s with such an element", t.where(), t.Container)
		}
	} else if t.Container != "" {
		in := t.inBox
		if name, ok := strings.CutPrefix(t.Container, "menu"); ok && !slices.ContainsFunc(pool, in) {
			// "the menu" a person reads on a page is often its navigation bar, marked as
			// no menu: a menu named so is one, else the navigation.
			in = func(e Element) bool { return containsFold(e.Container, "nav"+name) }
		}
		if !slices.ContainsFunc(elems, in) && (strings.HasPrefix(t.Container, "sidebar") || (strings.HasPrefix(t.Container, "menu") && (sideWord(t.Position) || t.Position == ""))) {
			// A sidebar, or a menu (on the left), the page marks as none (a script's styled
			// column, a wiki's fieldsets, a CGI's table of links): the column of controls
			// down a side of the page.
			in = sideColumn(elems)
		}
		if !slices.ContainsFunc(elems, in) && strings.HasPrefix(t.Container, "toolbar") {
			in = buttonLine(elems) // a toolbar the page marks as none: a line of buttons
		}
		pool = filterAll(pool, in)
		if len(pool) == 0 {
			return nil, fmt.Sprintf("nothing is%s: no such %s is open", t.where(), strings.Fields(t.Container)[0])
		}
	}
	if t.Picture != "" {
		if pool = filterAll(pool, func(e Element) bool { return pictured(t.Picture, e) }); len(pool) == 0 {
			return nil, fmt.Sprintf("no element%s shows a %s", t.where(), t.Picture)
		}
	}
	if t.Starts != "" || t.Ends != "" {
		pool = filterAll(pool, t.affixed)
		if len(pool) == 0 {
			return nil, fmt.Sprintf("no visible element%s has a text that %s", t.where(), t.affixes())
		}
	}
	return t.inListAndColumn(pool)
}

// tabOpen says why the tab the target is on is not open: the page has no tab of that
// name, or several, or it is not the one shown. A step does not open a tab it was not
// asked to; the fields of a tab not shown are not on the page a person sees.
func (t Target) tabOpen(pool []Element) string {
	if t.Tab == "" {
		return ""
	}
	var tabs []Element
	for _, e := range pool {
		if e.Role == "tab" && norm(e.Name) == norm(t.Tab) {
			tabs = append(tabs, e)
		}
	}
	switch {
	case len(tabs) == 0:
		return fmt.Sprintf("the page shows no tab %q", t.Tab)
	case len(tabs) > 1:
		return fmt.Sprintf("the page shows %d tabs %q", len(tabs), t.Tab)
	case tabs[0].Selected != nil && !*tabs[0].Selected:
		return fmt.Sprintf("the tab %q is not the one open: click it first", t.Tab)
	}
	return ""
}

// affixed reports whether e's own text starts and ends as the target says (case aside). A
// field is never such an element: what it holds is what was typed into it, not what the
// page offers, and "Egy" typed to call up suggestions starts with "Egy" too.
func (t Target) affixed(e Element) bool {
	if e.Tag == "input" || e.Tag == "textarea" || e.Tag == "select" {
		return false
	}
	text := strings.ToLower(strings.TrimSpace(e.Text))
	if text == "" {
		text = strings.ToLower(strings.TrimSpace(e.Name))
	}
	return text != "" && strings.HasPrefix(text, strings.ToLower(t.Starts)) && strings.HasSuffix(text, strings.ToLower(t.Ends))
}

// affixes says how the target's text starts and ends, for refusals.
func (t Target) affixes() string {
	var s []string
	if t.Starts != "" {
		s = append(s, "starts with "+strconv.Quote(t.Starts))
	}
	if t.Ends != "" {
		s = append(s, "ends with "+strconv.Quote(t.Ends))
	}
	return strings.Join(s, " and ")
}

// InRow reports whether e sits in the row or item the target names (e may be that row
// itself): what the browser hovers to show a row's hidden controls.
func InRow(t plan.Target, e Element) bool {
	row, name := asData(e.Row, t.Row)
	container, _ := asData(e.Container, t.Row)
	return t.Row != "" && (containsFold(row, name) || (t.RowNoun != "" && containsFold(container, name)))
}

// isRow reports whether e is the row the description places the target in, rather
// than something inside it: the email's own card, whose text is the whole item's, not the
// trash icon on it, nor a checkbox labelled with the row's words.
func (t Target) isRow(e Element) bool {
	text, name := asData(e.Text, t.Row)
	text, row := norm(text), norm(e.Row)
	return text != "" && containsFold(text, name) && len(text)*5 >= len(row)*4
}

// match keeps the elements of the kind the description names whose texts match its name
// best. The reason says whether the kind or the name failed.
func (t Target) match(pool []Element) ([]Element, map[int]string, string) {
	if whole, ok := t.wholeName(pool); ok {
		// "click Add link": a button named "Add link" and no link named "Add" — the kind's
		// word is part of the name the page shows.
		t.Name, t.Kind = whole, ""
	}
	kinded := t.kinded(pool)
	cands, matched := t.bestNamed(kinded)
	if len(cands) == 0 && !t.Quoted {
		cands, matched = afterItemNoun(t.Name, kinded)
	}
	if len(cands) == 0 && !t.Quoted {
		cands, matched = t.nounLast(kinded, matched)
	}
	if len(cands) == 0 && (t.Kind == "date" || t.Kind == "time") {
		// Nothing is called "date": the one date field is what "the date" means.
		for _, e := range pool {
			if roleFits(t.Kind, e) {
				cands = append(cands, e)
				matched[e.Index] = "type"
			}
		}
	}
	if t.Kind != "" && !strictKinds[t.Kind] {
		cands = preferAll(cands, func(e Element) bool { return roleFits(t.Kind, e) })
	}
	if t.Kind == "button" {
		// A toolbar's command the page marks as a menu item is a button to a person; a
		// button named as well as it is the one meant.
		cands = preferAll(cands, func(e Element) bool { return !strings.HasPrefix(e.Role, "menuitem") })
	}
	if len(cands) > 0 {
		return cands, matched, ""
	}
	return nil, nil, t.missing(pool, kinded)
}

// missing says which part of the description no element satisfied: the kind, the name,
// or the two together, with what carries the name but is of another kind.
func (t Target) missing(pool, kinded []Element) string {
	if t.Kind == "" {
		return fmt.Sprintf("no visible element%s matches %q", t.where(), t.Name)
	}
	msg := fmt.Sprintf("no %s%s", t.named(), t.where())
	if len(kinded) > 0 {
		msg += fmt.Sprintf(": %d %s(s) there, none named %q", len(kinded), t.kind(), t.Name)
	}
	if others, _ := bestNamed(t.Name, pool); t.Name != "" && len(others) > 0 {
		refs := make([]string, 0, 3)
		for i := 0; i < len(others) && i < 3; i++ {
			refs = append(refs, others[i].Ref())
		}
		msg += fmt.Sprintf("; %s is named so but is not a %s", strings.Join(refs, ", "), t.kind())
	}
	return msg
}

// bestNamed returns the elements whose texts match the phrase best, and which text
// matched for each.
func bestNamed(phrase string, elems []Element) ([]Element, map[int]string) {
	best, matched := 0, map[int]string{}
	var cands []Element
	for _, e := range elems {
		score, field := matchScore(phrase, e)
		if score == 0 {
			continue
		}
		switch {
		case score > best:
			best, cands = score, []Element{e}
		case score == best:
			cands = append(cands, e)
		}
		matched[e.Index] = field
	}
	return cands, matched
}

// nth picks the candidate the ordinal asks for, counted in reading order: by line from
// the top, then from the left.
func (t Target) nth(cands []Element, matched map[int]string) Resolution {
	sorted := append([]Element(nil), cands...)
	sort.SliceStable(sorted, func(i, j int) bool { return readsBefore(sorted[i].Box, sorted[j].Box) })
	if t.Of != 0 && len(sorted) != t.Of {
		// "both text fields" on a page with three: not the page the goal was written for.
		return Resolution{Index: -1, Candidates: sorted, Reason: fmt.Sprintf("the goal counts %d (%s%s) and the page has %d", t.Of, t.named(), t.where(), len(sorted))}
	}
	i := t.Ordinal - 1
	if t.Ordinal < 0 {
		i = len(sorted) - 1
	}
	if i < len(sorted) {
		return Resolution{Index: sorted[i].Index, Matched: matched[sorted[i].Index]}
	}
	res := Resolution{Index: -1, Reason: fmt.Sprintf("only %d %s%s; the %s was asked", len(sorted), t.named(), t.where(), plan.Ordinal(t.Ordinal))}
	if len(sorted) > 1 {
		res.Candidates = sorted
	}
	return res
}

// readsBefore reports whether a box comes before another in reading order: boxes whose
// middles are within half a height of each other are on one line, read left to right.
func readsBefore(a, b Box) bool {
	am, bm := a.Y+a.H/2, b.Y+b.H/2
	if d := am - bm; d > min(a.H, b.H)/2 || -d > min(a.H, b.H)/2 {
		return am < bm
	}
	return a.X < b.X
}

// boxOfRow is the one checkbox of the one row the target's name names, when no box is
// named so: "tick Moby Dick" in a list whose rows have a box each and no label. Only a
// target named by its words alone, and only one such box on the page.
func (t Target) boxOfRow(elems []Element) (Element, bool) {
	if t.Name == "" || t.Kind != "" || t.Row != "" || t.Container != "" || t.Ordinal != 0 || t.Every {
		return Element{}, false
	}
	r := t
	r.Row, r.Name = t.Name, ""
	boxes := r.bestRows(filterAll(elems, func(e Element) bool { return e.Role == "checkbox" || e.Role == "switch" }))
	if len(boxes) != 1 {
		return Element{}, false
	}
	return boxes[0], true
}
