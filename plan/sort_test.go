package plan

import (
	"strings"
	"testing"
)

// TestSortReading: a sort is one DRAG of the list of numbers whose value, the order, reads
// back as a move; a tail that puts the list's ends in the other order is refused, saying so.
func TestSortReading(t *testing.T) {
	for goal, want := range map[string]string{
		"Sort the numbers in increasing order, starting with the lowest number at the top of the list.": "in increasing order",
		"sort the list in ascending order with the highest number at the bottom":                        "in increasing order",
		"Sort the items in descending order, starting with the highest number at the top":               "in decreasing order",
		"sort the numbers in decreasing order, with the lowest number at the bottom of the list":        "in decreasing order",
	} {
		steps, err := Parse(goal)
		if err != nil || len(steps) != 1 {
			t.Fatalf("%q: %v, %v", goal, steps, err)
		}
		s := steps[0]
		if s.Action != Drag || s.TargetDescription != NumberList || s.Move == nil || s.Move.String() != want || s.Move.Sort == "" {
			t.Errorf("%q read as %+v", goal, s)
		}
	}
	for _, goal := range []string{
		"Sort the numbers in increasing order, starting with the highest number at the top of the list.",
		"Sort the numbers in decreasing order, with the lowest number at the top",
		"Sort the numbers in ascending order, with the lowest number at the bottom",
	} {
		if _, err := Parse(goal); err == nil || !strings.Contains(err.Error(), "say which") {
			t.Errorf("%q: %v, want it refused as two orders", goal, err)
		}
	}
}
