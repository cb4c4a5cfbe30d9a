package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// openBrowser asks any worker for a browser at url; the worker that takes it answers with
// its own task queue, where the run's browser steps then go.
func (r *run) openBrowser(ctx workflow.Context, url, stateKey string) error {
	return r.opened(ctx, r.startOpen(ctx, url, stateKey))
}

// opened waits for a browser startOpen asked for, and makes it the run's.
func (r *run) opened(ctx workflow.Context, f workflow.Future) error {
	var s activities.OpenBrowserResult
	if err := f.Get(ctx, &s); err != nil {
		return err
	}
	r.session = s
	return nil
}

// startOpen asks any worker for a browser at url, without waiting for it.
func (r *run) startOpen(ctx workflow.Context, url, stateKey string) workflow.Future {
	r.gen++
	info := workflow.GetInfo(ctx)
	in := activities.OpenBrowserInput{
		SessionID:       fmt.Sprintf("%s/%s/%d", info.WorkflowExecution.ID, info.WorkflowExecution.RunID, r.gen),
		URL:             url,
		StorageStateKey: stateKey,
		Secrets:         r.in.secretUses(),
	}
	if workflow.GetVersion(ctx, "site-policy", workflow.DefaultVersion, 1) == 1 {
		p := r.in.Sites()
		in.Sites = &p
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		// A worker whose browsers are all in use keeps the open waiting in line (its
		// place shows as the activity's heartbeat); a worker that dies is noticed by it.
		StartToCloseTimeout: 10 * time.Minute,
		HeartbeatTimeout:    30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 5, InitialInterval: time.Second},
		Summary:             "open a browser at " + url,
		// A cancelled open (a goal that could not be planned) is waited for, so that a
		// browser it opened meanwhile is known, and closed.
		WaitForCancellation: true,
	})
	return activities.OpenBrowser.Start(actx, in)
}

// closeBrowser frees the run's browser, even when the run was cancelled.
func (r *run) closeBrowser(ctx workflow.Context) {
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	// A worker that is gone took its browser with it: nothing to close, nothing to report.
	_ = r.closeSession(dctx, r.session, "close the browser").Get(dctx, nil)
}

// endBrowser closes the browser at the end of the run and deletes the cookies and storage
// the run saved.
func (r *run) endBrowser(ctx workflow.Context) {
	r.final = true
	r.closeBrowser(ctx)
}

// recover rebuilds the browser after its worker was lost, before step i is (re)tried. It
// opens a new browser on any worker at the page of the last completed step that changed
// server state (or the start URL), with the latest saved cookies and local storage, then
// replays the completed steps after that point which changed nothing on the server, so
// that UI state without a URL of its own (an open dialog, a half-filled form) is back.
// Steps that sent a state-changing request are never replayed.
func (r *run) recover(ctx workflow.Context, i int, cause error) error {
	return r.recoverAt(ctx, i, cause, true)
}

// recoverAt rebuilds the browser; replay says whether to restore the page by replaying
// the side-effect-free steps before step i (a step in doubt is first looked for on the
// fresh page, and restored only if it must be tried again).
func (r *run) recoverAt(ctx workflow.Context, i int, cause error, replay bool) error {
	r.res.Execution.BrowserRecoveries++
	order := len(r.steps) + 1
	if i < len(r.steps) {
		order = r.steps[i].Order
	}
	if r.res.Execution.BrowserRecoveries > r.limits.MaxRecoveries {
		msg := fmt.Sprintf("the browser was lost %d times; giving up (last: %s)", r.res.Execution.BrowserRecoveries, rootMessage(cause))
		r.addError(ctx, order, "browser_lost", msg, false)
		return temporal.NewNonRetryableApplicationError(msg, activities.ErrBrowserLost, cause)
	}
	r.warn(fmt.Sprintf("step %d: the worker holding the browser was lost (%s); rebuilding the browser", order, lostReason(cause)))
	return r.rebuild(ctx, i, replay, true)
}

// reopen opens the browser again before step i after the run released it to wait for a
// person: as after a lost worker — the page of the last checkpoint, the saved cookies and
// storage, the side-effect-free steps since replayed — but not counted as a loss.
func (r *run) reopen(ctx workflow.Context, i int) error {
	if !r.released {
		return nil
	}
	r.released = false
	return r.rebuild(ctx, i, true, false)
}

// release closes the run's browser while it waits for a person, so that people hold no
// worker's browsers; reopen brings it back.
func (r *run) release(ctx workflow.Context) {
	if r.released {
		return
	}
	r.closeBrowser(ctx)
	r.released = true
}

// rebuild opens a new browser for step i; closeOld closes the session it replaces (a lost
// worker's, if it is still there).
func (r *run) rebuild(ctx workflow.Context, i int, replay, closeOld bool) error {
	order := len(r.steps) + 1
	if i < len(r.steps) {
		order = r.steps[i].Order
	}
	checkpoint, stateKey, url := r.checkpoint(i)
	// A recovery can happen while running, validating or replanning: come back to it.
	was := r.phase
	r.phase = PhaseRestoring
	defer func() { r.phase = was }()
	old := r.session
	if err := r.openBrowser(ctx, url, stateKey); err != nil {
		r.addError(ctx, order, "browser", fmt.Sprintf("could not open a new browser after losing the worker: %s", rootMessage(err)), false)
		return err
	}
	if closeOld && workflow.GetVersion(ctx, "close-lost-session", workflow.DefaultVersion, 1) == 1 {
		// Not waited for: a lost worker never answers, and the run need not wait to find out.
		r.closeSession(ctx, old, "close the lost browser")
	}
	note := fmt.Sprintf("browser rebuilt at %s", url)
	if !replay {
		r.noteRecovery(i, note)
		return nil
	}
	return r.replayTo(ctx, i, checkpoint, note)
}

// restore replays the side-effect-free completed steps before step i on the current
// browser, from the last checkpoint.
func (r *run) restore(ctx workflow.Context, i int) error {
	checkpoint, _, _ := r.checkpoint(i)
	return r.replayTo(ctx, i, checkpoint, "page restored")
}

func (r *run) replayTo(ctx workflow.Context, i, checkpoint int, note string) error {
	var replayed []string
	for j := checkpoint + 1; j < i && j < len(r.steps); j++ {
		s := r.steps[j]
		if s.Status != StepCompleted || !s.Step.Action.Spec().Acts {
			continue
		}
		res, err := r.attempt(ctx, s.Step, s.Order, 1, activities.PurposeRestore, nil, nil)
		if err != nil {
			if workerLost(err) {
				return r.recover(ctx, i, err)
			}
			if temporal.IsCanceledError(err) {
				return err
			}
			r.warn(fmt.Sprintf("could not replay step %d to restore the page: %s", s.Order, rootMessage(err)))
			break
		}
		if !res.OK {
			r.warn(fmt.Sprintf("could not replay step %d to restore the page: %s", s.Order, res.Feedback))
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
		r.warn(note)
	}
}

// checkpoint is where a rebuilt browser starts before step i: the last completed step
// that changed server state or navigated (its index, -1 for none), the latest saved
// cookies and storage, and the address.
func (r *run) checkpoint(i int) (int, string, string) {
	checkpoint, stateKey, url := -1, "", r.in.StartURL
	for j := 0; j < i && j < len(r.steps); j++ {
		s := r.steps[j]
		if s.Status != StepCompleted {
			continue
		}
		if s.StorageStateKey != "" {
			stateKey = s.StorageStateKey
		}
		if s.Mutated || s.Step.Action == plan.Navigate {
			checkpoint, url = j, s.URL
		}
	}
	return checkpoint, stateKey, url
}

// closeSession starts closing a session on its worker, if the worker is still there to
// close it; a worker that is gone took it along. A session that was never opened gives a ready future.
func (r *run) closeSession(ctx workflow.Context, s activities.OpenBrowserResult, summary string) workflow.Future {
	if s.SessionID == "" {
		f, set := workflow.NewFuture(ctx)
		set.Set(nil, nil)
		return f
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue: s.TaskQueue, ScheduleToStartTimeout: 5 * time.Second, StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}, Summary: summary,
	})
	return activities.CloseBrowser.Start(actx, activities.CloseBrowserInput{SessionID: s.SessionID, KeyPrefix: r.keyPrefix(), Final: r.final})
}
func lostReason(err error) string {
	var te *temporal.TimeoutError
	if errors.As(err, &te) {
		return "no answer within the " + strings.ToLower(strings.TrimPrefix(te.TimeoutType().String(), "TIMEOUT_TYPE_")) + " timeout"
	}
	return rootMessage(err)
}
