package plan

import (
	"strings"
	"testing"
)

// TestTargetIsReadOnce: a plan's steps carry their description read into parts, a run's
// values are bound into those parts (not read again from the text), and a step made
// before steps carried a target is read when asked.
func TestTargetIsReadOnce(t *testing.T) {
	steps := WithTargets([]Step{
		{Action: Click, TargetDescription: `the trash icon in the email from "{{sender}}"`},
		{Action: Navigate, Value: "https://example.com"},
	})
	if steps[1].Target != nil {
		t.Errorf("a step with no description has no target: %+v", steps[1].Target)
	}
	tg := steps[0].Target
	if tg == nil || tg.Kind != "icon" || tg.Name != "trash" || tg.Row != "{{sender}}" || tg.RowNoun != "email from" {
		t.Fatalf("target %+v", tg)
	}
	bound := steps[0].Bind(map[string]string{"sender": "Helena"})
	if bound.Target.Row != "Helena" || steps[0].Target.Row != "{{sender}}" {
		t.Errorf("binding: %+v (the plan's own: %+v)", bound.Target, steps[0].Target)
	}
	if got, want := bound.Parts().Describe(), `icon "trash", inside the email from "Helena" (not that item itself)`; got != want {
		t.Errorf("Describe: %s, want %s", got, want)
	}
	// A step written before targets were carried: read on demand, the same parts.
	old := Step{Action: Click, TargetDescription: `the 2nd "Edit" link in the "New project" dialog at the top`}
	if p := old.Parts(); p.Ordinal != 2 || p.Kind != "link" || p.Name != "Edit" || p.Container != "dialog New project" || p.Position != "top" {
		t.Errorf("parts %+v", p)
	} else if got, want := p.Describe(), `the 2nd link "Edit", in the dialog New project, at the top`; got != want {
		t.Errorf("Describe: %s, want %s", got, want)
	}
}

// TestTargetByAffixes: "the first item that starts with "Egy" and ends with "gypt"" is an
// option whose text starts and ends so, the first of them; the words are parts, not a name.
func TestTargetByAffixes(t *testing.T) {
	p := ParseTarget(`the first item that starts with "{{start}}" and ends with "gypt"`)
	if p.Starts != "{{start}}" || p.Ends != "gypt" || p.Name != "" || p.Kind != "option" || p.Ordinal != 1 {
		t.Fatalf("parts %+v", p)
	}
	step := Step{Action: Click, Target: &p}
	if got, want := step.Bind(map[string]string{"start": "Egy"}).Parts().Describe(), `the 1st option that starts with "Egy" and ends with "gypt"`; got != want {
		t.Errorf("Describe: %s, want %s", got, want)
	}
	if p := ParseTarget(`the suggestion ending with "land"`); p.Ends != "land" || p.Starts != "" || p.Name != "" {
		t.Errorf("parts %+v", p)
	}
}

// TestFindThenClickAnIcon: "find the email by X and click the trash icon (to delete it)" is
// one click, on the icon inside X's email; an icon named by anything but its purpose, or
// any other second action, is not read so.
func TestFindThenClickAnIcon(t *testing.T) {
	steps, err := Parse("Find the email by Rochella and click the trash icon to delete it.")
	if err != nil || len(steps) != 1 {
		t.Fatalf("%v %v", steps, err)
	}
	if tg := WithTargets(steps)[0].Target; steps[0].Action != Click || tg.Kind != "icon" || tg.Name != "trash" || tg.Row != "Rochella" || tg.RowNoun != "email from" {
		t.Errorf("step %s, target %+v", steps[0], tg)
	}
	for _, g := range []string{"Find the email by Rochella and click the blue icon.", "Find the email by Rochella and archive that email."} {
		if s, err := Parse(g); err == nil {
			t.Errorf("%q read as %v", g, s)
		}
	}
}

// TestRevealToFind: "switch between the tabs to find and click on the link X" is the
// click on X; the browser opens the tab that holds it.
func TestRevealToFind(t *testing.T) {
	for _, g := range []string{`Switch between the tabs to find and click on the link "Neque,".`, `Expand the sections below, to find and click on the link "porttitor".`} {
		steps, err := Parse(g)
		if err != nil || len(steps) != 1 || steps[0].Action != Click || steps[0].Parts().Kind != "link" {
			t.Errorf("%q: %v %v", g, steps, err)
		}
	}
}

// TestReadThenType: a value read off the page and typed into a field is the EXTRACT and
// the TYPE it is; the label or the word's place is held as exactly as the reads hold it.
func TestReadThenType(t *testing.T) {
	for g, want := range map[string]string{
		"Enter the value of Gender into the text field and press Submit.":                    `extract "value of \"Gender\"" as "copied" | type "{{copied}}" into "text field" | click "Submit"`,
		`Find the 4th word in the paragraph, type that into the textbox and press "Submit".`: `extract "4th word in the paragraph" as "copied" | type "{{copied}}" into "textbox" | click "Submit"`,
		"Find the last word in the text area, enter it into the text field and hit Submit.":  `extract "last word in the text area" as "copied" | type "{{copied}}" into "text input" | click "Submit"`,
	} {
		steps, err := Parse(g)
		if err != nil {
			t.Errorf("%q: %v", g, err)
			continue
		}
		var got []string
		for _, s := range steps {
			got = append(got, s.String())
		}
		if strings.Join(got, " | ") != want {
			t.Errorf("%q:\n got %s\nwant %s", g, strings.Join(got, " | "), want)
		}
	}
}

// TestValueInACard: "find X in the contact book and click on their email" is one click on
// the value beside the label the goal names, in X's card; the words for the value are kept
// as written, for the page's labels to be matched against when the step runs.
func TestValueInACard(t *testing.T) {
	for g, label := range map[string]string{
		"Find Clementine in the contact book and click on their phone number.": "phone number",
		"Find Mary Ann in the address book and click on her email.":            "email",
		`Find "Bo" in the list and click on their "Postal address".`:           "postal address",
	} {
		steps, err := Parse(g)
		if err != nil || len(steps) != 1 {
			t.Errorf("%q: %v %v", g, steps, err)
			continue
		}
		tg := WithTargets(steps)[0].Target
		if steps[0].Action != Click || !tg.Labelled || tg.Name != label || tg.Row == "" || tg.Kind != "" {
			t.Errorf("%q: step %s, target %+v", g, steps[0], tg)
		}
		if d := tg.Describe(); !strings.HasPrefix(d, "the value written beside the label") {
			t.Errorf("%q: described as %s", g, d)
		}
	}
	for _, g := range []string{"Find Clementine in the contact book and call them.", "Find Clementine and click on their phone number."} {
		if s, err := Parse(g); err == nil {
			t.Errorf("%q read as %v", g, s)
		}
	}
}

// TestQuotedNameIsNoOrdinal: a quoted name is the page's words, read for no ordinal; an
// ordinal outside the quotes still counts.
func TestQuotedNameIsNoOrdinal(t *testing.T) {
	for desc, want := range map[string]Target{
		`the "First name" field`:      {Name: "First name", Quoted: true, Kind: "field"},
		`"Item 2nd"`:                  {Name: "Item 2nd", Quoted: true},
		`the "Last item" link`:        {Name: "Last item", Quoted: true, Kind: "link"},
		`the 2nd "Delete" button`:     {Name: "Delete", Quoted: true, Kind: "button", Ordinal: 2},
		`the last "First name" field`: {Name: "First name", Quoted: true, Kind: "field", Ordinal: -1},
	} {
		if got := ParseTarget(desc); got != want {
			t.Errorf("%s read as %+v, want %+v", desc, got, want)
		}
	}
}

// TestItemNamedByItsData: an item a page names by its data ("job=blackbox", a matcher, a
// label) is the row the target sits in, written as the page writes it.
func TestItemNamedByItsData(t *testing.T) {
	for desc, want := range map[string]Target{
		`"Edit" on the silence job=blackbox`:                  {Name: "Edit", Quoted: true, Row: "job=blackbox"},
		`Edit for the silence with the matcher job=blackbox`:  {Name: "Edit", Row: "job=blackbox"},
		`"Silence" on the alert with instance="web-02:9100"`:  {Name: "Silence", Quoted: true, Row: `instance="web-02:9100"`},
		`"Expire" next to the alertname=InstanceDown silence`: {Name: "Expire", Quoted: true, Row: "alertname=InstanceDown", Beside: true},
	} {
		if got := ParseTarget(desc); got != want {
			t.Errorf("%s: %+v, want %+v", desc, got, want)
		}
	}
}
