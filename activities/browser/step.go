package browser

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/fault"
)

// RunStep makes one attempt at a step in the run's browser: observe, resolve the target
// DOM-first (or take the decision given), act, settle, check. Screenshots, element lists
// and the storage state go to the object store; the result holds their keys. A cancelled
// run stops the attempt at its next wait and frees the page.
func (a *Activities) RunStep(ctx context.Context, in activities.RunStepInput) (activities.RunStepResult, error) {
	var res activities.RunStepResult
	if in.Purpose == activities.PurposeAttempt {
		ctx = fault.WithStep(ctx, in.Seq)
	}
	err := a.withSession(ctx, in.SessionID, func(s *driver.Session, hb *heartbeat) error {
		a.uses(in.SessionID, in.KeyPrefix) // only once the session is known to be the caller's
		var err error
		res, err = a.runStep(ctx, s, hb, in)
		return err
	})
	return res, err
}

func (a *Activities) runStep(ctx context.Context, s *driver.Session, hb *heartbeat, in activities.RunStepInput) (activities.RunStepResult, error) {
	started := time.Now()
	step := in.Step.Bind(in.Params)
	name := stepKey(in)
	early := a.storeBeforeEarly(ctx, name, in.Numbered)
	out, err := s.Do(ctx, step, a.doOptions(in, hb, early))
	did := time.Since(started)
	if err != nil {
		// A page that is gone took the run's UI state with it: the workflow rebuilds it.
		if s.Closed() && ctx.Err() == nil {
			return activities.RunStepResult{}, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrSessionLost, err)
		}
		return activities.RunStepResult{}, err
	}
	hb.set(activities.PhaseStoring)
	s.RefuseRead(out)
	res := stepResult(out)
	defer s.Scrub(&res)
	ev := &evidence{a: a, s: s, in: in, step: step, name: name, out: out, res: &res}
	ev.store(ctx, early)
	res.Duration = time.Since(started)
	res.Times = out.Times
	res.Times.Store = res.Duration - did
	activity.GetLogger(ctx).Info("step attempt", "seq", in.Seq, "attempt", in.Attempt, "step", step.String(), "ok", out.OK, "took", res.Duration, "browser", did, "stored", res.Duration-did)
	return res, nil
}

// stepKey is the object-store key the attempt's evidence is stored under.
func stepKey(in activities.RunStepInput) string {
	folder := "steps"
	if in.Purpose == activities.PurposeRestore {
		folder = "restore"
	}
	return fmt.Sprintf("%s/%s/%03d-%d", in.KeyPrefix, folder, in.Seq, in.Attempt)
}

// doOptions are the attempt's options: the run's budgets, the decision made elsewhere,
// the secrets this worker grants, and the record that the attempt is about to act: its
// intent object, or for a run begun before those, its signal to the run.
func (a *Activities) doOptions(in activities.RunStepInput, hb *heartbeat, early *earlyBefore) driver.DoOptions {
	opts := driver.DoOptions{WaitBudget: in.WaitBudget, ChangeTimeout: in.ChangeWithin, PaceNext: in.PaceNext, OnPhase: hb.setDriver, OnBefore: early.start, BeforeText: in.BeforeText,
		File: func(ctx context.Context, name string) ([]byte, error) {
			return a.Store.Get(ctx, activities.RunFileKey(in.KeyPrefix, name))
		}}
	if d := in.Decision; d != nil {
		opts.Element, opts.ElementWas, opts.Point = d.Element, elementWas(d.ElementWas), d.Point
	}
	for _, r := range in.Avoid {
		opts.Avoid = append(opts.Avoid, *elementWas(&r))
	}
	if in.CheckState {
		opts.ExpectState = in.Step.State
	}
	if a.Secrets != nil {
		opts.Secret = a.Secrets.Reveal
	}
	switch {
	case in.Purpose != activities.PurposeAttempt:
	case in.Intent:
		opts.BeforeAct = func(ctx context.Context) error { return a.intend(ctx, in) }
	case a.Notify != nil:
		opts.BeforeAct = func(ctx context.Context) error {
			info := activity.GetInfo(ctx)
			return a.Notify(ctx, info.WorkflowExecution.ID, info.WorkflowExecution.RunID, activities.ActingNotice{Seq: in.Seq, Attempt: in.Attempt})
		}
	}
	return opts
}

// elementWas is the element a decision saw, as the driver finds it again (nil: none).
func elementWas(r *activities.ElementRef) *page.Element {
	if r == nil {
		return nil
	}
	return &page.Element{Index: r.Index, Role: r.Role, Name: r.Name, Box: page.Box(r.Box), Row: r.Row, Container: r.Container}
}

// stepResult is the attempt's outcome as the workflow sees it, before its evidence is
// stored.
func stepResult(out *driver.Outcome) activities.RunStepResult {
	res := activities.RunStepResult{
		OK: out.OK, Feedback: out.Feedback, Acted: out.Acted, Mutated: out.Mutated, ActedInPart: out.ActedInPart, Unchanged: out.Unchanged,
		Actions: out.Actions, Extracted: out.Extracted, BeforeState: out.Before.State(),
	}
	if t := out.Target; t != nil {
		res.Target = t.Ref()
		res.Element = new(activities.RefOf(*t))
	}
	for _, c := range out.Candidates {
		res.Candidates = append(res.Candidates, c.Ref())
	}
	return res
}
