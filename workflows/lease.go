package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
)

// browserLease is the run's hold on a browser: the session a worker keeps for it, how
// many browsers the run has had, and whether it let the browser go to wait for a person.
// Only the lease opens and closes browsers; the run decides when (recovery.go).
type browserLease struct {
	// session is the browser the run uses now: its ID and the worker's own task queue.
	session activities.OpenBrowserResult
	// gen counts the browsers the run has had; it names each new session.
	gen int
	// released says the run closed its browser to wait for a person; the run's reopen
	// brings it back.
	released bool
	// final says the run is over: closing its browser deletes its saved state.
	final bool
	// in is the goal, for the secrets and sites each opening asks the worker for.
	in *GoalInput
	// keyPrefix is the run's folder in the store, where the worker saves the state.
	keyPrefix string
	// asked is when the run asked for the browser it is waiting for; zero once it has it.
	asked time.Time
	// lossTimeout is how long an open may go without news from its worker.
	lossTimeout time.Duration
}

// start asks any worker for a browser at url, without waiting for it; take makes it the
// run's. The worker that takes it answers with its own task queue, where the run's
// browser steps then go.
func (b *browserLease) start(ctx workflow.Context, url, stateKey string) workflow.Future {
	b.gen++
	b.asked = workflow.Now(ctx)
	info := workflow.GetInfo(ctx)
	in := activities.OpenBrowserInput{
		SessionID:       activities.SessionName(info.WorkflowExecution.ID, info.WorkflowExecution.RunID, b.gen),
		URL:             url,
		StorageStateKey: stateKey,
		Secrets:         b.in.SecretUses(),
	}
	if patched(ctx, "site-policy") {
		p := b.in.Sites()
		in.Sites = &p
	}
	queue := ""
	if patched(ctx, "browser-admission") {
		// Only a worker with a browser free takes the open: the run waits on the server
		// for the first one (the phase says so), never behind a busy worker.
		queue = OpenQueue(info.TaskQueueName)
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue: queue,
		// Before admission, a worker whose browsers were all in use kept the open waiting
		// in line (its place showed as the activity's heartbeat); a worker that dies is
		// noticed by it.
		StartToCloseTimeout: 10 * time.Minute,
		// The open heartbeats every second, in line for a browser too: a worker killed
		// while it opens is noticed as soon as a step's would be, and another opens.
		HeartbeatTimeout: b.lossTimeout,
		RetryPolicy:      &temporal.RetryPolicy{MaximumAttempts: 5, InitialInterval: time.Second},
		Summary:          "open a browser at " + url,
		// A cancelled open (a goal that could not be planned) is waited for, so that a
		// browser it opened meanwhile is known, and closed.
		WaitForCancellation: true,
	})
	return activities.OpenBrowser.Start(actx, in)
}

// take waits for a browser start asked for, and makes it the run's.
func (b *browserLease) take(ctx workflow.Context, f workflow.Future) error {
	var s activities.OpenBrowserResult
	err := f.Get(ctx, &s)
	b.asked = time.Time{}
	if err != nil {
		return err
	}
	b.session = s
	return nil
}

// open asks any worker for a browser at url and waits for it.
func (b *browserLease) open(ctx workflow.Context, url, stateKey string) error {
	return b.take(ctx, b.start(ctx, url, stateKey))
}

// close frees the run's browser, even when the run was cancelled. A worker that is gone
// took its browser with it: nothing to close, nothing to report.
func (b *browserLease) close(ctx workflow.Context) {
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	_ = b.closeSession(dctx, b.session, "close the browser").Get(dctx, nil)
}

// end closes the browser at the end of the run and deletes the cookies and storage the
// run saved.
func (b *browserLease) end(ctx workflow.Context) {
	b.final = true
	b.close(ctx)
}

// release closes the browser while the run waits for a person, so that people hold no
// worker's browsers; the run's reopen brings it back.
func (b *browserLease) release(ctx workflow.Context) {
	if b.released {
		return
	}
	b.close(ctx)
	b.released = true
}

// drop forgets a browser that was closed on purpose (one opened for a goal that then
// ran as parts).
func (b *browserLease) drop() { b.session = activities.OpenBrowserResult{} }

// closeSession starts closing a session on its worker, if the worker is still there to
// close it; a worker that is gone took it along. A session that was never opened gives a
// ready future.
func (b *browserLease) closeSession(ctx workflow.Context, s activities.OpenBrowserResult, summary string) workflow.Future {
	if s.SessionID == "" {
		f, set := workflow.NewFuture(ctx)
		set.Set(nil, nil)
		return f
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue: s.TaskQueue, ScheduleToStartTimeout: 5 * time.Second, StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}, Summary: summary,
	})
	return activities.CloseBrowser.Start(actx, activities.CloseBrowserInput{SessionID: s.SessionID, KeyPrefix: b.keyPrefix, Final: b.final})
}
