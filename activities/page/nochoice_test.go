package page

import (
	"testing"

	"github.com/webagent-dev/webagent/plan"
)

// TestNoChoice: a tie that leaves nothing to choose is one target, every other tie is
// refused.
func TestNoChoice(t *testing.T) {
	login := []Element{
		{Index: 0, Tag: "input", Type: "text", Role: "textbox", Name: "Login", Label: "Login"},
		{Index: 1, Tag: "input", Type: "password", Role: "textbox", Name: "Password"},
		{Index: 2, Tag: "input", Type: "submit", Role: "button", Name: "Login", Dest: "form post /login"},
	}
	toolbar := []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "Edit", Dest: "http://x/issues/1/edit"},
		{Index: 1, Tag: "a", Role: "link", Name: "Edit", Dest: "http://x/issues/1/edit", Offscreen: true},
		{Index: 2, Tag: "a", Role: "link", Name: "Delete", Dest: "http://x/issues/1/delete"},
		{Index: 3, Tag: "a", Role: "link", Name: "Delete", Dest: "http://x/attachments/7/delete"},
		{Index: 4, Tag: "a", Role: "link", Name: "Watch"},
		{Index: 5, Tag: "a", Role: "link", Name: "Watch"},
	}
	// A sign-in page whose menu links to it by the button's name ("Login").
	signin := []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "Login", Container: "nav", Dest: "a1"},
		{Index: 1, Tag: "input", Type: "text", Role: "textbox", Name: "User ID", Container: "form", Value: "admin"},
		{Index: 2, Tag: "input", Type: "submit", Role: "button", Name: "Login", Container: "form", Dest: "f1"},
	}
	unfilled := append([]Element(nil), signin...)
	unfilled[1].Value = ""
	tables := []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "customers", Dest: "t1"},
		{Index: 1, Tag: "input", Type: "checkbox", Role: "checkbox", Name: "customers", Row: "customers 4 rows"},
		{Index: 2, Tag: "a", Role: "link", Name: "customers", Dest: "t1", Row: "customers 4 rows"},
	}
	row := []Element{
		{Index: 0, Tag: "input", Type: "checkbox", Role: "checkbox", Name: "Buy milk", Row: "Buy milk"},
		{Index: 1, Tag: "span", Role: "button", Name: "Buy milk", Row: "Buy milk"},
		{Index: 2, Tag: "input", Type: "checkbox", Role: "checkbox", Name: "Buy milk", Row: "Buy milk today"},
	}
	// A menu's item and a link in the page, to one place (Sympa's "Search for List(s)").
	menu := []Element{
		{Index: 0, Tag: "a", Role: "menuitem", Name: "Search for List(s)", Container: "menu", Dest: "http://x/search_list_request"},
		{Index: 1, Tag: "a", Role: "link", Name: "Search for List(s)", Dest: "http://x/search_list_request"},
		{Index: 2, Tag: "a", Role: "menuitem", Name: "Help", Container: "menu", Dest: "http://x/help"},
		{Index: 3, Tag: "a", Role: "link", Name: "Help", Dest: "http://x/help/lists"},
		{Index: 4, Tag: "button", Role: "menuitem", Name: "Home", Container: "menu"},
		{Index: 5, Tag: "a", Role: "link", Name: "Home", Dest: "http://x/"},
	}
	// A list whose rows the page draws as clickable around a link of the row's words
	// (Orthanc Explorer's studies, jQuery Mobile); and two rows, each a link alone.
	studies := []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "MR BRAIN StudyDate: 2025-02-03", Dest: "#study-1", Box: Box{X: 20, Y: 100, W: 300, H: 40}},
		{Index: 1, Tag: "a", Role: "link", Name: "CT HEAD StudyDate: 2024-12-30", Dest: "#study-2", Box: Box{X: 20, Y: 150, W: 300, H: 40}},
		{Index: 2, Tag: "li", Role: "clickable", Name: "MR BRAIN StudyDate: 2025-02-03", Box: Box{X: 10, Y: 95, W: 330, H: 50}},
		{Index: 3, Tag: "li", Role: "clickable", Name: "CT HEAD StudyDate: 2024-12-30", Box: Box{X: 10, Y: 145, W: 330, H: 50}},
		{Index: 4, Tag: "a", Role: "link", Name: "MR BRAIN StudyDate: 2025-03-10", Dest: "#study-3", Box: Box{X: 20, Y: 200, W: 300, H: 40}},
	}
	for _, tt := range []struct {
		name   string
		desc   string
		action plan.Action
		elems  []Element
		want   int // -1: refused
	}{
		{"a field is typed into", "Login", plan.Type, login, 0},
		{"a field, not the list beside it, is cleared", "city", plan.Clear, []Element{
			{Index: 0, Tag: "select", Role: "combobox", Name: "city", Options: []string{"", "md5"}},
			{Index: 1, Tag: "input", Type: "text", Role: "textbox", Name: "city", Value: "Boston"},
		}, 1},
		{"the Login field, said so", "the Login field", plan.Type, login, 0},
		{"a click on the name is the button's", "Login", plan.Click, login, 2},
		{"a submit input is no text field", "the Login field", plan.Click, login, 0},
		{"one link shown twice", "Edit", plan.Click, toolbar, 0},
		{"the button of the form filled in", "Login", plan.Click, signin, 2},
		{"a menu's item and the same link in the page", `"Search for List(s)"`, plan.Click, menu, 0},
		{"a menu's item and a link elsewhere", "Help", plan.Click, menu, -1},
		{"a menu's button and a link", "Home", plan.Click, menu, -1},
		{"a form not filled in is no such form", "Login", plan.Click, unfilled, -1},
		{"a table's link, not its row's box", "customers", plan.Click, tables, 0},
		{"the box, when ticked", "customers", plan.Check, tables, 1},
		{"two links that lead elsewhere", "Delete", plan.Click, toolbar, -1},
		{"two links that lead nowhere said", "Watch", plan.Click, toolbar, -1},
		{"a hover at parts of one row", `"Buy milk" in the row "Buy milk"`, plan.Hover, row[:2], 0},
		{"a click on an item is its button's, not its box's", `"Buy milk" in the row "Buy milk"`, plan.Click, row[:2], 1},
		{"a row drawn as clickable around its own link", "CT HEAD", plan.Click, studies, 1},
		{"two rows of one name, each its link and its box", "MR BRAIN", plan.Click, studies, -1},
		{"a tick at parts of one row is no hover", `"Buy milk"`, plan.Check, row, -1},
		{"a hover at two rows", "Buy milk", plan.Hover, row, -1},
		{"a row's one box, ticked by the row's words", "Moby Dick", plan.Check, []Element{
			{Index: 0, Tag: "input", Type: "checkbox", Role: "checkbox", Row: "Moby Dick Herman Melville 1851"},
			{Index: 1, Tag: "input", Type: "checkbox", Role: "checkbox", Row: "Moby Dick 2 Herman Melville 1852"},
			{Index: 2, Tag: "input", Type: "checkbox", Role: "checkbox", Row: "Dune Frank Herbert 1965"},
		}, -1},
		{"a row's one box, ticked by the row's words, one row", "Dune", plan.Check, []Element{
			{Index: 0, Tag: "input", Type: "checkbox", Role: "checkbox", Row: "Moby Dick Herman Melville 1851"},
			{Index: 1, Tag: "input", Type: "checkbox", Role: "checkbox", Row: "Dune Frank Herbert 1965"},
		}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Resolve(tt.desc, tt.action, tt.elems)
			if r.Index != tt.want {
				t.Errorf("resolved %d (%s), want %d", r.Index, r.Reason, tt.want)
			}
		})
	}
}
