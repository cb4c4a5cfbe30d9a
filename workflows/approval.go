package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
)

// PendingApproval is an action the model asks a person to confirm before it is done.
type PendingApproval struct {
	Step    int `json:"step"`
	Attempt int `json:"attempt"`
	// Action is what would be done: the computer-use tool's call and the point it maps to.
	Action string `json:"action"`
	// Reason is why the model asks: its safety decision's explanation.
	Reason string    `json:"reason"`
	Since  time.Time `json:"since"`
	// Until is when the run stops waiting and ends partial.
	Until time.Time `json:"until"`
}

// Approval is a person's answer to a PendingApproval, sent with the approve Update.
type Approval struct {
	// Step is the step waiting, as the progress query shows it: an answer meant for
	// another step is refused.
	Step int `json:"step"`
	// Approve does the action; false refuses it, and the run ends without it.
	Approve bool `json:"approve"`
	// By says who answered, for the record.
	By   string `json:"by"`
	Note string `json:"note,omitempty"`
}

// ApprovalResult is what the approve Update answers.
type ApprovalResult struct {
	Step    int    `json:"step"`
	Action  string `json:"action"`
	Outcome string `json:"outcome"`
}

// validateApproval refuses an answer that has nothing to answer, or answers another step,
// before it is written to the history.
func (p *people) validateApproval(a Approval) error {
	switch {
	case p.pending == nil:
		return errors.New("nothing is waiting for approval: the progress query shows what is")
	case a.Step != p.pending.Step:
		return fmt.Errorf("step %d is waiting for approval, not step %d", p.pending.Step, a.Step)
	case p.answer != nil:
		return fmt.Errorf("step %d was already answered by %s", p.pending.Step, p.answer.By)
	}
	return CheckAnswer(a.By, a.Note)
}

// approve takes a person's answer.
func (p *people) approve(ctx workflow.Context, a Approval) (ApprovalResult, error) {
	p.answer = &a
	out := "approved: the action is done now"
	if !a.Approve {
		out = "refused: the action is not done and the run ends"
	}
	return ApprovalResult{Step: p.pending.Step, Action: p.pending.Action, Outcome: out}, nil
}

// confirm holds the step until a person confirms the action the model decided, with the
// browser released; it reports whether the action may be done, on the reopened browser.
func (s *stepRun) confirm(ctx workflow.Context, d *activities.Decision) (bool, error) {
	if legacyWaits(ctx) {
		return s.legacyDecisionApproval(ctx, d)
	}
	action := "an action"
	if d.Call != nil {
		action = d.Call.String()
	}
	if d.Point != nil {
		action += fmt.Sprintf(" at (%.0f, %.0f)", d.Point[0], d.Point[1])
	}
	ok, err := s.awaitApproval(ctx, waitConfirm, action, d.Confirm)
	if err != nil || !ok {
		return false, err
	}
	return true, s.r.reopen(ctx, s.i)
}

// awaitApproval holds the step until a person answers, or the wait runs out; reason is why
// a person is asked. It reports whether the action (of the attempt about to be made) may
// be done; when not, the run is held (or, unattended, the step failed) and the errors say
// why.
func (s *stepRun) awaitApproval(ctx workflow.Context, kind waitKind, action, reason string) (bool, error) {
	r, rec, attempt := s.r, s.rec, s.attempt
	now := workflow.Now(ctx)
	wait := min(r.limits.ApprovalTimeout, s.deadline.Sub(now))
	r.people.pending = &PendingApproval{Step: rec.Order, Attempt: attempt, Action: action, Reason: reason, Since: now, Until: now.Add(wait)}
	r.people.answer = nil
	defer func() { r.people.pending = nil }()
	w, err := s.awaitPerson(ctx, personWait{kind: kind, asked: fmt.Sprintf("needs a person's approval of %s (%s)", action, reason), until: now.Add(wait),
		answered: func() bool { return r.people.answer != nil }})
	switch {
	case err != nil || w == cancelledByPerson || w == unattended:
		return false, err
	case w == timedOut:
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

func note(n string) string {
	if strings.TrimSpace(n) == "" {
		return ""
	}
	return ": " + n
}
