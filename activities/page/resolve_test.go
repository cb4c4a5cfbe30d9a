package page

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/plan"
)

var yes = true

// resolveElements is a page the resolver is tested on.
var resolveElements = []Element{
	{Index: 0, Tag: "button", Role: "button", Name: "New project", Text: "New project"},
	{Index: 1, Tag: "input", Type: "text", Role: "textbox", Name: "Project name", Label: "Project name", Placeholder: "e.g. Website relaunch"},
	{Index: 2, Tag: "select", Role: "combobox", Name: "Priority", Label: "Priority", Value: "Medium"},
	{Index: 3, Tag: "input", Type: "checkbox", Role: "checkbox", Name: "Private", Label: "Private", Checked: new(bool)},
	{Index: 4, Tag: "button", Role: "button", Name: "Create", Text: "Create", Container: "dialog New project"},
	{Index: 5, Tag: "button", Role: "button", Name: "Project actions", Text: "⋯", Row: "Apollo High Team"},
	{Index: 6, Tag: "button", Role: "button", Name: "Project actions", Text: "⋯", Row: "Q4-bugs Medium Team"},
	{Index: 7, Tag: "li", Role: "menuitem", Name: "Archive", Text: "Archive", Container: "menu"},
	{Index: 8, Tag: "button", Role: "tab", Name: "Archived", Text: "Archived", Selected: &yes},
	{Index: 9, Tag: "a", Role: "link", Name: "Create account", Text: "Create account"},
	{Index: 10, Tag: "button", Role: "button", Name: "Edit", Row: "Apollo"},
	{Index: 11, Tag: "button", Role: "button", Name: "Edit", Row: "Zeus"},
	{Index: 12, Tag: "button", Role: "button", Name: "Save", Disabled: true},
	{Index: 13, Tag: "button", Role: "button", Name: "Save"},
}

// resolveCases are target descriptions and the element each resolves to (-1: none),
// with the count of tied candidates.
var resolveCases = []struct {
	desc   string
	action plan.Action
	want   int
	cands  int
}{
	{"New project", plan.Click, 0, 0},
	{`the blue "New project" button at the top right`, plan.Click, 0, 0},
	{"Project name", plan.Type, 1, 0},
	{"the Project name field", plan.Type, 1, 0},
	{"e.g. Website relaunch", plan.Type, 1, 0},
	{"Priority", plan.Select, 2, 0},
	{"the Priority dropdown", plan.Select, 2, 0},
	{"Private", plan.Check, 3, 0},
	{`"Create"`, plan.Click, 4, 0},            // exact beats "Create account"
	{"Create account link", plan.Click, 9, 0}, // the whole phrase
	{"Project actions", plan.Click, -1, 2},    // one per row: ambiguous
	{`"Project actions" in the row "Q4-bugs"`, plan.Click, 6, 0},
	{`the "Project actions" button for "Apollo"`, plan.Click, 5, 0},
	{`the second "Project actions" button`, plan.Click, 6, 0},
	{`the last "Edit" button`, plan.Click, 11, 0},
	{`the third "Edit" button`, plan.Click, -1, 2}, // only two
	{`the "Archive" item in the menu`, plan.Click, 7, 0},
	{"Archive", plan.Click, 7, 0}, // "Archive" exact beats "Archived"
	{"Archived tab", plan.Click, 8, 0},
	{"Save", plan.Click, 13, 0}, // the enabled one
	{"Delete", plan.Click, -1, 0},
}

func TestResolve(t *testing.T) {
	elems, tests := resolveElements, resolveCases
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := Resolve(tt.desc, tt.action, elems)
			if r.Index != tt.want || len(r.Candidates) != tt.cands {
				t.Fatalf("Resolve(%q) = index %d with %d candidates (%s); want %d with %d", tt.desc, r.Index, len(r.Candidates), r.Reason, tt.want, tt.cands)
			}
			if r.Index < 0 && r.Reason == "" {
				t.Error("an unresolved target needs a reason")
			}
		})
	}
}

// "the date" is the page's one date field when nothing is called "date"; a field called
// "Date" is still found by its name.
func TestDateFieldByItsKind(t *testing.T) {
	unnamed := []Element{{Index: 0, Tag: "input", Type: "date", Role: "textbox"}, {Index: 1, Tag: "button", Role: "button", Name: "Submit"}}
	if r := Resolve("the date", plan.Type, unnamed); r.Index != 0 {
		t.Errorf("the one date field: %+v", r)
	}
	named := []Element{{Index: 0, Tag: "input", Type: "text", Role: "textbox", Label: "Date"}, {Index: 1, Tag: "input", Type: "text", Role: "textbox", Label: "Name"}}
	if r := Resolve("date", plan.Type, named); r.Index != 0 {
		t.Errorf("a field labelled Date: %+v", r)
	}
	if r := Resolve("time", plan.Type, named); r.Resolved() {
		t.Errorf("no time field and nothing called time: %+v", r)
	}
}

// TestFieldNamedByItsGroup: a field named nowhere of its own, in a group whose only words
// are "Title" (its label drawn as a button above it), is the Title field; a field in a row
// that says more (a table row of several cells) is not named by the row.
func TestFieldNamedByItsGroup(t *testing.T) {
	elems := []Element{
		{Index: 0, Tag: "button", Role: "button", Name: "Title"},
		{Index: 1, Tag: "input", Type: "text", Role: "textbox", Row: "Title"},
		{Index: 2, Tag: "button", Role: "button", Name: "Email"},
		{Index: 3, Tag: "input", Type: "text", Role: "textbox", Row: "Email"},
		{Index: 4, Tag: "input", Type: "text", Role: "textbox", Row: "Apples 3 kg $4"},
	}
	for desc, want := range map[string]int{"Title": 1, "the Email field": 3, "Apples": -1} {
		if r := Resolve(desc, plan.Type, elems); r.Index != want {
			t.Errorf("Resolve(%q) = %d (%s); want %d", desc, r.Index, r.Reason, want)
		}
	}
}

// TestNameWithRoomToBreak: a long name a page lays out with room to break after its slash
// ("application / announcements", Icinga Web 2's permissions) is the name written without.
func TestNameWithRoomToBreak(t *testing.T) {
	elems := []Element{
		{Index: 0, Tag: "input", Type: "checkbox", Role: "checkbox", Name: "application / announcements"},
		{Index: 1, Tag: "input", Type: "checkbox", Role: "checkbox", Name: "application / log"},
	}
	if r := Resolve(`"application/announcements"`, plan.Check, elems); r.Index != 0 {
		t.Errorf("Resolve = %d (%s); want 0", r.Index, r.Reason)
	}
}

// A name with a filler word in it ("Open the quarterly report") is found by the whole
// name, which the description loses its fillers from; a part of it is not the whole.
func TestNameWithFillers(t *testing.T) {
	elems := []Element{{Index: 0, Tag: "a", Role: "link", Name: "Open the quarterly report"}, {Index: 1, Tag: "button", Role: "button", Name: "Open the help window"}}
	for desc, want := range map[string]int{"Open the quarterly report": 0, `the "Open the help window" button`: 1, "Open the report": -1} {
		if r := Resolve(desc, plan.Click, elems); r.Index != want {
			t.Errorf("Resolve(%q) = %d (%s); want %d", desc, r.Index, r.Reason, want)
		}
	}
}

// TestCountedTargets: "both text fields" is written "the 1st of 2", "the 2nd of 2": on a
// page with two it resolves each; on a page with three neither, saying the count.
func TestCountedTargets(t *testing.T) {
	field := func(i int) Element {
		return Element{Index: i, Tag: "input", Type: "password", Role: "textbox", Box: Box{X: 10, Y: 40 * i, W: 100, H: 20}}
	}
	two := []Element{field(0), field(1), {Index: 2, Tag: "button", Role: "button", Name: "Submit", Box: Box{Y: 100, W: 50, H: 20}}}
	for i, d := range []string{"the 1st of 2 text field", "the 2nd of 2 text field"} {
		if r := Resolve(d, plan.Type, two); r.Index != i {
			t.Errorf("%s on two fields: %+v", d, r)
		}
	}
	three := append([]Element{field(0), field(1), field(2)}, two[2])
	if r := Resolve("the 1st of 2 text field", plan.Type, three); r.Resolved() || !strings.Contains(r.Reason, "the page has 3") {
		t.Errorf("on three fields: %+v", r)
	}
	if p := plan.ParseTarget("the 2nd of three sliders"); p.Ordinal != 2 || p.Of != 3 {
		t.Errorf("parts %+v", p)
	}
}

// TestTheMainMenu: "the main menu" is the page's menu button, drawn as three bars, not an
// item's "⋯" (its "more" actions), which is another icon.
func TestTheMainMenu(t *testing.T) {
	elems := []Element{
		{Index: 0, Tag: "a", Role: "link", Hints: "red-ui-header-button-sidemenu button fa fa-bars", Box: Box{X: 900, Y: 5, W: 30, H: 30}},
		{Index: 1, Tag: "button", Role: "button", Name: "Project actions", Text: "⋯", Box: Box{X: 400, Y: 100, W: 20, H: 20}},
	}
	for desc, want := range map[string]int{"the main menu": 0, "the more icon": 1} {
		if res := Resolve(desc, plan.Click, elems); res.Index != want {
			t.Errorf("%q resolved to %d (%s), want %d", desc, res.Index, res.Reason, want)
		}
	}
}

// A webmail's toolbar (Roundcube's) marks its commands as menu items, and its Compose
// button is titled "Create a new message": "the Create button" is the command named
// Create, never Compose by a word of its title; "the Reply button" is the command Reply;
// a real button named as well as a menu item is the one meant. A message is named by its
// subject, and "the message X" or "the X message" says what it is.
func TestToolbarCommandsAndItemNouns(t *testing.T) {
	mail := []Element{
		{Index: 0, Tag: "a", Role: "button", Name: "Compose", Text: "Compose", Title: "Create a new message"},
		{Index: 1, Tag: "a", Role: "menuitem", Name: "Create", Text: "Create"},
		{Index: 2, Tag: "a", Role: "menuitem", Name: "Reply", Text: "Reply"},
		{Index: 3, Tag: "a", Role: "link", Name: "Weekly deals", Text: "Weekly deals", Row: "Shop Weekly deals Today"},
		{Index: 4, Tag: "a", Role: "link", Name: "Project kickoff notes", Text: "Project kickoff notes", Row: "Bob Project kickoff notes Today"},
		{Index: 5, Tag: "button", Role: "button", Name: "Send message", Text: "Send message"},
		{Index: 6, Tag: "a", Role: "menuitem", Name: "Delete", Text: "Delete", Container: "menu"},
		{Index: 7, Tag: "button", Role: "button", Name: "Delete", Text: "Delete"},
		{Index: 8, Tag: "a", Role: "link", Name: "invoices", Text: "invoices", Row: "/ invoices classic running"},
	}
	for _, c := range []struct {
		desc string
		want int
	}{
		{"the Create button", 1},
		{"Create button", 1},
		{"the Reply button", 2},
		{"the Delete button", 7},
		{"the message Project kickoff notes", 4},
		{"the Weekly deals message", 3},
		{`the message "Weekly deals"`, 3},
		{"Send message", 5},
		{"the message Lunch", -1},
		// Both its words are item nouns: the queue named "invoices".
		{"the invoices queue", 8},
	} {
		if r := Resolve(c.desc, plan.Click, mail); r.Index != c.want {
			t.Errorf("Resolve(%q) = %d (%s); want %d", c.desc, r.Index, r.Reason, c.want)
		}
	}
}

// TestNoStandInWhileAFieldIsDrawn: an editor still being drawn (TiddlyWiki's, fading in
// for 400 ms) shows some of its fields and not yet others. A field not yet drawn is
// missing, and the step waits for it or refuses: it is not the button named like it
// (which opened the editor, and would open another), nor another field that shares a
// word with it ("field name" for "tag name", read as the noun "tag" and a name "name").
// Drawn, each is found; a box the page only marks as a button still opens an editor.
func TestNoStandInWhileAFieldIsDrawn(t *testing.T) {
	drawing := []Element{
		{Index: 0, Tag: "button", Role: "button", Name: "new tiddler", Title: "Create a new tiddler"},
		{Index: 1, Tag: "input", Type: "text", Role: "textbox", Name: "field name", Placeholder: "field name", Label: "Add a new field"},
	}
	drawn := append(drawing,
		Element{Index: 2, Tag: "input", Type: "text", Role: "textbox", Value: "New Tiddler"},
		Element{Index: 3, Tag: "input", Type: "text", Role: "textbox", Name: "tag name", Placeholder: "tag name"})
	appender := []Element{{Index: 0, Tag: "p", Role: "button", Name: "Add default block", Text: "Type / to choose a block"}}
	for _, c := range []struct {
		desc  string
		elems []Element
		want  int
	}{
		{"New Tiddler", drawing, -1},
		{"tag name", drawing, -1},
		{"New Tiddler", drawn, 2},
		{"tag name", drawn, 3},
		{"Type / to choose a block", appender, 0},
	} {
		if r := Resolve(c.desc, plan.Type, c.elems); r.Index != c.want {
			t.Errorf("type into %q on %d elements: %d (%s %s); want %d", c.desc, len(c.elems), r.Index, r.Matched, r.Reason, c.want)
		}
	}
}

// TestSpelledAsSaid: of two controls that both match the whole name, the one spelled as the
// description spells it is meant; two spelled alike stay a tie.
func TestSpelledAsSaid(t *testing.T) {
	header := []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "admin", Text: "admin", Dest: "u"},
		{Index: 1, Tag: "a", Role: "link", Name: "Admin", Text: "Admin", Dest: "a"},
		{Index: 2, Tag: "a", Role: "link", Name: "The Basics", Text: "The Basics", Dest: "tb"},
		{Index: 3, Tag: "a", Role: "link", Name: "Basics", Text: "Basics", Dest: "b"},
		{Index: 4, Tag: "a", Role: "link", Name: "Delete", Text: "Delete", Dest: "d1"},
		{Index: 5, Tag: "button", Role: "button", Name: "Delete", Text: "Delete"},
	}
	for _, c := range []struct {
		desc string
		want int
	}{
		{`"Admin"`, 1},
		{`"admin"`, 0},
		{`Admin`, 1},
		{`"Basics"`, 3},
		{`the Basics link`, 3},
		{`"The Basics"`, 2},
		{`Delete`, -1},
	} {
		if r := Resolve(c.desc, plan.Click, header); r.Index != c.want {
			t.Errorf("click %s: %d (%s %s); want %d", c.desc, r.Index, r.Matched, r.Reason, c.want)
		}
	}
}

// TestABoxByItsName: "the Message box", unquoted, is the field named by "Message" when
// nothing on the page is named with the word "box"; a control so named keeps its name.
func TestABoxByItsName(t *testing.T) {
	form := []Element{
		{Index: 0, Tag: "div", Role: "textbox", Name: "Type your message here"},
		{Index: 1, Tag: "a", Role: "link", Name: "Message history", Text: "Message history"},
		{Index: 2, Tag: "input", Type: "checkbox", Role: "checkbox", Name: "Active", Checked: new(bool)},
		{Index: 3, Tag: "input", Type: "text", Role: "textbox", Name: "Notes box"},
		{Index: 4, Tag: "textarea", Role: "textbox", Name: "Notes"},
	}
	for _, c := range []struct {
		desc   string
		action plan.Action
		want   int
	}{
		{"the message box", plan.Type, 0},
		{"Message box", plan.Type, 0},
		{"the Active box", plan.Check, 2},
		{"the Notes box", plan.Type, 3},
		{"the History box", plan.Type, -1},
	} {
		if r := Resolve(c.desc, c.action, form); r.Index != c.want {
			t.Errorf("%s %q: %d (%s); want %d", c.action, c.desc, r.Index, r.Reason, c.want)
		}
	}
}
