package workflows

import (
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// try tries the step up to the attempt limit, each attempt with the feedback of the ones
// before. A lost browser is rebuilt without using up an attempt. An error ends the run:
// cancellation, a browser that cannot be rebuilt, a model that refuses to work.
func (s *stepRun) try(ctx workflow.Context) (bool, error) {
	r, rec := s.r, s.rec
	rec.Status = StepRunning
	rec.before = r.last
	// The values bound now include what earlier steps read ({{copied}}).
	rec.Description = rec.Step.Described(r.params)
	start := workflow.Now(ctx)
	defer func() { rec.DurationMs += workflow.Now(ctx).Sub(start).Milliseconds() }()
	limit := r.limits.AttemptsPerStep
	if s.replaying() {
		// A replayed step does what it did before or the site changed: replan the rest
		// at the first mismatch rather than try the same thing again.
		limit = 1
	}
	for rec.Attempts < limit && !workflow.Now(ctx).After(s.deadline) {
		s.attempt = rec.Attempts + 1
		r.report(ctx)
		res, err := s.once(ctx)
		if r.held {
			return false, err
		}
		acted := s.intended(ctx, err)
		var done, stop bool
		if err != nil {
			done, stop, err = s.attemptErred(ctx, acted, err)
		} else {
			done, stop, err = s.attemptEnded(ctx, res)
		}
		if stop {
			return done, err
		}
		if s.replanNow {
			return false, nil
		}
	}
	return false, nil
}

// attemptErred handles an attempt that ended in an error; stop says try returns
// (done, err), else the step is tried again.
func (s *stepRun) attemptErred(ctx workflow.Context, acted bool, err error) (done, stop bool, _ error) {
	r, rec := s.r, s.rec
	switch {
	case temporal.IsCanceledError(err):
		return false, true, err
	case modelFatal(err):
		r.res.addError(ctx, rec.Order, "model", rootMessage(err), false)
		return false, true, err
	case workerLost(err):
		// An attempt lost before it acted is tried again on a rebuilt browser, without
		// using up an attempt; one that may have acted is in doubt, and its effect is
		// looked for on the rebuilt page before anything is replayed.
		if err := r.recover(ctx, s.i, err, !acted); err != nil {
			return false, true, err
		}
		if !acted {
			return false, false, nil
		}
		rec.Attempts++
		return s.settle(ctx, "its worker was lost", false, true)
	}
	rec.Attempts++
	if acted {
		return s.settle(ctx, "it failed after it began to act: "+rootMessage(err), false, false)
	}
	rec.Feedback = append(rec.Feedback, plan.Feedback{Type: plan.Other, Details: "the attempt failed: " + rootMessage(err)})
	return false, false, nil
}

// attemptEnded takes what an attempt that ran reports: the step is done, in doubt, or
// tried again with the attempt's feedback; stop as for attemptErred.
func (s *stepRun) attemptEnded(ctx workflow.Context, res activities.RunStepResult) (done, stop bool, _ error) {
	r, rec, attempt := s.r, s.rec, s.attempt
	rec.Attempts++
	r.last = res.After
	if rec.before.TextKey == "" {
		// The run had no page's text from before the step (its first): the attempt read
		// it before acting.
		rec.before.TextKey = res.Before.TextKey
	}
	if rec.before.ElementsKey == "" {
		// Nor its controls: the attempt stored them before acting.
		rec.before.ElementsKey = res.Before.ElementsKey
	}
	r.res.Downloads = append(r.res.Downloads, res.Downloads...)
	for _, a := range res.Actions {
		rec.Actions = append(rec.Actions, fmt.Sprintf("attempt %d: %s", attempt, a))
	}
	rec.Evidence = Evidence{
		BeforeScreenshot: res.Before.ScreenshotKey, AfterScreenshot: res.After.ScreenshotKey,
		BeforeElements: res.Before.ElementsKey, AfterElements: res.After.ElementsKey,
	}
	for _, w := range res.Warnings {
		r.res.warn(fmt.Sprintf("step %d: %s", rec.Order, w))
	}
	if !res.OK && res.Acted && res.Unchanged && !r.model {
		// Nothing visible changed, and no model can say whether that is right. The
		// click is not done again (a second click may undo the first, or do it twice):
		// the step is done, unverified, and the goal's validation decides.
		rec.Unverified = true
		sent := ""
		if res.Mutated {
			sent = "; it sent a state-changing request"
		}
		rec.Actions = append(rec.Actions, fmt.Sprintf("attempt %d: nothing visible changed%s, and no model can judge it; not clicked again: done, unverified", attempt, sent))
		res.OK = true
	}
	if fb := res.Feedback; !res.OK && res.Acted && fb != nil && fb.Type == plan.WrongElement {
		s.avoid(res.Element)
	}
	switch {
	case res.OK:
		s.complete(ctx, res)
		return true, true, nil
	case res.Mutated && s.vetoed && r.wary:
		// It sent a state-changing request, and the evaluator says it did the wrong
		// thing: nothing the run does now can take that back, and doing more would build
		// on it. The run stops here for a person to look.
		rec.Status, rec.Mutated = StepFailed, true
		s.wrongEffect = true
		r.res.addError(ctx, rec.Order, "wrong_effect", fmt.Sprintf("step %d (%s) sent a state-changing request, and the evaluator says it did the wrong thing: %s; the run stops here (trying again would act twice) for a person to check", rec.Order, rec.Description, failure(res).String()), false)
		return false, true, nil
	case res.Mutated:
		// It sent a state-changing request: never tried again as if nothing happened,
		// nor by a replan.
		rec.Mutated = true
		return s.settle(ctx, "it sent a state-changing request, and then "+failure(res).String(), true, false)
	case res.ActedInPart:
		// It acted on some of every element so named, made some of a sort's drags, or
		// resized its element the wrong way: doing it again would act twice.
		part := "it acted on some of the elements it names"
		if mv := rec.Step.Move; mv != nil && mv.Sort != "" {
			part = "it dragged some of the list's items"
		} else if mv != nil && mv.Size != "" {
			part = "it resized its element, but not as asked"
		}
		return s.settle(ctx, part+", and then "+failure(res).String(), false, false)
	}
	rec.Feedback = append(rec.Feedback, failure(res))
	return false, false, nil
}

// complete records a step done, and what it read.
func (s *stepRun) complete(ctx workflow.Context, res activities.RunStepResult) {
	r, rec := s.r, s.rec
	rec.Status, rec.Mutated, rec.URL, rec.StorageStateKey = StepCompleted, res.Mutated, res.After.URL, res.StorageStateKey
	rec.State = res.BeforeState
	rec.hidden = res.Element != nil && res.Element.Secret
	//workflowcheck:ignore copying one map into another is the same in any order
	for k, v := range res.Extracted {
		r.res.ExtractedData.Structured[k] = v
		// What a step read is a value for the steps after it ({{copied}}).
		if text, ok := v.(string); ok && rec.Step.Action == plan.Extract {
			r.params[k] = text
		}
	}
	r.report(ctx)
}

// settle is inDoubt for try: it stops the step when the attempt is found done, the run is
// held, or an error ends it.
func (s *stepRun) settle(ctx workflow.Context, why string, sent, rebuilt bool) (done, stop bool, _ error) {
	done, err := s.inDoubt(ctx, why, sent, rebuilt)
	return done, done || err != nil || s.r.held, err
}

// failure is what a failed attempt says went wrong. A result that failed without saying
// why is a failure of that attempt, never a crash of the run.
func failure(res activities.RunStepResult) plan.Feedback {
	if res.Feedback == nil {
		return plan.Feedback{Type: plan.Other, Details: "the attempt failed and said nothing about why"}
	}
	return *res.Feedback
}

// inDoubt settles an attempt that may have acted: done when its effect is on the page (or
// a person says so); otherwise the step may be tried again only when it cannot have sent
// a state-changing request (sent says it did), after the page is restored when the browser
// was rebuilt.
func (s *stepRun) inDoubt(ctx workflow.Context, why string, sent, rebuilt bool) (bool, error) {
	r, rec := s.r, s.rec
	done, again, err := s.settleDoubt(ctx, why, sent)
	if err != nil || r.held {
		return false, err
	}
	if done {
		rec.Status, rec.URL = StepCompleted, r.last.URL
		r.report(ctx)
		return true, nil
	}
	if again && rebuilt {
		if err := s.restore(ctx); err != nil {
			return false, err
		}
	}
	rec.Feedback = append(rec.Feedback, plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("attempt %d may have acted (%s) and its effect is not on the page", s.attempt, why)})
	return false, nil
}

// restore replays the side-effect-free completed steps before the step on the current
// browser, from the last checkpoint.
func (s *stepRun) restore(ctx workflow.Context) error {
	at, _, _ := checkpoint(s.r.steps, s.i, s.r.in.StartURL)
	return s.r.replayTo(ctx, s.i, at, "page restored")
}
