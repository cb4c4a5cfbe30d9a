package driver

//lint:file-ignore SA1019 The agent acts on the exact node its observation numbered (in the page, a shadow root or a frame); only an ElementHandle names that node, where a locator would query the page again by selector.

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

// handlers do each action on the page; a non-nil feedback means the action itself failed.
// What each action needs and how it is checked is in plan.Action.Spec.
var handlers = map[plan.Action]handler{
	plan.Click:       click,
	plan.Type:        typeText,
	plan.Select:      selectValue,
	plan.Check:       setChecked,
	plan.Press:       press,
	plan.Navigate:    navigate,
	plan.Scroll:      scroll,
	plan.Wait:        wait,
	plan.Assert:      func(context.Context, *action) *plan.Feedback { return nil }, // looked at in check
	plan.Extract:     func(context.Context, *action) *plan.Feedback { return nil }, // read in check
	plan.Hover:       hover,
	plan.DoubleClick: doubleClick,
	plan.RightClick:  rightClick,
	plan.Clear:       clearField,
	plan.Drag:        drag,
	plan.Upload:      upload,
	plan.SelectText:  selectText,
}

// act performs the step's action and says when it began (a.at). A step a WAIT timed
// (pace.go) acts at the time the WAIT set: a click on an element in two parts
// (clickOnTime), any other action once its time has come; only ctx ending while it waits
// for its time is an error.
func (s *Session) act(ctx context.Context, a *action, timed bool) (*plan.Feedback, error) {
	h := handlers[a.step.Action]
	if a.step.FillsFromTable() && a.opts.Point == nil {
		h = fillFromTable
	}
	if a.step.When != "" && a.opts.Point == nil {
		// A condition to wait for first (when.go), at the time a WAIT set if one did.
		h = map[plan.Action]handler{plan.Click: clickWhen, plan.Wait: waitWhen}[a.step.Action]
		if timed {
			if err := s.pace.keep(ctx); err != nil {
				return nil, err
			}
			timed = false
		}
	}
	if timed && a.clicksElement() {
		h = clickOnTime
	} else if timed {
		if err := s.pace.keep(ctx); err != nil {
			return nil, err
		}
	}
	a.at = time.Now()
	if a.el == nil && a.opts.Point != nil && a.step.Action != plan.Click && a.step.Action != plan.Type {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s needs an element, not a point on the screen", a.step.Action)}, nil
	}
	if h == nil {
		return &plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("unknown action %q", a.step.Action)}, nil
	}
	return h(ctx, a), nil
}

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
