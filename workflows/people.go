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

// register sets the handlers of the Updates people send a run.
func (p *people) register(ctx workflow.Context) error {
	for _, u := range []struct {
		name     string
		handler  any
		validate any
	}{
		{PauseUpdate, p.pause, p.validatePause},
		{ResumeUpdate, p.resume, p.validateResume},
		{CancelUpdate, p.cancel, p.validateCancel},
		{HintUpdate, p.takeHint, p.validateHint},
		{ApproveUpdate, p.approve, p.validateApproval},
		{ResolveUpdate, p.resolve, p.validateResolution},
	} {
		if err := workflow.SetUpdateHandlerWithOptions(ctx, u.name, u.handler, workflow.UpdateHandlerOptions{Validator: u.validate}); err != nil {
			return err
		}
	}
	return nil
}

// validatePause refuses a pause of a run that is over, paused or cancelled.
func (p *people) validatePause(c Control) error {
	switch {
	case *p.phase == PhaseDone:
		return errors.New("the run is over")
	case p.paused != nil:
		return fmt.Errorf("the run was already paused by %s", p.paused.By)
	case p.cancelled != nil:
		return fmt.Errorf("the run was cancelled by %s", p.cancelled.By)
	}
	return CheckAnswer(c.By, c.Note)
}

// pause takes a person's pause: the run stops before its next step.
func (p *people) pause(ctx workflow.Context, c Control) (ControlResult, error) {
	p.paused = &Paused{By: c.By, Note: c.Note, Since: workflow.Now(ctx)}
	return ControlResult{Outcome: "paused: the run stops before its next step and releases its browser until it is resumed"}, nil
}

// validateResume refuses a resume of a run that is not paused.
func (p *people) validateResume(c Control) error {
	if p.paused == nil {
		return errors.New("the run is not paused")
	}
	return CheckAnswer(c.By, c.Note)
}

// resume takes a person's resume.
func (p *people) resume(ctx workflow.Context, c Control) (ControlResult, error) {
	p.resumedBy, p.paused = c.By, nil
	return ControlResult{Outcome: "resumed"}, nil
}

// validateCancel refuses a cancel of a run that is over or cancelled.
func (p *people) validateCancel(c Control) error {
	switch {
	case *p.phase == PhaseDone:
		return errors.New("the run is over")
	case p.cancelled != nil:
		return fmt.Errorf("the run was already cancelled by %s", p.cancelled.By)
	}
	return CheckAnswer(c.By, c.Note)
}

// cancel takes a person's cancel: the run stops before its next step.
func (p *people) cancel(ctx workflow.Context, c Control) (ControlResult, error) {
	p.cancelled = &c
	return ControlResult{Outcome: "cancelled: the run stops before its next step"}, nil
}

// validateHint refuses a hint when no step is stuck, or another one is, or it has one.
func (p *people) validateHint(h Hint) error {
	switch {
	case p.stuck == nil:
		return errors.New("no step is stuck: a hint is taken when a step failed after its attempts and replans (the progress query shows it)")
	case h.Step != 0 && h.Step != p.stuck.Step:
		return fmt.Errorf("step %d is stuck, not step %d", p.stuck.Step, h.Step)
	case p.hint != nil:
		return fmt.Errorf("step %d already has a hint from %s", p.stuck.Step, p.hint.By)
	}
	if err := CheckHint(h.Text); err != nil {
		return err
	}
	return CheckAnswer(h.By, "")
}

// takeHint takes a person's hint for the stuck step.
func (p *people) takeHint(ctx workflow.Context, h Hint) (ControlResult, error) {
	p.hint = &h
	return ControlResult{Outcome: fmt.Sprintf("step %d: the hint goes to the replanner", p.stuck.Step)}, nil
}

// between is called before the step: it waits while the run is paused and says whether
// the run was cancelled.
func (s *stepRun) between(ctx workflow.Context) (stop bool, err error) {
	r, rec := s.r, s.rec
	if r.people.paused != nil && r.people.cancelled == nil {
		p := *r.people.paused
		w, err := s.awaitPerson(ctx, personWait{kind: waitPause, asked: "was paused by " + p.By, until: s.deadline,
			answered: func() bool { return r.people.paused == nil }})
		switch {
		case err != nil:
			return true, err
		case w == cancelledByPerson:
			return true, nil
		case w == timedOut:
			r.held = true
			r.res.addError(ctx, rec.Order, "paused", fmt.Sprintf("%s paused the run before step %d%s, and it was not resumed before its deadline", p.By, rec.Order, note(p.Note)), false)
			return true, nil
		}
		rec.Actions = append(rec.Actions, fmt.Sprintf("%s paused the run before this step%s; %s resumed it", p.By, note(p.Note), r.people.resumedBy))
	}
	if c := r.people.cancelled; c != nil {
		r.held = true
		r.res.addError(ctx, rec.Order, "cancelled", fmt.Sprintf("%s cancelled the run before step %d%s", c.By, rec.Order, note(c.Note)), false)
		return true, nil
	}
	return false, r.reopen(ctx, s.i)
}

// needsApproval says whether the step waits for a person before it acts.
func (s *stepRun) needsApproval() bool {
	rec := s.rec
	if rec.ApprovedBy != "" {
		return false
	}
	spec := rec.Step.Action.Spec()
	return spec.Acts && (rec.Step.RequiresApproval || (s.r.in.Approve == ApproveStateChanging && spec.MaySubmit))
}

// approveStep holds the step, with the browser released, until a person approves it. It
// reports whether the step may go on; when not, the run is held and ends partial.
func (s *stepRun) approveStep(ctx workflow.Context) (bool, error) {
	if legacyWaits(ctx) {
		return s.legacyApproveStep(ctx)
	}
	rec := s.rec
	why := "the plan marks it requires_approval"
	if !rec.Step.RequiresApproval {
		why = "the run's policy: every state-changing step waits for a person"
	}
	ok, err := s.awaitApproval(ctx, waitApproval, rec.Description, why)
	if err != nil || !ok {
		return false, err
	}
	rec.ApprovedBy = s.r.people.answer.By
	return true, s.r.reopen(ctx, s.i)
}

// askHint waits, with the browser released, for a person's hint for the step, which failed
// after its attempts and replans, and replans with it. It reports whether the plan was
// rewritten; a hint the replanner cannot use is reported and another one awaited. The
// errors from errs on are the step's failure: warnings once a hint rescued it. An
// unattended run asks nobody: the step fails with its own reason.
func (s *stepRun) askHint(ctx workflow.Context, errs int) (bool, error) {
	r, rec := s.r, s.rec
	if r.limits.HintTimeout <= 0 || r.in.Unattended {
		return false, nil
	}
	if legacyWaits(ctx) {
		return s.legacyAskHint(ctx, errs)
	}
	reason := fmt.Sprintf("step %d (%s) failed after %s", rec.Order, rec.Description, attempts(rec.Attempts))
	if n := len(rec.Feedback); n > 0 {
		reason += ": " + rec.Feedback[n-1].String()
	}
	now := workflow.Now(ctx)
	until := now.Add(min(r.limits.HintTimeout, s.deadline.Sub(now)))
	r.people.stuck = &Stuck{Step: rec.Order, Reason: reason, Since: now, Until: until}
	defer func() { r.people.stuck, r.people.hint = nil, nil }()
	for {
		w, err := s.awaitPerson(ctx, personWait{kind: waitHint, asked: "failed after its attempts and replans: " + reason, until: until,
			answered: func() bool { return r.people.hint != nil }})
		switch {
		case err != nil:
			return false, err
		case w == cancelledByPerson:
			return false, nil
		case w == timedOut:
			r.res.addError(ctx, rec.Order, "no_hint", fmt.Sprintf("%s; nobody sent a hint (the hint Update) within %s", reason, r.limits.HintTimeout), false)
			return false, nil
		}
		h := *r.people.hint
		if err := r.reopen(ctx, s.i); err != nil {
			return false, err
		}
		rec.Actions = append(rec.Actions, fmt.Sprintf("%s sent a hint: %q", h.By, h.Text))
		if r.replan(ctx, s.i, h.Text) {
			// The hint rescued the step: what replanning said before is history, not an error.
			r.res.rescued(errs)
			return true, nil
		}
		rec.Feedback = append(rec.Feedback, plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("the hint %q could not be used", h.Text)})
		r.people.stuck.Reason = fmt.Sprintf("%s; the hint %q could not be used: send another", reason, h.Text)
		r.people.hint = nil
	}
}
