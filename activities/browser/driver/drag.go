package driver

//lint:file-ignore SA1019 The element dropped on is the exact node found; only an ElementHandle names it.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// drag moves the step's element onto the one its value names, with the mouse, as a person
// drags a card to a column (the page sees the pointer's press, moves and release, and
// Chromium's drag and drop events); or, for a slider and a number, sets the slider there.
func drag(ctx context.Context, a *action) *plan.Feedback {
	if a.out.Target != nil && (a.out.Target.Role == "slider" || a.out.Target.Type == "range") {
		return slide(a)
	}
	if mv := a.step.Move; mv != nil && mv.Sort != "" {
		return sortList(ctx, a, mv.Sort)
	} else if mv != nil {
		return moveAlong(ctx, a, *mv)
	}
	to, where, fb := a.dropTarget()
	if fb != nil {
		return fb
	}
	from, err := a.el.BoundingBox()
	if err != nil || from == nil {
		return a.failed(fmt.Errorf("the element to drag has no box on the page: %v", err))
	}
	if fb := a.press(ctx, from.X+from.Width/2, from.Y+from.Height/2, to.X+to.Width/2, to.Y+to.Height/2); fb != nil {
		return fb
	}
	a.note("dragged %s onto %s", a.ref, where)
	return nil
}

// dropTarget finds where the step's value says the element goes: a control the page
// lists, or else text shown exactly once (a column's heading, a folder's name), held to
// every part of its description.
func (a *action) dropTarget() (*playwright.Rect, string, *plan.Feedback) {
	t := plan.ParseTarget(a.step.To)
	res := page.ResolveTarget(t, plan.Drag, a.out.Before.Elements)
	if res.Resolved() {
		el, err := a.s.element(res.Index)
		if err == nil {
			if box, err := el.BoundingBox(); err == nil && box != nil {
				return box, a.out.Before.Elements[res.Index].Ref(), nil
			}
		}
	}
	if len(res.Candidates) > 0 {
		return nil, "", &plan.Feedback{Type: plan.WrongElement, Details: "where to drop it is not clear: " + res.Reason}
	}
	el, e, why := a.s.textTarget(t, a.step.To)
	if el == nil {
		if why == "" {
			why = fmt.Sprintf("the page shows no %s to drop it on", t.Describe())
		}
		return nil, "", &plan.Feedback{Type: plan.NotVisible, Details: why}
	}
	box, err := el.BoundingBox()
	if err != nil || box == nil {
		return nil, "", &plan.Feedback{Type: plan.NotVisible, Details: fmt.Sprintf("%s has no box on the page", e.Ref())}
	}
	return box, e.Ref(), nil
}

// slide sets a slider to the step's value, as its keys or a drag would, and the page
// hears it as input and change.
func slide(a *action) *plan.Feedback {
	v := strings.TrimSuffix(strings.TrimSpace(a.step.To), "%")
	want, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s is a slider: drag it to a number, not %q", a.ref, a.step.To)}
	}
	if a.out.Target.Tag != "input" {
		return slideByKeys(a, want)
	}
	got, err := a.el.Evaluate(`(el, v) => {
	  const min = el.min === "" ? 0 : +el.min, max = el.max === "" ? 100 : +el.max;
	  if (+v < min || +v > max) return "out of range " + min + "–" + max;
	  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
	  set.call(el, v);
	  el.dispatchEvent(new Event("input", { bubbles: true }));
	  el.dispatchEvent(new Event("change", { bubbles: true }));
	  return el.value;
	}`, v)
	if err != nil {
		return a.failed(err)
	}
	if s, _ := got.(string); s != v {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s: %v", a.ref, got)}
	}
	a.note("moved the slider %s to %s", a.ref, v)
	return nil
}
