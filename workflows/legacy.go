package workflows

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// The waits for a person as they were before there was one wait (personWaitVersion): a
// run begun then replays them so, command for command. They differ from awaitPerson in
// what the one wait fixed — approval and doubt ignore a cancel, an answered doubt counts
// as a lost worker, the model's confirmation keeps the browser — and are kept only for
// those runs: delete this file once none is open (the namespace's retention after the
// last worker without the version was stopped).

// legacyWaits reports whether the run began before the one wait.
func legacyWaits(ctx workflow.Context) bool {
	return !patched(ctx, personWaitVersion)
}

// legacyApproveStep holds the step, with the browser released, until a person approves it.
// It reports whether the step may go on; when not, the run is held and ends partial.
func (s *stepRun) legacyApproveStep(ctx workflow.Context) (bool, error) {
	r, rec := s.r, s.rec
	why := "the plan marks it requires_approval"
	if !rec.Step.RequiresApproval {
		why = "the run's policy: every state-changing step waits for a person"
	}
	r.browser.release(ctx)
	ok, err := s.legacyAwaitApproval(ctx, rec.Description, why)
	if err != nil || !ok {
		return false, err
	}
	rec.ApprovedBy = r.people.answer.By
	return true, r.reopen(ctx, s.i)
}

// legacyAskHint waits, with the browser released, for a person's hint for the step, which
// failed after its attempts and replans, and replans with it. It reports whether the plan was
// rewritten; a hint the replanner cannot use is reported and another one awaited. The
// errors from errs on are the step's failure: warnings once a hint rescued it.
func (s *stepRun) legacyAskHint(ctx workflow.Context, errs int) (bool, error) {
	r, rec := s.r, s.rec
	if r.limits.HintTimeout <= 0 {
		return false, nil
	}
	reason := fmt.Sprintf("step %d (%s) failed after %s", rec.Order, rec.Description, attempts(rec.Attempts))
	if n := len(rec.Feedback); n > 0 {
		reason += ": " + rec.Feedback[n-1].String()
	}
	now := workflow.Now(ctx)
	until := now.Add(min(r.limits.HintTimeout, s.deadline.Sub(now)))
	r.people.stuck = &Stuck{Step: rec.Order, Reason: reason, Since: now, Until: until}
	was := r.phase
	r.phase = PhaseAwaitingHint
	r.attrs.set(ctx, StatusWaiting)
	r.browser.release(ctx)
	defer func() {
		r.people.stuck, r.people.hint, r.phase = nil, nil, was
		r.attrs.set(ctx, StatusRunning)
		r.report(ctx)
	}()
	for {
		r.report(ctx)
		workflow.GetLogger(ctx).Info("stuck: waiting for a hint", "step", rec.Order, "reason", reason)
		ok, err := workflow.AwaitWithTimeout(ctx, until.Sub(workflow.Now(ctx)), func() bool { return r.people.hint != nil || r.people.cancelled != nil })
		if err != nil {
			return false, err
		}
		if !ok || r.people.hint == nil {
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
		r.browser.release(ctx)
	}
}

// legacyDecisionApproval holds the step until a person answers the model's request for
// confirmation, or the wait runs out. It reports whether the action may be done; when
// not, the run is held and ends partial, saying why.
func (s *stepRun) legacyDecisionApproval(ctx workflow.Context, d *activities.Decision) (bool, error) {
	action := "an action"
	if d.Call != nil {
		action = d.Call.String()
	}
	if d.Point != nil {
		action += fmt.Sprintf(" at (%.0f, %.0f)", d.Point[0], d.Point[1])
	}
	return s.legacyAwaitApproval(ctx, action, d.Confirm)
}

// legacyAwaitApproval holds the step until a person answers, or the wait runs out; reason is
// why a person is asked.
func (s *stepRun) legacyAwaitApproval(ctx workflow.Context, action, reason string) (bool, error) {
	r, rec, attempt := s.r, s.rec, s.attempt
	now := workflow.Now(ctx)
	wait := min(r.limits.ApprovalTimeout, s.deadline.Sub(now))
	r.people.pending = &PendingApproval{Step: rec.Order, Attempt: attempt, Action: action, Reason: reason, Since: now, Until: now.Add(wait)}
	r.people.answer = nil
	phase := r.phase
	r.phase = PhaseAwaitingApproval
	r.attrs.set(ctx, StatusWaiting)
	r.report(ctx)
	defer func() {
		r.phase, r.people.pending = phase, nil
		r.attrs.set(ctx, StatusRunning)
		r.report(ctx)
	}()
	workflow.GetLogger(ctx).Info("waiting for approval", "step", rec.Order, "action", action, "reason", reason)
	answered, err := workflow.AwaitWithTimeout(ctx, wait, func() bool { return r.people.answer != nil })
	if err != nil {
		return false, err
	}
	switch {
	case !answered:
		r.held = true
		r.res.addError(ctx, rec.Order, "needs_approval", fmt.Sprintf(
			"step %d waits for a person's approval of %s (%s), and none came within %s; nothing was done. Start the run again and answer the approve Update while it waits",
			rec.Order, action, reason, wait), false)
		return false, nil
	case !r.people.answer.Approve:
		r.held = true
		r.res.addError(ctx, rec.Order, "approval_refused", fmt.Sprintf("%s refused %s for step %d (%s)%s; nothing was done",
			r.people.answer.By, action, rec.Order, reason, note(r.people.answer.Note)), false)
		return false, nil
	}
	rec.Actions = append(rec.Actions, fmt.Sprintf("attempt %d: %s approved %s (asked: %s)%s", attempt, r.people.answer.By, action, reason, note(r.people.answer.Note)))
	return true, nil
}

// legacyAskPerson waits for a person to answer a step in doubt, with the browser released.
func (s *stepRun) legacyAskPerson(ctx workflow.Context, reason string) (done, again bool, err error) {
	r, rec := s.r, s.rec
	now := workflow.Now(ctx)
	wait := min(r.limits.ApprovalTimeout, s.deadline.Sub(now))
	r.people.doubt = &Doubt{Step: rec.Order, Reason: reason, Since: now, Until: now.Add(wait)}
	r.people.resolution = nil
	phase := r.phase
	r.phase = PhaseAwaitingApproval
	r.attrs.set(ctx, StatusWaiting)
	r.browser.close(ctx)
	r.report(ctx)
	defer func() {
		r.phase, r.people.doubt = phase, nil
		r.attrs.set(ctx, StatusRunning)
	}()
	workflow.GetLogger(ctx).Warn("step in doubt: asking a person", "step", rec.Order, "reason", reason)
	answered, err := workflow.AwaitWithTimeout(ctx, wait, func() bool { return r.people.resolution != nil })
	if err != nil {
		return false, false, err
	}
	if !answered {
		r.held = true
		r.res.addError(ctx, rec.Order, "in_doubt", reason+fmt.Sprintf("; nobody answered the resolve Update within %s, so nothing more was done", wait), false)
		return false, false, nil
	}
	a := r.people.resolution
	if a.Decision == "abort" {
		r.held = true
		r.res.addError(ctx, rec.Order, "in_doubt", fmt.Sprintf("%s; %s ended the run%s", reason, a.By, note(a.Note)), false)
		return false, false, nil
	}
	// The browser was released: rebuild it at the page the step starts from.
	if err := r.recover(ctx, s.i, errors.New("the browser was released while a person decided"), true); err != nil {
		return false, false, err
	}
	rec.Actions = append(rec.Actions, fmt.Sprintf("%s answered %q for the step in doubt%s", a.By, a.Decision, note(a.Note)))
	if a.Decision == "done" {
		rec.Mutated = true
		return true, false, nil
	}
	return false, true, nil
}
