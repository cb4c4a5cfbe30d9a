package browser

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/fault"
	"github.com/webagent-dev/webagent/internal/secret"
	"github.com/webagent-dev/webagent/plan"
)

// DoOptions tune one attempt at a step.
type DoOptions struct {
	// WaitBudget is how long to wait for a target, or an asserted text, to appear.
	WaitBudget time.Duration
	// Secret reads the value of a {{secret:name}} or {{totp:name}} at the moment of
	// typing into a field of the page or frame at the address at; it refuses a secret the
	// worker does not grant, or one not granted for that site.
	Secret func(u secret.Use, at string) (string, error)
	// SettleTimeout bounds the wait for the page to settle after acting.
	SettleTimeout time.Duration
	// Element, when set, is the index of the element to act on (a decision made
	// elsewhere, by the model), instead of resolving the target description here.
	Element *int
	// ElementWas is that element as the decision saw it: if the page changed since, the
	// same element (role and name, nearest box) is found again, or the attempt fails.
	ElementWas *activities.ElementRef
	// Point, when set, is where to click in the viewport (x, y), instead of an element.
	Point *[2]float64
	// BeforeAct, when set, is called right before the action is dispatched; an error
	// stops the attempt before it acts.
	BeforeAct func(context.Context) error
	// OnPhase is told the attempt's phase as it goes, so the caller can heartbeat and
	// know whether an interrupted attempt had acted.
	OnPhase func(activities.Phase)
	// OnBefore gets the "before" screenshot and observation just before the action, so
	// that the caller can work on them (draw the numbered copy, store them) while the
	// page acts.
	OnBefore func(png []byte, obs page.Observation)
	// ChangeTimeout is how long a click that changed nothing waits for a late change
	// (WaitForChange) before the attempt says nothing happened. Default 1.5s.
	ChangeTimeout time.Duration
	// PaceNext says a WAIT's next step acts in this browser: the WAIT may leave the last
	// part of its time to that step, which then acts on time (paced). Without it a WAIT
	// sleeps all of its time itself.
	PaceNext bool
	// ExpectState, when set, is the state (Observation.State) the page must be in before
	// acting — a replayed step's check; within the wait budget, or the attempt fails
	// without acting.
	ExpectState string
}

// Outcome is what happened in one attempt at a step.
type Outcome struct {
	// typed is what a TYPE typed once its secrets were read: checked, never reported.
	typed    string
	OK       bool
	Feedback *plan.Feedback
	// Acted reports whether the action was sent to the page.
	Acted bool
	// Mutated reports whether the page sent a state-changing request (POST, PUT, PATCH,
	// DELETE...) while acting: such a step must never be replayed.
	Mutated   bool
	Before    page.Observation
	BeforePNG []byte
	After     page.Observation
	AfterPNG  []byte
	Target    *page.Element
	// Candidates are the elements that matched equally well when the target was ambiguous.
	Candidates []page.Element
	Actions    []string
	Extracted  map[string]any
	// Unchanged: the only check, that the page changed, found nothing changed.
	Unchanged bool
	// Downloads are the files the page downloaded while the step acted.
	Downloads []Download
}

// downloadWait is how long a step waits for the downloads it started to finish.
const downloadWait = time.Minute

// Do makes one attempt at a step: observe, resolve the target DOM-first, act, settle,
// observe again and check that the step did what it should. Errors are reserved for a
// broken browser and for ctx ending, which stops the attempt at its next wait; everything
// the page does wrong is in the Outcome's Feedback.
func (s *Session) Do(ctx context.Context, step plan.Step, opts DoOptions) (*Outcome, error) {
	began := time.Now()
	phase := opts.OnPhase
	if phase == nil {
		phase = func(activities.Phase) {}
	}
	if opts.SettleTimeout == 0 {
		opts.SettleTimeout = 5 * time.Second
	}
	spec := step.Action.Spec()
	if !spec.Acts {
		if err := s.keepPace(ctx); err != nil {
			return nil, err
		}
	}
	out := &Outcome{}
	phase(activities.PhaseObserving)
	obs, err := s.Observe(ctx)
	if err != nil {
		return nil, err
	}
	if opts.ExpectState != "" {
		if obs, err = s.awaitState(ctx, obs, opts); err != nil {
			return nil, err
		}
		if got := obs.State(); got != opts.ExpectState {
			return s.without(ctx, out, obs, &plan.Feedback{Type: plan.PageState,
				Details:    fmt.Sprintf("the page is in state %q, but the step was learned in state %q", got, opts.ExpectState),
				Suggestion: "the site changed since the skill was learned: replan from here"})
		}
	}
	if step.Action == plan.Extract && opts.Point == nil {
		// Text a person reads off the page that is not a control: a labelled value, a word.
		if m := labelledValue.FindStringSubmatch(step.TargetDescription); m != nil {
			return s.readLabelled(ctx, out, obs, step, m[1])
		}
		if m := wordOf.FindStringSubmatch(step.TargetDescription); m != nil {
			return s.readWord(ctx, out, obs, step, m[1], m[2])
		}
	}
	var el playwright.ElementHandle
	if opts.Point == nil && step.TargetDescription != "" && spec.Target != plan.None {
		if step.Action == plan.Wait {
			phase(activities.PhaseWaiting)
		}
		res, o, err := s.resolveWaiting(ctx, step, obs, opts)
		if err != nil {
			return nil, err
		}
		obs = o
		if !res.Resolved() {
			out.Candidates = res.Candidates
			return s.without(ctx, out, obs, unresolved(step, res, opts.WaitBudget, obs))
		}
		t := obs.Elements[res.Index]
		out.Target = &t
		if el, err = s.element(res.Index); err != nil {
			return nil, err
		}
	}
	out.Before = obs
	var shotAt time.Time
	if out.BeforePNG, shotAt, err = s.beforeShot(ctx, obs); err != nil {
		return nil, err
	}
	if opts.OnBefore != nil {
		opts.OnBefore(out.BeforePNG, out.Before)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	if spec.Acts && opts.BeforeAct != nil {
		// The run must know the attempt may act before it does: if that cannot be
		// recorded, the attempt ends here, having done nothing.
		if err := opts.BeforeAct(ctx); err != nil {
			return nil, fmt.Errorf("did not act: the intent to act could not be recorded: %w", err)
		}
		fault.At(ctx, fault.BeforeAct)
	}
	phase(activities.PhaseActing)
	m0 := s.Mutations()
	out.Acted = true
	s.expectDialog(step.AcceptDialog)
	defer s.expectDialog(false)
	s.setActing(true)
	defer s.setActing(false)
	leadIn := time.Since(began)
	if spec.Acts && (step.Action != plan.Click || el == nil) {
		if err := s.keepPace(ctx); err != nil {
			return nil, err
		}
	}
	// An action is timed from when it is started, until a WAIT reads when the page saw
	// its input (paced).
	actAt := time.Now()
	fb := s.act(ctx, step, el, out, opts, phase)
	if spec.Acts {
		s.actedAt, s.leadIn = actAt, leadIn
		fault.At(ctx, fault.Settle)
		if err := s.Settle(ctx, opts.SettleTimeout); err != nil {
			return nil, err
		}
		s.awaitWindow(ctx, actAt)
	}
	s.setActing(false)
	followed, err := s.follow(ctx, opts.SettleTimeout)
	if err != nil {
		return nil, err
	}
	out.Actions = append(out.Actions, followed...)
	if note := s.back(); note != "" {
		out.Actions = append(out.Actions, note)
	}
	phase(activities.PhaseChecking)
	out.Mutated = s.Mutations() > m0
	if out.After, err = s.Observe(ctx); err != nil {
		return nil, err
	}
	if !spec.Acts && out.After.Fingerprint == out.Before.Fingerprint && out.After.URL == out.Before.URL && time.Since(shotAt) < reuseShot {
		// A step that does not act (a check, a wait, a read) on a page whose elements
		// did not change: the screenshot before is the one after.
		out.AfterPNG = out.BeforePNG
	} else {
		shotAt = time.Now()
		if out.AfterPNG, err = s.Screenshot(ctx); err != nil {
			return nil, err
		}
	}
	if fb == nil && spec.VisibleEffectOnly && out.After.Fingerprint == out.Before.Fingerprint {
		// Nothing visible yet: some pages answer late (an animation, a slow request).
		if opts.ChangeTimeout == 0 {
			opts.ChangeTimeout = 1500 * time.Millisecond
		}
		_, obs, png, err := s.WaitForChange(ctx, out.BeforePNG, out.Before.Fingerprint, opts.ChangeTimeout, ChangeThreshold)
		if err != nil {
			return nil, err
		}
		out.After, out.AfterPNG = obs, png
		out.Mutated = s.Mutations() > m0
	}
	if fb == nil {
		if fb, err = s.check(ctx, step, el, out, opts.WaitBudget); err != nil {
			return nil, err
		}
	}
	out.Actions = append(out.Actions, s.take(&s.dialogs)...)
	out.Actions = append(out.Actions, s.take(&s.notes)...)
	for _, b := range s.take(&s.blocked) {
		out.Actions = append(out.Actions, "blocked a navigation: "+b)
	}
	if spec.Acts {
		out.Downloads = s.takeDownloads(ctx, downloadWait)
		if len(out.Downloads) > 0 && fb != nil && spec.Check == plan.CheckPageChanged && fb.Type == plan.PageState {
			// The file is the click's effect, where a person would look for it.
			out.Actions = append(out.Actions, "the page did not change; the effect is the download")
			fb = nil
		}
	}
	out.Feedback = fb
	out.OK = fb == nil
	s.remember(out.After, out.AfterPNG, shotAt)
	out.Unchanged = fb != nil && spec.Check == plan.CheckPageChanged && fb.Type == plan.PageState
	return out, nil
}

// without ends an attempt that did not act: the page as it is, and why.
func (s *Session) without(ctx context.Context, out *Outcome, obs page.Observation, fb *plan.Feedback) (*Outcome, error) {
	png, err := s.Screenshot(ctx)
	if err != nil {
		return nil, err
	}
	out.Before, out.After, out.BeforePNG, out.AfterPNG, out.Feedback = obs, obs, png, png, fb
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

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func unresolved(step plan.Step, res page.Resolution, waited time.Duration, obs page.Observation) *plan.Feedback {
	if len(res.Candidates) > 0 {
		refs := make([]string, len(res.Candidates))
		for i, c := range res.Candidates {
			refs[i] = c.Ref()
			if c.Row != "" {
				refs[i] += fmt.Sprintf(" in row %q", page.Truncate(c.Row, 40))
			}
		}
		return &plan.Feedback{
			Type:       plan.WrongElement,
			Details:    res.Reason,
			Suggestion: "name the one meant by its row, its container or its position (\"the second ...\", \"... in the row 'X'\")",
			Candidates: refs,
		}
	}
	fb := &plan.Feedback{
		Type:            plan.NotVisible,
		Details:         fmt.Sprintf("%s after waiting %s; the page %q shows %d controls", res.Reason, waited.Round(100*time.Millisecond), obs.Title, len(obs.Elements)),
		Suggestion:      "the page may need another step first (open a dialog, a menu or a tab), or the target is described differently on the page",
		ExpectedElement: step.TargetDescription,
	}
	if obs.Truncated {
		fb.Details += fmt.Sprintf(" (of %d on the page: the list keeps an open dialog or menu and what is in view first)", obs.Total)
		fb.Suggestion = "scroll to the target first, or name it as the page does; " + fb.Suggestion
	}
	for _, c := range page.Closest(step.TargetDescription, obs.Elements, 3) {
		fb.Candidates = append(fb.Candidates, c.Ref())
	}
	if len(fb.Candidates) > 0 {
		fb.Details += "; the closest are " + strings.Join(fb.Candidates, ", ")
	}
	return fb
}

// reuseShot is how long the screenshot taken at the end of a step stands for the page at
// the start of the next, when the page's elements have not changed since.
const reuseShot = 2 * time.Second

// remember keeps the screenshot a step ended with (taken at, at the latest, now).
func (s *Session) remember(obs page.Observation, png []byte, at time.Time) {
	s.last = shot{fingerprint: obs.Fingerprint, url: obs.URL, png: png, at: at}
}

// beforeShot is the screenshot of the page before a step acts: the one the previous step
// ended with when it is a moment old and the page's elements, values and address are as
// they were then (nothing happened in between), else a new one.
func (s *Session) beforeShot(ctx context.Context, obs page.Observation) ([]byte, time.Time, error) {
	if l := s.last; l.png != nil && l.fingerprint == obs.Fingerprint && l.url == obs.URL && time.Since(l.at) < reuseShot {
		return l.png, l.at, nil
	}
	at := time.Now()
	png, err := s.Screenshot(ctx)
	return png, at, err
}
