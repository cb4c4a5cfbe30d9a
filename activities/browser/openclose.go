package browser

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser/driver"
)

// OpenBrowser opens a browser session in this process, restoring saved cookies and local
// storage and the page's address when the run is recovering from a lost worker.
func (a *Activities) OpenBrowser(ctx context.Context, in activities.OpenBrowserInput) (activities.OpenBrowserResult, error) {
	opened := time.Now()
	who, checked := caller(ctx)
	if checked && !activities.SessionOf(in.SessionID, who) {
		// A run names its sessions after its workflow; one named after another workflow
		// would be that workflow's to open, and use.
		return activities.OpenBrowserResult{}, notYours(in.SessionID)
	}
	if err := a.Secrets.Check(in.Secrets); err != nil {
		// Before anything starts: no browser for a run that names a secret this worker
		// does not grant.
		return activities.OpenBrowserResult{}, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrSecretNotGranted, nil)
	}
	ctx, cancel, err := a.refuseOpen(ctx)
	defer cancel()
	if err != nil {
		return activities.OpenBrowserResult{}, err
	}
	hb := beat(ctx)
	defer hb.stop()
	var state []byte
	if in.StorageStateKey != "" {
		var err error
		if state, err = a.Store.Get(ctx, in.StorageStateKey); err != nil {
			return activities.OpenBrowserResult{}, fmt.Errorf("restore storage state: %w", err)
		}
		if a.StateSealer != nil {
			if state, err = a.StateSealer.Open(state); err != nil {
				return activities.OpenBrowserResult{}, temporal.NewNonRetryableApplicationError("restore storage state: "+err.Error()+" (WEBAGENT_STATE_KEY must be the same on every worker)", "StateKey", err)
			}
		}
	}
	clock := &waitClock{ctx: ctx}
	s, created, err := a.Pool.Open(ctx, in.SessionID, driver.OpenOptions{URL: in.URL, StorageState: state, Sites: in.Sites,
		OnWait: func(position, inUse int) {
			clock.waiting()
			// The Web UI shows it as the pending activity's heartbeat.
			hb.set(activities.Phase(fmt.Sprintf("waiting for a browser: number %d in line, %d of %d in use on this worker", position, inUse, a.Pool.Max())))
			activity.GetLogger(ctx).Info("waiting for a free browser", "session", in.SessionID, "position", position)
		}})
	var blocked *driver.BlockedError
	if errors.As(err, &blocked) {
		// Where the run asked to start is not the run's, or not the worker's, to open.
		return activities.OpenBrowserResult{}, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrSiteBlocked, nil)
	}
	if err != nil {
		return activities.OpenBrowserResult{}, err
	}
	if checked && !s.Claim(who) {
		// Opened before by another workflow: refused, and left as it is.
		return activities.OpenBrowserResult{}, notYours(in.SessionID)
	}
	if a.Secrets != nil {
		// The run's secrets are recognised from the start: a browser opened again after
		// its worker was lost restores a page that may show one it typed before.
		for _, v := range a.Secrets.Values(in.Secrets) {
			s.AddSecret(v)
		}
	}
	clock.opened(created)
	a.forgetGone()
	res := activities.OpenBrowserResult{SessionID: in.SessionID, TaskQueue: a.TaskQueue, URL: s.URL(), Title: s.Title(), Status: s.StartStatus}
	if created {
		res.Times = s.Opened
	}
	s.Scrub(&res)
	activity.GetLogger(ctx).Info("browser session ready", "session", in.SessionID, "new", created, "url", res.URL, "took", time.Since(opened))
	return res, nil
}

// CloseBrowser closes the session. It does not wait for an activity still using the page
// (one whose run was cancelled): closing the page ends what it was doing. A session of
// another workflow is refused, and neither closed nor waited for.
func (a *Activities) CloseBrowser(ctx context.Context, in activities.CloseBrowserInput) (activities.CloseBrowserResult, error) {
	if err := a.mine(ctx, in.SessionID); err != nil {
		return activities.CloseBrowserResult{}, err
	}
	if in.KeyPrefix != "" {
		a.caughtUp(in.KeyPrefix, time.Minute)
	}
	if a.Dataset != nil && in.KeyPrefix != "" && in.Final {
		a.Dataset.Forget(in.KeyPrefix)
	}
	closed, err := a.Pool.Close(in.SessionID)
	a.forgetGone()
	if closed {
		activity.GetLogger(ctx).Info("browser session closed", "session", in.SessionID)
	}
	if d, ok := a.Store.(interface {
		Delete(ctx context.Context, prefix string) error
	}); ok && in.Final && in.KeyPrefix != "" {
		// The run is over: its cookies and storage go, beside the run's end rather than
		// before it (the bucket's lifecycle rule is the backstop when this worker is not
		// there to finish).
		log := activity.GetLogger(ctx)
		a.cleanup.Add(1)
		go func() {
			defer a.cleanup.Done()
			dctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if derr := d.Delete(dctx, in.KeyPrefix+"/state/"); derr != nil {
				log.Warn("could not delete the run's browser state", "err", derr)
			}
		}()
	}
	return activities.CloseBrowserResult{Closed: closed}, err
}
