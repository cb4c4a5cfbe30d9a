package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities/browser"
	"github.com/webagent-dev/webagent/activities/dataset"
	"github.com/webagent-dev/webagent/plan"
)

// Store is what the activities need of the object store.
type Store interface {
	Put(ctx context.Context, key, contentType string, data []byte) error
	Get(ctx context.Context, key string) ([]byte, error)
}

// Browser holds the activities that need this process's browser. OpenBrowser runs on the
// shared task queue (any worker may take a new run); the others run on TaskQueue, this
// process's own, so that a run's steps reach the browser that holds its page.
type Browser struct {
	Pool  *browser.Pool
	Store Store
	// Dataset records every distinct UI state of each run.
	Dataset *dataset.Recorder
	// TaskQueue is this worker process's own queue.
	TaskQueue string
}

// OpenBrowser opens a browser session in this process, restoring saved cookies and local
// storage and the page's address when the run is recovering from a lost worker.
func (b *Browser) OpenBrowser(ctx context.Context, in OpenBrowserInput) (OpenBrowserResult, error) {
	var state []byte
	if in.StorageStateKey != "" {
		var err error
		if state, err = b.Store.Get(ctx, in.StorageStateKey); err != nil {
			return OpenBrowserResult{}, fmt.Errorf("restore storage state: %w", err)
		}
	}
	s, created, err := b.Pool.Open(ctx, in.SessionID, browser.OpenOptions{URL: in.URL, StorageState: state})
	if err != nil {
		return OpenBrowserResult{}, err
	}
	activity.GetLogger(ctx).Info("browser session ready", "session", in.SessionID, "new", created, "url", s.URL())
	return OpenBrowserResult{SessionID: in.SessionID, TaskQueue: b.TaskQueue, URL: s.URL(), Title: s.Title()}, nil
}

// CloseBrowser closes the session.
func (b *Browser) CloseBrowser(ctx context.Context, in CloseBrowserInput) error {
	if b.Dataset != nil && in.KeyPrefix != "" {
		b.Dataset.Forget(in.KeyPrefix)
	}
	return b.Pool.Close(in.SessionID)
}

func (b *Browser) session(id string) (*browser.Session, error) {
	s, err := b.Pool.Get(id)
	if errors.Is(err, browser.ErrSessionNotFound) {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrSessionLost, err)
	}
	return s, err
}

// heartbeat reports the attempt's phase every second until stop is called, so that a
// dead worker is noticed within the heartbeat timeout, and a lost attempt says how far
// it got.
func heartbeat(ctx context.Context) (setPhase func(string), stop func()) {
	var phase atomic.Value
	phase.Store(PhaseObserving)
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			activity.RecordHeartbeat(ctx, phase.Load())
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func(p string) { phase.Store(p) }, func() { close(done) }
}

// RunStep makes one attempt at a step in the run's browser: observe, resolve the target
// DOM-first (or take the decision given), act, settle, check. Screenshots, element lists
// and the storage state go to the object store; the result holds their keys.
func (b *Browser) RunStep(ctx context.Context, in RunStepInput) (RunStepResult, error) {
	s, err := b.session(in.SessionID)
	if err != nil {
		return RunStepResult{}, err
	}
	s.Lock()
	defer s.Unlock()
	setPhase, stop := heartbeat(ctx)
	defer stop()
	started := time.Now()

	step := in.Step.Bind(in.Params)
	name := fmt.Sprintf("%s/%s/%03d-%d", in.KeyPrefix, map[bool]string{true: "restore", false: "steps"}[in.Purpose == PurposeRestore], in.Seq, in.Attempt)
	// The numbered copy of the "before" screenshot is drawn and stored while the page acts.
	marked := make(chan string, 1)
	opts := browser.DoOptions{WaitBudget: in.WaitBudget, OnPhase: setPhase, OnBefore: func(png []byte, obs browser.Observation) {
		go func() { marked <- b.storeMarked(ctx, name+"-before-marked.png", png, obs) }()
	}}
	if d := in.Decision; d != nil {
		opts.Element, opts.ElementWas, opts.Point = d.Element, d.ElementWas, d.Point
	}
	if in.CheckState {
		opts.ExpectState = in.Step.State
	}
	out, err := s.Do(step, opts)
	if err != nil {
		// A page that is gone took the run's UI state with it: the workflow rebuilds it.
		if s.Closed() {
			return RunStepResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrSessionLost, err)
		}
		return RunStepResult{}, err
	}
	res := RunStepResult{
		OK: out.OK, Feedback: out.Feedback, Acted: out.Acted, Mutated: out.Mutated,
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
	warn := func(err error) {
		if err != nil {
			res.Warnings = append(res.Warnings, err.Error())
		}
	}
	// The stores are independent of each other: do them at once. The storage state is
	// read from the page first, while this activity still holds it.
	var state []byte
	if out.OK {
		var err error
		state, err = s.StorageState()
		warn(err)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	do := func(f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(); err != nil {
				mu.Lock()
				warn(err)
				mu.Unlock()
			}
		}()
	}
	var before, after Snapshot
	do(func() (err error) {
		before, err = b.storeObservation(ctx, name+"-before", out.Before, out.BeforePNG)
		return err
	})
	do(func() (err error) {
		after, err = b.storeObservation(ctx, name+"-after", out.After, out.AfterPNG)
		return err
	})
	stateKey := ""
	if state != nil {
		do(func() error {
			key := fmt.Sprintf("%s/state/%03d.json", in.KeyPrefix, in.Seq)
			if err := b.Store.Put(ctx, key, "application/json", state); err != nil {
				return err
			}
			stateKey = key
			return nil
		})
	}
	var states []string
	if b.Dataset != nil && in.Purpose == PurposeAttempt {
		// The dataset is a record of the run: it never fails a step.
		do(func() error {
			for _, c := range []struct {
				action string
				png    []byte
				obs    browser.Observation
			}{{"seen before step " + strconv.Itoa(in.Seq), out.BeforePNG, out.Before}, {step.String(), out.AfterPNG, out.After}} {
				st, err := b.Dataset.Capture(ctx, in.KeyPrefix, in.Seq, c.action, c.png, c.obs)
				if err != nil {
					return err
				}
				if st != nil {
					states = append(states, st.File)
				}
			}
			return nil
		})
	}
	wg.Wait()
	res.Before, res.After, res.StorageStateKey, res.States = before, after, stateKey, states
	if out.Acted {
		res.Before.MarkedKey = <-marked
	}
	res.Duration = time.Since(started)
	activity.GetLogger(ctx).Info("step attempt", "seq", in.Seq, "attempt", in.Attempt, "step", step.String(), "ok", out.OK, "took", res.Duration)
	return res, nil
}

// storeMarked draws the elements' numbers on a screenshot and stores the copy; it
// returns the key, or "" when it could not.
func (b *Browser) storeMarked(ctx context.Context, key string, png []byte, obs browser.Observation) string {
	img, err := browser.DrawMarks(png, obs)
	if err != nil {
		activity.GetLogger(ctx).Warn("numbered screenshot", "err", err)
		return ""
	}
	if err := b.Store.Put(ctx, key, "image/png", img); err != nil {
		activity.GetLogger(ctx).Warn("numbered screenshot", "err", err)
		return ""
	}
	return key
}

// storeObservation puts the screenshot and the element list in the store and returns
// their keys. When both frames are the same, the "after" keys point at the "before" ones.
func (b *Browser) storeObservation(ctx context.Context, name string, obs browser.Observation, png []byte) (Snapshot, error) {
	snap := Snapshot{URL: obs.URL, Title: obs.Title, Fingerprint: obs.Fingerprint, Elements: len(obs.Elements)}
	if len(png) > 0 {
		if err := b.Store.Put(ctx, name+".png", "image/png", png); err != nil {
			return snap, err
		}
		snap.ScreenshotKey = name + ".png"
	}
	data, err := json.Marshal(obs)
	if err != nil {
		return snap, err
	}
	if err := b.Store.Put(ctx, name+".json", "application/json", data); err != nil {
		return snap, err
	}
	snap.ElementsKey = name + ".json"
	return snap, nil
}

// Observe stores a look at the page — screenshot, element list and visible text —
// without acting, for a model that plans or reads the page.
func (b *Browser) Observe(ctx context.Context, in ObserveInput) (Snapshot, error) {
	s, err := b.session(in.SessionID)
	if err != nil {
		return Snapshot{}, err
	}
	s.Lock()
	defer s.Unlock()
	s.Settle(3 * time.Second)
	snap, _, err := b.observe(ctx, s, in.KeyPrefix, in.Name, 0, "looked at the page")
	return snap, err
}

// capture records an observation in the dataset; a failure is only logged, as the
// dataset is a record of the run, not part of it.
func (b *Browser) capture(ctx context.Context, prefix string, step int, action string, png []byte, obs browser.Observation) {
	if b.Dataset == nil {
		return
	}
	if _, err := b.Dataset.Capture(ctx, prefix, step, action, png, obs); err != nil {
		activity.GetLogger(ctx).Warn("dataset capture", "err", err)
	}
}

// observe stores the page's screenshot, element list and text under name, records the
// page in the dataset as reached by action in step, and returns the text too.
func (b *Browser) observe(ctx context.Context, s *browser.Session, prefix, name string, step int, action string) (Snapshot, string, error) {
	obs, err := s.Observe()
	if err != nil {
		return Snapshot{}, "", err
	}
	png, err := s.Screenshot()
	if err != nil {
		return Snapshot{}, "", err
	}
	b.capture(ctx, prefix, step, action, png, obs)
	name = prefix + "/" + name
	snap, err := b.storeObservation(ctx, name, obs, png)
	if err != nil {
		return snap, "", err
	}
	text, err := s.VisibleText()
	if err != nil {
		return snap, "", err
	}
	if err := b.Store.Put(ctx, name+".txt", "text/plain; charset=utf-8", []byte(text)); err != nil {
		return snap, text, err
	}
	snap.TextKey = name + ".txt"
	return snap, text, nil
}

// ValidateGoal looks at the final page: the plan's closing checks must still hold. The
// final screenshot is stored.
func (b *Browser) ValidateGoal(ctx context.Context, in ValidateGoalInput) (ValidateGoalResult, error) {
	s, err := b.session(in.SessionID)
	if err != nil {
		return ValidateGoalResult{}, err
	}
	s.Lock()
	defer s.Unlock()
	s.Settle(3 * time.Second)
	res := ValidateGoalResult{}
	var text string
	if res.Final, text, err = b.observe(ctx, s, in.KeyPrefix, "final", in.StepsPlanned, "the end of the run"); err != nil {
		return res, err
	}
	if in.StepsCompleted < in.StepsPlanned {
		res.Reason = fmt.Sprintf("only %d of %d steps completed", in.StepsCompleted, in.StepsPlanned)
		res.Confidence = 0.95
		return res, nil
	}
	if len(in.Checks) == 0 {
		res.Success, res.Confidence = true, 0.6
		res.Reason = fmt.Sprintf("all %d steps completed and checked; the goal states no final check to confirm it", in.StepsPlanned)
		return res, nil
	}
	page := browser.NormalizeText(text)
	for _, c := range in.Checks {
		c = c.Bind(in.Params)
		found := browser.ContainsText(page, c.Value)
		if found == c.Negated {
			res.Confidence = 0.9
			res.Reason = fmt.Sprintf("on the final page %q: %s does not hold", res.Final.Title, c.String())
			return res, nil
		}
	}
	res.Success, res.Confidence = true, 0.9
	res.Reason = fmt.Sprintf("all %d steps completed, and on the final page %q: %s", in.StepsPlanned, res.Final.Title, describeChecks(in.Checks, in.Params))
	return res, nil
}

func describeChecks(checks []plan.Step, params map[string]string) string {
	s := ""
	for i, c := range checks {
		if i > 0 {
			s += "; "
		}
		s += c.Bind(params).String()
	}
	return s
}
