package workflows

import (
	"time"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// beforeWait is how long the step numbered seq may wait for a late change after a click
// that changed nothing, when the step after it is a timed WAIT ("click ONE, wait 1
// second, then click TWO"): half the wait, so that the check does not eat into it (the
// WAIT counts from the click). Zero, the activity's own default, otherwise.
func (r *run) beforeWait(seq int, purpose activities.Purpose) time.Duration {
	if purpose != activities.PurposeAttempt {
		return 0
	}
	next, ok := r.stepAfter(seq)
	if !ok || next.Action != plan.Wait || next.TargetDescription != "" || next.Wait <= 0 {
		return 0
	}
	return max(next.Wait/2, time.Millisecond)
}

// nextActs says, for a timed WAIT, that the step after it acts, so that the WAIT may leave
// the last part of its time to it (the browser's pacer): "wait 1 second, then click
// TWO" clicks a second after the click before, however long the steps between take.
func (r *run) nextActs(seq int, step plan.Step) bool {
	if step.Action != plan.Wait || step.TargetDescription != "" {
		return false
	}
	next, ok := r.stepAfter(seq)
	return ok && next.Action.Spec().Acts
}

// stepAfter is the step that follows the one numbered seq in the plan, if any.
func (r *run) stepAfter(seq int) (plan.Step, bool) {
	for i, s := range r.steps {
		if s.Order == seq && i+1 < len(r.steps) {
			return r.steps[i+1].Step, true
		}
	}
	return plan.Step{}, false
}
