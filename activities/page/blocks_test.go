package page

import (
	"strings"
	"testing"
)

func TestCompactShowsStatesAndPlaces(t *testing.T) {
	yes, no := true, false
	o := Observation{ScrollY: 500, ScrollMax: 2000, Elements: []Element{
		{Index: 0, Tag: "button", Role: "button", Name: "Save", Disabled: true, Box: Box{Y: 600, H: 30}},
		{Index: 1, Tag: "select", Role: "combobox", Name: "Country", Options: []string{"France", "Germany", "Italy", "Spain", "Peru", "Chile"}, Expanded: &no, Box: Box{Y: 650, H: 30}},
		{Index: 2, Tag: "input", Role: "textbox", Name: "Search", Placeholder: "Find a project", Focused: true, Box: Box{Y: 700, H: 30}},
		{Index: 3, Tag: "a", Role: "tab", Name: "Archived", Selected: &yes, Offscreen: true, Box: Box{Y: 100, H: 30}},
		{Index: 4, Tag: "button", Role: "button", Name: "Load more", Offscreen: true, Box: Box{Y: 2400, H: 30}},
	}}
	got := o.Compact()
	for _, want := range []string{
		`#0 button "Save" disabled`,
		`#1 combobox "Country" expanded=false options=["France", "Germany", "Italy", "Spain", "Peru", +1 more]`,
		`#2 textbox "Search" placeholder="Find a project" focused`,
		`#3 tab "Archived" selected (above the viewport)`,
		`#4 button "Load more" (below the viewport)`,
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("want the line %s in\n%s", want, got)
		}
	}
}

func TestOutline(t *testing.T) {
	o := Observation{ScrollY: 500, ScrollMax: 2000, Blocks: []TextBlock{{Kind: "heading", Text: "Projects"}, {Kind: "status", Text: "Saved", Where: "below"}}}
	want := "heading: \"Projects\"\nstatus: \"Saved\" (below the viewport)\n500 px of the page are above the viewport and 1500 px below\n"
	if got := o.Outline(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if a := o.Alerts(); len(a) != 1 || a[0].Text != "Saved" {
		t.Errorf("alerts %v", a)
	}
	if got := (Observation{}).Outline(); got != "" {
		t.Errorf("a page that fits and announces nothing has no outline: %q", got)
	}
}
