package page

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/plan"
)

var rows = []Element{
	{Index: 0, Tag: "button", Role: "button", Name: "New project", Box: Box{X: 20, Y: 20, W: 100, H: 30}},
	{Index: 1, Tag: "button", Role: "button", Name: "Project actions", Row: "Website relaunch 12 open", Box: Box{X: 900, Y: 100, W: 30, H: 30}},
	{Index: 2, Tag: "button", Role: "button", Name: "Project actions", Row: "Q4-bugs 3 open", Box: Box{X: 900, Y: 140, W: 30, H: 30}},
	{Index: 3, Tag: "a", Role: "link", Name: "Q4-bugs", Row: "Q4-bugs 3 open", Box: Box{X: 40, Y: 140, W: 80, H: 20}},
	{Index: 4, Tag: "input", Role: "textbox", Name: "Project name", Container: "dialog New project", Box: Box{X: 400, Y: 300, W: 200, H: 30}},
	{Index: 5, Tag: "button", Role: "button", Name: "Cancel", Container: "dialog New project", Box: Box{X: 400, Y: 400, W: 80, H: 30}},
	{Index: 6, Tag: "button", Role: "button", Name: "Create", Container: "dialog New project", Box: Box{X: 500, Y: 400, W: 80, H: 30}},
	{Index: 7, Tag: "button", Role: "button", Name: "Delete", Box: Box{X: 20, Y: 600, W: 80, H: 30}},
	{Index: 8, Tag: "button", Role: "button", Name: "Delete", Box: Box{X: 120, Y: 600, W: 80, H: 30}},
}

func TestContradicts(t *testing.T) {
	tests := []struct {
		desc   string
		action plan.Action
		pick   int
		says   string // "" when the pick holds
	}{
		{`the "Project actions" button in the row "Q4-bugs"`, plan.Click, 2, ""},
		{`the "Project actions" button in the row "Q4-bugs"`, plan.Click, 1, `the step names the row "Q4-bugs"`},
		{`the "Q4-bugs" button`, plan.Click, 3, "the step names a button"},
		{`the "Create" button in the "New project" dialog`, plan.Click, 6, ""},
		{`the "Create" button in the "New project" dialog`, plan.Click, 0, "the step names the dialog"},
		{`the "Archive" button`, plan.Click, 0, `the step names "Archive"`},
		{`the button to start a new project`, plan.Click, 0, ""}, // a paraphrase: no quoted name to hold it to
		{`the "Start new project" button`, plan.Click, 0, ""},    // quoted, with words in common
		{`the "Project name" field`, plan.Type, 4, ""},
		{`the "Project name" field`, plan.Type, 6, "the step names a field"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got := Contradicts(plan.ParseTarget(tt.desc), tt.action, rows[tt.pick])
			if (tt.says == "") != (got == "") || !strings.Contains(got, tt.says) {
				t.Fatalf("%s: got %q, want %q", rows[tt.pick].Describe(), got, tt.says)
			}
		})
	}
}

func TestContradictsAmong(t *testing.T) {
	tests := []struct {
		desc string
		pick int
		says string
		hold []int
	}{
		{`the second "Delete" button`, 8, "", []int{8}},
		{`the second "Delete" button`, 7, "the step names the 2nd", []int{8}},
		{`the "Project actions" button`, 0, "found 2 elements that match every part", []int{1, 2}}, // "project" in common
		{`the "Archive" button`, 0, `the step names "Archive"`, nil},
		{`the "Project actions" button in the row "Q4-bugs"`, 1, `the row "Q4-bugs"`, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			target := plan.ParseTarget(tt.desc)
			got := ContradictsAmong(target, plan.Click, rows[tt.pick], rows)
			if (tt.says == "") != (got == "") || !strings.Contains(got, tt.says) {
				t.Fatalf("got %q, want %q", got, tt.says)
			}
			var idx []int
			for _, e := range Holding(target, plan.Click, rows) {
				idx = append(idx, e.Index)
			}
			if len(idx) != len(tt.hold) || (len(idx) > 0 && idx[0] != tt.hold[0]) {
				t.Errorf("holding %v, want %v", idx, tt.hold)
			}
		})
	}
}

func TestAt(t *testing.T) {
	o := Observation{Elements: rows, ScrollY: 100}
	if e, ok := o.At(910, 45); !ok || e.Index != 2 {
		t.Fatalf("the point (910, 45) scrolled 100 down is on #2, got %v %v", e.Ref(), ok)
	}
	if _, ok := o.At(5, 5); ok {
		t.Fatal("no element is at (5, 5)")
	}
}
