package plan

import "testing"

// TestPhrasingsOfTheTenthPool: sentences from goals people wrote for the tenth held-out
// pool (read after its blind run), each read into the steps a person means, and the
// sentences that must stay refused beside them.
func TestPhrasingsOfTheTenthPool(t *testing.T) {
	user, pw, button := `type "admin" into "user name field of the sign-in form"`, `type "x" into "password field of the sign-in form"`, `click "button of the sign-in form"`
	for _, tt := range []struct{ goal, want string }{
		// What kind of thing a quoted name is, in any word.
		{`click the book "Winter Crossing"`, `click "book \"Winter Crossing\""`},
		{`click the cover of the book "The Clockmaker's Daughter"`, `click "cover of the book \"The Clockmaker's Daughter\""`},
		{`open the mailing list called "Staff"`, `click "mailing list called \"Staff\""`},
		// The link that leads to the sign-in form, then the sign-in.
		{`log in via the Login link at the top as admin / "x"`, `click "Login" | ` + user + " | " + pw + " | " + button},
		// A sign-in that names its fields after a colon; its button named after "then".
		{`First log in to the Homebridge UI: admin in the Username box, "x" as the Password, then press Continue.`,
			`type "admin" into "Username" | type "x" into "Password" | click "Continue"`},
		{`log in as admin / "x", then press Log In`, user + " | " + pw + ` | click "Log In"`},
		{`log in as admin / "x", then click "Users"`, user + " | " + pw + " | " + button + ` | click "Users"`},
		// A switch set on or off, the state said after it; the value a field holds now.
		{`switch "Admin User?" off`, `uncheck "Admin User?"`},
		{`turn the Dark mode toggle on`, `check "Dark mode toggle"`},
		{`type "Keller Home" into "Homebridge Name" in place of "Homebridge Loft"`, `type "Keller Home" into "Homebridge Name"`},
	} {
		parsesTo(t, tt.goal, tt.want)
	}
	for _, goal := range []string{
		// How a thing looks, which no page states; a relation, not a kind.
		`click the big "Save" button`,
		`select words similar to "big"`,
	} {
		if s, err := Parse(goal); err == nil {
			t.Errorf("%s: read as %v, want refused", goal, s)
		}
	}
}
