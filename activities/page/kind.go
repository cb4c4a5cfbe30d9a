package page

import (
	"slices"
	"strings"

	"github.com/webagent-dev/webagent/plan"
)

// strictKinds are the kinds a description names that must hold: "the Delete button" is
// never the link "Delete". The vaguer words ("item", "list", "option") only prefer.
var strictKinds = map[string]bool{
	"button": true, "link": true, "icon": true, "checkbox": true, "radio": true, "textbox": true,
	"input": true, "search": true, "textarea": true, "editor": true, "tab": true, "menuitem": true, "treeitem": true, "field": true, "collapsed": true, "focused": true,
}

// kinded is the pool's elements of the target's kind, where the kind is strict; the pool
// where it is not. A tab is also a link of the page's bar of tabs drawn as links (barLinks):
// people call CUPS's Printers or Jobs along its top a tab.
func (t Target) kinded(pool []Element) []Element {
	if !strictKinds[t.Kind] {
		return pool
	}
	kinded := filterAll(pool, func(e Element) bool { return roleFits(t.Kind, e) })
	if t.Kind == "tab" {
		for _, e := range barLinks(pool) {
			if !roleFits("tab", e) {
				kinded = append(kinded, e)
			}
		}
	}
	return kinded
}

// nounLast reads a name that ends with the word for its kind, where nothing is named so
// with it: "the Message box" is a box named "Message", "the Printers page" link is the
// link "Printers" (the page's own link).
func (t Target) nounLast(kinded []Element, matched map[int]string) ([]Element, map[int]string) {
	if n, ok := strings.CutSuffix(t.Name, " box"); ok && n != "" {
		return bestNamed(n, filterAll(kinded, func(e Element) bool { return e.FormControl() || e.Checked != nil }))
	}
	if n, ok := strings.CutSuffix(t.Name, " page"); ok && n != "" && (t.Kind == "link" || t.Kind == "tab") {
		return bestNamed(n, kinded)
	}
	if cells := t.cellOfRow(kinded); len(cells) > 0 {
		for _, e := range cells {
			matched[e.Index] = "column"
		}
		return cells, matched
	}
	return nil, matched
}

// barLinks are the links a page draws as a bar of tabs without saying so: those in its
// navigation, and three or more links side by side on one line, of one height, none in a
// row of a table or list (a page's top bar: Home, Administration, Classes, Jobs…).
func barLinks(pool []Element) []Element {
	link := func(e Element) bool { return e.Role == "link" && e.Row == "" && !e.Offscreen }
	var out []Element
	for _, e := range pool {
		if !link(e) {
			continue
		}
		if strings.HasPrefix(e.Container, "nav") {
			out = append(out, e)
			continue
		}
		if othersOnLine(pool, e, func(o Element) bool {
			return link(o) && o.Container == e.Container && abs(o.Box.Y-e.Box.Y) <= 3 && abs(o.Box.H-e.Box.H) <= 3
		}) >= 2 {
			out = append(out, e)
		}
	}
	return out
}

// fits reports whether the action can be done to the element.
func fits(a plan.Action, e Element) bool {
	switch a {
	case plan.Type:
		return e.Editable() || e.Tag == "select"
	case plan.Append:
		return e.Editable()
	case plan.Select:
		// A group of radio buttons is chosen from as a list is: "select Editor under Role".
		return e.Chooser() || e.Editable() || e.Role == "radiogroup"
	case plan.Check:
		return e.Checked != nil || e.Role == "checkbox" || e.Role == "radio" || e.Role == "switch"
	}
	return true
}

// roleFits reports whether the element is of the kind a description names.
func roleFits(role string, e Element) bool {
	switch role {
	case "textbox":
		return e.Editable()
	case "field":
		return e.Editable() || e.Chooser()
	case "search":
		// A field the page searches by: a search box by its role or type, or one whose
		// words or form say search (observe.js hints "search" for a field of a search form).
		return e.Editable() && (e.Role == "searchbox" || e.Type == "search" ||
			hasWord(strings.Join([]string{e.Name, e.Placeholder, e.Label, e.Hints}, " "), "search", "find", "filter", "query"))
	case "input":
		return e.Tag == "input" && e.Editable()
	case "textarea", "editor":
		return e.Tag == "textarea" || (e.Role == "textbox" && e.Tag != "input")
	case "combobox":
		return e.Chooser()
	case "option":
		return e.Role == "option" || e.Role == "menuitem" || e.Role == "menuitemcheckbox" || e.Role == "menuitemradio"
	case "button":
		// A link dressed as a button ("btn" in its classes), or drawn as one (an icon alone,
		// or before a word or two: "+ Shaare" in a menu bar), is what a person calls one. A
		// toolbar's command marked as a menu item is drawn as a button, and called one.
		return e.Role == "button" || e.Tag == "button" || e.Role == "clickable" || strings.HasPrefix(e.Role, "menuitem") ||
			(e.Role == "link" && (hasWord(e.Hints, "btn", "button") || drawnAsButton(e)))
	case "link":
		// A tree item or tab the page writes as a link carries the item's role: still a link.
		return e.Role == "link" || e.Role == "clickable" || e.Tag == "a"
	case "icon":
		return iconic(e)
	case "menuitem":
		return strings.HasPrefix(e.Role, "menuitem")
	case "date", "time":
		return e.Tag == "input" && e.Type == role
	case "focused":
		return e.Focused && (e.Editable() || e.Tag == "select")
	case "collapsed":
		// A section, panel or menu's control that says it is collapsed (aria-expanded).
		return e.Expanded != nil && !*e.Expanded
	case "tab":
		// A tab a script library draws from a link (Bootstrap's data-toggle="tab") is a tab.
		return e.Role == "tab" || ((e.Role == "link" || e.Role == "button") && hasWord(e.Hints, "tab", "pill"))
	case "switch":
		// A switch is a checkbox a page draws as a toggle.
		return e.Role == "switch" || e.Role == "checkbox"
	}
	return e.Role == role
}

// iconic reports whether the element is an icon: a control shown as a picture or a
// symbol, with no words of its own (at most two characters, "×", "★"), or one its
// developers call an icon with a short word beside it. A card whose text is an email's
// sender and subject is not an icon, however many icons it holds.
func iconic(e Element) bool {
	if e.Editable() || e.Tag == "select" {
		return false
	}
	n := len([]rune(strings.TrimSpace(e.Text)))
	return n <= 2 || (n <= 20 && hasWord(e.Hints, "icon", "svg", "img", "glyphicon", "fa"))
}

// hasWord reports whether s, split as ids and class names are, holds one of words.
func hasWord(s string, words ...string) bool {
	for _, w := range splitWords(s) {
		for _, x := range words {
			if w == x {
				return true
			}
		}
	}
	return false
}

// preferAll keeps the elements that satisfy keep, unless none do.
func preferAll(elems []Element, keep func(Element) bool) []Element {
	if out := filterAll(elems, keep); len(out) > 0 {
		return out
	}
	return elems
}

func filterAll(elems []Element, keep func(Element) bool) []Element {
	var out []Element
	for _, e := range elems {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}

func containsFold(s, sub string) bool { return strings.Contains(norm(s), norm(sub)) }

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// drawnAsButton reports a link drawn as an icon alone or an icon and a word or two (an
// item's pencil, a menu bar's "+ Shaare"): its icon is one its developers named so.
func drawnAsButton(e Element) bool {
	return len(strings.Fields(e.Text)) <= 2 && hasWord(e.Hints, "icon", "svg", "glyphicon", "fa")
}

// wholeName is the unquoted name with the kind's word after it ("Add link"), when an
// element of the page is named so exactly and none of the kind is named by the name alone.
func (t Target) wholeName(pool []Element) (string, bool) {
	if t.Quoted || t.Name == "" || t.Kind == "" || strings.Contains(t.Kind, " ") {
		return "", false
	}
	whole := t.Name + " " + t.Kind
	named := func(name string, e Element) bool { return strings.EqualFold(strings.TrimSpace(e.Name), name) }
	if !slices.ContainsFunc(pool, func(e Element) bool { return named(whole, e) }) ||
		slices.ContainsFunc(pool, func(e Element) bool { return named(t.Name, e) && roleFits(t.Kind, e) }) {
		return "", false
	}
	return whole, true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
