// Package noise is the noisy-model harness: scenarios on the demo app whose goals only
// a model can plan, a truthful stand-in for every role of the model (an oracle that
// reads each prompt and answers it correctly), a wrapper that perturbs the oracle's
// answers with a seeded random source, one kind of perturbation per way a real model
// errs, and the measurement of what came of each run against the app's own state: a
// false success, an effect done twice, a retry on an element found wrong before, and
// whether the run counted the model calls and tokens the stand-in served.
//
// It runs at two levels: the workflow in Temporal's test suite over a simulated demo
// app (Sim, hundreds of seeds in seconds), and end to end on the real stack (the e2e
// package's noise tests). docs/noise.md describes it.
package noise

import (
	"fmt"
	"slices"
	"strings"

	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/plan"
)

// Scenario is one goal on the demo app, with the plan a careful person would follow,
// what each of its targets is, and the ground truth: whether the app's state says the
// goal was reached and nothing else changed.
type Scenario struct {
	Name string
	Goal string
	// Seed are the app's projects when the run starts.
	Seed []demoapp.Project
	// Project is the project the goal is about ("" for none yet).
	Project string
	// Plan is the correct plan, as the planner answers it.
	Plan []Step
	// Targets are the elements the correct plan acts on: an attempt that acts on one of
	// them is on the right element (the evaluator's truth).
	Targets []Want
	// Want is the app's state the goal asks for; Read, for a goal that reads a value, the
	// value it must read (under Into).
	Want func(seed []demoapp.Project) []demoapp.Project
	Read string
	Into string
	// Rest is the correct rest of the plan from the page as it is: what a truthful
	// replanner answers (strategy and steps).
	Rest func(p Page, st demoapp.State) (string, []Step)
	// ComputerUse runs the scenario with the computer-use tool on: the CLICK and TYPE
	// steps DOM-first resolution leaves to the model are decided by the tool, a point on
	// the screenshot, not an element number.
	ComputerUse bool
}

// Want is an element as the oracle knows it: its role, its name, the project whose row
// it is in ("" for none) and its container's first word ("menu", "dialog", "").
type Want struct {
	Role, Name, Row, Container string
}

// Step is a plan step as the model writes it.
type Step struct {
	Action  plan.Action
	Target  string
	Value   string
	Outcome string
}

// JSON is the step as the planner's JSON answer has it.
func (s Step) JSON() map[string]any {
	m := map[string]any{"action": string(s.Action), "target_description": s.Target, "expected_outcome": s.Outcome}
	if s.Value != "" {
		m["value"] = s.Value
	}
	return m
}

func stepsJSON(steps []Step) []any {
	out := make([]any, len(steps))
	for i, s := range steps {
		out[i] = s.JSON()
	}
	return out
}

// Check says what is wrong with the app's state st after a run of the scenario that
// read extracted: "" when the goal was reached and nothing else changed.
func (sc Scenario) Check(st demoapp.State, extracted map[string]any) string {
	want := sc.Want(slices.Clone(sc.Seed))
	if d := diff(want, st.Projects); d != "" {
		return d
	}
	if sc.Read != "" {
		got, _ := extracted[sc.Into].(string)
		if got != sc.Read {
			return fmt.Sprintf("read %q as %s, the app says %q", got, sc.Into, sc.Read)
		}
	}
	return ""
}

// Unwanted says what changed in the app that the goal did not ask for ("" when
// nothing): another project archived, renamed or created, or the goal's own project
// changed otherwise than asked.
func (sc Scenario) Unwanted(st demoapp.State) string {
	want := sc.Want(slices.Clone(sc.Seed))
	var extra []string
	for _, p := range st.Projects {
		if !slices.Contains(want, p) && !slices.Contains(sc.Seed, p) {
			extra = append(extra, fmt.Sprintf("unexpected %+v", p))
		}
	}
	for _, p := range sc.Seed {
		if p.Name != sc.Project && !slices.Contains(st.Projects, p) {
			extra = append(extra, "changed "+p.Name)
		}
	}
	return strings.Join(extra, "; ")
}

func diff(want, got []demoapp.Project) string {
	var out []string
	for _, p := range want {
		if !slices.Contains(got, p) {
			out = append(out, fmt.Sprintf("missing %+v", p))
		}
	}
	for _, p := range got {
		if !slices.Contains(want, p) {
			out = append(out, fmt.Sprintf("unexpected %+v", p))
		}
	}
	return strings.Join(out, "; ")
}

var seed = []demoapp.Project{
	{Name: "Website relaunch", Priority: "High"},
	{Name: "Q4-bugs", Priority: "Medium"},
	{Name: "Q4-bugs-old", Priority: "Low", Private: true},
}

func actions(row string) string {
	return fmt.Sprintf(`the "Project actions" button in the row %q`, row)
}

// Scenarios are the harness's goals. None is an explicit goal the offline reader can
// plan: each takes the model's path.
func Scenarios() []Scenario {
	return []Scenario{archiveScenario(), renameScenario(), createScenario(), extractScenario()}
}

// archiveScenario archives a project from its row's menu, beside rows of like names.
func archiveScenario() Scenario {
	archive := Scenario{
		Name: "archive", Goal: `Archive the project "Q4-bugs"`, Seed: seed, Project: "Q4-bugs",
		Plan: []Step{
			{plan.Click, actions("Q4-bugs"), "", "the row's menu opens"},
			{plan.Click, `the "Archive" item in the menu`, "", "Q4-bugs is archived"},
			{plan.Assert, "", "Project archived", "the toast confirms it"},
		},
		Targets: []Want{{"button", "Project actions", "Q4-bugs", ""}, {"menuitem", "Archive", "", "menu"}},
		Want: func(ps []demoapp.Project) []demoapp.Project {
			ps[1].Archived = true
			return ps
		},
	}
	archive.Rest = func(p Page, st demoapp.State) (string, []Step) {
		if projectIs(st, "Q4-bugs", func(q demoapp.Project) bool { return q.Archived }) {
			return "skip_step", nil
		}
		return "add_preparation_steps", fresh(p, archive.Plan)
	}
	return archive
}

// renameScenario renames a project through its row's menu and a dialog.
func renameScenario() Scenario {
	rename := Scenario{
		Name: "rename", Goal: `Rename the project "Website relaunch" to "Website 2027"`, Seed: seed, Project: "Website relaunch",
		Plan: []Step{
			{plan.Click, actions("Website relaunch"), "", "the row's menu opens"},
			{plan.Click, `the "Rename" item in the menu`, "", "the rename dialog opens"},
			{plan.Type, `the "New name" field`, "Website 2027", "the field holds the new name"},
			{plan.Click, `the "Save" button in the dialog`, "", "the project is renamed"},
			{plan.Assert, "", "Website 2027", "the new name is listed"},
		},
		Targets: []Want{{"button", "Project actions", "Website relaunch", ""}, {"menuitem", "Rename", "", "menu"},
			{"textbox", "New name", "", "dialog"}, {"button", "Save", "", "dialog"}},
		Want: func(ps []demoapp.Project) []demoapp.Project {
			ps[0].Name = "Website 2027"
			return ps
		},
	}
	rename.Rest = func(p Page, st demoapp.State) (string, []Step) {
		if projectIs(st, "Website 2027", func(demoapp.Project) bool { return true }) {
			return "skip_step", nil
		}
		if e, ok := p.Find(Want{Role: "textbox", Name: "New name"}); ok && e.Value == "Website relaunch" {
			return "retry_differently", rename.Plan[2:]
		}
		return "add_preparation_steps", fresh(p, rename.Plan)
	}
	return rename
}

// createScenario fills the new project dialog: a text field and a select.
func createScenario() Scenario {
	create := Scenario{
		Name: "create", Goal: `Add a new high-priority project called "Apollo"`, Seed: seed, Project: "Apollo",
		Plan: []Step{
			{plan.Click, `the "New project" button`, "", "the new project dialog opens"},
			{plan.Type, `the "Project name" field`, "Apollo", "the field holds Apollo"},
			{plan.Select, `the "Priority" dropdown`, "High", "High is selected"},
			{plan.Click, `the "Create" button in the dialog`, "", "the project is created"},
			{plan.Assert, "", "Apollo", "Apollo is listed"},
		},
		Targets: []Want{{"button", "New project", "", ""}, {"textbox", "Project name", "", "dialog"},
			{"combobox", "Priority", "", "dialog"}, {"button", "Create", "", "dialog"}},
		Want: func(ps []demoapp.Project) []demoapp.Project {
			return append(ps, demoapp.Project{Name: "Apollo", Priority: "High"})
		},
	}
	create.Rest = func(p Page, st demoapp.State) (string, []Step) {
		if projectIs(st, "Apollo", func(demoapp.Project) bool { return true }) {
			return "skip_step", nil
		}
		if p.Has(Want{Role: "textbox", Name: "Project name"}) {
			return "retry_differently", create.Plan[1:]
		}
		return "add_preparation_steps", fresh(p, create.Plan)
	}
	return create
}

// extractScenario reads a value off the page.
func extractScenario() Scenario {
	read := Scenario{
		Name: "extract", Goal: `What is the priority of the project "Q4-bugs"?`, Seed: seed, Project: "Q4-bugs",
		Plan: []Step{
			{plan.Extract, `the priority in the row "Q4-bugs"`, "priority", "the priority is read"},
		},
		Want: func(ps []demoapp.Project) []demoapp.Project { return ps },
		Read: "Medium", Into: "priority",
	}
	read.Rest = func(Page, demoapp.State) (string, []Step) { return "retry_differently", read.Plan }
	return read
}

// ComputerUseScenarios are the scenarios that click or type, run with the computer-use
// tool on ("archive (computer use)", ...). Only the workflow level runs them.
func ComputerUseScenarios() []Scenario {
	var out []Scenario
	for _, sc := range Scenarios() {
		if slices.ContainsFunc(sc.Plan, func(s Step) bool { return s.Action == plan.Click || s.Action == plan.Type }) {
			sc.Name += " (computer use)"
			sc.ComputerUse = true
			out = append(out, sc)
		}
	}
	return out
}

// escape closes whatever menu or dialog is open.
var escape = Step{plan.Press, "", "Escape", "no menu or dialog is open"}

// fresh is plan from a page with nothing open: the page as it is when a menu or a
// dialog is open, after Escape closed it.
func fresh(p Page, steps []Step) []Step {
	if p.Overlaid() {
		return append([]Step{escape}, steps...)
	}
	return steps
}

func clone(ps []demoapp.Project) []demoapp.Project { return slices.Clone(ps) }

func projectIs(st demoapp.State, name string, f func(demoapp.Project) bool) bool {
	for _, p := range st.Projects {
		if p.Name == name && f(p) {
			return true
		}
	}
	return false
}
