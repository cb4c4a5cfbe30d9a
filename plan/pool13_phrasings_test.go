package plan

import (
	"strings"
	"testing"
)

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
		// A page said before a step, or after it: gone to first, by its link.
		{`On the Administration page click the Add Printer button`, `click "Administration page link" | click "Add Printer button"`},
		{`click "Lab-Inkjet" on the Printers page`, `click "Printers page link" | click "Lab-Inkjet"`},
		{`In the Printers tab click "Office-Laser-2"`, `click "Printers tab" | click "Office-Laser-2"`},
		// A tab said after a field stays its place (refused while another tab is open).
		{`type "123" into "Account Number" on the "Account" tab`, `type "123" into "\"Account Number\" on the \"Account\" tab"`},
		// Values listed with their fields, unquoted, one holding a comma.
		{`Enter Lab-Room in the Name field, Lab printers in the Description field and Lab, ground floor in the field labelled Location`,
			`type "Lab-Room" into "Name field" | type "Lab printers" into "Description field" | type "Lab, ground floor" into "field labelled Location"`},
		{`type Room in the back in the Location field and 5 in "Seats"`, `type "Room in the back" into "Location field" | type "5" into "Seats"`},
		{`type Lab-Room as the name and Lab printers as the description`, `type "Lab-Room" into "name" | type "Lab printers" into "description"`},
		{`fill in Name: Lab-Room, Description: Lab printers and Location: Lab, ground floor`,
			`type "Lab-Room" into "Name" | type "Lab printers" into "Description" | type "Lab, ground floor" into "Location"`},
		{`enter Username: daniel, E-mail address: daniel@example.org`, `type "daniel" into "Username" | type "daniel@example.org" into "E-mail address"`},
		{`give it the description Lab printers`, `type "Lab printers" into "Description"`},
		// A field's text replaced, whatever it is, the field said before the step or after it.
		{`in the Location field, replace what is there with Room 204, second floor`, `type "Room 204, second floor" into "Location field"`},
		{`replace the text with Room 4 in B in the Location field`, `type "Room 4 in B" into "Location field"`},
		// An intent, and the control that does it in brackets: that control in the item's row.
		{`cancel the job named Quarterly report (the Cancel Job button in its row)`, `click "Cancel Job button in the row of Quarterly report"`},
		{`delete Lab-Inkjet (the Delete button in its row)`, `click "Delete button in the row of Lab-Inkjet"`},
		// A verb's word in a place's name starts no step (this was read as a click on "Files page").
		{`On the Open Files page, click "X"`, `click "Open Files page link" | click "X"`},
		{`On the Add Class page, click "X"`, `click "Add Class page link" | click "X"`},
		// A button named as the page writes it, alone; a number typed where the page's focus is.
		{`Pick "AppSocket", Continue, and Continue`, `click "AppSocket" | click "Continue" | click "Continue"`},
		{`click "Amount", enter 64.20, press Enter`, `click "Amount" | type "64.20" into "the focused field" | press Enter`},
		// A search in the box a person names; a job found by its name, then its row.
		{`use the search box to look for "badge reader"`, `type "badge reader" into "search box" | press Enter`},
		{`find the job called "Quarterly report" and press Cancel Job in its row`, `check that "Quarterly report" is visible | click "Cancel Job in the row \"Quarterly report\""`},
		{`hover the Bills group`, `hover over "Bills group"`},
		// A key's name the goal clicked before is that control, pressed again to confirm.
		{`choose Delete and press Delete again to confirm`, `click "Delete" | click "Delete"`},
		{`type "x" into "Name", press Delete`, `type "x" into "Name" | press Delete`},
		{`click "Enter", type "x" into "Code", press Enter`, `click "Enter" | type "x" into "Code" | press Enter`},
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

// TestLowerCaseContinueSaysNoButton: "continue" alone, written in lower case, names no
// button (a capital is the page's own word for one).
func TestLowerCaseContinueSaysNoButton(t *testing.T) {
	if s, err := Parse(`click "Next", then continue`); err == nil {
		t.Errorf("read as %v, want refused", s)
	}
}

// TestBracketsThatAreNoControl: brackets that name no control in a row, or follow no
// intent people use for a row's control, change nothing.
func TestBracketsThatAreNoControl(t *testing.T) {
	for _, g := range []string{
		`shut down Lab-Inkjet (the Delete button in its row)`,
		`cancel the job named Quarterly report (the one on Lab-Printer)`,
	} {
		if s, err := Parse(g); err == nil && len(s) > 0 && s[0].Action == Click && strings.Contains(s[0].TargetDescription, "in the row of") {
			t.Errorf("%s: read as %v", g, s)
		}
	}
}
