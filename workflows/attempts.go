package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// runStep tries step i up to the attempt limit, each attempt with the feedback of the
// ones before. A lost browser is rebuilt without using up an attempt. An error ends the
// run: cancellation, a browser that cannot be rebuilt, a model that refuses to work.
func (r *run) runStep(ctx workflow.Context, i int, deadline time.Time) (bool, error) {
	rec := &r.steps[i]
	rec.Status = StepRunning
	rec.before = r.last
	// The values bound now include what earlier steps read ({{copied}}).
	rec.Description = rec.Step.Described(r.params)
	start := workflow.Now(ctx)
	defer func() { r.steps[i].DurationMs += workflow.Now(ctx).Sub(start).Milliseconds() }()
	limit := r.limits.AttemptsPerStep
	if r.replaying(rec) {
		// A replayed step does what it did before or the site changed: replan the rest
		// at the first mismatch rather than try the same thing again.
		limit = 1
	}
	for r.steps[i].Attempts < limit && !workflow.Now(ctx).After(deadline) {
		attempt := r.steps[i].Attempts + 1
		r.report(ctx)
		res, err := r.attemptStep(ctx, i, attempt, deadline)
		if r.held {
			return false, err
		}
		acted := r.mayHaveActed(ctx, r.steps[i].Order, attempt)
		var done, stop bool
		if err != nil {
			done, stop, err = r.attemptErred(ctx, i, attempt, acted, err, deadline)
		} else {
			done, stop, err = r.attemptEnded(ctx, i, attempt, res, deadline)
		}
		if stop {
			return done, err
		}
	}
	return false, nil
}

// attemptErred handles an attempt that ended in an error; stop says runStep returns
// (done, err), else the step is tried again.
func (r *run) attemptErred(ctx workflow.Context, i, attempt int, acted bool, err error, deadline time.Time) (done, stop bool, _ error) {
	rec := &r.steps[i]
	switch {
	case temporal.IsCanceledError(err):
		return false, true, err
	case modelFatal(err):
		r.addError(ctx, rec.Order, "model", rootMessage(err), false)
		return false, true, err
	case workerLost(err):
		// An attempt lost before it acted is tried again on a rebuilt browser, without
		// using up an attempt; one that may have acted is in doubt, and its effect is
		// looked for on the rebuilt page before anything is replayed.
		if err := r.recover(ctx, i, err, !acted); err != nil {
			return false, true, err
		}
		if !acted {
			return false, false, nil
		}
		r.steps[i].Attempts++
		return r.settle(ctx, i, attempt, "its worker was lost", false, true, deadline)
	}
	rec.Attempts++
	if acted {
		return r.settle(ctx, i, attempt, "it failed after it began to act: "+rootMessage(err), false, false, deadline)
	}
	rec.Feedback = append(rec.Feedback, plan.Feedback{Type: plan.Other, Details: "the attempt failed: " + rootMessage(err)})
	return false, false, nil
}

// attemptEnded takes what an attempt that ran reports: the step is done, in doubt, or
// tried again with the attempt's feedback; stop as for attemptErred.
func (r *run) attemptEnded(ctx workflow.Context, i, attempt int, res activities.RunStepResult, deadline time.Time) (done, stop bool, _ error) {
	rec := &r.steps[i]
	rec.Attempts++
	r.last = res.After
	r.res.Downloads = append(r.res.Downloads, res.Downloads...)
	for _, a := range res.Actions {
		rec.Actions = append(rec.Actions, fmt.Sprintf("attempt %d: %s", attempt, a))
	}
	rec.Evidence = Evidence{
		BeforeScreenshot: res.Before.ScreenshotKey, AfterScreenshot: res.After.ScreenshotKey,
		BeforeElements: res.Before.ElementsKey, AfterElements: res.After.ElementsKey,
	}
	for _, w := range res.Warnings {
		r.warn(fmt.Sprintf("step %d: %s", rec.Order, w))
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
	switch {
	case res.OK:
		r.complete(ctx, rec, res)
		return true, true, nil
	case res.Mutated:
		// It sent a state-changing request: never tried again as if nothing happened.
		return r.settle(ctx, i, attempt, "it sent a state-changing request, and then "+failure(res).String(), true, false, deadline)
	case res.ActedInPart:
		// It acted on some of every element so named, made some of a sort's drags, or
		// resized its element the wrong way: doing it again would act twice.
		part := "it acted on some of the elements it names"
		if mv := rec.Step.Move; mv != nil && mv.Sort != "" {
			part = "it dragged some of the list's items"
		} else if mv != nil && mv.Size != "" {
			part = "it resized its element, but not as asked"
		}
		return r.settle(ctx, i, attempt, part+", and then "+failure(res).String(), false, false, deadline)
	}
	rec.Feedback = append(rec.Feedback, failure(res))
	return false, false, nil
}

// complete records a step done, and what it read.
func (r *run) complete(ctx workflow.Context, rec *StepRecord, res activities.RunStepResult) {
	rec.Status, rec.Mutated, rec.URL, rec.StorageStateKey = StepCompleted, res.Mutated, res.After.URL, res.StorageStateKey
	rec.State = res.BeforeState
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

// settle is inDoubt for runStep: it stops the step when the attempt is found done, the
// run is held, or an error ends it.
func (r *run) settle(ctx workflow.Context, i, attempt int, why string, sent, rebuilt bool, deadline time.Time) (done, stop bool, _ error) {
	done, err := r.inDoubt(ctx, i, attempt, why, sent, rebuilt, deadline)
	return done, done || err != nil || r.held, err
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
func (r *run) inDoubt(ctx workflow.Context, i, attempt int, why string, sent, rebuilt bool, deadline time.Time) (bool, error) {
	done, again, err := r.settleDoubt(ctx, i, attempt, why, sent, deadline)
	if err != nil || r.held {
		return false, err
	}
	rec := &r.steps[i]
	if done {
		rec.Status, rec.URL = StepCompleted, r.last.URL
		r.report(ctx)
		return true, nil
	}
	if again && rebuilt {
		if err := r.restore(ctx, i); err != nil {
			return false, err
		}
	}
	rec.Feedback = append(rec.Feedback, plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("attempt %d may have acted (%s) and its effect is not on the page", attempt, why)})
	return false, nil
}
