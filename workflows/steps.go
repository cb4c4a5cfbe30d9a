package workflows

import (
	"fmt"
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
	mayContinue := r.mayContinue(ctx)
	for i := r.from; i < len(r.steps); i++ {
		if stop, err := r.between(ctx, i, deadline); stop || err != nil {
			r.skipFrom(i)
			return err
		}
		if mayContinue && r.dueToContinue(ctx, i) {
			return r.continueAsNew(ctx, i)
		}
		if reason := r.limitReached(ctx, i, deadline); reason != "" {
			r.addError(ctx, r.steps[i].Order, "limit", reason, false)
			r.skipFrom(i)
			return nil
		}
		if r.needsApproval(&r.steps[i]) {
			if ok, err := r.approveStep(ctx, i, deadline); !ok || err != nil {
				r.skipFrom(i)
				return err
			}
		}
		ok, err := r.runStep(ctx, i, deadline)
		if r.held {
			// A person was asked and did not answer, refused or cancelled: nothing more
			// is done (an unattended run's step that would have waited has failed).
			if r.steps[i].Status != StepFailed {
				r.steps[i].Status = StepSkipped
			}
			r.skipFrom(i + 1)
			return err
		}
		if err != nil {
			r.steps[i].Status = StepFailed
			r.skipFrom(i + 1)
			return err
		}
		if ok {
			continue
		}
		if workflow.Now(ctx).After(deadline) {
			continue // the next turn reports the deadline
		}
		errs := len(r.res.Errors)
		if !r.replan(ctx, i) {
			if ok, err := r.askHint(ctx, i, deadline, errs); ok || err != nil {
				if err != nil {
					return err
				}
				continue
			}
			r.steps[i].Status = StepFailed
			r.skipFrom(i + 1)
			return nil
		}
	}
	return nil
}

func (r *run) limitReached(ctx workflow.Context, i int, deadline time.Time) string {
	if now := workflow.Now(ctx); now.After(deadline) {
		return fmt.Sprintf("the run's deadline (%s) passed before step %d", r.limits.Deadline, r.steps[i].Order)
	}
	if i >= r.limits.MaxSteps {
		return fmt.Sprintf("the run reached its limit of %d steps", r.limits.MaxSteps)
	}
	if u := r.res.Usage; r.limits.MaxModelCalls > 0 && u.Calls >= r.limits.MaxModelCalls {
		return fmt.Sprintf("the run spent its budget of %d model calls before step %d", r.limits.MaxModelCalls, r.steps[i].Order)
	}
	if u := r.res.Usage; r.limits.MaxTokens > 0 && u.InputTokens+u.OutputTokens+u.ThinkingTokens >= r.limits.MaxTokens {
		return fmt.Sprintf("the run spent its budget of %d model tokens before step %d", r.limits.MaxTokens, r.steps[i].Order)
	}
	if u := r.res.Usage; r.limits.MaxCostUSD > 0 && u.CostUSD >= r.limits.MaxCostUSD {
		return fmt.Sprintf("the run spent its budget of $%.2f (estimated $%.4f) before step %d", r.limits.MaxCostUSD, u.CostUSD, r.steps[i].Order)
	}
	return ""
}

func (r *run) skipFrom(i int) {
	for ; i < len(r.steps); i++ {
		if r.steps[i].Status == StepPending {
			r.steps[i].Status = StepSkipped
		}
	}
}

// attemptStep makes one attempt at a step. The browser tries DOM-first; when the page
// itself does not say which element is meant and a model is configured, the model picks
// it from the numbered screenshot and the browser acts on that; the model then judges what
// the attempt did when the deterministic checks failed, or are too weak to trust alone.
func (r *run) attemptStep(ctx workflow.Context, i, attempt int, deadline time.Time) (activities.RunStepResult, error) {
	rec := &r.steps[i]
	if r.replaying(rec) {
		// Deterministic replay: DOM-first, the learned page state checked, no model.
		return r.attempt(ctx, rec.Step, rec.Order, attempt, activities.PurposeAttempt, rec.Feedback, nil)
	}
	if r.model && rec.Step.Action == plan.Extract {
		return r.extract(ctx, rec, attempt)
	}
	if r.model && rec.Cached && rec.Step.Action.NeedsTarget() {
		// Guided: the model decides each step, with the skill's step as its hint.
		snap, err := r.observe(ctx, fmt.Sprintf("steps/%03d-%d-guided", rec.Order, attempt))
		if err != nil {
			return activities.RunStepResult{}, err
		}
		return r.decideAndAct(ctx, i, attempt, activities.RunStepResult{Before: snap, After: snap}, deadline)
	}
	res, err := r.attempt(ctx, rec.Step, rec.Order, attempt, activities.PurposeAttempt, rec.Feedback, nil)
	if err != nil || res.OK || res.Acted || !r.model {
		return r.evaluate(ctx, rec, res, err)
	}
	return r.decideAndAct(ctx, i, attempt, res, deadline)
}

// decideAndAct has the model decide on the observation res.Before, then the browser act
// on its decision. An action the model asks a person to confirm waits for the approval.
func (r *run) decideAndAct(ctx workflow.Context, i, attempt int, res activities.RunStepResult, deadline time.Time) (activities.RunStepResult, error) {
	rec := &r.steps[i]
	dec, err := r.decide(ctx, rec, attempt, res.Before)
	if err != nil {
		return res, err
	}
	if dec.Failure != nil {
		res.Feedback = dec.Failure
		return res, nil
	}
	d := dec.Decision
	if d.Confirm != "" {
		ok, err := r.confirm(ctx, i, attempt, d, deadline)
		if err != nil || !ok {
			res.Feedback = &plan.Feedback{Type: plan.Other, Details: "not done: it needs a person's approval: " + d.Confirm}
			return res, err
		}
	}
	decided, err := r.attempt(ctx, rec.Step, rec.Order, attempt, activities.PurposeAttempt, rec.Feedback, d)
	if err == nil {
		decided.Actions = append([]string{"the model chose: " + dec.Reason}, decided.Actions...)
		decided.Before = res.Before
	}
	decided, err = r.evaluate(ctx, rec, decided, err)
	if d.Call != nil && err == nil {
		// What came of the tool's action goes back to it if the step is tried again.
		result := "the step's checks passed"
		if !decided.OK && decided.Feedback != nil {
			result = "the step's checks failed: " + decided.Feedback.String()
		}
		rec.computerUse = append(rec.computerUse, activities.ComputerUseTurn{Call: *d.Call, Acknowledged: d.Confirm != "", After: decided.After, Result: result})
	}
	return decided, err
}

// attempt runs one RunStep activity in the run's browser.
func (r *run) attempt(ctx workflow.Context, step plan.Step, seq, attempt int, purpose activities.Purpose, feedback []plan.Feedback, dec *activities.Decision) (activities.RunStepResult, error) {
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
	case dec != nil:
		summary += " (the model's choice)"
	}
	return activities.RunStep.Execute(r.sessionOptions(ctx, timeout, summary), activities.RunStepInput{
		SessionID: r.browser.session.SessionID, KeyPrefix: r.keyPrefix(), Seq: seq, Attempt: attempt, Purpose: purpose,
		Step: step, Params: r.params, WaitBudget: budget, ChangeWithin: r.beforeWait(seq, purpose),
		PaceNext: r.nextActs(seq, step),
		Feedback: feedback, Decision: dec,
		CheckState: r.skill != nil && r.mode() == ModeReplay && step.State != "" && purpose == activities.PurposeAttempt,
		Numbered:   r.model,
	})
}

// observe stores a look at the page without acting.
func (r *run) observe(ctx workflow.Context, name string) (activities.Snapshot, error) {
	return activities.Observe.Execute(r.sessionOptions(ctx, time.Minute, "look at the page"),
		activities.ObserveInput{SessionID: r.browser.session.SessionID, KeyPrefix: r.keyPrefix(), Name: name})
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

// replan asks the planner to rewrite the plan from step i on; false means it could not.
func (r *run) replan(ctx workflow.Context, i int) bool { return r.replanWith(ctx, i, "") }

// replanWith replans with a person's hint, which the run's replan limit does not bound.
func (r *run) replanWith(ctx workflow.Context, i int, hint string) bool {
	rec := &r.steps[i]
	if hint == "" && r.res.Execution.Replans >= r.limits.Replans {
		r.addError(ctx, rec.Order, "replan_limit", fmt.Sprintf("step %d failed after %s and the run has used its %d replans", rec.Order, attempts(rec.Attempts), r.limits.Replans), false)
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
	res, err := activities.Replan.Execute(r.modelOptions(ctx, fmt.Sprintf("replan after step %d failed", rec.Order)), in)
	r.addUsage(rec, "replan", res.Usage)
	if err != nil {
		r.addError(ctx, rec.Order, "replan", rootMessage(err), false)
		return false
	}
	if res.Strategy != activities.StrategyAbort {
		if err := plan.Validate(res.Steps); err != nil {
			r.addError(ctx, rec.Order, "replan", "the new plan cannot be run: "+err.Error(), false)
			return false
		}
	}
	if res.Strategy == activities.StrategyAbort {
		last := ""
		if n := len(rec.Feedback); n > 0 {
			last = rec.Feedback[n-1].String()
		}
		r.addError(ctx, rec.Order, "step_failed", fmt.Sprintf("step %d (%s) failed after %s: %s; %s", rec.Order, rec.Description, attempts(rec.Attempts), last, res.Reason), false)
		return false
	}
	r.res.Execution.Replans++
	r.strategies[rec.Description] = append(r.strategies[rec.Description], res.Strategy)
	for _, s := range res.Steps {
		r.strategies[s.String()] = r.strategies[rec.Description]
	}
	rec.Status = StepReplanned
	r.warn(fmt.Sprintf("step %d (%s) failed after %s; replanned (%s): %s", rec.Order, rec.Description, attempts(rec.Attempts), res.Strategy, res.Reason))
	r.steps = r.steps[:i+1]
	r.appendSteps(res.Steps)
	return true
}
