package driver

import (
	"testing"

	"github.com/webagent-dev/webagent/activities/page"
)

// The model chose element 2, the "Project actions" button in the row "Q4-bugs"; before the
// browser acted, a button appeared at the top and every number moved by one. Number 2 is
// now the same-named button in the other row: it must not be clicked.
func TestDecisionFoundAgainAfterThePageMoved(t *testing.T) {
	el := func(i int, role, name, row string, y int) page.Element {
		return page.Element{Index: i, Role: role, Name: name, Row: row, Box: page.Box{X: 500, Y: y, W: 30, H: 20}}
	}
	was := &page.Element{Index: 2, Role: "button", Name: "Project actions", Row: "Q4-bugs Medium", Box: page.Box{X: 500, Y: 140, W: 30, H: 20}}
	now := page.Observation{Elements: []page.Element{
		el(0, "button", "Import", "", 20),
		el(1, "button", "New project", "", 60),
		el(2, "button", "Project actions", "Website relaunch High", 100),
		el(3, "button", "Project actions", "Q4-bugs Medium", 140),
	}}
	if r := decided(2, was, now); r.Index != 3 {
		t.Fatalf("want the button in the row Q4-bugs (#3), got %+v", r)
	}
	// Two twins in the same row and the page moved far: which one cannot be told.
	twins := page.Observation{Elements: []page.Element{
		el(0, "button", "Project actions", "Q4-bugs Medium", 400),
		el(1, "button", "Project actions", "Q4-bugs Medium", 460),
	}}
	if r := decided(0, was, twins); r.Resolved() {
		t.Fatalf("a guess between twins after the page moved: %+v", r)
	}
}
