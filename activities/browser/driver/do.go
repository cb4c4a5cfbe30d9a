package driver

import (
	"context"
	"fmt"
	"time"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/fault"
	"github.com/webagent-dev/webagent/plan"
)

// downloadWait is how long a step waits for the downloads it started to finish.
const downloadWait = time.Minute

// Do makes one attempt at a step: observe, resolve the target DOM-first, act, settle,
// observe again and check that the step did what it should. Errors are reserved for a
// broken browser and for ctx ending, which stops the attempt at its next wait; everything
// the page does wrong is in the Outcome's Feedback.
func (s *Session) Do(ctx context.Context, step plan.Step, opts DoOptions) (*Outcome, error) {
	s.steps++
	s.unfolded = "" // a heading this step's own reveal brings into sight, none yet
	at := s.newAttempt(step, opts)
	defer s.dialogs.expect(false)
	defer s.windows.setActing(false)
	if reason := s.keepOnSites(); reason != "" {
		// Between steps the page went off the run's sites (a timer, a late redirect):
		// no step acts there.
		s.sites.blocked.add(reason + "; the page was taken back before the step")
	}
	times := &at.out.Times
	out, err := at.look(ctx)
	at.watch.Lap(&times.Look)
	if out != nil || err != nil {
		return out, err
	}
	if err := at.shootBefore(ctx); err != nil {
		return nil, err
	}
	at.watch.Lap(&times.Shot)
	fb, err := at.act(ctx)
	if err != nil {
		return nil, err
	}
	if err := at.observeAfter(ctx, fb == nil); err != nil {
		return nil, err
	}
	at.watch.Lap(&times.After)
	if fb == nil {
		el := at.el
		if at.out.editor != nil {
			el = at.out.editor // the field the target opened
		}
		if fb, err = s.check(ctx, step, el, at.out, at.opts.WaitBudget); err != nil {
			return nil, err
		}
		if fb, err = at.againIfUnheeded(ctx, fb); err != nil {
			return nil, err
		}
	}
	out = at.finish(ctx, fb)
	if at.spec.Acts && out.Acted {
		s.fresh.record(out.Before, out.After)
		s.near.record(out)
		at.noteMenu()
	}
	at.watch.Lap(&times.Check)
	return out, nil
}

// awaitState looks again, within the wait budget, until the page is in the state a
// replayed step expects.
func (s *Session) awaitState(ctx context.Context, obs page.Observation, opts DoOptions) (page.Observation, error) {
	deadline := time.Now().Add(opts.WaitBudget)
	var err error
	for obs.State() != opts.ExpectState && time.Now().Before(deadline) {
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return obs, err
		}
		if obs, err = s.Observe(ctx); err != nil {
			return obs, err
		}
	}
	return obs, nil
}

// look observes the page and finds the step's target. An Outcome it returns ends the
// attempt there, without acting: the page is not in the state a replayed step expects,
// the target cannot be told, or the step read what it wanted off the page.
func (at *attempt) look(ctx context.Context) (*Outcome, error) {
	s, step, opts := at.s, at.step, at.opts
	if at.timed && !at.spec.Acts {
		// A step that does not act keeps the time a WAIT set before it looks.
		at.timed = false
		if err := s.pace.keep(ctx); err != nil {
			return nil, err
		}
	}
	opts.OnPhase(PhaseObserving)
	obs, err := s.Observe(ctx)
	if err != nil {
		return nil, err
	}
	if opts.ExpectState != "" {
		if obs, err = s.awaitState(ctx, obs, opts); err != nil {
			return nil, err
		}
		if got := obs.State(); got != opts.ExpectState {
			return s.without(ctx, at.out, obs, &plan.Feedback{Type: plan.PageState,
				Details:    fmt.Sprintf("the page is in state %q, but the step was learned in state %q", got, opts.ExpectState),
				Suggestion: "the site changed since the skill was learned: replan from here"})
		}
	}
	if step.FillsFromTable() && opts.Point == nil {
		return at.fromTable(ctx, obs)
	}
	if step.Action == plan.Extract && opts.Point == nil {
		// Text a person reads off the page that is not a control: a labelled value, a word.
		if m := labelledValue.FindStringSubmatch(step.TargetDescription); m != nil {
			return s.readLabelled(ctx, at.out, obs, step, m[1])
		}
		if m := wordOf.FindStringSubmatch(step.TargetDescription); m != nil {
			return s.readWord(ctx, at.out, obs, step, m[1], m[2])
		}
	}
	if out, err := at.target(ctx, obs); out != nil || err != nil {
		return out, err
	}
	return at.refuseAvoided(ctx)
}

// target resolves the step's target, when it names one, waiting for it within the wait
// budget; the observation it was found in is the page before the action.
func (at *attempt) target(ctx context.Context, obs page.Observation) (*Outcome, error) {
	s, step, opts := at.s, at.step, at.opts
	if opts.Point == nil {
		// "the paragraph", "the 2nd paragraph", "the list of numbers": what the page
		// shows, not a control.
		if el, t, why, ok := s.shownTarget(step); ok {
			if el == nil {
				return s.without(ctx, at.out, obs, &plan.Feedback{Type: plan.NotVisible, Details: why})
			}
			at.out.Target, at.el, at.out.Before = &t, el, obs
			return nil, nil
		}
	}
	if parts := step.Parts(); parts.Outside && opts.Point == nil && opts.Element == nil && step.Action == plan.Click {
		return at.targetOutside(ctx, obs)
	} else if parts.SignIn != "" && opts.Point == nil && opts.Element == nil {
		// "log in as admin with the password …": a part of the page's one sign-in form.
		return at.targetSignIn(ctx, parts)
	} else if parts.Every && opts.Point == nil {
		return at.targetEvery(ctx, obs, parts)
	} else if parts.Labelled && opts.Point == nil && opts.Element == nil && at.spec.Acts {
		// "the value of "Phone" for "Ann"", to act on (a read has its own, read.go).
		return at.targetLabelled(ctx, parts)
	}
	if opts.Point == nil && step.TargetDescription != "" && at.spec.Target != plan.None {
		if step.Action == plan.Wait {
			opts.OnPhase(PhaseWaiting)
		}
		first := obs
		res, o, err := s.resolveWaiting(ctx, step, obs, opts)
		if err != nil {
			return nil, err
		}
		obs = o
		if at.aimAtText(&res, obs, first) {
			return nil, nil
		}
		if res.Resolved() && textAimed[step.Action] && !namedExactly(obs.Elements[res.Index], step.Parts()) {
			// "drag Olwen": the list whose text holds Olwen among others is no match for
			// the item that says exactly that.
			if el, t, _ := s.textTarget(step.Parts(), step.TargetDescription); el != nil {
				at.out.Target, at.el, at.out.Before = &t, el, obs
				return nil, nil
			}
		}
		if q := s.dialogs.lastAccepted(); step.AnswersDialog && q != "" {
			// "click "Delete", then click "OK"", "… and confirm": the question was the
			// browser's, and the step before accepted it; the one answer the goal wrote is
			// given, and nothing more is clicked (an "OK" the page shows after it is another
			// question's).
			at.out.OK, at.out.ownCheck = true, true
			at.out.Actions = append(at.out.Actions, fmt.Sprintf("no %q to click: the page asked %q and the step before accepted it", step.TargetDescription, q))
			return s.without(ctx, at.out, obs, nil)
		}
		if !res.Resolved() && len(res.Candidates) == 0 && alreadyOn(step, obs) {
			at.out.OK, at.out.ownCheck = true, true
			at.out.Actions = append(at.out.Actions, fmt.Sprintf("no %q to click: the page shown is that page, by its title or heading", step.TargetDescription))
			return s.without(ctx, at.out, obs, nil)
		}
		if !res.Resolved() {
			at.out.Candidates = res.Candidates
			return s.without(ctx, at.out, obs, unresolved(step, res, opts.WaitBudget, obs))
		}
		t := obs.Elements[res.Index]
		at.out.Target = &t
		if at.el, err = s.element(res.Index); err != nil {
			return nil, err
		}
	}
	if p := opts.Point; p != nil {
		// A point is clicked as a point; the element under it is what the attempt acts
		// on, for the run to know (and refuse, if it was found wrong before).
		if e, ok := obs.At(p[0], p[1]); ok {
			at.out.Target = &e
		}
	}
	at.out.Before = obs
	return nil, nil
}

// act does the step's action. The run is told the attempt may act before anything is
// sent to the page (BeforeAct): an attempt whose intent could not be recorded ends here,
// having done nothing. A step that acts then settles, and a window it opened is followed.
func (at *attempt) act(ctx context.Context) (*plan.Feedback, error) {
	s := at.s
	looked := s.page
	if at.spec.Acts && at.opts.BeforeAct != nil {
		if err := at.opts.BeforeAct(ctx); err != nil {
			return nil, fmt.Errorf("did not act: the intent to act could not be recorded: %w", err)
		}
		fault.At(ctx, fault.BeforeAct)
	}
	at.watch.Lap(&at.out.Times.Intent)
	at.opts.OnPhase(PhaseActing)
	at.m0 = s.Mutations()
	at.out.Acted = true
	s.dialogs.acting()
	s.dialogs.expect(at.step.AcceptDialog)
	s.windows.setActing(true)
	leadIn := time.Since(at.began)
	a := at.action()
	fb, err := s.act(ctx, a, at.timed)
	for i := 0; err == nil && fb == nil && i < len(at.more); i++ {
		// "every": the next one, once the page has settled after the last. One that
		// fails after others acted leaves the step done in part: never redone whole.
		if err = s.Settle(ctx, at.opts.SettleTimeout); err == nil {
			a.el, a.ref = at.more[i], at.moreRefs[i]
			fb, err = s.act(ctx, a, false)
		}
		at.out.ActedInPart = err != nil || fb != nil
	}
	if err != nil {
		return nil, err
	}
	at.watch.Lap(&at.out.Times.Act)
	if at.spec.Acts {
		// An action is timed from when it is started, until a WAIT reads when the page
		// saw its input (pacer.wait).
		s.pace.acted(a.at, leadIn)
		s.traffic.touch()
		fault.At(ctx, fault.Settle)
		if at.settled, err = s.settle(ctx, at.opts.SettleTimeout, true); err != nil {
			return nil, err
		}
		s.awaitWindow(ctx, a.at)
		fb = at.foundAgain(ctx, a, fb)
	}
	s.windows.setActing(false)
	err = at.followWindows(ctx)
	at.stayed = s.page == looked
	at.watch.Lap(&at.out.Times.Settle)
	return fb, err
}

// followWindows moves to a window the action opened, or back from one that closed.
func (at *attempt) followWindows(ctx context.Context) error {
	followed, err := at.s.follow(ctx, at.opts.SettleTimeout)
	if err != nil {
		return err
	}
	at.out.Actions = append(at.out.Actions, followed...)
	if note := at.s.back(); note != "" {
		at.out.Actions = append(at.out.Actions, note)
	}
	return nil
}

// observeAfter observes the page after the action and takes its screenshot; after an
// action whose only evidence is a visible change (acted: it did not fail) and that
// changed nothing yet, it waits a little for a late change.
func (at *attempt) observeAfter(ctx context.Context, acted bool) error {
	s, out := at.s, at.out
	at.opts.OnPhase(PhaseChecking)
	out.Mutated = s.Mutations() > at.m0
	var err error
	switch {
	case at.spec.Acts && at.settled != nil && at.settled.page == s.page:
		// The picture taken while the page settled shows it: only its elements are left.
		out.AfterPNG, at.shotAt = at.settled.png, at.settled.at
		if out.After, err = s.Observe(ctx); err != nil {
			return err
		}
	case at.spec.Acts:
		if err = at.lookAfter(ctx); err != nil {
			return err
		}
	default:
		if lookOnly[at.step.Action] && at.stayed {
			// A check or a read does nothing to the page between its look and here (its
			// handler is none, and no window was followed): the observation its look made
			// a moment ago is the one after. A wait waited, and is looked at again.
			out.After = out.Before
		} else if out.After, err = s.Observe(ctx); err != nil {
			return err
		}
		if out.After.Fingerprint == out.Before.Fingerprint && out.After.URL == out.Before.URL && time.Since(at.shotAt) < reuseShot {
			// A step that does not act (a check, a wait, a read) on a page whose elements
			// did not change: the screenshot before is the one after.
			out.AfterPNG = out.BeforePNG
			break
		}
		at.shotAt = time.Now()
		if out.AfterPNG, err = s.Screenshot(ctx); err != nil {
			return err
		}
	}
	if !acted || !at.spec.VisibleEffectOnly || out.After.Fingerprint != out.Before.Fingerprint {
		return nil
	}
	// Nothing visible yet: some pages answer late (an animation, a slow request).
	_, obs, png, err := s.WaitForChange(ctx, out.BeforePNG, out.Before.Fingerprint, at.opts.ChangeTimeout, ChangeThreshold)
	if err != nil {
		return err
	}
	out.After, out.AfterPNG = obs, png
	out.Mutated = s.Mutations() > at.m0
	return nil
}

// lookAfter observes the settled page after an action and takes its screenshot, side by
// side: the picture waits for the browser's next frame while the listing runs in the page.
func (at *attempt) lookAfter(ctx context.Context) error {
	s, out := at.s, at.out
	at.shotAt = time.Now()
	shot := make(chan error, 1)
	go func() {
		var err error
		out.AfterPNG, err = s.Screenshot(ctx)
		shot <- err
	}()
	var err error
	out.After, err = s.Observe(ctx)
	if serr := <-shot; err == nil {
		err = serr
	}
	return err
}

// finish completes the outcome with what the page did meanwhile (dialogs, windows,
// blocked navigations, downloads) and the step's verdict.
func (at *attempt) finish(ctx context.Context, fb *plan.Feedback) *Outcome {
	s, out, spec := at.s, at.out, at.spec
	out.Actions = append(out.Actions, s.dialogs.answered.take()...)
	out.Actions = append(out.Actions, s.notes.take()...)
	for _, b := range s.sites.blocked.take() {
		out.Actions = append(out.Actions, "blocked a navigation: "+b)
	}
	for _, r := range s.sites.refused.take() {
		out.Actions = append(out.Actions, "the worker's egress proxy refused a connection: "+r)
	}
	if reason := s.keepOnSites(); reason != "" {
		// The page landed outside the run's sites (a redirect the first request did not
		// show): the step ends there, and the page does not stay.
		out.Actions = append(out.Actions, "left it: "+reason)
		fb = &plan.Feedback{Type: plan.PageState, Details: reason,
			Suggestion: "a run goes only to its start URL's site and the domains it allows (--allow-domain)"}
	}
	if spec.Acts {
		out.Downloads = s.downloads.take(ctx, downloadWait)
		if len(out.Downloads) > 0 && fb != nil && spec.Check == plan.CheckPageChanged && fb.Type == plan.PageState {
			// The file is the click's effect, where a person would look for it.
			out.Actions = append(out.Actions, "the page did not change; the effect is the download")
			fb = nil
		}
	}
	out.Feedback = fb
	out.OK = fb == nil
	s.shots.remember(out.After, out.AfterPNG, at.shotAt)
	out.Unchanged = fb != nil && spec.Check == plan.CheckPageChanged && fb.Type == plan.PageState && !out.ownCheck
	return out
}
