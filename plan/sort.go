package plan

import (
	"fmt"
	"regexp"
	"strings"
)

// NumberList is the target of a sort: the page's one list whose items each show a
// number, found by its numbers (the browser holds it to being the only such list), not by
// a name the page gives it.
const NumberList = "the list of numbers"

// reSort is sorting a list a person reorders by dragging: "sort the numbers in increasing
// order", optionally with where its ends go (", starting with the lowest number at the
// top of the list"), which must agree with the order.
var reSort = regexp.MustCompile(`(?i)^sort\s+(?:the\s+|this\s+)?(?:numbers|list(?:\s+of\s+numbers)?|items|entries)(?:\s+(?:in|of)\s+the\s+list)?\s+` +
	`(?:in|into)\s+(?:an?\s+)?(increasing|ascending|decreasing|descending)\s+order` +
	`(?:\s*,?\s*(?:starting\s+)?with\s+the\s+(lowest|smallest|highest|largest|biggest)\s+(?:number|one|item|value)?\s*(?:at|on)\s+(?:the\s+)?(top|bottom)(?:\s+of\s+(?:the|its)\s+list)?)?$`)

// readSort reads a sort as one DRAG of the list of numbers, its value the order: the
// browser drags the items one at a time, as a person does, until the list reads in it.
func readSort(c string, _ []string) (Step, string, bool) {
	m := reSort.FindStringSubmatch(strings.TrimSpace(c))
	if m == nil {
		return Step{}, "", false
	}
	order := "increasing"
	if o := strings.ToLower(m[1]); o == "decreasing" || o == "descending" {
		order = "decreasing"
	}
	if m[2] != "" {
		// "increasing" reads from the top down: its lowest number is at the top, its
		// highest at the bottom. A tail that puts them elsewhere asks for two orders.
		low := strings.Contains("lowest smallest", strings.ToLower(m[2]))
		top := strings.EqualFold(m[3], "top")
		if (low == top) != (order == "increasing") {
			other := map[string]string{"increasing": "decreasing", "decreasing": "increasing"}[order]
			return found(Step{}, fmt.Sprintf("it asks for %s order, but the %s number at the %s is %s order: say which", order, strings.ToLower(m[2]), strings.ToLower(m[3]), other))
		}
	}
	return found(Step{Action: Drag, TargetDescription: NumberList, Value: Move{Sort: order}.String()}, "")
}
