package page

import (
	"fmt"
	"strings"
)

// inListAndColumn keeps, of pool, what sits in a list's item when the target says so
// (InList), and in the column of a table it names (Column).
func (t Target) inListAndColumn(pool []Element) ([]Element, string) {
	if t.InList {
		// In a list's item, or an item itself (a card the whole of which opens it, the
		// row its own controls sit in), or an option of a list box.
		items := map[string]bool{}
		for _, e := range pool {
			if e.Row != "" {
				items[norm(e.Row)] = true
			}
		}
		all := pool
		pool = filterAll(pool, func(e Element) bool {
			return e.Row != "" || (e.Text != "" && items[norm(e.Text)]) || e.Role == "option" || strings.HasPrefix(e.Container, "listbox") || stacked(e, all)
		})
		if len(pool) == 0 {
			return nil, "no element sits in a list of results"
		}
	}
	if t.Column != "" {
		// "in the "Budgeted" column": the cell under the header that says so.
		if pool = inColumn(pool, t.Column); len(pool) == 0 {
			return nil, fmt.Sprintf("nothing is%s: no element sits in a column headed %q", t.where(), t.Column)
		}
	}
	return pool, ""
}

// stacked reports an element that is one item of a list drawn as controls alone: it holds
// a whole item's words (six or more: a menu's short links are no items), and three or more
// of its role stand one above another, each as wide as it and starting where it starts (a
// mail client's list of messages, each a button holding sender, date and subject).
func stacked(e Element, pool []Element) bool {
	if e.Box.W <= 0 || len(strings.Fields(e.Name)) < 6 {
		return false
	}
	n := 0
	for _, o := range pool {
		if o.Role == e.Role && o.Box.X == e.Box.X && o.Box.W == e.Box.W && o.Box.Y != e.Box.Y {
			n++
		}
	}
	return n >= 2
}

// inColumn is what of pool sits in the column whose header says column.
func inColumn(pool []Element, column string) []Element {
	return filterAll(pool, func(e Element) bool { return e.Column != "" && norm(e.Column) == norm(column) })
}

// bestNamed is bestNamed for the target's name. A cell named by its column alone (`the
// "Budgeted" amount in the row of "Dining Out"`) is whatever that row and column hold: one
// control is the one meant; two are a tie.
func (t Target) bestNamed(kinded []Element) ([]Element, map[int]string) {
	if t.Name == "" && t.Column != "" {
		matched := map[int]string{}
		for _, e := range kinded {
			matched[e.Index] = "column"
		}
		return kinded, matched
	}
	cands, matched := bestNamed(t.Name, kinded)
	if t.Kind == "tab" {
		// A tab the page marks as one before a link of its bar named the same (barLinks).
		cands = preferAll(cands, func(e Element) bool { return roleFits("tab", e) })
	}
	return cands, matched
}

// cellNouns are what a person calls a table's cell named by its column: "the Budgeted
// amount".
var cellNouns = []string{" amount", " value", " cell", " figure", " number", " total", " entry"}

// cellOfRow reads an unquoted name that is a column's header and a cell noun, in a row
// ("the Budgeted amount in the row of Dining Out"), where nothing is named so: the row's
// cell under that header.
func (t Target) cellOfRow(kinded []Element) []Element {
	if t.Row == "" || t.Quoted {
		return nil
	}
	for _, noun := range cellNouns {
		if n, ok := strings.CutSuffix(t.Name, noun); ok && n != "" {
			return inColumn(kinded, n)
		}
	}
	return nil
}
