package workflows

import (
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// execute runs the steps in order until they are done, a step cannot be made to work, or
// a limit is reached.
func (r *run) execute(ctx workflow.Context) error {
	deadline := r.started.Add(r.limits.Deadline)
	mayContinue := mayContinue(ctx)
	for i := r.from; i < len(r.steps); i++ {
		s := r.step(i, deadline)
		if stop, err := s.between(ctx); stop || err != nil {
			r.skipFrom(i)
			return err
		}
		if mayContinue && r.dueToContinue(ctx, i) {
			return r.continueAsNew(ctx, i)
		}
		if reason := s.limitReached(ctx); reason != "" {
			r.res.addError(ctx, s.rec.Order, "limit", reason, false)
			r.skipFrom(i)
			return nil
		}
		if s.needsApproval() {
			if ok, err := s.approveStep(ctx); !ok || err != nil {
				r.skipFrom(i)
				return err
			}
		}
		ok, err := s.try(ctx)
		if r.held {
			// A person was asked and did not answer, refused or cancelled: nothing more
			// is done (an unattended run's step that would have waited has failed).
			if s.rec.Status != StepFailed {
				s.rec.Status = StepSkipped
			}
			r.skipFrom(i + 1)
			return err
		}
		if err != nil {
			s.rec.Status = StepFailed
			r.skipFrom(i + 1)
			return err
		}
		if ok {
			continue
		}
		if s.wrongEffect {
			r.skipFrom(i + 1)
			return nil
		}
		if workflow.Now(ctx).After(deadline) {
			continue // the next turn reports the deadline
		}
		errs := len(r.res.Errors)
		if !r.replan(ctx, i, "") {
			if ok, err := s.askHint(ctx, errs); ok || err != nil {
				if err != nil {
					return err
				}
				continue
			}
			s.rec.Status = StepFailed
			r.skipFrom(i + 1)
			return nil
		}
	}
	return nil
}

func (r *run) skipFrom(i int) {
	for ; i < len(r.steps); i++ {
		if r.steps[i].Status == StepPending {
			r.steps[i].Status = StepSkipped
		}
	}
}

// browserStep runs one RunStep activity in the run's browser: in names the step, the
// attempt, what it is for and the model's decision, if any; the run fills in the rest.
func (r *run) browserStep(ctx workflow.Context, in activities.RunStepInput) (activities.RunStepResult, error) {
	step, seq, attempt, purpose := in.Step, in.Seq, in.Attempt, in.Purpose
	// Every attempt waits the same for its target: a target that is not there fails in
	// AttemptsPerStep × WaitBudget of waiting (9 s by default), not ever longer.
	budget := r.limits.WaitBudget
	timeout := 2*time.Minute + budget
	if step.Action == plan.Wait {
		timeout += step.Wait
	}
	summary := fmt.Sprintf("step %d attempt %d: %s", seq, attempt, step.String())
	switch {
	case purpose == activities.PurposeRestore:
		summary = fmt.Sprintf("restore step %d: %s", seq, step.String())
	case in.Decision != nil:
		summary += " (the model's choice)"
	}
	in.SessionID, in.KeyPrefix, in.Params, in.WaitBudget = r.browser.session.SessionID, r.res.Metadata.keyPrefix(), r.params, budget
	in.ChangeWithin, in.PaceNext = r.beforeWait(seq, purpose), r.nextActs(seq, step)
	in.CheckState = r.skill != nil && r.mode() == ModeReplay && step.State != "" && purpose == activities.PurposeAttempt
	in.Numbered = r.model
	in.Intent = r.acting.objects && purpose == activities.PurposeAttempt
	return activities.RunStep.Execute(r.sessionOptions(ctx, timeout, summary), in)
}

// observe stores a look at the page without acting.
func (r *run) observe(ctx workflow.Context, name string) (activities.Snapshot, error) {
	return activities.Observe.Execute(r.sessionOptions(ctx, time.Minute, "look at the page"),
		activities.ObserveInput{SessionID: r.browser.session.SessionID, KeyPrefix: r.res.Metadata.keyPrefix(), Name: name})
}

// sessionOptions route an activity to the worker that holds the run's browser. No
// server-side retries: a browser step must not run twice on its own, and a worker that
// stops answering is noticed within WorkerLossTimeout (never picked up, or no heartbeat).
func (r *run) sessionOptions(ctx workflow.Context, timeout time.Duration, summary string) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:              r.browser.session.TaskQueue,
		ScheduleToStartTimeout: r.limits.WorkerLossTimeout,
		StartToCloseTimeout:    timeout,
		HeartbeatTimeout:       r.limits.WorkerLossTimeout,
		RetryPolicy:            &temporal.RetryPolicy{MaximumAttempts: 1},
		Summary:                summary,
	})
}

// replan asks the planner to rewrite the plan from step i on; false means it could not. A
// person's hint goes with it, when there is one, and the run's replan limit does not
// bound a replan with a hint.
func (r *run) replan(ctx workflow.Context, i int, hint string) bool {
	rec := &r.steps[i]
	if hint == "" && r.res.Execution.Replans >= r.limits.Replans {
		r.res.addError(ctx, rec.Order, "replan_limit", fmt.Sprintf("step %d failed after %s and the run has used its %d replans", rec.Order, attempts(rec.Attempts), r.limits.Replans), false)
		return false
	}
	defer r.enter(PhaseReplanning)()
	in := activities.ReplanInput{Goal: r.in.Goal, Failed: rec.Step, Feedback: rec.Feedback, Current: r.last, Strategies: r.strategies[rec.Description], Hint: hint}
	for _, s := range r.steps[:i] {
		if s.Status == StepCompleted {
			in.Completed = append(in.Completed, s.Step)
		}
	}
	for _, s := range r.steps[i+1:] {
		in.Remaining = append(in.Remaining, s.Step)
	}
	res, err := askModel(ctx, r, rec, "replan", activities.Replan, fmt.Sprintf("replan after step %d failed", rec.Order), in)
	if fb := r.replanFlaw(res, i); err == nil && r.wary && fb != nil {
		// A replan that says the same again would fail the same way (the loop a model
		// falls into), and one that does again what already changed the site would do
		// it twice: it is told so, once, and asked again.
		in.Feedback = append(slices.Clip(in.Feedback), *fb)
		res, err = askModel(ctx, r, rec, "replan", activities.Replan, fmt.Sprintf("replan after step %d failed, again", rec.Order), in)
		if fb := r.replanFlaw(res, i); err == nil && fb != nil && fb.Type == plan.PageState {
			r.res.addError(ctx, rec.Order, "replan", "the new plan would do again what the run already did: "+fb.Details, false)
			return false
		}
	}
	if err != nil {
		r.res.addError(ctx, rec.Order, "replan", rootMessage(err), false)
		return false
	}
	if res.Strategy != activities.StrategyAbort {
		if err := plan.Validate(res.Steps); err != nil {
			r.res.addError(ctx, rec.Order, "replan", "the new plan cannot be run: "+err.Error(), false)
			return false
		}
	}
	if res.Strategy == activities.StrategyAbort {
		last := ""
		if n := len(rec.Feedback); n > 0 {
			last = rec.Feedback[n-1].String()
		}
		r.res.addError(ctx, rec.Order, "step_failed", fmt.Sprintf("step %d (%s) failed after %s: %s; %s", rec.Order, rec.Description, attempts(rec.Attempts), last, res.Reason), false)
		return false
	}
	r.res.Execution.Replans++
	r.strategies[rec.Description] = append(r.strategies[rec.Description], res.Strategy)
	for _, s := range res.Steps {
		r.strategies[s.String()] = r.strategies[rec.Description]
	}
	rec.Status = StepReplanned
	r.res.warn(fmt.Sprintf("step %d (%s) failed after %s; replanned (%s): %s", rec.Order, rec.Description, attempts(rec.Attempts), res.Strategy, res.Reason))
	r.steps = r.steps[:i+1]
	r.appendSteps(res.Steps)
	r.written(i)
	return true
}

// written marks the steps a replan wrote after step i as the model's, and gives a step
// that repeats the failed one (the same action on the same description) the elements
// found wrong there: a replan that says the same again does not get to act on them.
func (r *run) written(i int) {
	failed := r.steps[i]
	for j := i + 1; j < len(r.steps); j++ {
		s := &r.steps[j]
		s.ModelWritten = true
		if s.Step.Action == failed.Step.Action && s.Description == failed.Description {
			s.Avoided = append(s.Avoided, failed.Avoided...)
		}
	}
}

// replanFlaw says what is wrong with a replan that cannot be run as it is (nil when
// nothing is): it does again a step of the run that sent a state-changing request, or it
// begins with the failed step unchanged, other than to wait for it.
func (r *run) replanFlaw(res activities.ReplanResult, i int) *plan.Feedback {
	if res.Strategy == activities.StrategyAbort || len(res.Steps) == 0 {
		return nil
	}
	same := func(a, b plan.Step) bool {
		return a.Action == b.Action && a.TargetDescription == b.TargetDescription && a.Value == b.Value
	}
	for _, done := range r.steps[:i+1] {
		if !done.Mutated {
			continue
		}
		for _, s := range res.Steps {
			if same(s, done.Step) {
				return &plan.Feedback{Type: plan.PageState,
					Details:    fmt.Sprintf("step %d (%s) already sent its request to the site; the new plan does it again, which would do it twice", done.Order, done.Description),
					Suggestion: "plan only what is left to do, from the page as it is now"}
			}
		}
	}
	failed := r.steps[i]
	if res.Strategy != activities.StrategyWaitAndRetry && same(res.Steps[0], failed.Step) {
		return &plan.Feedback{Type: plan.Other,
			Details:    fmt.Sprintf("the new plan begins with the step that failed (%s), unchanged, on the same page: it would fail the same way", failed.Description),
			Suggestion: "reach the goal another way: open what holds the element first, or name the element by what it shows, its row or its container"}
	}
	return nil
}
