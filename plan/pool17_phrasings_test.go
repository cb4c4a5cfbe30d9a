package plan

import "testing"

// TestPhrasingsOfTheSeventeenthPool: what the seventeenth pool's blind run showed the
// reader refused in its first phrasings (Orthanc, Zoph): a word after a quoted name that
// says what kind of thing it names ("the "CT CHEST" study") is read as the same word before
// it is ("the study "CT CHEST""): what the person calls it, the name held exactly; a word
// of when, an ordinal or a word of how it looks after a quoted name is not one.
func TestPhrasingsOfTheSeventeenthPool(t *testing.T) {
	for d, want := range map[string]Target{
		`the "CT CHEST" study under "Tuesday, January 14, 2025"`: {Name: "CT CHEST", Quoted: true, Row: "Tuesday, January 14, 2025", RowNoun: "item named"},
		`the "Tuscany 2023" album`:                               {Name: "Tuscany 2023", Quoted: true},
	} {
		if got := ParseTarget(d); got != want {
			t.Errorf("%s: %+v, want %+v", d, got, want)
		}
	}
	for goal, want := range map[string]string{
		`click the "CT CHEST" study under "Tuesday, January 14, 2025"`: `click "\"CT CHEST\" study under \"Tuesday, January 14, 2025\""`,
		`click the "Cor T1" series, click "Delete this series"`:        `click "\"Cor T1\" series" | click "Delete this series"`,
	} {
		parsesTo(t, goal, want)
	}
	for _, goal := range []string{
		`click "Save" now`,                       // when, not what
		`click the "Save" shiny`,                 // how it looks, which no page states
		`click the "Reset" mail sent to "Alice"`, // a relation the reader does not read
	} {
		if _, err := Parse(goal); err == nil {
			t.Errorf("%s: read, want refused", goal)
		}
	}
}
