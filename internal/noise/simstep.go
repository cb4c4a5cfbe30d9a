package noise

import (
	"context"
	"fmt"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// simAttempt is one attempt at a step on the simulated page, as the browser makes it:
// look, find the target (or take the decision's), act, look again and check.
type simAttempt struct {
	b    *simBrowser
	a    *simApp
	in   activities.RunStepInput
	step plan.Step
	name string
	obs  page.Observation
	text string
	res  activities.RunStepResult
	ev   Event
}

// RunStep makes one attempt at a step on the simulated page.
func (b *simBrowser) RunStep(_ context.Context, in activities.RunStepInput) (activities.RunStepResult, error) {
	a := b.app
	a.mu.Lock()
	defer a.mu.Unlock()
	t := &simAttempt{b: b, a: a, in: in, step: in.Step.Bind(in.Params), name: fmt.Sprintf("steps/%03d-%d", in.Seq, in.Attempt),
		obs: a.observe(), text: a.text(), ev: Event{Seq: in.Seq, Attempt: in.Attempt}}
	t.res = activities.RunStepResult{Before: b.snap(in.KeyPrefix, t.name+"-before", t.obs, t.text), BeforeState: t.obs.State()}
	t.res.After = t.res.Before
	defer func() {
		t.ev.OK = t.res.OK
		b.log(t.ev)
	}()
	if t.withoutTarget() {
		return t.res, nil
	}
	el, point, ok := t.target()
	if ok {
		t.act(el, point)
	}
	return t.res, nil
}

// fail ends the attempt with feedback, without acting.
func (t *simAttempt) fail(typ plan.FeedbackType, details string) {
	t.res.Feedback = &plan.Feedback{Type: typ, Details: details}
}

// withoutTarget does the steps that name no element (a check, a wait, a key), and
// refuses the ones the simulated page does not do; it reports whether it did.
func (t *simAttempt) withoutTarget() bool {
	a, step, res := t.a, t.step, &t.res
	switch step.Action {
	case plan.Assert:
		if page.ContainsText(page.NormalizeText(t.text), step.Value) == step.Negated {
			t.fail(plan.PageState, fmt.Sprintf("%q is not on the page", step.Value))
		} else {
			res.OK = true
		}
	case plan.Wait:
		res.OK = true
	case plan.Press:
		a.toast = ""
		a.press(step.Key)
		res.Acted, res.OK = true, true
		res.Actions = []string{"pressed " + step.Key}
		res.After = t.b.snap(t.in.KeyPrefix, t.name+"-after", a.observe(), a.text())
	case plan.Click, plan.Type, plan.Select:
		return false
	default:
		t.fail(plan.Other, fmt.Sprintf("the simulated page does not do %s", step.Action))
	}
	return true
}

// target is what the attempt acts on: the element under the decision's point (el may be
// nil: a point on nothing), the element the decision names, or the one DOM-first
// resolution finds. An element found wrong before is refused, as the browser refuses it;
// ok is false when the attempt ends without acting.
func (t *simAttempt) target() (el *page.Element, point *[2]float64, ok bool) {
	obs, in, step := t.obs, t.in, t.step
	d := in.Decision
	switch {
	case d != nil && d.Point != nil:
		// As the browser does: the mouse goes to the point, on whatever is drawn there.
		point = d.Point
		if e, found := obs.At(point[0], point[1]); found {
			el = &e
		}
		if step.Action != plan.Click && step.Action != plan.Type {
			t.fail(plan.WrongElement, fmt.Sprintf("%s needs an element, not a point on the screen", step.Action))
			return nil, nil, false
		}
	case d != nil:
		found := decided(obs, d)
		if found < 0 {
			t.fail(plan.NotVisible, "the element the decision named is not on the page")
			return nil, nil, false
		}
		el = &obs.Elements[found]
	default:
		// As the browser does: resolve on the whole page, then refuse an element found
		// wrong before (passing over it first could make another row's the match).
		r := page.ResolveTarget(step.Parts(), step.Action, obs.Elements)
		if !r.Resolved() {
			for _, c := range r.Candidates {
				t.res.Candidates = append(t.res.Candidates, c.Ref())
			}
			typ := plan.NotVisible
			if len(r.Candidates) > 0 {
				typ = plan.WrongElement
			}
			t.fail(typ, r.Reason)
			return nil, nil, false
		}
		el = &obs.Elements[r.Index]
	}
	if el != nil && activities.RefOf(*el).Among(in.Avoid) {
		t.res.Candidates = []string{el.Ref()}
		t.fail(plan.WrongElement, fmt.Sprintf("%s is what an earlier attempt acted on, and that attempt was found wrong: it is not acted on again", el.Ref()))
		return nil, nil, false
	}
	return el, point, true
}

// decided is the index of the element a decision names on obs, or -1: found again by what
// it is and where it sits, or by its number.
func decided(obs page.Observation, d *activities.Decision) int {
	found := -1
	switch {
	case d.ElementWas != nil:
		w := d.ElementWas
		for _, e := range obs.Elements {
			if activities.RefOf(e).SameAs(*w) {
				found = e.Index
			}
		}
	case d.Element != nil && *d.Element >= 0 && *d.Element < len(obs.Elements):
		found = *d.Element
	}
	return found
}

// act acts on el (or at the point), looks again and checks what the browser checks: a
// field holds what was typed or selected, a click changed the page.
func (t *simAttempt) act(el *page.Element, point *[2]float64) {
	a, step, res := t.a, t.step, &t.res
	res.Acted = true
	ref := ""
	if el != nil {
		// What the attempt acted on, for the measurement and, as the browser reports
		// it (the element under a point too), for the run.
		t.ev.Acted = refOf(*el)
		ref = el.Ref()
		res.Target = ref
		res.Element = new(activities.RefOf(*el))
	}
	effects := len(a.order)
	a.toast = ""
	fb := t.do(el, point)
	after := a.observe()
	res.After = t.b.snap(t.in.KeyPrefix, t.name+"-after", after, a.text())
	res.Mutated = len(a.order) > effects
	if fb == nil && step.Action == plan.Click && after.Fingerprint == t.obs.Fingerprint {
		what := ref
		if what == "" {
			what = "the point"
		}
		fb = &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("clicked %s but nothing on the page changed", what),
			Suggestion: "the click may have missed: another element may be the one meant", ActualElement: ref, ExpectedElement: step.TargetDescription}
		res.Unchanged = true
	}
	res.Feedback, res.OK = fb, fb == nil
}

// do does the step's action on the app, and says what is wrong with the field it filled.
func (t *simAttempt) do(el *page.Element, point *[2]float64) *plan.Feedback {
	a, step, res := t.a, t.step, &t.res
	held := func(e page.Element) *plan.Feedback {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s holds %q, not %q", e.Ref(), e.Value, step.Value), ActualElement: e.Ref()}
	}
	switch {
	case point != nil && step.Action == plan.Click:
		res.Actions = []string{fmt.Sprintf("clicked at (%.0f, %.0f)", point[0], point[1])}
		if el != nil {
			a.click(*el)
		}
	case point != nil:
		// A TYPE at a point clicks there, then types in place of what the field held;
		// the browser has no element to read the value back from.
		res.Actions = []string{fmt.Sprintf("clicked at (%.0f, %.0f) and typed %q in place of what was there", point[0], point[1], step.Value)}
		if el != nil {
			a.click(*el)
			a.typeInto(*el, step.Value)
		}
	case step.Action == plan.Click:
		a.click(*el)
		res.Actions = []string{"clicked " + el.Ref()}
	case step.Action == plan.Type:
		res.Actions = []string{fmt.Sprintf("typed %q into %s", step.Value, el.Ref())}
		if !a.typeInto(*el, step.Value) {
			return held(*el)
		}
	case step.Action == plan.Select:
		res.Actions = []string{fmt.Sprintf("selected %q in %s", step.Value, el.Ref())}
		if !a.selectIn(*el, step.Value) {
			return held(*el)
		}
	}
	return nil
}
