// Package plan is the agent's data model of a plan: steps in the rich action schema of the
// core spec, extended with the actions a real page needs, and the evaluator's feedback on a
// failed attempt. It has no I/O, so the workflow, the activities and the starter share it.
package plan

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Action is what a step does.
type Action string

// The actions a step can take.
const (
	Click    Action = "CLICK"
	Type     Action = "TYPE"
	Select   Action = "SELECT"
	Navigate Action = "NAVIGATE"
	Press    Action = "PRESS"
	Check    Action = "CHECK"
	Scroll   Action = "SCROLL"
	Wait     Action = "WAIT"
	Assert   Action = "ASSERT"
	Extract  Action = "EXTRACT"
	Hover    Action = "HOVER"
	// DoubleClick, RightClick and Clear are what people write for editing in place,
	// context menus and emptying a field.
	DoubleClick Action = "DOUBLE_CLICK"
	RightClick  Action = "RIGHT_CLICK"
	Clear       Action = "CLEAR"
	// Drag drags an element onto another (Value describes where it goes), or a slider to
	// a value.
	Drag Action = "DRAG"
	// Upload gives a file input (or the button that opens the file chooser) one of the
	// files the run was given, by its name (Value).
	Upload Action = "UPLOAD"
	// SelectText selects the whole text of an element (a paragraph, a field), as a person
	// highlights it with the mouse.
	SelectText Action = "SELECT_TEXT"
	// Append types its value after what a text field holds (a text area's new last line),
	// where TYPE replaces it. An action of its own, so that a worker that does not know it
	// refuses the step instead of typing over the field.
	Append Action = "APPEND"
)

// Actions lists every action, in the order documentation shows them.
var Actions = []Action{Click, Type, Select, Navigate, Press, Check, Scroll, Wait, Assert, Extract, Hover, DoubleClick, RightClick, Clear, Drag, Upload, SelectText, Append}

// SemanticRole says what a step means to the goal, for the evaluator and the replanner.
type SemanticRole string

// The semantic roles of the core spec.
const (
	PrimaryAction SemanticRole = "primary_action"
	Navigation    SemanticRole = "navigation"
	Confirmation  SemanticRole = "confirmation"
	FormField     SemanticRole = "form_field"
)

// Step is one step of a plan.
type Step struct {
	// Step is the 1-based position in the plan as first written.
	Step   int    `json:"step"`
	Action Action `json:"action"`
	// TargetDescription describes the element as a person sees it ("the 'New project'
	// button"), never as a selector.
	TargetDescription string `json:"target_description,omitempty"`
	// Target is the description read once into its parts (kind, name, ordinal, row,
	// container, position): what the resolver, the reveal, the reads and the checks go
	// by. WithTargets fills it; Parts reads it.
	Target *Target `json:"target,omitempty"`
	// Value is the text the step enters or looks for: what a TYPE types, the option a
	// SELECT chooses, the text an ASSERT looks for, the words a SELECT_TEXT selects. Every
	// other operand has a field of its own, typed.
	Value string `json:"value,omitempty"`
	// URL is the address a NAVIGATE opens, or back, forward or reload.
	URL string `json:"url,omitempty"`
	// Key is the key a PRESS presses ("Enter", "Control+A").
	Key string `json:"key,omitempty"`
	// Scroll is where a SCROLL goes: down, up, top or bottom.
	Scroll string `json:"scroll,omitempty"`
	// Wait is how long a WAIT waits for time alone.
	Wait time.Duration `json:"wait,omitempty"`
	// Uncheck makes a CHECK clear its box rather than tick it.
	Uncheck bool `json:"uncheck,omitempty"`
	// Into is the name an EXTRACT stores what it read under, for the steps after it.
	Into string `json:"into,omitempty"`
	// File is the name of the file, one the run was given, that an UPLOAD gives.
	File string `json:"file,omitempty"`
	// Move is where a DRAG moves its element when it drops it on nothing: a direction, a
	// place in its list, a size, or a sort of the whole list.
	Move *Move `json:"move,omitempty"`
	// To is what a DRAG drops its element on (a description, as TargetDescription is),
	// or the number it sets a slider to.
	To string `json:"to,omitempty"`
	// Condition makes a CLICK wait until a number the page shows meets a bound ("the
	// price < 47.10") and click in the moment it does, or a WAIT wait for that alone.
	Condition *Condition `json:"condition,omitempty"`
	// Negated turns an ASSERT into "the text is not visible".
	Negated         bool         `json:"negated,omitempty"`
	SemanticRole    SemanticRole `json:"semantic_role,omitempty"`
	RequiredState   string       `json:"required_state,omitempty"`
	ExpectedOutcome string       `json:"expected_outcome,omitempty"`
	// AcceptDialog says the step's action is expected to ask for confirmation (a
	// confirm() dialog) and that the run accepts it; otherwise such a dialog is dismissed.
	AcceptDialog bool `json:"accept_dialog,omitempty"`
	// AnswersDialog says the click answers the question the step before may have asked
	// ("click "Delete", then click "OK""): when that question was the page's own
	// confirm(), accepted there, nothing is left to click and the step is done.
	AnswersDialog bool `json:"answers_dialog,omitempty"`
	// Opens is, on a HOVER over an item of a path ("Virtual Hosts > example.org >
	// Users"), the next item's name: what pointing at the item is to bring into sight.
	// Where pointing does not, the item is a way there (a link to the page that shows it,
	// a control that opens a menu) and is followed.
	Opens string `json:"opens,omitempty"`
	// RequiresApproval makes the run wait for a person's approval (the approve Update)
	// before the step acts.
	RequiresApproval bool `json:"requires_approval,omitempty"`
	// State is the page state seen before the step when it last succeeded ("/projects#
	// dialog-new-project"): a replayed skill checks it before acting.
	State string `json:"state,omitempty"`
}

// Validate reports what is wrong with the step, in words a person can act on.
func (s Step) Validate() error {
	if !s.Action.Known() {
		return fmt.Errorf("step %d: unknown action %q (one of %v)", s.Step, s.Action, Actions)
	}
	if n := max(len(slices.MaxFunc(s.Texts(), func(a, b string) int { return len(a) - len(b) })), len(s.ExpectedOutcome)); n > MaxFieldLen {
		return fmt.Errorf("step %d: a target, value or expected outcome of %d bytes; at most %d are allowed", s.Step, n, MaxFieldLen)
	}
	if s.Action.NeedsTarget() && strings.TrimSpace(s.TargetDescription) == "" {
		return fmt.Errorf("step %d: %s needs a target_description", s.Step, s.Action)
	}
	if s.Action.Spec().Value == Required && strings.TrimSpace(s.Operand()) == "" {
		return fmt.Errorf("step %d: %s needs a value (%s)", s.Step, s.Action, s.Action.Spec().ValueMeans)
	}
	if s.Condition != nil && s.Action != Click && s.Action != Wait {
		return fmt.Errorf("step %d: only a CLICK or a WAIT can wait for a condition (when), not %s", s.Step, s.Action)
	}
	if s.Action != Wait {
		return nil
	}
	if s.Value != "" { // an operand typed() could not read as a duration
		_, err := ParseDuration(s.Value)
		return fmt.Errorf("step %d: %w", s.Step, err)
	}
	if s.Wait <= 0 && s.TargetDescription == "" && s.Condition == nil {
		return fmt.Errorf("step %d: WAIT needs a duration value, a target_description or a condition (when) to wait for", s.Step)
	}
	if s.Wait > MaxWait {
		return fmt.Errorf("step %d: a wait of %s is longer than the %s a step may wait", s.Step, s.Wait, MaxWait)
	}
	return nil
}

// Caps on what a plan may hold: each is refused up front, with the cap, rather than
// carried into a run (an hours-long WAIT, a plan that outgrows the history's payloads).
const (
	MaxWait      = time.Hour
	MaxPlanSteps = 200
	MaxFieldLen  = 2000
)

// Validate checks every step of a plan and that it is not empty.
func Validate(steps []Step) error {
	if len(steps) == 0 {
		return errors.New("the plan has no steps")
	}
	if len(steps) > MaxPlanSteps {
		return fmt.Errorf("the plan has %d steps; at most %d are allowed", len(steps), MaxPlanSteps)
	}
	var errs []error
	for _, s := range steps {
		errs = append(errs, s.Validate())
	}
	return errors.Join(errs...)
}

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}`)

// Placeholders returns the names of the {{name}} parameters the steps refer to, sorted.
func Placeholders(steps []Step) []string {
	var names []string
	for _, s := range steps {
		for _, f := range s.Texts() {
			for _, m := range placeholder.FindAllStringSubmatch(f, -1) {
				names = append(names, m[1])
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// CheckParams reports the {{name}} placeholders that params does not define and no
// earlier EXTRACT step reads (an EXTRACT's value names what it read, for the steps after it).
func CheckParams(steps []Step, params map[string]string) error {
	var missing []string
	read := map[string]bool{}
	for _, s := range steps {
		for _, n := range Placeholders([]Step{s}) {
			if _, ok := params[n]; !ok && !read[n] && !slices.Contains(missing, n) {
				missing = append(missing, n)
			}
		}
		if s.Action == Extract && s.Into != "" {
			read[s.Into] = true
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		return fmt.Errorf("the plan uses parameters that were not given: %s (pass --param name=value)", strings.Join(missing, ", "))
	}
	return nil
}

// Bind returns the step with its {{name}} placeholders replaced by params. Binding happens
// in the activity that acts, so parameter values never have to be written into the plan.
func (s Step) Bind(params map[string]string) Step {
	sub := func(v string) string {
		return placeholder.ReplaceAllStringFunc(v, func(m string) string {
			name := placeholder.FindStringSubmatch(m)[1]
			if val, ok := params[name]; ok {
				return val
			}
			return m
		})
	}
	s = s.MapTexts(sub)
	if s.Target != nil {
		t := *s.Target
		t.Name, t.Row, t.Container = sub(t.Name), sub(t.Row), sub(t.Container)
		t.Starts, t.Ends = sub(t.Starts), sub(t.Ends)
		s.Target = &t
	}
	return s
}

// WithTarget returns the step with its description read into its target, unless it
// carries one already.
func (s Step) WithTarget() Step {
	if s.Target == nil && strings.TrimSpace(s.TargetDescription) != "" {
		t := ParseTarget(s.TargetDescription)
		s.Target = &t
	}
	return s
}

// WithTargets is WithTarget for every step of a plan: the one place a plan's descriptions
// are read, as its steps join a run.
func WithTargets(steps []Step) []Step {
	out := slices.Clone(steps)
	for i := range out {
		out[i] = out[i].WithTarget()
	}
	return out
}

// Parts is the step's target: the one it carries, or — for a step made before steps
// carried one (an old skill, a run in flight) — its description read now.
func (s Step) Parts() Target {
	if s.Target != nil {
		return *s.Target
	}
	return ParseTarget(s.TargetDescription)
}

// Described is the step in one line with params bound, and what is not bound yet — a
// value an earlier step reads when it runs — said in words: never a {{placeholder}}.
func (s Step) Described(params map[string]string) string {
	return placeholder.ReplaceAllString(s.Bind(params).String(), "<what was read as $1>")
}

// Renumber sets each step's number to its 1-based position after offset.
func Renumber(steps []Step, offset int) []Step {
	out := slices.Clone(steps)
	for i := range out {
		out[i].Step = offset + i + 1
	}
	return out
}

// IsHistoryMove reports a NAVIGATE value that moves in the history rather than to an
// address: back, forward, reload.
func IsHistoryMove(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "back", "forward", "reload":
		return true
	}
	return false
}

// Describe is steps as people read them, with their parameters bound, joined by "; ".
func Describe(steps []Step, params map[string]string) string {
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = s.Bind(params).String()
	}
	return strings.Join(parts, "; ")
}
