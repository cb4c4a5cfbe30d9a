package driver

//lint:file-ignore SA1019 The field a step typed into is the exact node the page focused; only an ElementHandle names that node.

import (
	"context"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/activities/timing"
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
	// BeforeText asks for the page's text, read just before the action (Outcome.BeforeText).
	BeforeText bool
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
	// Avoid are elements the step's earlier attempts acted on and the run found wrong (a
	// model vetoed the attempt, or its checks failed): the attempt never acts on one of
	// them again, whether DOM-first resolution or a decision named it; it ends without
	// acting, saying so, for the model or a replan to find another way.
	Avoid []page.Element
}

// Outcome is what happened in one attempt at a step.
type Outcome struct {
	// typed is what a TYPE typed once its secrets were read: checked, never reported.
	typed string
	// ownCheck: the action checked its effect itself (a sorted list read in its order),
	// so that the page changed is not its evidence, nor that it did not its failure.
	ownCheck bool
	// editor is the field a TYPE typed into when its target was the box that opens it
	// (typeIntoOpened): what the check reads back.
	editor   playwright.ElementHandle
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
	// BeforeText is the page's text just before the action, when DoOptions.BeforeText
	// asked for it.
	BeforeText string
	After      page.Observation
	AfterPNG   []byte
	Target     *page.Element
	// Candidates are the elements that matched equally well when the target was ambiguous.
	Candidates []page.Element
	Actions    []string
	Extracted  map[string]any
	// Unchanged: the only check, that the page changed, found nothing changed.
	Unchanged bool
	// Downloads are the files the page downloaded while the step acted.
	Downloads []Download
	// Times is where the attempt's time went.
	Times timing.Step
}
