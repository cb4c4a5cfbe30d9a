package plan

import "testing"

// TestPhrasingsOfTheSixteenthPool: what the sixteenth pool's blind run showed the reader
// refused or misread in its first phrasings (MailDev, BackupPC): a bar across the top or
// the bottom of the page is the page's header or footer, "right away" after a step says
// only when, and a link under a heading of a menu is in the part that heading is over (it
// was read as a click on the heading, then one on the link).
func TestPhrasingsOfTheSixteenthPool(t *testing.T) {
	for d, want := range map[string]Target{
		`"Delete all emails" in the top bar`:                       {Name: "Delete all emails", Quoted: true, Container: "header"},
		`the "Mark all as read" button in the top bar of the page`: {Name: "Mark all as read", Quoted: true, Kind: "button", Container: "header"},
		`the lock icon in the bar at the bottom of the window`:     {Name: "lock", Kind: "icon", Container: "footer"},
		`"Save" at the top of the page`:                            {Name: "Save", Quoted: true, Position: "top"},
		// The part of a menu a heading is over (BackupPC): no click on the heading.
		`the "Edit Config" link under the "files-02" heading of the menu`: {Name: "Edit Config", Quoted: true, Kind: "link", Row: "files-02", RowNoun: "section", Container: "menu"},
	} {
		if got := ParseTarget(d); got != want {
			t.Errorf("%s: %+v, want %+v", d, got, want)
		}
	}
	for goal, want := range map[string]string{
		`click "Delete all emails" in the top bar, then click "Confirm" right away`:           `click "\"Delete all emails\" in the top bar" | click "Confirm"`,
		`click "Delete", click "Confirm" at once and then click "Back"`:                       `click "Delete" | click "Confirm" | click "Back"`,
		`type "right away" into "Note"`:                                                       `type "right away" into "Note"`,
		`click the "Edit Config" link under the "files-02" heading of the menu, click "Xfer"`: `click "\"Edit Config\" link under the \"files-02\" heading of the menu" | click "Xfer"`,
		// A key only a keyboard has, quoted (EtherCalc's and MailDev's phrasings): a key
		// press, not a click on a control named "Enter"; "Delete" may be a button's.
		`click the cell "C5", type "55", press "Enter"`: `click "cell \"C5\"" | type "55" into "the focused field" | press Enter`,
		`press "Esc"`:                 `press Escape`,
		`press the "Delete" key`:      `press Delete`,
		`press "Delete", press "Tab"`: `click "Delete" | press Tab`,
	} {
		parsesTo(t, goal, want)
	}
}
