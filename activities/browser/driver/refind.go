package driver

//lint:file-ignore SA1019 The control found again is the exact node the new observation numbered; only an ElementHandle names that node, where a locator would query the page again by selector.

import (
	"context"
	"fmt"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// A control the page renders again while it is acted on (an app that re-renders a row
// while its checkbox is being ticked) leaves the action holding a node that is no longer
// on the page: Playwright's look at the action's effect fails after the action may have
// been done, and the step would be put in doubt. Instead the attempt looks the target up
// again on the page as it is now — by the step's description, or by what it was (its
// role, name, row and container) — and checks the step's effect on it there.

// foundAgain is for a step that ticks a box or fills a field: when its target left the
// page while it acted (fb, the action's failure then) or right after, the target is found
// again, and the attempt works on the element found from then on. A failure is dropped
// when the step's effect holds on it; otherwise it stands, as it would have.
func (at *attempt) foundAgain(ctx context.Context, a *action, fb *plan.Feedback) *plan.Feedback {
	if c := at.spec.Check; a.el == nil || at.out.Target == nil || (c != plan.CheckCheckedState && c != plan.CheckFieldValue) {
		return fb
	}
	if fb != nil && !a.detached || fb == nil && attached(a.el) {
		return fb
	}
	el, t, ok := at.s.refind(ctx, at.step, *at.out.Target, at.opts.Element == nil)
	if !ok || fb != nil && !a.effectHolds(el) {
		return fb
	}
	found := t.Ref()
	if t.Row != "" {
		found += fmt.Sprintf(" in the row %q", page.Truncate(t.Row, 40))
	}
	a.note("%s was re-rendered while acting: found it again by its row and name (%s)", a.ref, found)
	at.el, a.el, at.out.Target = el, el, &t
	return nil
}

// refind finds the target again on the page as it is now: by the step's description when
// it was found by it (described) and that names an element of the same role and name, else
// as the element it was.
func (s *Session) refind(ctx context.Context, step plan.Step, was page.Element, described bool) (playwright.ElementHandle, page.Element, bool) {
	obs, err := s.Observe(ctx)
	if err != nil {
		return nil, page.Element{}, false
	}
	res := page.Resolution{Index: -1}
	if described {
		if r := page.ResolveTarget(step.Parts(), step.Action, obs.Elements); r.Resolved() {
			if e := obs.Elements[r.Index]; e.Role == was.Role && e.Name == was.Name {
				res = r
			}
		}
	}
	if !res.Resolved() {
		res = decided(-1, &was, obs)
	}
	if !res.Resolved() {
		return nil, page.Element{}, false
	}
	el, err := s.element(res.Index)
	if err != nil {
		return nil, page.Element{}, false
	}
	return el, obs.Elements[res.Index], true
}

// effectHolds reports whether the step's effect holds on el: the box ticked (or not) as
// the step says, the field holding what was typed or selected.
func (a *action) effectHolds(el playwright.ElementHandle) bool {
	switch a.step.Action.Spec().Check {
	case plan.CheckCheckedState:
		got, err := el.IsChecked()
		return err == nil && got == !a.step.Uncheck
	case plan.CheckFieldValue:
		got, err := fieldValue(el)
		want := a.step.Value
		if a.out.typed != "" {
			want = a.out.typed
		}
		return err == nil && (page.Norm(got) == page.Norm(want) || sameDate(got, want))
	}
	return false
}
