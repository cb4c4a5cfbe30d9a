package driver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// action is one attempt's action as its handler sees it.
type action struct {
	s     *Session
	step  plan.Step
	el    playwright.ElementHandle
	out   *Outcome
	opts  DoOptions
	phase func(Phase)
	ref   string
	// at is when the action began; detached, that it failed because its element left
	// the page (refind.go).
	at       time.Time
	detached bool
	// fills: a form filled from the page's table, each field with its value.
	fills []tableFill
}

func (a *action) note(format string, args ...any) {
	a.out.Actions = append(a.out.Actions, fmt.Sprintf(format, args...))
}

func (a *action) failed(err error) *plan.Feedback {
	if err != nil && a.s.page.IsClosed() {
		// The page closed itself on the click (a "Close this window" button): that is
		// the click's effect, not its failure.
		return nil
	}
	if err != nil && detached(err) {
		a.detached = true
	}
	return actionFeedback(a.step, a.ref, err)
}

// timeout bounds one Playwright action on an element.
var timeout = playwright.Float(5000)

// handler does one action on the page.
type handler func(context.Context, *action) *plan.Feedback

// actionFeedback turns a Playwright error into the evaluator's feedback.
func actionFeedback(step plan.Step, ref string, err error) *plan.Feedback {
	if err == nil {
		return nil
	}
	msg := err.Error()
	fb := &plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("%s on %s failed: %s", strings.ToLower(string(step.Action)), ref, firstLine(msg)), ActualElement: ref}
	switch {
	case strings.Contains(msg, "intercepts pointer events"):
		fb.Type, fb.Suggestion = plan.NotVisible, "another element covers the target; close the overlay first"
	case strings.Contains(msg, "not visible"), strings.Contains(msg, "not attached"), strings.Contains(msg, "detached"):
		fb.Type, fb.Suggestion = plan.Timing, "the element changed while acting; look again"
	case strings.Contains(msg, "Timeout"):
		fb.Type, fb.Suggestion = plan.Timing, "the element did not become ready in time"
	case strings.Contains(msg, "not a <select>"), strings.Contains(msg, "not an <input>"), strings.Contains(msg, "did not find some options"):
		fb.Type, fb.Suggestion = plan.WrongElement, "the target is not the kind of control the step needs"
	}
	return fb
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return page.Truncate(s, 200)
}

// detached reports whether an action's error says its element left the page.
func detached(err error) bool {
	m := err.Error()
	return strings.Contains(m, "not attached") || strings.Contains(m, "detached")
}

// attached reports whether el is still on the page.
func attached(el playwright.ElementHandle) bool {
	v, err := el.Evaluate(`(el) => el.isConnected`)
	return err == nil && v == true
}

// clicked is how a refusal says which click was done.
func clicked(a plan.Action) string {
	switch a {
	case plan.DoubleClick:
		return "double-clicked"
	case plan.RightClick:
		return "right-clicked"
	}
	return "clicked"
}

// tableFill is one field to fill: its node, its label and the value its label's row gives.
type tableFill struct {
	el           playwright.ElementHandle
	label, value string
}
