package noise

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/geminitest"
	"github.com/webagent-dev/webagent/plan"
)

// Oracle answers every role of the model truthfully for one run of a scenario, by
// reading the prompt and, where a model would look at the screenshot, the app's state.
type Oracle struct {
	Sc Scenario
	// State is the app's state now.
	State func() demoapp.State
	// Acted, when set, is the element the run's last attempt acted on, as the browser
	// saw it: what the evaluator sees in the screenshots (a menu open under another row
	// than the step names). Without it the evaluator takes the decider's answer, or the
	// row the step's description names.
	Acted func() (Ref, bool)
	// Screen, when set, is the page as the computer-use tool sees it now: the tool's
	// prompt carries no element list.
	Screen func() Screen

	mu  sync.Mutex
	rec *Record
}

// NewOracle is the truthful model of one run of sc on an app whose state state reads.
func NewOracle(sc Scenario, state func() demoapp.State) *Oracle {
	return &Oracle{Sc: sc, State: state}
}

// Follow has the oracle read what the model really answered (the noisy answers) from
// rec: the evaluator judges the element the decider really chose.
func (o *Oracle) Follow(rec *Record) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.rec = rec
}

// Script is the oracle as the stand-in's script.
func (o *Oracle) Script(c geminitest.Call, n int) geminitest.Reply {
	switch c.Role {
	case "planner":
		return geminitest.Reply{JSON: map[string]any{"reasoning": "the plan a careful person follows", "steps": stepsJSON(o.Sc.Plan)}}
	case "decider":
		return o.decide(c.Prompt)
	case "computer_use":
		return o.computerUse(c.Prompt)
	case "evaluator":
		return o.evaluate(c.Prompt)
	case "validator":
		return o.judge(c.Prompt)
	case "replanner":
		strategy, steps := o.Sc.Rest(ParsePage(c.Prompt), o.State())
		return geminitest.Reply{JSON: map[string]any{"strategy": strategy, "reasoning": "from the page as it is now", "steps": stepsJSON(steps)}}
	case "extractor":
		return geminitest.Reply{JSON: map[string]any{"value": o.priority()}}
	case "summarizer":
		return geminitest.Reply{JSON: map[string]any{"brief": "Done: " + o.Sc.Goal, "detailed": "The agent ran the plan.", "highlights": []string{}, "warnings": []string{}}}
	}
	return geminitest.Reply{Status: http.StatusBadRequest, Message: "the oracle has no answer for role " + c.Role}
}

func (o *Oracle) priority() string {
	for _, p := range o.State().Projects {
		if p.Name == o.Sc.Project {
			return p.Priority
		}
	}
	return ""
}

// wantOf is the element a target description names: its name, the project whose row it
// is in, and the first word of its container.
func wantOf(desc string) Want {
	t := plan.ParseTarget(desc)
	w := Want{Name: t.Name, Row: t.Row}
	if t.Container != "" {
		w.Container = strings.Fields(t.Container)[0]
	}
	return w
}

// pick is the element of the page the step's target names, the goal's project's row
// preferred where the description leaves the row open; false when none or several.
func (o *Oracle) pick(p Page, desc string) (Elem, bool) {
	w := wantOf(desc)
	var found []Elem
	for _, e := range p.Elems {
		if strings.EqualFold(e.Name, w.Name) && (w.Row == "" || rowIs(e.Row, w.Row)) && (w.Container == "" || e.Container == w.Container) {
			found = append(found, e)
		}
	}
	if len(found) > 1 {
		var mine []Elem
		for _, e := range found {
			if rowIs(e.Row, o.Sc.Project) {
				mine = append(mine, e)
			}
		}
		found = mine
	}
	if len(found) != 1 {
		return Elem{}, false
	}
	return found[0], true
}

func (o *Oracle) decide(prompt string) geminitest.Reply {
	st := readStep(prompt)
	p := ParsePage(prompt)
	if e, ok := o.pick(p, st.Target); ok {
		return geminitest.Reply{JSON: map[string]any{"action": "element", "element": e.Index, "confidence": 0.95,
			"reason": fmt.Sprintf("element %d is %s %q%s", e.Index, e.Role, e.Name, inRow(e.Row))}}
	}
	sugg := "bring the page into the state the step needs first"
	if w := wantOf(st.Target); w.Container == "menu" {
		sugg = fmt.Sprintf("open the \"Project actions\" menu in the row %q first", o.Sc.Project)
	}
	return geminitest.Reply{JSON: map[string]any{"action": "fail", "confidence": 0.9,
		"reason": fmt.Sprintf("no element is %s", st.Target), "visible_alternatives": []string{}, "suggestion": sugg}}
}

func inRow(row string) string {
	if row == "" {
		return ""
	}
	return fmt.Sprintf(" in the row %q", row)
}

var actedRef = regexp.MustCompile(`#(\d+) (\S+) "((?:[^"\\]|\\.)*)"`)

// acted is the element an evaluated attempt acted on: its role and name from what the
// agent did, its row from the decider's answer when the model chose it, or else from the
// step's description (DOM-first resolution kept to the row it names).
func (o *Oracle) acted(prompt string, st promptStep) (Elem, bool) {
	did := field(prompt, "What the agent did")
	m := actedRef.FindStringSubmatch(did)
	if m == nil {
		// A point acted on ("clicked at (989, 322)"): what is under it is what the
		// screenshots show.
		if o.Acted != nil && strings.Contains(did, " at (") {
			if r, ok := o.Acted(); ok {
				return Elem{Role: r.Role, Name: r.Name, Row: r.Row, Container: r.Container}, true
			}
		}
		return Elem{}, false
	}
	e := Elem{Role: m[2], Name: unquote(m[3]), Row: wantOf(st.Target).Row}
	if o.Acted != nil {
		if r, ok := o.Acted(); ok && r.Role == e.Role && r.Name == e.Name {
			e.Row, e.Container = r.Row, r.Container
			return e, true
		}
	}
	if strings.Contains(did, "the model chose") {
		if d, ok := o.lastDecided(st.Target); ok && d.Role == e.Role && d.Name == e.Name {
			e.Row, e.Container = d.Row, d.Container
		}
	}
	return e, true
}

// lastDecided is the element the decider last really answered for a step with this
// target.
func (o *Oracle) lastDecided(target string) (Elem, bool) {
	o.mu.Lock()
	rec := o.rec
	o.mu.Unlock()
	if rec == nil {
		return Elem{}, false
	}
	for _, a := range rec.answers("decider") {
		if readStep(a.Prompt).Target != target {
			continue
		}
		var d struct {
			Action  string `json:"action"`
			Element *int   `json:"element"`
		}
		if json.Unmarshal([]byte(a.Text), &d) != nil || d.Action != "element" || d.Element == nil {
			continue
		}
		for _, e := range ParsePage(a.Prompt).Elems {
			if e.Index == *d.Element {
				return e, true
			}
		}
	}
	return Elem{}, false
}

// right says whether the element is one the correct plan acts on.
func (o *Oracle) right(e Elem) bool {
	for _, w := range o.Sc.Targets {
		if e.Role == w.Role && e.Name == w.Name && (w.Row == "" || rowIs(e.Row, w.Row)) {
			return true
		}
	}
	return false
}

func (o *Oracle) evaluate(prompt string) geminitest.Reply {
	st := readStep(prompt)
	checks := !strings.Contains(prompt, "Deterministic checks: failed")
	e, ok := o.acted(prompt, st)
	switch {
	case !ok:
		return verdict(false, "page_state", "the attempt acted on nothing the list names", "act on the element the step names")
	case !o.right(e):
		return verdict(false, "wrong_element", fmt.Sprintf("it acted on %s %q%s, which is not what the goal needs", e.Role, e.Name, inRow(e.Row)),
			"act on the element the step names, in the goal's row")
	}
	if bad := o.Sc.Unwanted(o.State()); bad != "" {
		return verdict(false, "wrong_element", "the app changed in a way the goal does not ask: "+bad, "")
	}
	if !checks {
		return verdict(false, "page_state", fmt.Sprintf("%s %q was right, but the page did not show the step's effect", e.Role, e.Name), "try again once the page is ready")
	}
	return geminitest.Reply{JSON: map[string]any{"success": true, "confidence": 0.9, "reasoning": fmt.Sprintf("%s %q%s was the right element and the page shows the effect", e.Role, e.Name, inRow(e.Row))}}
}

func verdict(success bool, kind, details, suggestion string) geminitest.Reply {
	return geminitest.Reply{JSON: map[string]any{"success": success, "confidence": 0.9, "reasoning": details,
		"feedback": map[string]any{"type": kind, "details": details, "suggestion": suggestion}}}
}

var readAction = regexp.MustCompile(`read (\{[^\n]*?\})`)

// judge says the goal is reached when the app's state says so (and, for a goal that
// reads a value, the value the steps read is the app's).
func (o *Oracle) judge(prompt string) geminitest.Reply {
	read := map[string]any{}
	for _, m := range readAction.FindAllStringSubmatch(prompt, -1) {
		_ = json.Unmarshal([]byte(m[1]), &read)
	}
	miss := o.Sc.Check(o.State(), read)
	if len(read) == 0 {
		// The judge is not shown what the steps read: it judges the app's state.
		miss = diff(o.Sc.Want(clone(o.Sc.Seed)), o.State().Projects)
	}
	if miss != "" {
		return geminitest.Reply{JSON: map[string]any{"success": false, "confidence": 0.9, "reason": "not reached: " + miss}}
	}
	return geminitest.Reply{JSON: map[string]any{"success": true, "confidence": 0.9, "reason": "the app shows the goal reached"}}
}
