package driver

import (
	"context"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/timing"
	"github.com/webagent-dev/webagent/plan"
)

// attempt is one Do, from the look at the page to the outcome, in the order Do runs its
// parts.
type attempt struct {
	s     *Session
	step  plan.Step
	spec  plan.Spec
	opts  DoOptions
	out   *Outcome
	began time.Time
	// timed: a WAIT set the time of this step's action (pace.go).
	timed bool
	// el is the target's live node (nil for a step without a target, or at a point);
	// more, the others of a target that says "every", and their references.
	el       playwright.ElementHandle
	more     []playwright.ElementHandle
	moreRefs []string
	// fills are the fields a form filled from the page's table types into (fromtable.go).
	fills []tableFill
	// shotAt is when the screenshot the attempt has last was taken; m0, the page's count
	// of state-changing requests before the action.
	shotAt time.Time
	m0     int64
	// watch laps the attempt's parts into out.Times.
	watch timing.Stopwatch
	// settled is the screenshot taken while the page settled after the action, when the
	// page did not change while it was taken.
	settled *settledShot
	// stayed: the attempt's page is the one its look observed (no window was followed).
	stayed bool
}

func (s *Session) newAttempt(step plan.Step, opts DoOptions) *attempt {
	if opts.OnPhase == nil {
		opts.OnPhase = func(Phase) {}
	}
	if opts.SettleTimeout == 0 {
		opts.SettleTimeout = 5 * time.Second
	}
	if opts.ChangeTimeout == 0 {
		opts.ChangeTimeout = 1500 * time.Millisecond
	}
	now := time.Now()
	return &attempt{s: s, step: step, spec: step.Action.Spec(), opts: opts, out: &Outcome{}, began: now, timed: s.pace.timed(), watch: timing.Start(now)}
}

// action is the step's action as its handler sees it.
func (at *attempt) action() *action {
	a := &action{s: at.s, step: at.step, el: at.el, out: at.out, opts: at.opts, phase: at.opts.OnPhase, fills: at.fills}
	if at.out.Target != nil {
		a.ref = at.out.Target.Ref()
	}
	return a
}

// shootBefore takes (or reuses) the screenshot before the action and hands it to the
// caller, to work on while the page acts.
func (at *attempt) shootBefore(ctx context.Context) error {
	var err error
	if at.out.BeforePNG, at.shotAt, err = at.s.beforeShot(ctx, at.out.Before); err != nil {
		return err
	}
	if at.opts.OnBefore != nil {
		at.opts.OnBefore(at.out.BeforePNG, at.out.Before)
	}
	if at.opts.BeforeText {
		// Evidence for the goal's end, not for the step: a page that cannot be read now
		// leaves the run without it, and the step acts as it would have.
		at.out.BeforeText, _ = at.s.ShownText(ctx)
	}
	return ctx.Err()
}
