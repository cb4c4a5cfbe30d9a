package skills

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/webagent-dev/webagent/plan"
)

func TestTemplate(t *testing.T) {
	tests := []struct {
		goal, template string
		slots          []Slot
	}{
		{`Create a project named "Apollo" with priority High`, `Create a project named {{name}} with priority {{priority}}`,
			[]Slot{{"name", "Apollo"}, {"priority", "High"}}},
		{`Create a project named "Zeus" with priority Low`, `Create a project named {{name}} with priority {{priority}}`,
			[]Slot{{"name", "Zeus"}, {"priority", "Low"}}},
		{`Archive the project "Q4-bugs"`, `Archive the project {{project}}`, []Slot{{"project", "Q4-bugs"}}},
		{`Archive the Q4-bugs project`, `Archive the {{number}} project`, []Slot{{"number", "Q4-bugs"}}},
		{`Invite ada@example.com to Acme Corp by 2026-12-01`, `Invite {{email}} to {{name}} by {{date}}`,
			[]Slot{{"email", "ada@example.com"}, {"name", "Acme Corp"}, {"date", "2026-12-01"}}},
		{`Click "New project", type "Apollo" into "Project name"`, `Click {{value}}, type {{value_2}} into {{value_3}}`,
			[]Slot{{"value", "New project"}, {"value_2", "Apollo"}, {"value_3", "Project name"}}},
		{`Open https://example.com/x and set the budget to 1200`, `Open {{url}} and set the budget to {{budget}}`,
			[]Slot{{"url", "https://example.com/x"}, {"budget", "1200"}}},
		{`Show me the archived projects`, `Show me the archived projects`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.goal, func(t *testing.T) {
			tmpl, slots := Template(tt.goal)
			if tmpl != tt.template || !reflect.DeepEqual(slots, tt.slots) {
				t.Errorf("Template(%q)\n got %q %v\nwant %q %v", tt.goal, tmpl, slots, tt.template, tt.slots)
			}
		})
	}
}

func TestParameterizeAndLeaks(t *testing.T) {
	steps := []plan.Step{
		{Action: plan.Click, TargetDescription: `the "New project" button`},
		{Action: plan.Type, TargetDescription: "Project name", Value: "Zeus"},
		{Action: plan.Select, TargetDescription: "Priority", Value: "Low"},
		{Action: plan.Assert, Value: "Zeus"},
		{Action: plan.Click, TargetDescription: "Lowercase toggle"}, // "Low" inside a word stays
	}
	slots := []Slot{{"name", "Zeus"}, {"priority", "Low"}}
	got := Parameterize(steps, slots)
	if got[1].Value != "{{name}}" || got[2].Value != "{{priority}}" || got[3].Value != "{{name}}" || got[4].TargetDescription != "Lowercase toggle" {
		t.Fatalf("Parameterize: %+v", got)
	}
	now := map[string]string{"name": "Apollo", "priority": "High"}
	old := map[string]string{"name": "Zeus", "priority": "Low"}
	var bound []plan.Step
	for _, s := range got {
		bound = append(bound, s.Bind(now))
	}
	if leaks := Leaks(bound, old, now); len(leaks) != 0 {
		t.Fatalf("no old value should remain: %v", leaks)
	}
	// A plan that kept an old value in a place the slots did not reach.
	bound = append(bound, plan.Step{Action: plan.Assert, Value: "Zeus created"})
	if leaks := Leaks(bound, old, now); !reflect.DeepEqual(leaks, []string{"Zeus"}) {
		t.Fatalf("Leaks = %v, want [Zeus]", leaks)
	}
}

// A one-letter value is a slot where it is a whole field, and is never replayed.
func TestOneLetterValues(t *testing.T) {
	steps := []plan.Step{
		{Action: plan.Type, TargetDescription: "a field", Value: "x"},
		{Action: plan.Click, TargetDescription: "x"},
		{Action: plan.Assert, Value: "x marks the spot"},
	}
	got := Parameterize(steps, []Slot{{"value", "x"}})
	if got[0].Value != "{{value}}" || got[1].TargetDescription != "{{value}}" || got[0].TargetDescription != "a field" || got[2].Value != "x marks the spot" {
		t.Fatalf("Parameterize: %+v", got)
	}
	old, now := map[string]string{"value": "x"}, map[string]string{"value": "y"}
	// A plan learned before one-letter values were slots still holds the old one.
	if leaks := Leaks(steps, old, now); !reflect.DeepEqual(leaks, []string{"x"}) {
		t.Fatalf("Leaks = %v, want [x]", leaks)
	}
	if unbound := Unbound(steps, old, now); !reflect.DeepEqual(unbound, []string{"value"}) {
		t.Fatalf("Unbound = %v, want [value]: the plan never uses {{value}}", unbound)
	}
	if unbound := Unbound(got, old, now); len(unbound) != 0 {
		t.Fatalf("Unbound = %v for a plan that uses every slot", unbound)
	}
}

// A value the goal names twice is one slot, so a new value binds into both places; a goal
// with two different values there has other slots.
func TestTemplateRepeatedValue(t *testing.T) {
	const goal = `Click "New project", type %q into "Project name", select "High" from "Priority", click "Create", then check that %q is visible`
	want := `Click {{value}}, type {{value_2}} into {{value_3}}, select {{value_4}} from {{value_5}}, click {{value_6}}, then check that {{value_2}} is visible`
	apollo, slots := Template(fmt.Sprintf(goal, "Apollo", "Apollo"))
	if apollo != want || len(slots) != 6 || slots[1] != (Slot{"value_2", "Apollo"}) {
		t.Fatalf("Template: %q %v", apollo, slots)
	}
	if zeus, _ := Template(fmt.Sprintf(goal, "Zeus", "zeus")); zeus != want {
		t.Errorf("the same goal with another name (in any case) should have the same template: %q", zeus)
	}
	if two, slots := Template(fmt.Sprintf(goal, "Zeus", "Hera")); two == want || len(slots) != 7 {
		t.Errorf("two different values are two slots: %q %v", two, slots)
	}
}
