package page

import (
	"strings"

	"github.com/webagent-dev/webagent/plan"
)

// Choosing among elements that match a description equally well: what tells them apart,
// and what leaves them a tie to refuse.

// noChoice narrows a tie that leaves nothing to choose, and keeps every other tie:
//   - text typed (or cleared) at a name that a text field and a list share is the field's,
//     and a choice made there is the list's;
//   - a click on a name that a text field or a checkbox and a button or a link share
//     ("Login", the field and its sign-in button; a table's name, its row's box and its
//     link) is the button's or the link's: a field is typed into, a box ticked;
//   - a click on a name that a form's one button and links elsewhere share, once the
//     form's fields hold what was typed ("Login" in the page's menu and on the form just
//     filled in), is that button's: the form in progress is what the click finishes;
//   - one control shown twice (alike in role, name, case aside, and destination: a
//     toolbar repeated below the page, a menu's "Watchlist" and a notice's "watchlist";
//     a link a menu marks as its item and the same link in the page) is one target, the
//     first a person sees;
//   - an item a page draws as clickable around a link or button of its own name (a
//     jQuery Mobile list's row and the link in it) is that link or button: one control;
//   - a hover or a scroll at parts of one row or card (an item's checkbox and its label)
//     is at that row: any of them shows what the row shows on hover;
//   - of controls that match alike, the ones the step before brought onto the page
//     (Element.Fresh: the form it opened, the menu it showed) are where the person went
//     on working; else the ones in the section and box of the element the step before
//     acted on (Element.Near: the form being filled in).
func noChoice(action plan.Action, cands, page []Element) []Element {
	if action == plan.Type || action == plan.Append || action == plan.Clear {
		// Typed text goes into a text field (and a field is cleared), not the list beside it
		// named by the same words.
		cands = preferAll(cands, Element.Editable)
	}
	if action == plan.Append {
		// Text added after what a box holds goes on a page's text, a text area's new line,
		// not into a one-line field beside it.
		cands = preferAll(cands, func(e Element) bool { return e.Tag == "textarea" })
	}
	if action == plan.Select {
		// A choice is made in the list, not in the field beside it named by the same words
		// (a toolkit's select drawn as a box, its arrow an input of its own).
		cands = preferAll(cands, Element.Chooser)
	}
	if action == plan.Click {
		cands = preferAll(cands, func(e Element) bool { return !e.Editable() && e.Role != "checkbox" && e.Role != "radio" })
		if b, ok := submitsFilledForm(cands, page); ok {
			return []Element{b}
		}
	}
	cands = withoutWrappers(cands)
	if len(cands) == 1 {
		return cands
	}
	alike, oneRow := true, true
	for _, c := range cands[1:] {
		alike = alike && c.Dest != "" && c.Dest == cands[0].Dest && sameRole(c, cands[0]) && strings.EqualFold(c.Name, cands[0].Name) &&
			c.Frame == cands[0].Frame && c.Disabled == cands[0].Disabled
		oneRow = oneRow && cands[0].Row != "" && c.Row == cands[0].Row && c.Container == cands[0].Container && c.Frame == cands[0].Frame
	}
	if alike || ((action == plan.Hover || action == plan.Scroll) && oneRow) {
		return []Element{firstInView(cands)}
	}
	// One of them the step before brought onto the page (the form it opened, the menu it
	// showed): that is where the person went on working.
	cands = preferAll(cands, func(e Element) bool { return e.Fresh })
	// Or in the section and box the step before acted in: the form being filled in
	// ("Write regexp" after "Virtual Host" under "Set permission", not under "Set topic
	// permission").
	return preferAll(cands, func(e Element) bool { return e.Near })
}

// withoutWrappers drops, of cands, an element the page draws as clickable (no role of its
// own) whose box holds another of cands of its name, case aside: the control inside it.
func withoutWrappers(cands []Element) []Element {
	holds := func(a, b Element) bool {
		return a.Box.W > 0 && b.Box.W > 0 && a.Box.X <= b.Box.X && a.Box.Y <= b.Box.Y &&
			a.Box.X+a.Box.W >= b.Box.X+b.Box.W && a.Box.Y+a.Box.H >= b.Box.Y+b.Box.H
	}
	wrapper := func(c Element) bool {
		if c.Role != "clickable" {
			return false
		}
		for _, d := range cands {
			if d.Index != c.Index && d.Role != "clickable" && strings.EqualFold(d.Name, c.Name) && d.Frame == c.Frame && holds(c, d) {
				return true
			}
		}
		return false
	}
	return preferAll(cands, func(e Element) bool { return !wrapper(e) })
}

// sameRole reports two elements of one role, or two links to one place of which a menu
// marks one as its item: the same link, whatever the menu calls it.
func sameRole(a, b Element) bool {
	linkish := func(e Element) bool { return e.Tag == "a" && (e.Role == "link" || e.Role == "menuitem") }
	return a.Role == b.Role || (linkish(a) && linkish(b))
}

// firstInView is the first of elems in the viewport, or the first.
func firstInView(elems []Element) Element {
	for _, e := range elems {
		if !e.Offscreen {
			return e
		}
	}
	return elems[0]
}

// submitsFilledForm is the one button among cands in a form one of whose text fields holds
// a value, the other candidates being links outside that form.
func submitsFilledForm(cands, page []Element) (Element, bool) {
	var button Element
	n := 0
	for _, c := range cands {
		switch {
		case c.Role == "button" && strings.HasPrefix(c.Container, "form"):
			button = c
			n++
		case c.Role != "link":
			return Element{}, false
		}
	}
	if n != 1 {
		return Element{}, false
	}
	for _, c := range cands {
		if c.Role == "link" && c.Container == button.Container {
			return Element{}, false
		}
	}
	for _, e := range page {
		if e.Container == button.Container && e.Frame == button.Frame && e.Editable() && e.Value != "" {
			return button, true
		}
	}
	return Element{}, false
}

// spelledAsSaid keeps, of candidates that match the name equally well, the ones whose name
// is spelled as the description spells it: letter for letter ("Admin", the tab, not
// "admin", the signed-in user's link), else word for word whatever the case ("Basics", not
// "The Basics", whose "the" the match reads past). Every one of them matched the whole
// name; this is the closer match, not a guess between two.
func (t Target) spelledAsSaid(cands []Element) []Element {
	name := strings.TrimSpace(t.Name)
	if name == "" {
		return cands
	}
	cands = preferAll(cands, func(e Element) bool { return strings.TrimSpace(e.Name) == name })
	return preferAll(cands, func(e Element) bool {
		return strings.EqualFold(strings.Join(strings.Fields(e.Name), " "), strings.Join(strings.Fields(name), " "))
	})
}
