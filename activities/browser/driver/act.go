package driver

import (
	"context"
	"fmt"
	"time"

	"github.com/webagent-dev/webagent/plan"
)

// handlers do each action on the page; a non-nil feedback means the action itself failed.
// What each action needs and how it is checked is in plan.Action.Spec.
var handlers = map[plan.Action]handler{
	plan.Click:       click,
	plan.Type:        typeText,
	plan.Append:      appendText,
	plan.Select:      selectValue,
	plan.Check:       setChecked,
	plan.Press:       press,
	plan.Navigate:    navigate,
	plan.Scroll:      scroll,
	plan.Wait:        wait,
	plan.Assert:      lookOnlyHandler, // looked at in check
	plan.Extract:     lookOnlyHandler, // read in check
	plan.Hover:       hover,
	plan.DoubleClick: doubleClick,
	plan.RightClick:  rightClick,
	plan.Clear:       clearField,
	plan.Drag:        drag,
	plan.Upload:      upload,
	plan.SelectText:  selectText,
}

// lookOnly are the actions whose handler does nothing to the page (lookOnlyHandler): the
// step's look and its check do their work.
var lookOnly = map[plan.Action]bool{plan.Assert: true, plan.Extract: true}

func lookOnlyHandler(context.Context, *action) *plan.Feedback { return nil }

// act performs the step's action and says when it began (a.at). A step a WAIT timed
// (pace.go) acts at the time the WAIT set: a click on an element in two parts
// (clickOnTime, ontime.go), any other action once its time has come; only ctx ending
// while it waits for its time is an error.
func (s *Session) act(ctx context.Context, a *action, timed bool) (*plan.Feedback, error) {
	h := handlers[a.step.Action]
	if a.step.FillsFromTable() && a.opts.Point == nil {
		h = fillFromTable
	}
	if a.step.Condition != nil && a.opts.Point == nil {
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
