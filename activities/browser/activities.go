package browser

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/dataset"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/codec"
	"github.com/webagent-dev/webagent/internal/fault"
	"github.com/webagent-dev/webagent/internal/secret"
)

// Store is what the browser activities need of the object store.
type Store interface {
	Put(ctx context.Context, key, contentType string, data []byte) error
	Get(ctx context.Context, key string) ([]byte, error)
}

// Dataset records a run's distinct UI states.
type Dataset interface {
	Capture(ctx context.Context, prefix string, step int, action string, png []byte, obs page.Observation) (*dataset.State, error)
	Forget(prefix string)
}

// Activities are the activities that need this process's browser. OpenBrowser runs on the
// shared task queue (any worker may take a new run); the others run on TaskQueue, this
// process's own, so that a run's steps reach the browser that holds its page. Register
// them under the names in the activities package.
type Activities struct {
	Pool  *Pool
	Store Store
	// Dataset records every distinct UI state of each run; nil records none.
	Dataset Dataset
	// TaskQueue is this worker process's own queue.
	TaskQueue string
	// StateSealer encrypts the cookies and storage saved after each step; nil stores them
	// as they are.
	StateSealer *codec.Sealer
	// Secrets are the secrets this worker's operator grants; nil grants none.
	Secrets *secret.Vault
	// Notify tells the run, durably, that an attempt is about to act (ActingSignal), and
	// returns once the server has it; nil tells nobody.
	Notify func(ctx context.Context, workflowID, runID string, n activities.ActingNotice) error

	// cleanup counts the deletions of ended runs' state still under way (Wait).
	cleanup sync.WaitGroup
	// queues are each run's work done beside its steps (by key prefix): the last one's
	// done channel, which the next one waits for.
	queuesMu sync.Mutex
	queues   map[string]chan struct{}
}

// behind runs f beside the run's steps, after the run's earlier work of this kind.
func (a *Activities) behind(prefix string, f func(ctx context.Context)) {
	a.queuesMu.Lock()
	if a.queues == nil {
		a.queues = map[string]chan struct{}{}
	}
	prev, done := a.queues[prefix], make(chan struct{})
	a.queues[prefix] = done
	a.queuesMu.Unlock()
	a.cleanup.Add(1)
	go func() {
		defer a.cleanup.Done()
		defer close(done)
		if prev != nil {
			<-prev
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		f(ctx)
	}()
}

// caughtUp waits, up to limit, for the run's work done beside its steps.
func (a *Activities) caughtUp(prefix string, limit time.Duration) {
	a.queuesMu.Lock()
	last := a.queues[prefix]
	a.queuesMu.Unlock()
	if last == nil {
		return
	}
	select {
	case <-last:
	case <-time.After(limit):
	}
	a.queuesMu.Lock()
	if a.queues[prefix] == last {
		delete(a.queues, prefix)
	}
	a.queuesMu.Unlock()
}

// Wait waits for the background clean-up of ended runs (the worker's graceful stop).
func (a *Activities) Wait() { a.cleanup.Wait() }

// OpenBrowser opens a browser session in this process, restoring saved cookies and local
// storage and the page's address when the run is recovering from a lost worker.
func (a *Activities) OpenBrowser(ctx context.Context, in activities.OpenBrowserInput) (activities.OpenBrowserResult, error) {
	opened := time.Now()
	if err := a.Secrets.Check(in.Secrets); err != nil {
		// Before anything starts: no browser for a run that names a secret this worker
		// does not grant.
		return activities.OpenBrowserResult{}, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrSecretNotGranted, nil)
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
	s, created, err := a.Pool.Open(ctx, in.SessionID, OpenOptions{URL: in.URL, StorageState: state, Sites: in.Sites,
		OnWait: func(position, inUse int) {
			// The Web UI shows it as the pending activity's heartbeat.
			hb.set(activities.Phase(fmt.Sprintf("waiting for a browser: number %d in line, %d of %d in use on this worker", position, inUse, a.Pool.cfg.MaxSessions)))
			activity.GetLogger(ctx).Info("waiting for a free browser", "session", in.SessionID, "position", position)
		}})
	var blocked *BlockedError
	if errors.As(err, &blocked) {
		// Where the run asked to start is not the run's, or not the worker's, to open.
		return activities.OpenBrowserResult{}, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrSiteBlocked, nil)
	}
	if err != nil {
		return activities.OpenBrowserResult{}, err
	}
	activity.GetLogger(ctx).Info("browser session ready", "session", in.SessionID, "new", created, "url", s.URL(), "took", time.Since(opened))
	return activities.OpenBrowserResult{SessionID: in.SessionID, TaskQueue: a.TaskQueue, URL: s.URL(), Title: s.Title(), Status: s.StartStatus}, nil
}

// putState stores a run's cookies and local storage: sealed with the workers' state key,
// and tagged so that the bucket deletes them after a day if the run's end does not.
func (a *Activities) putState(ctx context.Context, key string, state []byte) error {
	data, ct := state, "application/json"
	if a.StateSealer != nil {
		var err error
		if data, err = a.StateSealer.Seal(state); err != nil {
			return err
		}
		ct = "application/octet-stream"
	}
	if e, ok := a.Store.(interface {
		PutExpiring(ctx context.Context, key, contentType string, data []byte) error
	}); ok {
		return e.PutExpiring(ctx, key, ct, data)
	}
	return a.Store.Put(ctx, key, ct, data)
}

// CloseBrowser closes the session. It does not wait for an activity still using the page
// (one whose run was cancelled): closing the page ends what it was doing.
func (a *Activities) CloseBrowser(ctx context.Context, in activities.CloseBrowserInput) (activities.CloseBrowserResult, error) {
	if in.KeyPrefix != "" {
		a.caughtUp(in.KeyPrefix, time.Minute)
	}
	if a.Dataset != nil && in.KeyPrefix != "" && in.Final {
		a.Dataset.Forget(in.KeyPrefix)
	}
	closed, err := a.Pool.Close(in.SessionID)
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

func (a *Activities) session(id string) (*Session, error) {
	s, err := a.Pool.Get(id)
	if errors.Is(err, ErrSessionNotFound) {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrSessionLost, err)
	}
	return s, err
}

// RunStep makes one attempt at a step in the run's browser: observe, resolve the target
// DOM-first (or take the decision given), act, settle, check. Screenshots, element lists
// and the storage state go to the object store; the result holds their keys. A cancelled
// run stops the attempt at its next wait and frees the page.
func (a *Activities) RunStep(ctx context.Context, in activities.RunStepInput) (activities.RunStepResult, error) {
	var res activities.RunStepResult
	if in.Purpose == activities.PurposeAttempt {
		ctx = fault.WithStep(ctx, in.Seq)
	}
	err := a.withSession(ctx, in.SessionID, func(s *Session, hb *heartbeat) error {
		var err error
		res, err = a.runStep(ctx, s, hb, in)
		return err
	})
	return res, err
}

func (a *Activities) runStep(ctx context.Context, s *Session, hb *heartbeat, in activities.RunStepInput) (activities.RunStepResult, error) {
	started := time.Now()
	step := in.Step.Bind(in.Params)
	folder := "steps"
	if in.Purpose == activities.PurposeRestore {
		folder = "restore"
	}
	name := fmt.Sprintf("%s/%s/%03d-%d", in.KeyPrefix, folder, in.Seq, in.Attempt)
	// The "before" screenshot and element list (and the numbered copy, for a model) are
	// stored while the page acts and settles, off the step's path.
	marked := make(chan string, 1)
	type stored struct {
		snap activities.Snapshot
		err  error
	}
	before := make(chan stored, 1)
	storingBefore := false
	opts := DoOptions{WaitBudget: in.WaitBudget, ChangeTimeout: in.ChangeWithin, PaceNext: in.PaceNext, OnPhase: hb.set}
	opts.OnBefore = func(png []byte, obs page.Observation) {
		storingBefore = true
		go func() {
			snap, err := a.storeObservation(ctx, name+"-before", obs, png)
			before <- stored{snap, err}
		}()
		if in.Numbered {
			go func() { marked <- a.storeMarked(ctx, name+"-before-marked.png", png, obs) }()
		}
	}
	if d := in.Decision; d != nil {
		opts.Element, opts.ElementWas, opts.Point = d.Element, d.ElementWas, d.Point
	}
	if in.CheckState {
		opts.ExpectState = in.Step.State
	}
	if a.Secrets != nil {
		opts.Secret = a.Secrets.Reveal
	}
	if a.Notify != nil && in.Purpose == activities.PurposeAttempt {
		opts.BeforeAct = func(ctx context.Context) error {
			info := activity.GetInfo(ctx)
			return a.Notify(ctx, info.WorkflowExecution.ID, info.WorkflowExecution.RunID, activities.ActingNotice{Seq: in.Seq, Attempt: in.Attempt})
		}
	}
	out, err := s.Do(ctx, step, opts)
	did := time.Since(started)
	if err != nil {
		// A page that is gone took the run's UI state with it: the workflow rebuilds it.
		if s.Closed() && ctx.Err() == nil {
			return activities.RunStepResult{}, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrSessionLost, err)
		}
		return activities.RunStepResult{}, err
	}
	hb.set(activities.PhaseStoring)
	res := activities.RunStepResult{
		OK: out.OK, Feedback: out.Feedback, Acted: out.Acted, Mutated: out.Mutated, Unchanged: out.Unchanged,
		Actions: out.Actions, Extracted: out.Extracted, BeforeState: out.Before.State(),
	}
	if out.Target != nil {
		res.Target = out.Target.Ref()
	}
	for _, c := range out.Candidates {
		res.Candidates = append(res.Candidates, c.Ref())
	}
	// Once the step has acted, nothing may fail the activity: a retry would act twice.
	// What cannot be stored becomes a warning.
	var mu sync.Mutex
	warn := func(err error) {
		if err != nil {
			mu.Lock()
			res.Warnings = append(res.Warnings, err.Error())
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	do := func(f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			warn(f())
		}()
	}
	// The storage state and the page's text are read from the page first, side by side,
	// while this activity still holds it. The text the page shows after the step is what
	// the next step's effect is judged against: a check that already held before a step
	// is no evidence that it did anything.
	var (
		state []byte
		text  string
	)
	if out.OK {
		do(func() (err error) {
			state, err = s.StorageState()
			return err
		})
	}
	do(func() (err error) {
		text, err = s.ShownText(ctx)
		return err
	})
	wg.Wait()
	do(func() error {
		if !storingBefore {
			var err error
			res.Before, err = a.storeObservation(ctx, name+"-before", out.Before, out.BeforePNG)
			return err
		}
		b := <-before
		res.Before = b.snap
		return b.err
	})
	do(func() (err error) {
		if res.After, err = a.storeObservation(ctx, name+"-after", out.After, out.AfterPNG); err != nil {
			return err
		}
		// The step has acted and its evidence is half stored.
		fault.At(ctx, fault.Store)
		if text != "" {
			if err = a.Store.Put(ctx, name+"-after.txt", "text/plain; charset=utf-8", []byte(text)); err == nil {
				res.After.TextKey = name + "-after.txt"
			}
		}
		return err
	})
	if state != nil {
		do(func() error {
			key := fmt.Sprintf("%s/state/%03d.json", in.KeyPrefix, in.Seq)
			if err := a.putState(ctx, key, state); err != nil {
				return err
			}
			res.StorageStateKey = key
			return nil
		})
	}
	for i, d := range out.Downloads {
		dl := activities.Download{Step: in.Seq, Name: d.Name, URL: s.secrets.redact(d.URL), Bytes: len(d.Data)}
		if d.Err != nil {
			dl.Error = d.Err.Error()
			res.Downloads = append(res.Downloads, dl)
			continue
		}
		key := fmt.Sprintf("%s/downloads/%03d-%d-%d-%s", in.KeyPrefix, in.Seq, in.Attempt, i+1, safeFileName(d.Name))
		if err := a.Store.Put(ctx, key, "application/octet-stream", d.Data); err != nil {
			dl.Error = "not stored: " + err.Error()
		} else {
			dl.Key = key
		}
		res.Downloads = append(res.Downloads, dl)
	}
	if a.Dataset != nil && in.Purpose == activities.PurposeAttempt {
		// The dataset is a record of the run: it never fails a step, and it is kept
		// beside the run, not on the step's path — in order, run by run, and complete
		// before the run's browser is closed.
		log := activity.GetLogger(ctx)
		a.behind(in.KeyPrefix, func(ctx context.Context) {
			for _, c := range []struct {
				action string
				png    []byte
				obs    page.Observation
			}{{"seen before step " + strconv.Itoa(in.Seq), out.BeforePNG, out.Before}, {step.String(), out.AfterPNG, out.After}} {
				if _, err := a.Dataset.Capture(ctx, in.KeyPrefix, in.Seq, c.action, c.png, c.obs); err != nil {
					log.Warn("dataset capture", "seq", in.Seq, "err", err)
					return
				}
			}
		})
	}
	wg.Wait()
	if out.Acted && in.Numbered && storingBefore {
		res.Before.MarkedKey = <-marked
	}
	res.Duration = time.Since(started)
	activity.GetLogger(ctx).Info("step attempt", "seq", in.Seq, "attempt", in.Attempt, "step", step.String(), "ok", out.OK, "took", res.Duration, "browser", did, "stored", res.Duration-did)
	return res, nil
}
