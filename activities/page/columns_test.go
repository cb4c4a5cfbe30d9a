package page

import (
	"testing"

	"github.com/webagent-dev/webagent/plan"
)

// A cell named by its column: the row's control under the header that says so; none
// there, or two, is refused. A name that is a column's and a noun is that cell only in a
// row.
func TestCellByColumn(t *testing.T) {
	page := []Element{
		{Index: 0, Tag: "span", Role: "clickable", Name: "400.00", Row: "Groceries 400.00 212.40", Column: "Budgeted"},
		{Index: 1, Tag: "span", Role: "clickable", Name: "150.00", Row: "Dining Out 150.00 96.10", Column: "Budgeted"},
		{Index: 2, Tag: "a", Role: "link", Name: "96.10", Row: "Dining Out 150.00 96.10", Column: "Spent"},
		{Index: 3, Tag: "button", Role: "button", Name: "Edit", Row: "Dining Out 150.00 96.10", Column: "Actions"},
		{Index: 4, Tag: "button", Role: "button", Name: "Hide", Row: "Dining Out 150.00 96.10", Column: "Actions"},
	}
	for d, want := range map[string]int{
		`the "Budgeted" amount in the row of "Dining Out"`:          1,
		`the amount in the "Spent" column of the "Dining Out" row`:  2,
		`the Budgeted amount in the row of "Dining Out"`:            1,
		`"Edit" in the "Actions" column in the row of "Dining Out"`: 3,
		`the "Actions" cell in the row of "Dining Out"`:             -1, // two controls there: a tie
		`the "Notes" amount in the row of "Dining Out"`:             -1, // no such column
		`the "Budgeted" amount`:                                     -1, // every row's
	} {
		if r := Resolve(d, plan.Click, page); r.Index != want {
			t.Errorf("%s: %+v, want #%d", d, r, want)
		}
	}
}

// A link of the page's bar along the top is a tab, where no element is marked as one; a
// tab the page marks is chosen before a bar's link of the same name.
func TestBarLinksAreTabs(t *testing.T) {
	bar := []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "Home", Box: Box{X: 0, Y: 0, W: 60, H: 30}},
		{Index: 1, Tag: "a", Role: "link", Name: "Administration", Box: Box{X: 70, Y: 0, W: 120, H: 30}},
		{Index: 2, Tag: "a", Role: "link", Name: "Printers", Box: Box{X: 200, Y: 0, W: 80, H: 30}},
		{Index: 3, Tag: "a", Role: "link", Name: "Jobs", Box: Box{X: 0, Y: 200, W: 40, H: 18}},
	}
	if r := Resolve("the Printers tab", plan.Click, bar); r.Index != 2 {
		t.Errorf("the Printers tab: %+v", r)
	}
	if r := Resolve("the Jobs tab", plan.Click, bar); r.Index != -1 {
		t.Errorf("a link alone in the page is no tab: %+v", r)
	}
	withTab := append(bar, Element{Index: 4, Tag: "div", Role: "tab", Name: "Printers", Box: Box{X: 0, Y: 300, W: 80, H: 30}})
	if r := Resolve("the Printers tab", plan.Click, withTab); r.Index != 4 {
		t.Errorf("a tab marked as one: %+v", r)
	}
}

// "in the toolbar" of a page that marks none is a line of three or more buttons; a button
// alone elsewhere is not in it.
func TestToolbarAsALineOfButtons(t *testing.T) {
	page := []Element{
		{Index: 0, Tag: "button", Role: "button", Name: "Add Torrent", Box: Box{X: 300, Y: 10, W: 30, H: 30}},
		{Index: 1, Tag: "button", Role: "button", Name: "Stop Torrent", Box: Box{X: 340, Y: 10, W: 30, H: 30}},
		{Index: 2, Tag: "button", Role: "button", Name: "Remove Torrent", Box: Box{X: 380, Y: 10, W: 30, H: 30}},
		{Index: 3, Tag: "button", Role: "button", Name: "Settings", Box: Box{X: 10, Y: 400, W: 80, H: 30}},
	}
	if r := Resolve(`"Remove Torrent" in the toolbar`, plan.Click, page); r.Index != 2 {
		t.Errorf("in the toolbar: %+v", r)
	}
	if r := Resolve(`"Settings" in the toolbar`, plan.Click, page); r.Index != -1 {
		t.Errorf("a button alone is in no toolbar: %+v", r)
	}
}
