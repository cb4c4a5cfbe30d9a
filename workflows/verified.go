package workflows

import (
	"fmt"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// readBack says what the plan's closing reads found in extracted, when the steps end
// (before any closing checks) with EXTRACT steps that each completed with a value: a goal
// that asks for a value is verified by the value read. Empty when they do not end so.
func readBack(steps []StepRecord, extracted map[string]any) string {
	var read []string
	for j := len(steps) - 1; j >= 0; j-- {
		s := steps[j]
		if s.Step.Action == plan.Assert && len(read) == 0 {
			continue
		}
		if s.Step.Action != plan.Extract {
			break
		}
		key := s.Step.Into
		if key == "" {
			key = "value"
		}
		v, _ := extracted[key].(string)
		if s.Status != StepCompleted || strings.TrimSpace(v) == "" {
			return ""
		}
		read = append([]string{fmt.Sprintf("%s = %q", key, oneLine(v))}, read...)
	}
	return strings.Join(read, ", ")
}

// lastForm is what the plan's last form was given, for a goal that ends by taking it: the
// values of its run of TYPE steps (values under three letters left out), the text of the
// page before the first of them, and, when one click came between the form and the last
// (a dialog's OK, then the page's Apply), the controls of the page after that click. The
// plan must end with the click or key press that takes the form; any other click between
// the form and that one must be followed by a check of the plan's own that held (a
// preview, checked, then saved): the values shown at the end are then the last click's
// evidence, and not the trace of a form taken earlier (a search box's words on a result
// page the run went on from). The one click between needs no check, but the page after it
// must hold none of the values in a field (the activity looks): the form was closed, not
// searched with; and the last click must lead to another address: an apply that failed
// stays on the page that lists what was to be applied. A form with a secret is a sign-in, whose values a page shows for as long
// as one is signed in: never evidence. A value typed into a field that hides it (a new
// account's password) is left out: no page shows it. Empty unless every one of those
// steps completed with evidence and at least one value of four letters or more is left:
// a value of one or two letters is shown anywhere.
//
// stays says the one click between was followed by a last click that stayed on the form's
// page (an editor's Publish, then Publish now): its values are then evidence only of a
// form kept on the page and stored (activities.ValidateGoalInput.KeptTyped), never as
// shown.
func lastForm(steps []StepRecord, params map[string]string) (typed []string, before activities.Snapshot, closed string, stays bool) {
	end := len(steps)
	if end == 0 || !taking(steps[end-1].Step.Action) {
		return nil, activities.Snapshot{}, "", false // the plan does not end by taking a form
	}
	end--
	for end > 0 && steps[end-1].Step.Action == plan.Assert {
		for end > 0 && steps[end-1].Step.Action == plan.Assert {
			end--
		}
		if end == 0 || !taking(steps[end-1].Step.Action) {
			return nil, activities.Snapshot{}, "", false // a check after no click: not a click checked on the way
		}
		end--
	}
	if end > 1 && end == len(steps)-1 && steps[end-1].Step.Action == plan.Click && steps[end-2].Step.Action.FillsForm() {
		// One click between the form and the last: the page after it must show the form
		// closed (the activity looks at its controls), and the last click must leave that
		// page for another (what an apply that failed shows stays where it was).
		last := steps[end]
		if closed = last.before.ElementsKey; closed == "" || last.URL == "" || last.URL == last.before.URL {
			closed, stays = "", true
		}
		end--
	}
	start := end
	for start > 0 && steps[start-1].Step.Action.FillsForm() {
		start--
	}
	for _, s := range steps[start:] {
		if s.Status != StepCompleted || s.Unverified {
			return nil, activities.Snapshot{}, "", false
		}
	}
	long := false
	for _, s := range steps[start:end] {
		if s.Step.Action != plan.Type && s.Step.Action != plan.Append {
			continue
		}
		if plan.HasSecret(s.Step.Value) {
			return nil, activities.Snapshot{}, "", false // a sign-in
		}
		if s.hidden {
			continue // a password given to a new account: no page shows it
		}
		v := strings.TrimSpace(s.Step.Bind(params).Value)
		if len([]rune(v)) < 3 {
			continue
		}
		long = long || len([]rune(v)) >= 4
		typed = append(typed, v)
	}
	if !long || start == end {
		return nil, activities.Snapshot{}, "", false
	}
	return typed, steps[start].before, closed, stays
}

// taking reports the actions that take a form: a click, or a key pressed (Enter).
func taking(a plan.Action) bool { return a == plan.Click || a == plan.Press }

// pageEvidence verifies a goal that states no check, when the page shows what it asked
// for: the values read back, the last form's values shown, the page's own word that a
// last click did what it is for, or the list without the item removed.
func (r *run) pageEvidence(ctx workflow.Context, in activities.ValidateGoalInput, res activities.ValidateGoalResult) {
	if read := readBack(r.steps, r.res.ExtractedData.Structured); res.Success && len(in.Checks) == 0 && read != "" && patched(ctx, "verified-by-read") {
		// The goal ends by reading values off the page, and each was read: what it asked
		// for is in the output, exactly as the page shows it. (Versioned: a verified run
		// teaches the skills library, which starts a child a run before this did not.)
		r.res.Validation.Verified, r.res.Validation.Confidence = true, max(res.Confidence, 0.8)
		r.res.Validation.Reason += "; the goal's values were read back: " + read
	}
	if res.Success && len(in.Checks) == 0 && res.Shown != "" {
		// The goal states no check, and its last form was taken: the final page shows
		// what it was given, outside every field, as it did not before. (No version
		// marker: only a ValidateGoal asked with Typed, which this code alone sends,
		// answers Shown, so a run's history decides this as it did the first time.)
		r.res.Validation.Verified, r.res.Validation.Confidence = true, max(res.Confidence, 0.8)
		r.res.Validation.Reason += "; the final page shows what the last form was given, outside any field: " + res.Shown
	} else if res.Success && len(in.Checks) == 0 && res.Said != "" {
		// The goal states no check, and the page says in its own words that one of the
		// last clicks did what it is for, naming what the goal named (no version marker,
		// as above: only a ValidateGoal asked with Done answers Said).
		r.res.Validation.Verified, r.res.Validation.Confidence = true, max(res.Confidence, 0.8)
		r.res.Validation.Reason += fmt.Sprintf("; the page says so after the last steps: %q", res.Said)
	} else if res.Success && len(in.Checks) == 0 && res.State != "" {
		// The goal states no check, and the item one of the last clicks acted on now
		// shows, on its own line, the state that click is for, as it did not before
		// (no version marker, as above: only a ValidateGoal asked with an Item answers
		// State).
		r.res.Validation.Verified, r.res.Validation.Confidence = true, max(res.Confidence, 0.8)
		r.res.Validation.Reason += fmt.Sprintf("; the item's own line now says what the last click was for: %q", res.State)
	} else if res.Success && len(in.Checks) == 0 && res.Flipped != "" {
		// The goal states no check, and the control one of the last clicks was on is gone,
		// its opposite in its place: the page now offers to undo what the click did (no
		// version marker, as above: only a ValidateGoal asked with Controls answers
		// Flipped).
		r.res.Validation.Verified, r.res.Validation.Confidence = true, max(res.Confidence, 0.8)
		r.res.Validation.Reason += "; the page now offers the opposite of the last click: " + res.Flipped
	} else if res.Success && len(in.Checks) == 0 && res.Kept != "" {
		// The goal states no check, and its last form stays on the page: its fields hold
		// what the goal gave them, and the page says it stored them after the last click
		// (no version marker, as above: only this code's ValidateGoal answers Kept).
		r.res.Validation.Verified, r.res.Validation.Confidence = true, max(res.Confidence, 0.8)
		r.res.Validation.Reason += "; the form holds what it was given, and the page says it was stored: " + res.Kept
	} else if res.Success && len(in.Checks) == 0 && res.Removed != "" {
		// The goal states no check, and ends by removing an item: the final page is the
		// list it was found in, without it (no version marker, as above).
		r.res.Validation.Verified, r.res.Validation.Confidence = true, max(res.Confidence, 0.8)
		r.res.Validation.Reason += "; the list shows it no more: " + res.Removed
	} else if res.NotShown != "" {
		r.res.Validation.Reason += "; what the last form was given is no evidence: " + res.NotShown
	}
}
