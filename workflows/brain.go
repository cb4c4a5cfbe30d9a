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
func (s *stepRun) decide(ctx workflow.Context, before activities.Snapshot) (activities.DecideResult, error) {
	r, rec, attempt := s.r, s.rec, s.attempt
	dec, err := activities.DecideTarget.Execute(r.modelOptions(ctx, fmt.Sprintf("step %d attempt %d: find %q", rec.Order, attempt, rec.Step.TargetDescription)),
		activities.DecideInput{Goal: r.in.Goal, Step: rec.Step, Params: r.params, Attempt: attempt, Feedback: rec.Feedback, Page: before, Turns: rec.computerUse})
	r.res.addUsage(rec, "decide", dec.Usage)
	return dec, err
}

// evaluate has the model judge an attempt that acted, when a model is there and the
// deterministic checks failed (the model explains why, for the next attempt) or are too
// weak to trust alone (a click on a model-planned step: "the page changed" is not "the
// right thing happened"). A step that changed server state is never vetoed: trying it
// again would do it twice.
func (s *stepRun) evaluate(ctx workflow.Context, res activities.RunStepResult, err error) (activities.RunStepResult, error) {
	r, rec := s.r, s.rec
	if err != nil || !r.model || !res.Acted {
		return res, err
	}
	weak := r.modelPlanned && rec.Step.Action.Spec().VisibleEffectOnly && !res.Mutated
	if res.OK && !weak {
		return res, nil
	}
	in := activities.EvaluateStepInput{Goal: r.in.Goal, Step: rec.Step, Params: r.params, Actions: res.Actions,
		ChecksPassed: res.OK, Before: res.Before, After: res.After}
	if res.Feedback != nil {
		in.CheckDetails = res.Feedback.Details
	}
	ev, eerr := activities.EvaluateStep.Execute(r.modelOptions(ctx, fmt.Sprintf("step %d: evaluate", rec.Order)), in)
	r.res.addUsage(rec, "evaluate", ev.Usage)
	switch {
	case modelFatal(eerr):
		return res, eerr
	case eerr != nil:
		r.res.warn(fmt.Sprintf("step %d: the model could not evaluate it (%s); the deterministic checks stand", rec.Order, rootMessage(eerr)))
	case !res.OK && res.Unchanged && !res.Mutated && ev.Success && ev.Confidence >= 0.7:
		// Nothing visible changed, and the model says that is what the step should do
		// (a form that clears, an effect elsewhere): done, not clicked again.
		res.OK, res.Feedback = true, nil
		res.Actions = append(res.Actions, "nothing visible changed, and the evaluator says it worked: "+ev.Reasoning)
	case !res.OK && ev.Feedback != nil:
		res.Feedback = ev.Feedback
	case res.OK && !ev.Success && ev.Confidence >= 0.7 && ev.Feedback != nil:
		res.OK, res.Feedback = false, ev.Feedback
		res.Actions = append(res.Actions, "the evaluator disagreed: "+ev.Reasoning)
	}
	return res, nil
}

// extract has the model read what an EXTRACT step asks for off the page, shaped by the
// goal's schema.
func (s *stepRun) extract(ctx workflow.Context) (activities.RunStepResult, error) {
	r, rec, attempt := s.r, s.rec, s.attempt
	snap, err := r.observe(ctx, fmt.Sprintf("steps/%03d-%d-extract", rec.Order, attempt))
	if err != nil {
		return activities.RunStepResult{}, err
	}
	ex, err := activities.ExtractData.Execute(r.modelOptions(ctx, fmt.Sprintf("step %d: extract %q", rec.Order, rec.Step.TargetDescription)),
		activities.ExtractInput{Goal: r.in.Goal, Step: rec.Step, Params: r.params, Schema: r.in.ExtractSchema, Page: snap})
	r.res.addUsage(rec, "extract", ex.Usage)
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
