package plan

import (
	"fmt"
	"strings"
)

// NumberList is the target of a sort: the page's one list whose items each show a
// number, found by its numbers (the browser holds it to being the only such list), not by
// a name the page gives it.
const NumberList = "the list of numbers"

// reSort is sorting a list a person reorders by dragging: "sort the numbers in increasing
// order", optionally with where its ends go (", starting with the lowest number at the
// top of the list"), which must agree with the order.
var sortList = seq(word("sort"), opt(word("the", "this")), word("numbers", "list of numbers", "list", "items", "entries"), opt(word("in", "of"), word("the list")),
	word("in", "into"), opt(word("a", "an")), grab("order", word("increasing", "ascending", "decreasing", "descending")), word("order"),
	opt(opt(one(func(t tok) bool { return t.text == "," })), opt(word("starting")), word("with the"), grab("end", word("lowest", "smallest", "highest", "largest", "biggest")), opt(word("number", "one", "item", "value")),
		word("at", "on"), the, grab("side", word("top", "bottom")), opt(word("of"), word("the", "its"), word("list"))), end)

// readSort reads a sort as one DRAG of the list of numbers, its value the order: the
// browser drags the items one at a time, as a person does, until the list reads in it.
func readSort(c string, _ []string) (Step, string, bool) {
	m := read(sortList, strings.TrimSpace(c))
	if m == nil {
		return Step{}, "", false
	}
	order := "increasing"
	if o := m.low("order"); o == "decreasing" || o == "descending" {
		order = "decreasing"
	}
	if m.has("end") {
		low, side := m.low("end"), m.low("side")
		// "increasing" reads from the top down: its lowest number is at the top, its
		// highest at the bottom. A tail that puts them elsewhere asks for two orders.
		top := side == "top"
		if (strings.Contains("lowest smallest", low) == top) != (order == "increasing") {
			other := map[string]string{"increasing": "decreasing", "decreasing": "increasing"}[order]
			return found(Step{}, fmt.Sprintf("it asks for %s order, but the %s number at the %s is %s order: say which", order, low, side, other))
		}
	}
	return found(Step{Action: Drag, TargetDescription: NumberList, Value: Move{Sort: order}.String()}, "")
}
