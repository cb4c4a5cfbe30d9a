package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// An attempt that may have acted is never repeated blindly. The browser step records,
// durably, right before it acts, that it may act: an object in the store
// (activities.IntentKey), or in runs begun before those, a signal to the run
// (ActingSignal). An attempt that recorded it and then was lost, or failed, or sent a
// state-changing request and failed its check, is "in doubt": the run looks for the
// step's effect on the page before anything else, and only repeats the step when it
// cannot have changed anything on the server. When it cannot tell, it asks a person (the
// resolve Update).

// ResolveUpdate answers a step in doubt: a Resolution in, a ResolutionResult out.
const ResolveUpdate = "resolve"

// Resolution is a person's answer for a step in doubt.
type Resolution struct {
	Step int `json:"step"`
	// Decision is "done" (the effect is there: go on), "repeat" (do the step again) or
	// "abort" (end the run).
	Decision string `json:"decision"`
	By       string `json:"by"`
	Note     string `json:"note,omitempty"`
}

// ResolutionResult is what the resolve Update answers.
type ResolutionResult struct {
	Step    int    `json:"step"`
	Outcome string `json:"outcome"`
}

// Doubt is a step waiting for a person to say whether its effect happened.
type Doubt struct {
	Step   int       `json:"step"`
	Reason string    `json:"reason"`
	Since  time.Time `json:"since"`
	Until  time.Time `json:"until"`
}

func actingKey(seq, attempt int) string { return fmt.Sprintf("%d/%d", seq, attempt) }

// intentObject is the change (bundled in allPatches) by which attempts record their intent
// to act as objects in the store rather than as signals to the run.
const intentObject = "intent-object"

// acting is how the run learns which attempts recorded that they were about to act.
type acting struct {
	// objects: as objects in the store, asked for when an attempt ended in an error.
	objects bool
	// told are the attempts that signalled it (runs begun before the objects), by actingKey.
	told map[string]bool
}

// drain reads the browser steps' signals that they were about to act.
func (a *acting) drain(ctx workflow.Context) {
	ch := workflow.GetSignalChannel(ctx, activities.ActingSignal)
	for {
		var n activities.ActingNotice
		if !ch.ReceiveAsync(&n) {
			return
		}
		if a.told == nil {
			a.told = map[string]bool{}
		}
		a.told[actingKey(n.Seq, n.Attempt)] = true
	}
}

// intended reports whether the attempt recorded that it was about to act, for an attempt
// that ended in err (an attempt that ended without one says so in its result). Its intent
// object is asked for on any worker; when the store cannot say, the attempt is taken to
// have acted: it is never repeated on a guess.
func (s *stepRun) intended(ctx workflow.Context, err error) bool {
	a, rec := &s.r.acting, s.rec
	// A worker of the version before the objects signals even in a run that has them
	// (it does not know the attempt's Intent): its signal counts too.
	a.drain(ctx)
	if told := a.told[actingKey(rec.Order, s.attempt)]; told || !a.objects {
		return told
	}
	if err == nil || temporal.IsCanceledError(err) || modelFatal(err) {
		return false
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:           workflow.GetInfo(ctx).TaskQueueName,
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 10, InitialInterval: time.Second},
		Summary:             fmt.Sprintf("step %d attempt %d: did it begin to act?", rec.Order, s.attempt),
	})
	res, ierr := activities.Intended.Execute(actx, activities.IntendedInput{KeyPrefix: s.r.res.Metadata.keyPrefix(), Seq: rec.Order, Attempt: s.attempt})
	return ierr != nil || res.Told
}

// effect looks for a step's effect on the page as it is now: the checks the plan makes
// right after the step (its ASSERTs before the next action), or, with none, the model's
// judgement of the page against the one before the step. present is meaningful only when
// known is true; how says what was looked at.
func (s *stepRun) effect(ctx workflow.Context) (present, known bool, how string, err error) {
	r, rec := s.r, s.rec
	var checks []plan.Step
	for _, next := range r.steps[s.i+1:] {
		if next.Step.Action != plan.Assert {
			if next.Step.Action.Spec().Acts {
				break
			}
			continue
		}
		checks = append(checks, next.Step)
	}
	if len(checks) > 0 {
		res, err := activities.ValidateGoal.Execute(r.sessionOptions(ctx, 2*time.Minute, fmt.Sprintf("step %d: look for its effect", rec.Order)),
			activities.ValidateGoalInput{SessionID: r.browser.session.SessionID, KeyPrefix: r.res.Metadata.keyPrefix(), Goal: r.in.Goal, Checks: checks, Params: r.params, Baseline: rec.before.TextKey})
		if err != nil {
			return false, false, "", err
		}
		names := make([]string, len(checks))
		for k, c := range checks {
			names[k] = c.Described(r.params)
		}
		how := "the plan's next checks (" + strings.Join(names, "; ") + "): " + res.Reason
		if res.Inconclusive || (rec.before.TextKey == "" && res.Success) {
			if !res.Inconclusive {
				how += "; but whether they held before the step is not known"
			}
			return false, false, how, nil
		}
		return res.Success, true, how, nil
	}
	if !r.model {
		return false, false, "the plan has no check after this step and no model is configured", nil
	}
	after, err := r.observe(ctx, fmt.Sprintf("steps/%03d-doubt", rec.Order))
	if err != nil {
		return false, false, "", err
	}
	ev, err := askModel(ctx, r, rec, "evaluate", activities.EvaluateStep, fmt.Sprintf("step %d: did it happen?", rec.Order), activities.EvaluateStepInput{
		Goal: r.in.Goal, Step: rec.Step, Params: r.params, Before: rec.before, After: after,
		Actions: []string{"the attempt may have acted and its worker was lost before it could say: judge only whether the step's effect is on the page now"}})
	if err != nil {
		if modelFatal(err) {
			return false, false, "", err
		}
		return false, false, "the model could not judge: " + rootMessage(err), nil
	}
	r.last = after
	if ev.Confidence < 0.7 {
		return false, false, fmt.Sprintf("the model is not sure (%.2f): %s", ev.Confidence, ev.Reasoning), nil
	}
	return ev.Success, true, "the model: " + ev.Reasoning, nil
}

// settleDoubt decides a step in doubt on the page as it is now. It reports whether the
// step is done; when it is not, whether it may be tried again. A step that cannot tell is
// answered by a person (or the run is held).
func (s *stepRun) settleDoubt(ctx workflow.Context, why string, sent bool) (done, again bool, err error) {
	rec, attempt := s.rec, s.attempt
	present, known, how, err := s.effect(ctx)
	if err != nil {
		return false, false, err
	}
	switch {
	case known && present:
		rec.Actions = append(rec.Actions, fmt.Sprintf("attempt %d was in doubt (%s); its effect is on the page, so it is done and not repeated: %s", attempt, why, how))
		rec.Mutated = true // it may have sent its request: never replay it
		return true, false, nil
	case known && !sent && !rec.Step.Action.Spec().MaySubmit:
		rec.Actions = append(rec.Actions, fmt.Sprintf("attempt %d was in doubt (%s); its effect is not on the page (%s), and it cannot have changed anything on the server: it is tried again", attempt, why, how))
		return false, true, nil
	}
	reason := fmt.Sprintf("attempt %d of step %d (%s) may have acted (%s), and whether it did cannot be told: %s", attempt, rec.Order, rec.Description, why, how)
	return s.askPerson(ctx, reason)
}

// askPerson waits for a person to answer a step in doubt, with the browser released.
func (s *stepRun) askPerson(ctx workflow.Context, reason string) (done, again bool, err error) {
	if legacyWaits(ctx) {
		return s.legacyAskPerson(ctx, reason)
	}
	r, rec := s.r, s.rec
	now := workflow.Now(ctx)
	wait := min(r.limits.ApprovalTimeout, s.deadline.Sub(now))
	r.people.doubt = &Doubt{Step: rec.Order, Reason: reason, Since: now, Until: now.Add(wait)}
	r.people.resolution = nil
	defer func() { r.people.doubt = nil }()
	w, err := s.awaitPerson(ctx, personWait{kind: waitDoubt, asked: "is in doubt: " + reason, until: now.Add(wait),
		answered: func() bool { return r.people.resolution != nil }})
	switch {
	case err != nil || w == cancelledByPerson || w == unattended:
		return false, false, err
	case w == timedOut:
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
	// The browser was released while the person decided: it comes back at the page the
	// step starts from, as after any wait for a person — not a lost worker.
	if err := r.reopen(ctx, s.i); err != nil {
		return false, false, err
	}
	rec.Actions = append(rec.Actions, fmt.Sprintf("%s answered %q for the step in doubt%s", a.By, a.Decision, note(a.Note)))
	if a.Decision == "done" {
		rec.Mutated = true
		return true, false, nil
	}
	return false, true, nil
}

// validateResolution refuses an answer when no step is in doubt, or another one is, before
// it is written to the history.
func (p *people) validateResolution(a Resolution) error {
	switch {
	case p.doubt == nil:
		return errors.New("no step is in doubt: the progress query shows what the run is doing")
	case a.Step != p.doubt.Step:
		return fmt.Errorf("step %d is in doubt, not step %d", p.doubt.Step, a.Step)
	case p.resolution != nil:
		return fmt.Errorf("step %d was already answered by %s", p.doubt.Step, p.resolution.By)
	case a.Decision != "done" && a.Decision != "repeat" && a.Decision != "abort":
		return fmt.Errorf(`decision %q: "done" (its effect is there), "repeat" (do it again) or "abort"`, a.Decision)
	}
	return CheckAnswer(a.By, a.Note)
}

// resolve takes a person's answer for the step in doubt.
func (p *people) resolve(ctx workflow.Context, a Resolution) (ResolutionResult, error) {
	p.resolution = &a
	return ResolutionResult{Step: a.Step, Outcome: "step " + fmt.Sprint(a.Step) + ": " + a.Decision}, nil
}

// browserActivity names the activities that run in the run's browser: only their loss is
// the loss of the browser's worker.
var browserActivity = map[string]bool{
	activities.RunStep.Name: true, activities.Observe.Name: true, activities.ValidateGoal.Name: true,
}

// workerLost reports whether err says the worker holding the run's browser is gone: a
// browser activity never picked up from the worker's own queue, or that stopped
// heartbeating, or whose session is gone. A model call that timed out is a model failure,
// and a browser step that ran past its own time limit was cancelled on a live worker.
func workerLost(err error) bool {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) && ae.Type() == activities.ErrSessionLost {
		return true
	}
	var act *temporal.ActivityError
	if !errors.As(err, &act) || !browserActivity[act.ActivityType().GetName()] {
		return false
	}
	var te *temporal.TimeoutError
	if !errors.As(err, &te) {
		return false
	}
	t := te.TimeoutType()
	return t == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START || t == enumspb.TIMEOUT_TYPE_HEARTBEAT
}
