package plan

import "testing"

// TestPhrasingsOfTheFourteenthPool: how the fourteenth pool's people wrote steps the
// reader refused or misread (read after its blind run).
func TestPhrasingsOfTheFourteenthPool(t *testing.T) {
	for _, tt := range []struct{ goal, want string }{
		// A sign-in with nothing to type: the button it is done with.
		{`log in (Login button), click "Posts"`, `click "Login button" | click "Posts"`},
		{`Log in with Login, search all for compost`, `click "Login button" | type "compost" into "the search box" | press Enter`},
		// A button's name alone, first, with steps after it.
		{`Login, then Settings > Site Settings: set Site Title to Green Thumb Journal`,
			`click "Login" | hover over "\"Settings\"" | click "\"Site Settings\"" | type "Green Thumb Journal" into "Site Title"`},
		// The browser's own question, answered in its dialog.
		{`click "Delete entry", click "OK" in the confirmation dialog`, `click "\"Delete entry\"" | click "\"OK\" in the confirmation dialog"`},
		// What a step leaves as it is, said after it or on its own, and which one is not meant.
		{`type "x" into "Title", leaving the rest of the post alone`, `type "x" into "Title"`},
		{`Change the field labelled Site Title to "Green Thumb Journal" without touching the Tagline or the Description`, `type "Green Thumb Journal" into "field labelled Site Title"`},
		{`click "X". Leave family-recipes-2022 running. Don't touch episode 41.`, `click "X"`},
		{`click "X", change nothing else, and click "Y"`, `click "X" | click "Y"`},
		{`open "Autumn Planting Guide" — the planting one, not the pruning guide`, `click "Autumn Planting Guide"`},
		{`open the post called "Summer Garden Tips" (the summer one, not Spring Garden Tips)`, `click "post called \"Summer Garden Tips\""`},
		// An "and" before the comma that starts a place joins the step after it (it was
		// read as part of the name before: a click on "Speed Limits menu and").
		{`Open the Speed Limits menu and, in the UPLOAD part, click "500 kB/s"`, `click "Speed Limits menu" | click "\"500 kB/s\" in the UPLOAD part"`},
		// A thing found where it is looked for, then its row; a row named by a name of
		// joined parts.
		{`In the Supervisor status table, find queue-worker-2 in the Name column and hit Stop in its row.`, `check that "queue-worker-2" is visible | click "Stop in the row \"queue-worker-2\""`},
		{`In the list of programs, go to the row named report-weekly and click "Start" there`, `check that "report-weekly" is visible | click "\"Start\" in the row \"report-weekly\""`},
		// An intent said with the control that does it, or with it in brackets.
		{`Stop every program at once with the Stop All button at the top of the Supervisor page.`, `click "Stop All button at the top"`},
		{`clear the log of api-gateway (the Clear Log link in its row of the status table)`, `click "Clear Log link in the row of api-gateway"`},
		// "Add" is a verb now (APPEND), but a capital after a step is a name's.
		{`click "Contacts", then Add Contact`, `click "Contacts" | click "Add Contact"`},
		// An item of the menu a right-click opened; a box cleared is unticked.
		{`right-click "holiday-photos-2023", choose Set Tags from the menu`, `right-click "holiday-photos-2023" | click "Set Tags in the list that appears"`},
		{`clear the Delete data checkbox`, `uncheck "Delete data checkbox"`},
		// A switch turned on "so that it is on".
		{`turn the Draft toggle so that it is on`, `check "Draft toggle"`},
	} {
		parsesTo(t, tt.goal, tt.want)
	}
	// A goal that is a name alone says what is wanted, not what to click; the page's own
	// dialog keeps its OK as written.
	for _, g := range []string{`Buy milk`, `stop it with the red button`} {
		if s, err := Parse(g); err == nil {
			t.Errorf("%s: read as %v, want refused", g, s)
		}
	}
	s, err := Parse(`click "Delete", click "OK" in the dialog`)
	if err != nil || len(s) != 2 || s[1].AnswersDialog {
		t.Errorf(`an OK in a dialog the page may draw: %v %v`, s, err)
	}
	if s, err := Parse(`click "Delete entry", click "OK" in the confirmation dialog`); err != nil || len(s) != 2 || !s[1].AnswersDialog || !s[0].AcceptDialog {
		t.Errorf(`the browser's question: %+v %v`, s, err)
	}
}
