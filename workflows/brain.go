package workflows

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// modelFatal reports a model error that ends the run: the model will not work at all
// (credentials, a missing model, a malformed request), so nothing that needs it can.
func modelFatal(err error) bool {
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) {
		return false
	}
	return slices.Contains(activities.ModelFatal, ae.Type())
}

// decide asks the model which element the step means, on the attempt's observation.
// resolver is the DOM-first resolution's feedback on the same page, when it ran.
func (s *stepRun) decide(ctx workflow.Context, before activities.Snapshot, resolver *plan.Feedback) (activities.DecideResult, error) {
	r, rec, attempt := s.r, s.rec, s.attempt
	in := activities.DecideInput{Goal: r.in.Goal, Step: rec.Step, Params: r.params, Attempt: attempt, Feedback: rec.Feedback, Page: before,
		Turns: rec.computerUse, Avoid: rec.Avoided}
	if resolver != nil {
		// What the page's own search found (or did not): its reason and its candidates.
		in.Feedback = append(slices.Clip(in.Feedback), *resolver)
	}
	return askModel(ctx, r, rec, "decide", activities.DecideTarget, fmt.Sprintf("step %d attempt %d: find %q", rec.Order, attempt, rec.Step.TargetDescription), in)
}

// evaluate has the model judge an attempt that acted, when a model is there and either
// the deterministic checks failed (the model explains why, for the next attempt) or the
// model chose what the attempt did: it wrote the step, or picked its element. "The page
// changed" is not "the right thing happened", so every effect a model chose is
// evaluated, or the step stands unverified and the run cannot claim success. A step that
// changed server state is never tried again: trying would do it twice.
func (s *stepRun) evaluate(ctx workflow.Context, res activities.RunStepResult, err error) (activities.RunStepResult, error) {
	r, rec := s.r, s.rec
	if err != nil || !r.model || !res.Acted {
		return res, err
	}
	// A step that only looks (a check, a wait) has no effect to judge when it holds.
	chosen := s.modelChose(res) && (rec.Step.Action.Spec().Acts || !r.wary)
	if res.OK && !chosen {
		return res, nil
	}
	in := activities.EvaluateStepInput{Goal: r.in.Goal, Step: rec.Step, Params: r.params, Actions: res.Actions,
		ChecksPassed: res.OK, Before: res.Before, After: res.After}
	if res.Feedback != nil {
		in.CheckDetails = res.Feedback.Details
	}
	ev, eerr := askModel(ctx, r, rec, "evaluate", activities.EvaluateStep, fmt.Sprintf("step %d: evaluate", rec.Order), in)
	switch {
	case modelFatal(eerr):
		return res, eerr
	case eerr != nil && res.OK && chosen && r.wary:
		s.unverified(fmt.Sprintf("the model chose what it did and could not evaluate it (%s)", rootMessage(eerr)))
	case eerr != nil:
		r.res.warn(fmt.Sprintf("step %d: the model could not evaluate it (%s); the deterministic checks stand", rec.Order, rootMessage(eerr)))
	case !res.OK && res.Unchanged && !res.Mutated && ev.Success && ev.Confidence >= 0.7:
		// Nothing visible changed, and the model says that is what the step should do
		// (a form that clears, an effect elsewhere): done, not clicked again.
		res.OK, res.Feedback = true, nil
		res.Actions = append(res.Actions, "nothing visible changed, and the evaluator says it worked: "+ev.Reasoning)
	case !res.OK && ev.Feedback != nil:
		res.Feedback = ev.Feedback
		if ev.Feedback.Type == plan.WrongElement {
			// The wrong element: not again; and a request it sent was the wrong one.
			s.avoid(res.Element)
			s.vetoed = res.Mutated && ev.Confidence >= 0.7
		}
	case res.OK && !ev.Success && ev.Confidence >= 0.7:
		res.OK, res.Feedback = false, vetoFeedback(ev)
		res.Actions = append(res.Actions, "the evaluator disagreed: "+ev.Reasoning)
		s.avoid(res.Element)
		s.vetoed = true
	case res.OK && (!ev.Success || ev.Confidence < 0.7):
		s.unverified(fmt.Sprintf("the evaluator was not sure it worked (confidence %.2f: %s)", ev.Confidence, oneLine(ev.Reasoning)))
	}
	return res, nil
}

// vetoFeedback is what the evaluator's veto tells the next attempt: its own feedback, or
// its reasoning when it gave none.
func vetoFeedback(ev activities.EvaluateStepResult) *plan.Feedback {
	if ev.Feedback != nil {
		return ev.Feedback
	}
	return &plan.Feedback{Type: plan.WrongElement, Details: "the evaluator says it did not do what the step is for: " + ev.Reasoning}
}

// modelChose reports whether a model chose what the attempt did: it wrote the plan or
// the step, or picked the element.
func (s *stepRun) modelChose(res activities.RunStepResult) bool {
	if !s.r.wary {
		// Before: only a weak click in a model's plan was evaluated when its checks passed.
		return s.r.modelPlanned && s.rec.Step.Action.Spec().VisibleEffectOnly && !res.Mutated
	}
	return s.r.modelPlanned || s.rec.ModelWritten || s.decided
}

// avoid keeps the element an attempt acted on, found wrong, from every later attempt of
// the step.
func (s *stepRun) avoid(t *activities.ElementRef) {
	if t != nil && !t.Among(s.rec.Avoided) {
		s.rec.Avoided = append(s.rec.Avoided, *t)
	}
}

// unverified marks the step done without the evidence a model's choice needs.
func (s *stepRun) unverified(why string) {
	s.rec.Unverified, s.rec.UnverifiedWhy = true, why
	s.r.res.warn(fmt.Sprintf("step %d: %s; it stands unverified, and the run cannot claim success", s.rec.Order, why))
}

// extract has the model read what an EXTRACT step asks for off the page, shaped by the
// goal's schema.
func (s *stepRun) extract(ctx workflow.Context) (activities.RunStepResult, error) {
	r, rec, attempt := s.r, s.rec, s.attempt
	snap, err := r.observe(ctx, fmt.Sprintf("steps/%03d-%d-extract", rec.Order, attempt))
	if err != nil {
		return activities.RunStepResult{}, err
	}
	ex, err := askModel(ctx, r, rec, "extract", activities.ExtractData, fmt.Sprintf("step %d: extract %q", rec.Order, rec.Step.TargetDescription),
		activities.ExtractInput{Goal: r.in.Goal, Step: rec.Step, Params: r.params, Schema: r.in.ExtractSchema, Page: snap})
	res := activities.RunStepResult{Before: snap, After: snap}
	if err != nil {
		if modelFatal(err) {
			return res, err
		}
		res.Feedback = &plan.Feedback{Type: plan.Other, Details: "the model could not read it: " + rootMessage(err)}
		return res, nil
	}
	res.OK, res.Acted = true, true
	res.Extracted = map[string]any{}
	if name := rec.Step.Into; name != "" && r.in.ExtractSchema == nil {
		res.Extracted[name] = ex.Data["value"]
	} else {
		//workflowcheck:ignore copying one map into another is the same in any order
		for k, v := range ex.Data {
			res.Extracted[k] = v
		}
	}
	//workflowcheck:ignore encoding/json writes map keys sorted
	b, _ := json.Marshal(res.Extracted)
	res.Actions = []string{"read " + string(b)}
	return res, nil
}
