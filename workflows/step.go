package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// stepRun is one step of a run while the run is on it: which step, its record, the attempt
// it is making and the run's deadline. What the run does for one step is its work — the
// attempts, a doubt about one, the model's decisions, a person's approval or hint — and
// reads these from here; the run keeps what spans the goal: the plan and its replans, the
// browser's lifetime and the result.
type stepRun struct {
	r *run
	// i is the step's index in the run's steps, and rec its record there. A replan
	// rewrites the steps after i, never i itself.
	i   int
	rec *StepRecord
	// attempt is the attempt being made, or about to be: the step's attempts so far and one.
	attempt  int
	deadline time.Time
	// decided says the attempt acts on the model's choice of element; vetoed, that the
	// evaluator found what it did wrong.
	decided, vetoed bool
	// replanNow says the step's attempts are over before its limit: the model found
	// nothing on the page to do it with, and the page will not change by asking again.
	replanNow bool
	// wrongEffect says the step sent a state-changing request the evaluator found wrong:
	// the run stops.
	wrongEffect bool
}

// step starts the work on step i, which must be done by deadline.
func (r *run) step(i int, deadline time.Time) *stepRun {
	rec := &r.steps[i]
	return &stepRun{r: r, i: i, rec: rec, attempt: rec.Attempts + 1, deadline: deadline}
}

// replaying reports whether the step is a skill's step replayed without a model.
func (s *stepRun) replaying() bool { return s.rec.Cached && s.r.mode() == ModeReplay }

// limitReached says which of the run's limits stops it before the step, if one does.
func (s *stepRun) limitReached(ctx workflow.Context) string {
	r, order := s.r, s.rec.Order
	if now := workflow.Now(ctx); now.After(s.deadline) {
		return fmt.Sprintf("the run's deadline (%s) passed before step %d", r.limits.Deadline, order)
	}
	if s.i >= r.limits.MaxSteps {
		return fmt.Sprintf("the run reached its limit of %d steps", r.limits.MaxSteps)
	}
	if spent := r.budgetSpent(); spent != "" {
		return fmt.Sprintf("%s before step %d", spent, order)
	}
	return ""
}

// once makes one attempt at the step. The browser tries DOM-first; when the page itself
// does not say which element is meant and a model is configured, the model picks it from
// the numbered screenshot and the browser acts on that; the model then judges what the
// attempt did when the deterministic checks failed, or are too weak to trust alone.
func (s *stepRun) once(ctx workflow.Context) (activities.RunStepResult, error) {
	r, rec := s.r, s.rec
	if s.replaying() {
		// Deterministic replay: DOM-first, the learned page state checked, no model.
		return s.act(ctx, nil)
	}
	s.decided, s.vetoed = false, false
	if r.model && rec.Step.Action == plan.Extract {
		return s.extract(ctx)
	}
	if r.model && rec.Cached && rec.Step.Action.NeedsTarget() {
		// Guided: the model decides each step, with the skill's step as its hint.
		snap, err := r.observe(ctx, fmt.Sprintf("steps/%03d-%d-guided", rec.Order, s.attempt))
		if err != nil {
			return activities.RunStepResult{}, err
		}
		return s.decideAndAct(ctx, activities.RunStepResult{Before: snap, After: snap})
	}
	res, err := s.act(ctx, nil)
	if err != nil || res.OK || res.Acted || !r.model {
		return s.evaluate(ctx, res, err)
	}
	return s.decideAndAct(ctx, res)
}

// decideAndAct has the model decide on the observation res.Before, then the browser act
// on its decision. An action the model asks a person to confirm waits for the approval.
// The model is told what DOM-first resolution found on the same page (res.Feedback: its
// reason and candidates). A model that finds nothing to act on ends the step's attempts:
// nothing acted, so the page is what it was, and asking again would get the same answer;
// the replan starts at once, with the model's reason and the page's candidates.
func (s *stepRun) decideAndAct(ctx workflow.Context, res activities.RunStepResult) (activities.RunStepResult, error) {
	rec := s.rec
	dec, err := s.decide(ctx, res.Before, res.Feedback)
	if err != nil {
		return res, err
	}
	if f := dec.Failure; f != nil {
		if f.Type == plan.NotVisible && s.r.wary {
			s.replanNow = true
			if res.Feedback != nil {
				f.Candidates = append(f.Candidates, res.Feedback.Candidates...)
				f.Details += "; the page's own search: " + res.Feedback.Details
			}
		}
		res.Feedback = f
		return res, nil
	}
	d := dec.Decision
	if d.Confirm != "" {
		ok, err := s.confirm(ctx, d)
		if err != nil || !ok {
			res.Feedback = &plan.Feedback{Type: plan.Other, Details: "not done: it needs a person's approval: " + d.Confirm}
			return res, err
		}
	}
	s.decided, rec.ModelPicked = true, true
	decided, err := s.act(ctx, d)
	if err == nil {
		decided.Actions = append([]string{"the model chose: " + dec.Reason}, decided.Actions...)
		decided.Before = res.Before
	}
	decided, err = s.evaluate(ctx, decided, err)
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

// act runs the attempt in the run's browser, on the model's decision dec when there is one.
func (s *stepRun) act(ctx workflow.Context, dec *activities.Decision) (activities.RunStepResult, error) {
	return s.r.browserStep(ctx, activities.RunStepInput{Step: s.rec.Step, Seq: s.rec.Order, Attempt: s.attempt,
		Purpose: activities.PurposeAttempt, Feedback: s.rec.Feedback, Decision: dec, Avoid: s.rec.Avoided, BeforeText: s.rec.before.TextKey == ""})
}
