package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/plan"
)

// People take part in a run through Updates, each validated before it is accepted (an
// Update that has nothing to act on, or says who answers, a note or a hint past the caps
// of answers.go, is refused, and never enters the history):
//
//   - pause / resume / cancel: a paused run stops before its next step and releases its
//     browser until it is resumed; a cancelled one stops before its next step and ends
//     partial (or failed, with nothing done), saying who cancelled it.
//   - approve (Approval): a step the plan marks requires_approval, or every step that may
//     send a request when the run's policy says so (approve: "state-changing"), waits for
//     a person before it acts; approve: false refuses it and the run ends without it.
//   - hint (Hint): a run whose step failed after its attempts and replans waits, for
//     limits.hintTimeout, for a person's hint, which goes to the replanner (the offline
//     planner reads it as steps to do first: 'click "Advanced"').
//
// A run that waits for a person releases its browser (its cookies and storage are saved
// after every step) and opens it again, as after a lost worker, when answered.

// Update names.
const (
	PauseUpdate  = "pause"
	ResumeUpdate = "resume"
	CancelUpdate = "cancel"
	HintUpdate   = "hint"
)

// ApprovalPolicy says which steps wait for a person's approval besides those the plan
// marks requires_approval.
type ApprovalPolicy string

// Approval policies.
const (
	ApproveMarked        ApprovalPolicy = ""
	ApproveStateChanging ApprovalPolicy = "state-changing"
)

// Control is a person's pause, resume or cancel.
type Control struct {
	By   string `json:"by"`
	Note string `json:"note,omitempty"`
}

// ControlResult says what an Update did.
type ControlResult struct {
	Outcome string `json:"outcome"`
}

// Hint is a person's advice for a stuck run.
type Hint struct {
	// Step is the stuck step, as the progress query shows it (0: whichever is stuck).
	Step int    `json:"step,omitempty"`
	Text string `json:"text"`
	By   string `json:"by"`
}

// Stuck is a step that failed after its attempts and replans, waiting for a hint.
type Stuck struct {
	Step   int       `json:"step"`
	Reason string    `json:"reason"`
	Since  time.Time `json:"since"`
	Until  time.Time `json:"until"`
}

// Paused says who paused the run, and since when.
type Paused struct {
	By    string    `json:"by"`
	Note  string    `json:"note,omitempty"`
	Since time.Time `json:"since"`
}

func (r *run) registerPeople(ctx workflow.Context) error {
	for _, u := range []struct {
		name     string
		handler  any
		validate any
	}{
		{PauseUpdate, r.pause, r.validatePause},
		{ResumeUpdate, r.resume, r.validateResume},
		{CancelUpdate, r.cancel, r.validateCancel},
		{HintUpdate, r.takeHint, r.validateHint},
	} {
		if err := workflow.SetUpdateHandlerWithOptions(ctx, u.name, u.handler, workflow.UpdateHandlerOptions{Validator: u.validate}); err != nil {
			return err
		}
	}
	return nil
}

func (r *run) validatePause(c Control) error {
	switch {
	case r.phase == PhaseDone:
		return errors.New("the run is over")
	case r.people.paused != nil:
		return fmt.Errorf("the run was already paused by %s", r.people.paused.By)
	case r.people.cancelled != nil:
		return fmt.Errorf("the run was cancelled by %s", r.people.cancelled.By)
	}
	return CheckAnswer(c.By, c.Note)
}

func (r *run) pause(ctx workflow.Context, c Control) (ControlResult, error) {
	r.people.paused = &Paused{By: c.By, Note: c.Note, Since: workflow.Now(ctx)}
	return ControlResult{Outcome: "paused: the run stops before its next step and releases its browser until it is resumed"}, nil
}

func (r *run) validateResume(c Control) error {
	if r.people.paused == nil {
		return errors.New("the run is not paused")
	}
	return CheckAnswer(c.By, c.Note)
}

func (r *run) resume(ctx workflow.Context, c Control) (ControlResult, error) {
	r.people.resumedBy, r.people.paused = c.By, nil
	return ControlResult{Outcome: "resumed"}, nil
}

func (r *run) validateCancel(c Control) error {
	switch {
	case r.phase == PhaseDone:
		return errors.New("the run is over")
	case r.people.cancelled != nil:
		return fmt.Errorf("the run was already cancelled by %s", r.people.cancelled.By)
	}
	return CheckAnswer(c.By, c.Note)
}

func (r *run) cancel(ctx workflow.Context, c Control) (ControlResult, error) {
	r.people.cancelled = &c
	return ControlResult{Outcome: "cancelled: the run stops before its next step"}, nil
}

func (r *run) validateHint(h Hint) error {
	switch {
	case r.people.stuck == nil:
		return errors.New("no step is stuck: a hint is taken when a step failed after its attempts and replans (the progress query shows it)")
	case h.Step != 0 && h.Step != r.people.stuck.Step:
		return fmt.Errorf("step %d is stuck, not step %d", r.people.stuck.Step, h.Step)
	case r.people.hint != nil:
		return fmt.Errorf("step %d already has a hint from %s", r.people.stuck.Step, r.people.hint.By)
	}
	if err := CheckHint(h.Text); err != nil {
		return err
	}
	return CheckAnswer(h.By, "")
}

func (r *run) takeHint(ctx workflow.Context, h Hint) (ControlResult, error) {
	r.people.hint = &h
	return ControlResult{Outcome: fmt.Sprintf("step %d: the hint goes to the replanner", r.people.stuck.Step)}, nil
}

// between is called before step i: it waits while the run is paused and says whether the
// run was cancelled.
func (r *run) between(ctx workflow.Context, i int, deadline time.Time) (stop bool, err error) {
	if r.people.paused != nil && r.people.cancelled == nil {
		p := *r.people.paused
		w, err := r.awaitPerson(ctx, personWait{kind: waitPause, step: i, asked: "was paused by " + p.By, until: deadline,
			answered: func() bool { return r.people.paused == nil }})
		switch {
		case err != nil:
			return true, err
		case w == cancelledByPerson:
			return true, nil
		case w == timedOut:
			r.held = true
			r.addError(ctx, r.steps[i].Order, "paused", fmt.Sprintf("%s paused the run before step %d%s, and it was not resumed before its deadline", p.By, r.steps[i].Order, note(p.Note)), false)
			return true, nil
		}
		r.steps[i].Actions = append(r.steps[i].Actions, fmt.Sprintf("%s paused the run before this step%s; %s resumed it", p.By, note(p.Note), r.people.resumedBy))
	}
	if c := r.people.cancelled; c != nil {
		r.held = true
		r.addError(ctx, r.steps[i].Order, "cancelled", fmt.Sprintf("%s cancelled the run before step %d%s", c.By, r.steps[i].Order, note(c.Note)), false)
		return true, nil
	}
	return false, r.reopen(ctx, i)
}

// needsApproval says whether step rec waits for a person before it acts.
func (r *run) needsApproval(rec *StepRecord) bool {
	if rec.ApprovedBy != "" {
		return false
	}
	spec := rec.Step.Action.Spec()
	return spec.Acts && (rec.Step.RequiresApproval || (r.in.Approve == ApproveStateChanging && spec.MaySubmit))
}

// approveStep holds step i, with the browser released, until a person approves it. It
// reports whether the step may go on; when not, the run is held and ends partial.
func (r *run) approveStep(ctx workflow.Context, i int, deadline time.Time) (bool, error) {
	if r.legacyWaits(ctx) {
		return r.legacyApproveStep(ctx, i, deadline)
	}
	rec := &r.steps[i]
	why := "the plan marks it requires_approval"
	if !rec.Step.RequiresApproval {
		why = "the run's policy: every state-changing step waits for a person"
	}
	ok, err := r.awaitApproval(ctx, waitApproval, i, rec.Attempts+1, rec.Description, why, deadline)
	if err != nil || !ok {
		return false, err
	}
	rec.ApprovedBy = r.people.answer.By
	return true, r.reopen(ctx, i)
}

// askHint waits, with the browser released, for a person's hint for step i, which failed
// after its attempts and replans, and replans with it. It reports whether the plan was
// rewritten; a hint the replanner cannot use is reported and another one awaited. The
// errors from errs on are the step's failure: warnings once a hint rescued it. An
// unattended run asks nobody: the step fails with its own reason.
func (r *run) askHint(ctx workflow.Context, i int, deadline time.Time, errs int) (bool, error) {
	if r.limits.HintTimeout <= 0 || r.in.Unattended {
		return false, nil
	}
	if r.legacyWaits(ctx) {
		return r.legacyAskHint(ctx, i, deadline, errs)
	}
	rec := &r.steps[i]
	reason := fmt.Sprintf("step %d (%s) failed after %s", rec.Order, rec.Description, attempts(rec.Attempts))
	if n := len(rec.Feedback); n > 0 {
		reason += ": " + rec.Feedback[n-1].String()
	}
	now := workflow.Now(ctx)
	until := now.Add(min(r.limits.HintTimeout, deadline.Sub(now)))
	r.people.stuck = &Stuck{Step: rec.Order, Reason: reason, Since: now, Until: until}
	defer func() { r.people.stuck, r.people.hint = nil, nil }()
	for {
		w, err := r.awaitPerson(ctx, personWait{kind: waitHint, step: i, asked: "failed after its attempts and replans: " + reason, until: until,
			answered: func() bool { return r.people.hint != nil }})
		switch {
		case err != nil:
			return false, err
		case w == cancelledByPerson:
			return false, nil
		case w == timedOut:
			r.addError(ctx, rec.Order, "no_hint", fmt.Sprintf("%s; nobody sent a hint (the hint Update) within %s", reason, r.limits.HintTimeout), false)
			return false, nil
		}
		h := *r.people.hint
		if err := r.reopen(ctx, i); err != nil {
			return false, err
		}
		rec.Actions = append(rec.Actions, fmt.Sprintf("%s sent a hint: %q", h.By, h.Text))
		if r.replanWith(ctx, i, h.Text) {
			// The hint rescued the step: what replanning said before is history, not an error.
			for _, e := range r.res.Errors[errs:] {
				r.warn(fmt.Sprintf("step %d: %s (before the hint)", e.Step, e.Message))
			}
			r.res.Errors = r.res.Errors[:errs]
			return true, nil
		}
		rec.Feedback = append(rec.Feedback, plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("the hint %q could not be used", h.Text)})
		r.people.stuck.Reason = fmt.Sprintf("%s; the hint %q could not be used: send another", reason, h.Text)
		r.people.hint = nil
	}
}
