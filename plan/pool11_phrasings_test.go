package plan

import "testing"

// TestPhrasingsOfTheEleventhPool: how the eleventh pool's people wrote steps the reader
// refused or misread (read after its blind run), each with the reading a person means, and
// what stays refused.
func TestPhrasingsOfTheEleventhPool(t *testing.T) {
	user, pw, button := `type "admin" into "user name field of the sign-in form"`, `type "x" into "password field of the sign-in form"`, `click "button of the sign-in form"`
	for _, tt := range []struct{ goal, want string }{
		// One verb for two places, the second after "and then": two clicks. Before, the
		// second was taken for the next sentence's place.
		{`Click on "Security" and then on "Settings". Check the box "Allow Readonly Access".`,
			`click "Security" | click "Settings" | check "box \"Allow Readonly Access\""`},
		// A page's asking, then the value it asks for.
		{`type admin in the field labelled User name, click the Login button, and when it asks for the password, enter "x" and press OK.`,
			`type "admin" into "field labelled User name" | click "Login button" | type "x" into "password field" | click "OK"`},
		{`when asked for your password, type "x"`, `type "x" into "password field"`},
		// A path through the menu, the menu said after its last item.
		{`go to Security > Settings in the left menu`, `hover over "\"Security\" in the left menu" | click "\"Settings\" in the left menu"`},
		{`Security > Users in the sidebar`, `hover over "\"Security\" in the sidebar" | click "\"Users\" in the sidebar"`},
		// One value into both of two fields, the kind said once in the plural.
		{`put Watch-Lena-42 in both the Password and Confirm Password fields`,
			`type "Watch-Lena-42" into "Password field" | type "Watch-Lena-42" into "Confirm Password field"`},
		// "switch" a field from one value to another.
		{`switch the field labelled Permissions from Read Only to "Read/Write"`, `type "Read/Write" into "field labelled Permissions"`},
		// A sign-in that names a third field: the company its books are in.
		{`log in as admin / "x" to the company brightwater`, user + " | " + pw + ` | type "brightwater" into "Company" | ` + button},
		// An aside that says where the thing named is.
		{`click "Save" (the one in the toolbar)`, `click "\"Save\" in the toolbar"`},
	} {
		parsesTo(t, tt.goal, tt.want)
	}
	// An item in a card named by its heading, said with "of" as with "in".
	for _, d := range []string{`the Save button of the Vessel Base Data card`, `Save in the Vessel Base Data card`} {
		if got := ParseTarget(d); got.Name != "Save" || got.Row != "Vessel Base Data" || got.RowNoun != "card" {
			t.Errorf("%s: read as %+v", d, got)
		}
		if reason := exactTarget(mask(d)); reason != "" {
			t.Errorf("%s: refused: %s", d, reason)
		}
	}
	for _, goal := range []string{
		// A second verb's place left for the step after: still no step of its own.
		`type "x" into "Name" and then on "Settings"`,
	} {
		if s, err := Parse(goal); err == nil {
			t.Errorf("%s: read as %v, want refused", goal, s)
		}
	}
	// "in the list" alone: in a list's item (or an option of a list box), not a kind.
	if got := ParseTarget(`charter-guest in the list`); got.Name != "charter-guest" || !got.InList || got.Kind != "" {
		t.Errorf("charter-guest in the list: read as %+v", got)
	}
	// "the value of the Price field" is a field's name, not a place.
	if got := ParseTarget(`the value of the Price field`); got.Row != "" {
		t.Errorf("the value of the Price field: read a place %q", got.Row)
	}
}

// A word of looks, age or place before a name names no kind of thing.
func TestNoKindOfLooks(t *testing.T) {
	for _, w := range []string{"red", "big", "new", "other", "left", "main"} {
		if KindBeforeName(w, "Save") {
			t.Errorf("%q read as a kind of thing", w)
		}
	}
	if !KindBeforeName("workflow", "Invoice") {
		t.Error("workflow not read as a kind of thing")
	}
}
