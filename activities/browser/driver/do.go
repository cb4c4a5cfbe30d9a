package driver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/activities/page"
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
	ElementWas *page.Element
	// Point, when set, is where to click in the viewport (x, y), instead of an element.
	Point *[2]float64
	// BeforeAct, when set, is called right before the action is dispatched; an error
	// stops the attempt before it acts.
	BeforeAct func(context.Context) error
	// OnPhase is told the attempt's phase as it goes, so the caller can heartbeat and
	// know whether an interrupted attempt had acted.
	OnPhase func(Phase)
	// OnBefore gets the "before" screenshot and observation just before the action, so
	// that the caller can work on them (draw the numbered copy, store them) while the
	// page acts.
	OnBefore func(png []byte, obs page.Observation)
	// ChangeTimeout is how long a click that changed nothing waits for a late change
	// (WaitForChange) before the attempt says nothing happened. Default 1.5s.
	ChangeTimeout time.Duration
	// PaceNext says a WAIT's next step acts in this browser: the WAIT may leave the last
	// part of its time to that step, which then acts on time (pace.go). Without it a WAIT
	// sleeps all of its time itself.
	PaceNext bool
	// File reads a file the run was given, by name, for an UPLOAD; nil: the run has none.
	File func(ctx context.Context, name string) ([]byte, error)
	// ExpectState, when set, is the state (Observation.State) the page must be in before
	// acting — a replayed step's check; within the wait budget, or the attempt fails
	// without acting.
	ExpectState string
}

// Outcome is what happened in one attempt at a step.
type Outcome struct {
	// typed is what a TYPE typed once its secrets were read: checked, never reported.
	typed string
	// ownCheck: the action checked its effect itself (a sorted list read in its order),
	// so that the page changed is not its evidence, nor that it did not its failure.
	ownCheck bool
	OK       bool
	Feedback *plan.Feedback
	// Acted reports whether the action was sent to the page.
	Acted bool
	// Mutated reports whether the page sent a state-changing request (POST, PUT, PATCH,
	// DELETE...) while acting: such a step must never be replayed.
	Mutated bool
	// ActedInPart reports that a step on every element so named acted on some of them,
	// then failed.
	ActedInPart bool
	Before      page.Observation
	BeforePNG   []byte
	After       page.Observation
	AfterPNG    []byte
	Target      *page.Element
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
	at := s.newAttempt(step, opts)
	defer s.dialogs.expect(false)
	defer s.windows.setActing(false)
	if reason := s.keepOnSites(); reason != "" {
		// Between steps the page went off the run's sites (a timer, a late redirect):
		// no step acts there.
		s.sites.blocked.add(reason + "; the page was taken back before the step")
	}
	if out, err := at.look(ctx); out != nil || err != nil {
		return out, err
	}
	if err := at.shootBefore(ctx); err != nil {
		return nil, err
	}
	fb, err := at.act(ctx)
	if err != nil {
		return nil, err
	}
	if err := at.observeAfter(ctx, fb == nil); err != nil {
		return nil, err
	}
	if fb == nil {
		if fb, err = s.check(ctx, step, at.el, at.out, at.opts.WaitBudget); err != nil {
			return nil, err
		}
	}
	return at.finish(ctx, fb), nil
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
	for _, c := range page.Closest(step.Parts(), obs.Elements, 3) {
		fb.Candidates = append(fb.Candidates, c.Ref())
	}
	if len(fb.Candidates) > 0 {
		fb.Details += "; the closest are " + strings.Join(fb.Candidates, ", ")
	}
	return fb
}
