package model

import (
	"fmt"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// held holds a pick to the step before anything is done: an element that contradicts a
// part the step states (its row, container, kind, ordinal, quoted name), that is not one
// of the candidates the page's own search found, or that an earlier attempt acted on and
// found wrong, is refused with a WrongElement failure naming the part and the elements
// that hold every part. nil is a pick that holds. A model that guesses is caught here,
// where a wrong click could change data.
func held(step plan.Step, obs page.Observation, e page.Element, avoid []activities.ElementRef) *plan.Feedback {
	t := step.Parts()
	why := page.ContradictsAmong(t, step.Action, e, obs.Elements)
	if activities.RefOf(e).Among(avoid) {
		why = "an earlier attempt acted on that element and found it wrong"
	}
	if why == "" {
		return nil
	}
	f := &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("the model chose %s, but %s", e.Describe(), why),
		ExpectedElement: step.TargetDescription, ActualElement: e.Ref()}
	for _, c := range page.Holding(t, step.Action, obs.Elements) {
		if !activities.RefOf(c).Among(avoid) {
			f.Candidates = append(f.Candidates, c.Ref())
		}
	}
	if len(f.Candidates) == 0 {
		f.Suggestion = "no element on this page holds every part of the step: the page may need another step first"
	}
	return f
}

// heldPoint holds a point to the step as held does the element under it, when the point
// is on one of the listed elements; a point on none is left to the checks after acting.
func heldPoint(step plan.Step, obs page.Observation, pt [2]float64, avoid []activities.ElementRef) *plan.Feedback {
	e, ok := obs.At(pt[0], pt[1])
	if !ok {
		return nil
	}
	return held(step, obs, e, avoid)
}
