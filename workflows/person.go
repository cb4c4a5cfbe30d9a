package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
)

// A run waits for a person in five places: a step held for approval, the model's action
// a person must confirm, a step in doubt, a stuck step that takes a hint, and a pause.
// They are one wait (awaitPerson): it always watches cancel, always releases the browser
// (the run's reopen brings it back, not counted as a lost worker), and restores the
// run's phase and status in one place. A run started unattended never waits: the step
// that would have waited fails, saying what it would have asked.

// people is what people asked of a run and what it waits for them to answer: the state
// the Updates read and write, and the progress query shows.
type people struct {
	// pending is the action waiting for a person's approval; answer, the approval given.
	pending *PendingApproval
	answer  *Approval
	// doubt is the step in doubt waiting for a person; resolution, the answer given.
	doubt      *Doubt
	resolution *Resolution
	// paused says who paused the run (resumedBy, who resumed it); cancelled, who
	// cancelled it; stuck is the step waiting for a hint, and hint the hint sent.
	paused    *Paused
	resumedBy string
	cancelled *Control
	stuck     *Stuck
	hint      *Hint
	// phase is the run's, which the Updates' validators read: a run that is over takes
	// no pause or cancel.
	phase *Phase
}

// waitKind is what a person is asked.
type waitKind string

// The waits for a person.
const (
	waitApproval waitKind = "approval"     // a step the plan or the run's policy holds
	waitConfirm  waitKind = "confirmation" // an action the model asks a person to confirm
	waitDoubt    waitKind = "doubt"        // a step that may have acted, and cannot tell
	waitHint     waitKind = "hint"         // a step that failed after its attempts and replans
	waitPause    waitKind = "pause"        // a person paused the run
)

// phase is what the progress query shows while a person is asked.
func (k waitKind) phase() Phase {
	switch k {
	case waitHint:
		return PhaseAwaitingHint
	case waitPause:
		return PhasePaused
	}
	return PhaseAwaitingApproval
}

// personWait is one wait for a person, about the step the run is on: what is asked,
// until when, and how the run tells that the answer came.
type personWait struct {
	kind waitKind
	// asked says what the person is asked, for the log and the unattended refusal.
	asked string
	until time.Time
	// answered reports whether the answer came (for a pause: whether it was resumed).
	answered func() bool
}

// waited is how a wait for a person ended.
type waited int

const (
	// answeredByPerson: the answer came; the caller reopens the browser to go on.
	answeredByPerson waited = iota
	// timedOut: nobody answered before the wait's end; the caller says what was asked.
	timedOut
	// cancelledByPerson: someone cancelled the run; the run is held, and the error says who.
	cancelledByPerson
	// unattended: the run waits for nobody; the step failed, and the error says why.
	unattended
)

// personWaitVersion is the version of the waits for a person. Runs begun before there
// was one wait replay the waits as they were (legacy.go); a pause was already so.
const personWaitVersion = "one-person-wait"

// awaitPerson waits for a person's answer to w, with the browser released, until w.until
// or a cancel. An unattended run does not wait (but for a pause, which a person asked
// for): the step fails, saying what it would have asked.
func (s *stepRun) awaitPerson(ctx workflow.Context, w personWait) (waited, error) {
	r, rec := s.r, s.rec
	if r.in.Unattended && w.kind != waitPause {
		rec.Status = StepFailed
		r.held, r.unattendedStop = true, true
		r.res.addError(ctx, rec.Order, "unattended", fmt.Sprintf("step %d %s, and the run is unattended (no person waits for it): the step failed, and nothing more was done", rec.Order, w.asked), false)
		return unattended, nil
	}
	restore := r.enter(w.kind.phase())
	defer func() {
		restore()
		r.attrs.set(ctx, StatusRunning)
		r.report(ctx)
	}()
	r.attrs.set(ctx, StatusWaiting)
	r.browser.release(ctx)
	r.report(ctx)
	r.notify(ctx, activities.NotifyWaiting, fmt.Sprintf("step %d %s: %s", rec.Order, w.asked, rec.Description), rec.Order)
	workflow.GetLogger(ctx).Info("waiting for a person", "wait", w.kind, "step", rec.Order, "asked", w.asked, "until", w.until)
	_, err := workflow.AwaitWithTimeout(ctx, w.until.Sub(workflow.Now(ctx)), func() bool { return w.answered() || r.people.cancelled != nil })
	switch {
	case err != nil:
		return 0, err
	case r.people.cancelled != nil:
		// A cancel wins over an answer that came with it: the person asked to stop.
		r.held = true
		c := r.people.cancelled
		r.res.addError(ctx, rec.Order, "cancelled", fmt.Sprintf("%s cancelled the run while step %d waited for a person's %s%s", c.By, rec.Order, w.kind, note(c.Note)), false)
		return cancelledByPerson, nil
	case !w.answered():
		return timedOut, nil
	}
	return answeredByPerson, nil
}

// enter sets the run's phase and returns what puts it back as it was.
func (r *run) enter(p Phase) (restore func()) {
	was := r.phase
	r.phase = p
	return func() { r.phase = was }
}
