package workflows

import (
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// recover rebuilds the browser after its worker was lost, before step i is (re)tried. It
// opens a new browser on any worker at the page of the last completed step that changed
// server state (or the start URL), with the latest saved cookies and local storage, then
// replays the completed steps after that point which changed nothing on the server, so
// that UI state without a URL of its own (an open dialog, a half-filled form) is back.
// Steps that sent a state-changing request are never replayed.
//
// replay says whether to restore the page so (a step in doubt is first looked for on the
// fresh page, and restored only if it must be tried again).
func (r *run) recover(ctx workflow.Context, i int, cause error, replay bool) error {
	r.res.Execution.BrowserRecoveries++
	order := len(r.steps) + 1
	if i < len(r.steps) {
		order = r.steps[i].Order
	}
	if r.res.Execution.BrowserRecoveries > r.limits.MaxRecoveries {
		msg := fmt.Sprintf("the browser was lost %d times; giving up (last: %s)", r.res.Execution.BrowserRecoveries, rootMessage(cause))
		r.res.addError(ctx, order, "browser_lost", msg, false)
		return temporal.NewNonRetryableApplicationError(msg, activities.ErrBrowserLost, cause)
	}
	r.res.warn(fmt.Sprintf("step %d: the worker holding the browser was lost (%s); rebuilding the browser", order, lostReason(cause)))
	return r.rebuild(ctx, i, replay, true)
}

// reopen opens the browser again before step i after the run released it to wait for a
// person: as after a lost worker — the page of the last checkpoint, the saved cookies and
// storage, the side-effect-free steps since replayed — but not counted as a loss.
func (r *run) reopen(ctx workflow.Context, i int) error {
	if !r.browser.released {
		return nil
	}
	r.browser.released = false
	return r.rebuild(ctx, i, true, false)
}

// rebuild opens a new browser for step i; closeOld closes the session it replaces (a lost
// worker's, if it is still there).
func (r *run) rebuild(ctx workflow.Context, i int, replay, closeOld bool) error {
	order := len(r.steps) + 1
	if i < len(r.steps) {
		order = r.steps[i].Order
	}
	at, stateKey, url := checkpoint(r.steps, i, r.in.StartURL)
	// A recovery can happen while running, validating or replanning: come back to it.
	defer r.enter(PhaseRestoring)()
	old := r.browser.session
	if err := r.browser.open(ctx, url, stateKey); err != nil {
		r.res.addError(ctx, order, "browser", fmt.Sprintf("could not open a new browser after losing the worker: %s", rootMessage(err)), false)
		return err
	}
	if closeOld && patched(ctx, "close-lost-session") {
		// Not waited for: a lost worker never answers, and the run need not wait to find out.
		r.browser.closeSession(ctx, old, "close the lost browser")
	}
	note := fmt.Sprintf("browser rebuilt at %s", url)
	if !replay {
		r.noteRecovery(i, note)
		return nil
	}
	return r.replayTo(ctx, i, at, note)
}

// replayTo replays, on the current browser, the side-effect-free completed steps between
// the checkpoint at and step i, and notes on step i what was done.
func (r *run) replayTo(ctx workflow.Context, i, at int, note string) error {
	var replayed []string
	for j := at + 1; j < i && j < len(r.steps); j++ {
		s := r.steps[j]
		if s.Status != StepCompleted || !s.Step.Action.Spec().Acts {
			continue
		}
		res, err := r.browserStep(ctx, activities.RunStepInput{Step: s.Step, Seq: s.Order, Attempt: 1, Purpose: activities.PurposeRestore})
		if err != nil {
			if workerLost(err) {
				return r.recover(ctx, i, err, true)
			}
			if temporal.IsCanceledError(err) {
				return err
			}
			r.res.warn(fmt.Sprintf("could not replay step %d to restore the page: %s", s.Order, rootMessage(err)))
			break
		}
		if !res.OK {
			r.res.warn(fmt.Sprintf("could not replay step %d to restore the page: %s", s.Order, failure(res).String()))
			break
		}
		replayed = append(replayed, fmt.Sprint(s.Order))
		r.last = res.After
	}
	if len(replayed) > 0 {
		note += "; replayed side-effect-free steps " + strings.Join(replayed, ", ") + " to restore the page"
	}
	r.noteRecovery(i, note)
	return nil
}

func (r *run) noteRecovery(i int, note string) {
	if i < len(r.steps) {
		r.steps[i].Actions = append(r.steps[i].Actions, note)
	} else {
		r.res.warn(note)
	}
}

// checkpoint is where a rebuilt browser starts before step i of steps: the last completed
// step that changed server state or navigated (its index, -1 for none), the latest saved
// cookies and storage, and the address (start, with no such step).
func checkpoint(steps []StepRecord, i int, start string) (int, string, string) {
	at, stateKey, url := -1, "", start
	for j := 0; j < i && j < len(steps); j++ {
		s := steps[j]
		if s.Status != StepCompleted {
			continue
		}
		if s.StorageStateKey != "" {
			stateKey = s.StorageStateKey
		}
		if s.Mutated || s.Step.Action == plan.Navigate {
			at, url = j, s.URL
		}
	}
	return at, stateKey, url
}

func lostReason(err error) string {
	var te *temporal.TimeoutError
	if errors.As(err, &te) {
		return "no answer within the " + strings.ToLower(strings.TrimPrefix(te.TimeoutType().String(), "TIMEOUT_TYPE_")) + " timeout"
	}
	return rootMessage(err)
}
