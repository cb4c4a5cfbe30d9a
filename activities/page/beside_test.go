package page

import (
	"testing"

	"github.com/webagent-dev/webagent/plan"
)

// TestBesideOne: "the box next to "Search"", where no item named "Search" holds a box, is
// the field right before or after the one element named so, on its line.
func TestBesideOne(t *testing.T) {
	sidebar := []Element{
		{Index: 0, Tag: "input", Type: "text", Role: "textbox", Box: Box{X: 10, Y: 100, W: 100, H: 20}},
		{Index: 1, Tag: "input", Type: "submit", Role: "button", Name: "Search", Box: Box{X: 115, Y: 100, W: 50, H: 20}},
		{Index: 2, Tag: "input", Type: "text", Role: "textbox", Box: Box{X: 10, Y: 130, W: 100, H: 20}},
		{Index: 3, Tag: "input", Type: "submit", Role: "button", Name: "Go", Box: Box{X: 115, Y: 130, W: 50, H: 20}},
		// A field far to the right of "Go", on its line: not next to it.
		{Index: 4, Tag: "input", Type: "text", Role: "textbox", Name: "Filter", Box: Box{X: 400, Y: 130, W: 100, H: 20}},
		{Index: 5, Tag: "a", Role: "link", Name: "Help", Box: Box{X: 10, Y: 200, W: 40, H: 16}},
		{Index: 6, Tag: "a", Role: "link", Name: "Help", Box: Box{X: 10, Y: 230, W: 40, H: 16}},
		{Index: 7, Tag: "input", Type: "text", Role: "textbox", Box: Box{X: 60, Y: 200, W: 100, H: 16}},
	}
	for _, tt := range []struct {
		desc string
		want int
	}{
		{`the box next to "Search"`, 0},
		{`the field beside "Go"`, 2},
		{`the text box next to "Go"`, 2},
		{`the box next to "Help"`, -1}, // two elements are named "Help"
		{`the box next to "Print"`, -1},
	} {
		if r := Resolve(tt.desc, plan.Type, sidebar); r.Index != tt.want {
			t.Errorf("%s: resolved %d (%s), want %d", tt.desc, r.Index, r.Reason, tt.want)
		}
	}
}

// TestSearchBox: "the search box" is the field a page searches by, never any one text
// field: by its role or type, its words, or its search form (observe.js's hint).
func TestSearchBox(t *testing.T) {
	for _, tt := range []struct {
		name  string
		elems []Element
		want  int
	}{
		{"by its type", []Element{{Index: 0, Tag: "input", Type: "text", Role: "textbox", Name: "Name"}, {Index: 1, Tag: "input", Type: "search", Role: "searchbox"}}, 1},
		{"by its placeholder", []Element{{Index: 0, Tag: "input", Type: "text", Role: "textbox", Name: "Name"}, {Index: 1, Tag: "input", Type: "text", Role: "textbox", Placeholder: "Search transactions"}}, 1},
		{"by its form", []Element{{Index: 0, Tag: "input", Type: "text", Role: "textbox", Hints: "patterns search"}, {Index: 1, Tag: "input", Type: "text", Role: "textbox", Hints: "gotopage"}}, 0},
		{"a page's one text field is no search box", []Element{{Index: 0, Tag: "input", Type: "text", Role: "textbox", Name: "Username"}}, -1},
		{"two search boxes", []Element{{Index: 0, Tag: "input", Type: "search", Role: "searchbox"}, {Index: 1, Tag: "input", Type: "search", Role: "searchbox", Name: "Filter"}}, -1},
	} {
		if r := Resolve("the search box", plan.Type, tt.elems); r.Index != tt.want {
			t.Errorf("%s: resolved %d (%s), want %d", tt.name, r.Index, r.Reason, tt.want)
		}
	}
}

// TestInTheListThatAppears: "in the list that appears" is among what the step before
// brought onto the page, and nowhere else.
func TestInTheListThatAppears(t *testing.T) {
	elems := []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "Wholesale", Dest: "http://x/#party"},
		{Index: 1, Tag: "li", Role: "option", Name: "Wholesale", Fresh: true},
		{Index: 2, Tag: "li", Role: "option", Name: "Wholesale Partners", Fresh: true},
	}
	if r := Resolve(`"Wholesale" in the list that appears`, plan.Click, elems); r.Index != 1 {
		t.Errorf("resolved %d (%s), want the suggestion", r.Index, r.Reason)
	}
	if r := Resolve(`"Wholesale" in the list that appears`, plan.Click, elems[:1]); r.Index != -1 {
		t.Errorf("resolved %d with no list shown, want refused", r.Index)
	}
}

// TestSideColumn: "in the sidebar", on a page that marks none, is the column of controls
// down a side of the page that nothing else crosses.
func TestSideColumn(t *testing.T) {
	link := func(i, x, y, w int, name string) Element {
		return Element{Index: i, Tag: "a", Role: "link", Name: name, Dest: "http://x/" + name, Box: Box{X: x, Y: y, W: w, H: 20}}
	}
	page := []Element{
		link(0, 8, 10, 200, "Budget"), link(1, 8, 40, 200, "Reports"), link(2, 8, 70, 200, "Schedules"),
		{Index: 3, Tag: "button", Role: "button", Name: "Add account", Box: Box{X: 8, Y: 600, W: 100, H: 24}},
		{Index: 4, Tag: "button", Role: "button", Name: "Add account", Box: Box{X: 240, Y: 100, W: 100, H: 24}},
		link(5, 240, 140, 300, "Help"),
	}
	if r := Resolve(`"Add account" in the sidebar`, plan.Click, page); r.Index != 3 {
		t.Errorf("resolved %d (%s), want the side column's", r.Index, r.Reason)
	}
	// A page whose controls are not one column beside the rest has no sidebar.
	crossed := append(append([]Element(nil), page...), Element{Index: 6, Tag: "div", Role: "clickable", Name: "Banner", Box: Box{X: 0, Y: 0, W: 900, H: 8}})
	if r := Resolve(`"Add account" in the sidebar`, plan.Click, crossed); r.Index != -1 {
		t.Errorf("resolved %d, want refused: no side column", r.Index)
	}
}
