package plan

import (
	"fmt"
	"strings"
)

// Need says whether a step's field must, may or must not be given.
type Need int

// The needs of a field.
const (
	None Need = iota
	Optional
	Required
)

// CheckKind is how the browser checks that a step did what it should.
type CheckKind int

// The checks.
const (
	// CheckNothing: the action succeeding is its own evidence (a key press, a wait).
	CheckNothing CheckKind = iota
	// CheckPageChanged: the page changed (its controls, URL or more than 2% of its pixels).
	CheckPageChanged
	// CheckFieldValue: the field holds the value typed or selected.
	CheckFieldValue
	// CheckCheckedState: the box is checked, or unchecked.
	CheckCheckedState
	// CheckAddress: the page is another one (a reload excepted).
	CheckAddress
	// CheckScrolled: the page scrolled, or was already at its end.
	CheckScrolled
	// CheckText: the asserted text is (or is not) on the page.
	CheckText
	// CheckRead: the element's text or value was read.
	CheckRead
)

// Spec is everything the planner, the browser, the workflow and the output know about
// one action, in one place: a new action is one entry here and its handler in the
// browser.
type Spec struct {
	// Target says whether the step names an element.
	Target Need
	// Value says whether the step needs a value; ValueMeans says what it is.
	Value      Need
	ValueMeans string
	// Acts: the action changes the page. The browser settles after it, and after a lost
	// browser a completed step that acts and sent no state-changing request is replayed
	// to rebuild the page's state (a dialog, a half-filled form).
	Acts bool
	// VisibleEffectOnly: the only evidence the action worked is that the page changed, so
	// the browser waits a little for a late change, and a model, when there is one,
	// judges the change.
	VisibleEffectOnly bool
	// Progress: completing the step is progress towards the goal, not only looking or
	// waiting.
	Progress bool
	// MaySubmit: the action alone can make the page send a state-changing request (a
	// click on a submit button, a select or a checkbox that saves, Enter in a form). An
	// attempt of such a step that may have acted is never repeated without evidence.
	MaySubmit bool
	// Check is how the browser checks it.
	Check CheckKind
	// describe writes the step in one line.
	describe func(Step) string
}

func q(v string) string { return fmt.Sprintf("%q", v) }

var specs = map[Action]Spec{
	Click: {Target: Required, Acts: true, VisibleEffectOnly: true, Progress: true, MaySubmit: true, Check: CheckPageChanged,
		describe: func(s Step) string { return "click " + q(s.TargetDescription) }},
	Type: {Target: Required, Value: Required, ValueMeans: "the text to type", Acts: true, Progress: true, Check: CheckFieldValue,
		describe: func(s Step) string {
			if s.FillsFromTable() {
				return "fill each labelled field with its label's value in the table"
			}
			return fmt.Sprintf("type %s into %s", q(s.Value), q(s.TargetDescription))
		}},
	Append: {Target: Required, Value: Required, ValueMeans: "the text to add after what the field holds", Acts: true, Progress: true, Check: CheckFieldValue,
		describe: func(s Step) string { return fmt.Sprintf("add %s at the end of %s", q(s.Value), q(s.TargetDescription)) }},
	Select: {Target: Required, Value: Required, ValueMeans: "the option to select", Acts: true, Progress: true, MaySubmit: true, Check: CheckFieldValue,
		describe: func(s Step) string { return fmt.Sprintf("select %s from %s", q(s.Value), q(s.TargetDescription)) }},
	Navigate: {Value: Required, ValueMeans: "the URL to open, or back, forward, reload", Acts: true, Progress: true, Check: CheckAddress,
		describe: func(s Step) string { return "go to " + s.URL }},
	Press: {Target: Optional, Value: Required, ValueMeans: "the key to press", Acts: true, VisibleEffectOnly: true, Progress: true, MaySubmit: true, Check: CheckNothing,
		describe: func(s Step) string {
			if s.TargetDescription != "" {
				return fmt.Sprintf("press %s in %s", s.Key, q(s.TargetDescription))
			}
			return "press " + s.Key
		}},
	Check: {Target: Required, Value: Optional, ValueMeans: `"false" to uncheck`, Acts: true, Progress: true, MaySubmit: true, Check: CheckCheckedState,
		describe: func(s Step) string {
			if s.Uncheck {
				return "uncheck " + q(s.TargetDescription)
			}
			return "check " + q(s.TargetDescription)
		}},
	Scroll: {Target: Optional, Value: Optional, ValueMeans: "the direction: down, up, top, bottom", Acts: true, Check: CheckScrolled,
		describe: func(s Step) string {
			switch {
			case s.TargetDescription != "" && s.Scroll != "":
				return fmt.Sprintf("scroll %s to its %s", q(s.TargetDescription), s.Scroll)
			case s.TargetDescription != "":
				return "scroll to " + q(s.TargetDescription)
			}
			return "scroll " + s.Scroll
		}},
	Wait: {Target: Optional, Value: Optional, ValueMeans: "how long to wait", Check: CheckNothing,
		describe: func(s Step) string {
			if s.TargetDescription != "" {
				return "wait for " + q(s.TargetDescription)
			}
			return "wait " + s.Operand()
		}},
	Assert: {Target: Optional, Value: Required, ValueMeans: "the text that must (or, negated, must not) be visible; with a target, what that element holds or shows (a field's value, its text, or its row's)", Check: CheckText,
		describe: func(s Step) string {
			if s.TargetDescription != "" {
				return fmt.Sprintf("check that %s holds %s", q(s.TargetDescription), q(s.Value))
			}
			if s.Negated {
				return fmt.Sprintf("check that %s is not visible", q(s.Value))
			}
			return fmt.Sprintf("check that %s is visible", q(s.Value))
		}},
	// Hover moves the pointer over an element: what opens a submenu or a tooltip, without
	// a click (a click on a menu's parent item chooses it on many menus).
	Hover: {Target: Required, Acts: true, Progress: true, Check: CheckNothing,
		describe: func(s Step) string { return "hover over " + q(s.TargetDescription) }},
	// DoubleClick is what edits an item in place on many lists, or opens it; its only
	// evidence is the page's change, as for a click.
	DoubleClick: {Target: Required, Acts: true, VisibleEffectOnly: true, Progress: true, MaySubmit: true, Check: CheckPageChanged,
		describe: func(s Step) string { return "double-click " + q(s.TargetDescription) }},
	// RightClick opens the element's context menu.
	RightClick: {Target: Required, Acts: true, VisibleEffectOnly: true, Progress: true, Check: CheckPageChanged,
		describe: func(s Step) string { return "right-click " + q(s.TargetDescription) }},
	// Clear empties a field; its check is that the field holds nothing.
	Clear: {Target: Required, Acts: true, Progress: true, Check: CheckFieldValue,
		describe: func(s Step) string { return "clear " + q(s.TargetDescription) }},
	// Drag moves an element onto another, as a person drags a card to a column, or a
	// slider's handle to a value; its evidence is the page's change.
	Drag: {Target: Required, Value: Required, ValueMeans: "where it goes: the element it is dropped on, a slider's value, a direction (\"right\"), a place in its list (\"up by 1 position\", \"to position 3\") or, to resize it by its grip, \"taller\", \"shorter\", \"wider\" or \"narrower\"; or, with the target \"the list of numbers\", \"in increasing order\" or \"in decreasing order\" to sort the page's one list of numbers by dragging its items", Acts: true, VisibleEffectOnly: true, Progress: true, MaySubmit: true, Check: CheckPageChanged,
		describe: func(s Step) string {
			switch mv := s.Move; {
			case mv != nil && mv.Sort != "":
				return fmt.Sprintf("sort %s %s", s.TargetDescription, mv)
			case mv != nil && mv.Size != "":
				return fmt.Sprintf("resize %s to be %s", q(s.TargetDescription), mv)
			case mv != nil:
				return fmt.Sprintf("drag %s %s", q(s.TargetDescription), mv)
			}
			return fmt.Sprintf("drag %s onto %s", q(s.TargetDescription), q(s.To))
		}},
	// Upload's only evidence is the page's change (the chosen file's name shown, a list
	// grown); the file is one the run was given, by name.
	Upload: {Target: Required, Value: Required, ValueMeans: "the name of a file given to the run", Acts: true, VisibleEffectOnly: true, Progress: true, MaySubmit: true, Check: CheckPageChanged,
		describe: func(s Step) string { return fmt.Sprintf("upload %s into %s", q(s.File), q(s.TargetDescription)) }},
	// SelectText's check is its own: the page's selection holds the element's whole text,
	// or the words the step names, which occur in it once.
	SelectText: {Target: Required, Value: Optional, ValueMeans: "the words within the element's text to select, when not all of it", Acts: true, Progress: true, Check: CheckNothing,
		describe: func(s Step) string {
			if s.Value != "" {
				return fmt.Sprintf("select %s in %s", q(s.Value), q(s.TargetDescription))
			}
			return "select the text of " + q(s.TargetDescription)
		}},
	Extract: {Target: Required, Value: Optional, ValueMeans: "the name to store what was read under", Progress: true, Check: CheckRead,
		describe: func(s Step) string { return fmt.Sprintf("extract %s as %s", q(s.TargetDescription), q(s.Into)) }},
}

// Spec returns the action's description; an unknown action has the zero Spec.
func (a Action) Spec() Spec { return specs[a] }

// Known reports whether the action is one of Actions.
func (a Action) Known() bool { _, ok := specs[a]; return ok }

// FillsForm reports the actions that fill in a form's fields: typing, adding, choosing,
// ticking, clearing.
func (a Action) FillsForm() bool {
	return a == Type || a == Append || a == Select || a == Check || a == Clear
}

// NeedsTarget reports whether the action must act on one element of the page.
func (a Action) NeedsTarget() bool { return specs[a].Target == Required }

// String describes the step in one line, as the progress display and the output show it.
func (s Step) String() string {
	if c := s.Condition; c != nil {
		if s.Action == Wait && s.Wait == 0 && s.TargetDescription == "" {
			return "wait until " + c.Words()
		}
		s.Condition = nil
		return s.String() + " when " + c.Words()
	}
	if sp, ok := specs[s.Action]; ok {
		return sp.describe(s)
	}
	return strings.ToLower(string(s.Action)) + " " + q(s.TargetDescription)
}
