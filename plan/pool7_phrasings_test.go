package plan

import (
	"strings"
	"testing"
)

// TestPhrasingsOfTheSeventhPool: sentences from goals people wrote for the seventh
// held-out pool (read after its blind run), each read into the steps a person means.
func TestPhrasingsOfTheSeventhPool(t *testing.T) {
	user, pw, button := `type "admin" into "user name field of the sign-in form"`, `type "x" into "password field of the sign-in form"`, `click "button of the sign-in form"`
	for _, tt := range []struct{ goal, want string }{
		// Signing in in the words people share: the form's parts by what they are there.
		{`log in as admin with the password "x"`, user + " | " + pw + " | " + button},
		{`Log in as admin with the password "x" and press GO!`, user + " | " + pw + ` | click "GO"`},
		{`sign in as admin using password x, then open Settings`, user + " | " + pw + " | " + button + ` | click "Settings"`},
		{`Sign in with the username admin and the password "x".`, user + " | " + pw + " | " + button},
		// Values first, each joined to its field by "as".
		{`enter admin as the Username and "x" as the Password, then click "Sign In"`, `type "admin" into "Username" | type "x" into "Password" | click "Sign In"`},
		// A box titled in capitals, written at the end.
		{`put "x" in the field labelled "Password" in the Sign In box`, `type "x" into "field labelled \"Password\" in the Sign In box"`},
		// One value for two fields, each named.
		{`Enter "dave" in the field labelled "Username" and "H-7" in both Change Password and Confirm Password`,
			`type "dave" into "field labelled \"Username\"" | type "H-7" into "Change Password" | type "H-7" into "Confirm Password"`},
		{`enter the password "x" into both text fields and press OK`, `type "x" into "the 1st of 2 text field" | type "x" into "the 2nd of 2 text field" | click "OK"`},
		// A box left or made to be in a state.
		{`leave "Also delete the files" unchecked`, `uncheck "\"Also delete the files\""`},
		{`make sure the box "Also delete the files" is not ticked`, `uncheck "box \"Also delete the files\""`},
		{`make sure "Private" is checked`, `check "Private"`},
		{`leave Save path empty`, `clear "Save path"`},
		// A list, a tree, a page that is where the step is.
		{`Unfold "site" in the tree on the left`, `click "\"site\" in the tree on the left"`},
		{`open the resource "projector"`, `click "resource \"projector\""`},
		{`On her page click the "Create Collection" link.`, `click "\"Create Collection\" link"`},
		// A purpose after the target's place, said of a person.
		{`Double-click the field "plan" in the table to edit it`, `double-click "field \"plan\" in the table"`},
		{`click the Add button to make him a member`, `click "Add button"`},
		// A check that names the list it looks in.
		{`Check that "Staging servers" is no longer in the list`, `check that "Staging servers" is not visible`},
		// An entry under its header, in a menu the page shows.
		{`Open Host groups under Configuration in the menu on the left`, `click "Host groups under Configuration"`},
		{`Put "Branch Router" in the field labelled "Description" and 192.0.2.50 in the Hostname field`,
			`type "Branch Router" into "field labelled \"Description\"" | type "192.0.2.50" into "Hostname field"`},
		{`go to List Users, open alice and change her Email Address to a@example.org`, `click "List Users" | click "alice" | type "a@example.org" into "Email Address"`},
		// A menu path whose last item is a plural word.
		{`open Tools > Options`, `hover over "\"Tools\"" | click "\"Options\""`},
		// From the eighth pool (read after its blind run): a user and a password written as
		// a pair; a path through a menu written alone, or after "head to"; a switch turned
		// on or off; two fields set in one sentence, one named with a plural word.
		{`log in as admin / "x", then click "Users"`, user + " | " + pw + " | " + button + ` | click "Users"`},
		{`New > Folder, then type "reports" into "Name"`, `hover over "\"New\"" | click "\"Folder\"" | type "reports" into "Name"`},
		{`head to Configuration → Access Control`, `hover over "\"Configuration\"" | click "\"Access Control\""`},
		{`switch on "Notifications"`, `check "Notifications"`},
		{`Once you're in, click "Users"`, `click "Users"`},
		// A menu named by where it is, not by a control that opens it.
		{`click "Settings" in the side menu`, `click "\"Settings\" in the side menu"`},
		{`log in as admin / "x". Once you are in, go to Configuration and then Access Control.`,
			user + " | " + pw + " | " + button + ` | click "Configuration" | click "Access Control"`},
		{`turn off Active`, `uncheck "Active"`},
		{`set Entries per page to 25 and Entry sorting to "Oldest first"`, `type "25" into "Entries per page" | type "Oldest first" into "Entry sorting"`},
	} {
		steps := parsesTo(t, tt.goal, tt.want)
		for _, s := range steps {
			if p := s.WithTarget().Parts(); strings.Contains(s.TargetDescription, "sign-in form") && p.SignIn == "" {
				t.Errorf("%s: %q is not read as a part of the sign-in form", tt.goal, s.TargetDescription)
			}
		}
	}
	for _, goal := range []string{`log in as admin`, `sign in as admin with the password`, `open Tools > the best one`, `new > folder`, `set the entries to 25`} {
		if s, err := Parse(goal); err == nil {
			t.Errorf("%s: read as %v, want refused", goal, s)
		}
	}
}
