package page

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/plan"
)

// Pages on which an element satisfies only some parts of a description, and a wrong pick
// is possible: each part must hold, or nothing is picked and the reason names the part.
var (
	inbox = []Element{
		{Index: 0, Tag: "div", Role: "clickable", Name: "Helena Turpis gravida", Text: "Helena Turpis gravida", Box: Box{Y: 0, H: 30, W: 400}},
		{Index: 1, Tag: "span", Role: "clickable", Hints: "icon star", Row: "Helena Turpis gravida", Box: Box{X: 350, Y: 5, H: 20, W: 20}},
		{Index: 2, Tag: "span", Role: "clickable", Hints: "icon trash", Row: "Helena Turpis gravida", Box: Box{X: 380, Y: 5, H: 20, W: 20}},
		{Index: 3, Tag: "div", Role: "clickable", Name: "Nora Lorem ipsum", Text: "Nora Lorem ipsum", Box: Box{Y: 40, H: 30, W: 400}},
		{Index: 4, Tag: "span", Role: "clickable", Hints: "icon trash", Row: "Nora Lorem ipsum", Box: Box{X: 380, Y: 45, H: 20, W: 20}},
	}
	// A to-do list: a checkbox labelled with its row's words is in the row; a card nested
	// in a list item, whose text is the item's, is the row itself.
	todos = []Element{
		{Index: 0, Tag: "input", Type: "checkbox", Role: "checkbox", Name: "Buy milk", Label: "Buy milk", Row: "Buy milk Delete", Checked: new(bool)},
		{Index: 1, Tag: "div", Role: "clickable", Name: "Call Bob today", Text: "Call Bob today", Row: "Call Bob today"},
		{Index: 2, Tag: "button", Role: "button", Name: "Delete", Text: "Delete", Row: "Buy milk Delete"},
	}
	results = []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "cats", Box: Box{Y: 0, H: 20, W: 40}},
		{Index: 1, Tag: "a", Role: "link", Name: "Search results settings", Box: Box{Y: 30, H: 20, W: 40}},
		{Index: 2, Tag: "a", Role: "link", Name: "Cats are great", Row: "Cats are great. All day long.", Box: Box{Y: 60, H: 20, W: 40}},
		{Index: 3, Tag: "a", Role: "link", Name: "All about cats", Row: "All about cats. Facts.", Box: Box{Y: 90, H: 20, W: 40}},
	}
	kinds = []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "Help"},
		{Index: 1, Tag: "a", Role: "link", Name: "Reports"},
		{Index: 2, Tag: "input", Type: "checkbox", Role: "checkbox", Name: "Email reports", Label: "Email reports", Checked: new(bool)},
	}
	ties = []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "Log in", Text: "Log in"},
		{Index: 1, Tag: "input", Type: "submit", Role: "button", Name: "Go", Label: "Log in"},
		{Index: 2, Tag: "button", Role: "button", Name: "?", Text: "?", Title: "Help"},
		{Index: 3, Tag: "a", Role: "link", Name: "Help", Text: "Help"},
		{Index: 4, Tag: "a", Role: "link", Name: "Sign up", Text: "Sign up"},
		{Index: 5, Tag: "a", Role: "link", Name: "Sign up", Text: "Sign up"},
	}
	boxes = []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "Trash"},
		{Index: 1, Tag: "button", Role: "button", Name: "Empty", Container: "form Inbox"},
		{Index: 2, Tag: "button", Role: "button", Name: "Empty", Container: "form Trash"},
		// Numbered out of reading order, as an observation does when it puts an open
		// dialog's controls first.
		{Index: 3, Tag: "button", Role: "button", Name: "Open", Box: Box{Y: 500, H: 20}},
		{Index: 4, Tag: "button", Role: "button", Name: "Open", Box: Box{Y: 100, H: 20}},
	}
	places = []Element{
		{Index: 0, Tag: "button", Role: "button", Name: "Save", Box: Box{X: 10, Y: 900, W: 60, H: 20}},
		{Index: 1, Tag: "button", Role: "button", Name: "Save", Box: Box{X: 10, Y: 10, W: 60, H: 20}},
		{Index: 2, Tag: "a", Role: "link", Name: "Stay on the left", Box: Box{X: 500, Y: 10, W: 60, H: 20}},
	}
)

// addLink is a form whose button is named with a kind's word ("Add link"), beside links
// whose titles hold its words; addLinkAndAdd has a link named "Add" too.
var (
	addLink = []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "Shaare", Text: "Shaare", Title: "Add a new link"},
		{Index: 1, Tag: "a", Role: "link", Name: "BULK CREATION", Text: "BULK CREATION", Title: "Add links in bulk"},
		{Index: 2, Tag: "input", Role: "button", Name: "Add link", Text: "Add link"},
	}
	addLinkAndAdd = []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "Add", Text: "Add"},
		{Index: 1, Tag: "input", Role: "button", Name: "Add link", Text: "Add link"},
	}
)

func TestEveryPartHolds(t *testing.T) {
	tests := []struct {
		part  string
		elems []Element
		desc  string
		want  int
		// reason is a part of the refusal's reason, when want is -1.
		reason string
	}{
		{"row", inbox, `the trash icon in the email from "Helena"`, 2, ""},
		{"row", inbox, `the star icon in the email from "Helena"`, 1, ""},
		{"row", inbox, `the email from "Helena"`, 0, ""},
		{"row", inbox, `the trash icon in the email from "Zed"`, -1, `email from "Zed"`},
		{"row", inbox, `the reply icon in the email from "Helena"`, -1, `none named "reply"`},
		{"row", inbox[:1], `the trash icon in the email from "Helena"`, -1, `in the email from "Helena"`},
		{"row", todos, `the checkbox in the row "Buy milk"`, 0, ""},
		{"row", todos, `the "Delete" button in the row "Buy milk"`, 2, ""},
		{"row", todos, `the link in the item "Call Bob"`, -1, `in the row "Call Bob"`},
		{"ordinal", results, `the 2nd search result link`, 3, ""},
		{"ordinal", results, `the first search result link`, 2, ""},
		{"ordinal", results[:3], `the 2nd search result link`, -1, "only 1 search result link; the 2nd was asked"},
		{"ordinal", boxes, `the first "Open" button`, 4, ""},
		{"ordinal", boxes, `the last "Open" button`, 3, ""},
		{"kind", kinds, `the "Help" button`, -1, `#0 link "Help" is named so but is not a button`},
		{"kind", kinds, `the "Reports" checkbox`, 2, ""},
		{"kind", kinds, `the "Reports" link`, 1, ""},
		{"kind", resolveElements, `the "Priority" field`, 2, ""},
		{"kind", resolveElements, `the "Priority" text field`, -1, "is not a textbox"},
		{"position", places, `the "Save" button at the bottom`, 0, ""},
		{"position", places, `the top "Save" button`, 1, ""},
		{"position", places, `the "Save" button on the left`, -1, "2 elements match"},
		{"position", places, `"Stay on the left"`, 2, ""},
		{"tie", ties, `"Log in"`, 0, ""},
		{"tie", ties, `click "Help"`, 3, ""},
		{"tie", ties, `the "Sign up" link`, -1, `2 elements match`},
		{"container", boxes, `the Empty button inside the "Trash" panel`, 2, ""},
		{"container", boxes, `the "Empty" button in the "Spam" panel`, -1, `in the panel "Spam"`},
		{"container", boxes, `the "Empty" button in the "Inbox" form`, 1, ""},
		// The kind's word is part of the name the page shows, when nothing of the kind is
		// named by the rest.
		{"whole name", addLink, `Add link`, 2, ""},
		{"whole name", addLink, `the Add link`, 2, ""},
		{"whole name", addLink, `"Add" link`, -1, ""},
		{"whole name", addLinkAndAdd, `Add link`, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.part+": "+tt.desc, func(t *testing.T) {
			r := Resolve(tt.desc, plan.Click, tt.elems)
			if r.Index != tt.want {
				t.Fatalf("Resolve(%q) = %d (%s); want %d", tt.desc, r.Index, r.Reason, tt.want)
			}
			if tt.want < 0 && !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("the refusal %q should say %q", r.Reason, tt.reason)
			}
			if len(r.Candidates) == 1 {
				t.Errorf("a refusal with one candidate: %v", r.Candidates)
			}
		})
	}
}

// A description is read into its parts once; where it quotes no name, the words left are
// offered to a page search only when they are a name and nothing else.
func TestNamedOnlyWhenQuoted(t *testing.T) {
	if name, _, ok := Named(plan.ParseTarget(`the trash icon in the email from "Helena"`)); ok {
		t.Errorf("the row's name is not the target's: got %q", name)
	}
	if name, n, ok := Named(plan.ParseTarget(`the second "Edit" button`)); !ok || name != "Edit" || n != 2 {
		t.Errorf(`Named = %q %d %v; want "Edit" 2 true`, name, n, ok)
	}
	// A name the reader left unquoted because it says nothing more is the text all the same.
	for _, d := range []string{"Trees", "the Groups link", "Users under Configuration"} {
		if _, _, ok := Named(plan.ParseTarget(d)); !ok {
			t.Errorf("%s: a name alone, not offered", d)
		}
	}
	if _, _, ok := Named(plan.ParseTarget("the plus icon at the top")); ok {
		t.Errorf("an icon's picture offered as a text")
	}
}
