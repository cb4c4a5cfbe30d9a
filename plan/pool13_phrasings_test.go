package plan

import "testing"

// TestPhrasingsOfTheThirteenthPool: how the thirteenth pool's people wrote steps the
// reader refused or misread (read after its blind run).
func TestPhrasingsOfTheThirteenthPool(t *testing.T) {
	for _, tt := range []struct{ goal, want string }{
		// A path, then a colon, then a step: the path was dropped as a label before.
		{`Printers > Office-Laser, then Administration > Set Default Options: set Media Size to A4`,
			`hover over "\"Printers\"" | click "\"Office-Laser\"" | hover over "\"Administration\"" | click "\"Set Default Options\"" | type "A4" into "Media Size"`},
		// Where one signs in, said before who.
		{`sign in to the NZBGet Login box as nzbget with the password "x"`,
			`type "nzbget" into "user name field of the sign-in form" | type "x" into "password field of the sign-in form" | click "button of the sign-in form"`},
		// A button whose name holds "all" after its first word, and "save with" it.
		{`click Save all changes`, `click "Save all changes"`},
		{`save with Save all changes`, `click "Save all changes"`},
	} {
		parsesTo(t, tt.goal, tt.want)
	}
	// "all" first still says every element.
	if s, err := Parse(`click all Like buttons`); err == nil {
		t.Errorf("click all Like buttons: read as %v, want refused", s)
	}
	// A label before a colon still names the steps after it.
	parsesTo(t, `Sign in first: click the Login link`, `click "Login link"`)
}
