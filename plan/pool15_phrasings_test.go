package plan

import "testing"

// TestPhrasingsOfTheFifteenthPool: what the fifteenth pool's blind run showed the reader
// misread or refused, in the phrasings its goals used (Cloud Commander, the Federated
// Wiki, OCS Inventory, the Temporal Web UI).
func TestPhrasingsOfTheFifteenthPool(t *testing.T) {
	for _, tt := range []struct{ goal, want string }{
		// A shortcut quoted as a page names it is a key, not a control.
		{`click "todo.txt", press "Control+End", type "x", press "Ctrl+S"`, `click "todo.txt" | press Control+End | type "x" into "the focused field" | press Control+S`},
		{`hit "Shift + Tab"`, `press Shift+Tab`},
		// A word of a joined name is no judgement ("order" in "order-1042").
		{`Open order-1041, click "More Actions"`, `click "order-1041" | click "More Actions"`},
		// An item chosen on a side of the page is clicked there; a key's name in a bar of
		// buttons is a button.
		{`Select report-q1.txt in the left panel, hit F8 in the button bar`, `click "report-q1.txt in the left panel" | click "F8 in the button bar"`},
		// An intent the steps after it restate, every name of it among them.
		{`Rename draft-q3.txt to report-q3.txt: click "draft-q3.txt", click "Rename", type "report-q3.txt" into "Rename", click "OK"`,
			`click "draft-q3.txt" | click "Rename" | type "report-q3.txt" into "Rename" | click "OK"`},
		{`Please add a folder named "invoices-2026" next to the other invoice folders. Click F7, type invoices-2026 into the field labelled New directory, then click OK.`,
			`click "F7" | type "invoices-2026" into "field labelled New directory" | click "OK"`},
		// A form's button said alone after its fields.
		{`click "LAB-PC-02", type "LAB-B" into "TAG", then OK`, `click "LAB-PC-02" | type "LAB-B" into "TAG" | click "OK"`},
		{`type "mnovak" into "Login", Save`, `type "mnovak" into "Login" | click "Save"`},
	} {
		parsesTo(t, tt.goal, tt.want)
	}
	// An intent sentence that names what its steps never mention, or nothing, is kept, and
	// refused.
	for _, g := range []string{
		`Subscribe carla.mendes@example.org to the hiking-club list. Click "My lists", click "hiking-club", click "Subscribers".`,
		`Tidy up the old invoices. Click "invoices-2024", click "F8".`,
	} {
		if s, err := Parse(g); err == nil {
			t.Errorf("%s: read as %v, want refused", g, s)
		}
	}
	// The browser's question, its box unsaid.
	if s, err := Parse(`click "Delete", click "OK" in the confirmation`); err != nil || len(s) != 2 || !s[1].AnswersDialog || !s[0].AcceptDialog {
		t.Errorf(`the confirmation: %+v %v`, s, err)
	}
	// A capitalised word after a form that takes none stays refused.
	if s, err := Parse(`type "x" into "Name", then Lyon`); err == nil {
		t.Errorf("a name alone after a form: read as %v", s)
	}
	// A control's name with a plus in it stays a control.
	parsesTo(t, `click "C++ notes"`, `click "C++ notes"`)
	// A side of a page laid out in panels; a bar of buttons is a toolbar.
	for d, want := range map[string]Target{
		`invoices-2025 in the right panel`:    {Name: "invoices-2025", Position: "right"},
		`draft-q3.txt in the left-hand panel`: {Name: "draft-q3.txt", Position: "left"},
		`budget-2025.csv in the left one`:     {Name: "budget-2025.csv", Position: "left"},
		`F8 in the button bar`:                {Name: "F8", Container: "toolbar"},
		`"F8" in the row of buttons`:          {Name: "F8", Quoted: true, Container: "toolbar"},
	} {
		if got := ParseTarget(d); got != want {
			t.Errorf("%s: %+v, want %+v", d, got, want)
		}
	}
}

// TestBandsPicturesAndCorners: the Federated Wiki's sign-in (`the "Reclaim this Wiki" lock
// in the footer`) and the Temporal Web UI's corner (`in the top-left corner`). The band of
// the page is a place, the picture a part the element must show, and a corner written with
// a hyphen keeps both its words (it kept only the first).
func TestBandsPicturesAndCorners(t *testing.T) {
	for d, want := range map[string]Target{
		`the "Reclaim this Wiki" lock in the footer`: {Name: "Reclaim this Wiki", Quoted: true, Picture: "lock", Container: "footer"},
		`"Help" in the page header`:                  {Name: "Help", Quoted: true, Container: "header"},
		`the Help link in the footer`:                {Name: "Help", Kind: "link", Container: "footer"},
		`the "Delete" trash can`:                     {Name: "Delete", Quoted: true, Picture: "trash can"},
		`the "Ann" delete button`:                    {Name: "Ann", Quoted: true, Kind: "button", Picture: "delete"},
		`"Workflows" in the top-left corner`:         {Name: "Workflows", Quoted: true, Position: "top left"},
		`the Save button in the bottom-right corner`: {Name: "Save", Kind: "button", Position: "bottom right"},
		// A table's header row and a column's header are no band of the page.
		`the checkbox in the header row`: {Kind: "checkbox", Row: "header", RowNoun: "row"},
	} {
		if got := ParseTarget(d); got != want {
			t.Errorf("%s: %+v, want %+v", d, got, want)
		}
	}
	parsesTo(t, `click the "Reclaim this Wiki" lock in the footer, type "x" into the reclaim code box, click "Submit"`,
		`click "\"Reclaim this Wiki\" lock in the footer" | type "x" into "reclaim code box" | click "Submit"`)
}

// TestAnEditorOpenedInPlace: the Federated Wiki's paragraphs, edited where they are (read
// after its run with the sign-in mended): "delete all of its text" is the opened box
// cleared, and "in the new box" is what the step before added to the page.
func TestAnEditorOpenedInPlace(t *testing.T) {
	for goal, want := range map[string]string{
		`double-click "Bean salad with lemon.", delete all of its text`: `double-click "\"Bean salad with lemon.\"" | clear "the text of the item \"Bean salad with lemon.\" or the page it opened"`,
		`double-click "Bean salad with lemon.", remove all the text`:    `double-click "\"Bean salad with lemon.\"" | clear "the text of the item \"Bean salad with lemon.\" or the page it opened"`,
		`type "delete all of its text" into "Note"`:                     `type "delete all of its text" into "Note"`,
	} {
		parsesTo(t, goal, want)
	}
	for d, want := range map[string]Target{
		`"Double-Click to Edit" in the new box`:          {Name: "Double-Click to Edit", Quoted: true, Appeared: true},
		`"Double-Click to Edit" in the box that appears`: {Name: "Double-Click to Edit", Quoted: true, Appeared: true},
		`"Shed Key Rota" in the results that pop up`:     {Name: "Shed Key Rota", Quoted: true, Appeared: true},
		// A click that only takes the focus away, where an editor saves.
		`outside it`:                 {Outside: true},
		`somewhere outside the box`:  {Outside: true},
		`somewhere else on the page`: {Outside: true},
		`empty part of the page`:     {Outside: true},
		`"outside it"`:               {Name: "outside it", Quoted: true},
	} {
		if got := ParseTarget(d); got != want {
			t.Errorf("%s: %+v, want %+v", d, got, want)
		}
	}
}
