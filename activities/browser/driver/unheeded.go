package driver

import (
	"context"
	"fmt"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// againIfUnheeded clicks a disclosure once more when its click was not heeded: a control
// that says whether it is expanded (a folder's panel header, an accordion) still says the
// same, nothing appeared (whatever else changed meanwhile: an app's own status text coming
// in) and nothing was sent: the page had not yet wired its scripts to it (an app still
// loading its data). That click opened nothing a person could see and sent nothing a
// server could count, so a second is not a repeat (rule 1 holds); it is the only one, and
// its effect is checked as the first's was.
func (at *attempt) againIfUnheeded(ctx context.Context, fb *plan.Feedback) (*plan.Feedback, error) {
	s, out := at.s, at.out
	if at.step.Action != plan.Click || out.Target == nil || out.Target.Expanded == nil || at.el == nil || len(at.more) > 0 || out.Mutated || out.ownCheck {
		return fb, nil
	}
	if fb != nil && (fb.Type != plan.PageState || at.spec.Check != plan.CheckPageChanged) {
		return fb, nil
	}
	if fb == nil && len(out.After.Elements) > len(out.Before.Elements) {
		// Something appeared: the click was heeded, whatever the control says of itself
		// (a menu whose button never says it is expanded).
		return fb, nil
	}
	if err := sleep(ctx, unheededWait); err != nil {
		return nil, err
	}
	// Looked up again on the page as it is now: an app that draws its list again (a
	// folder list refreshed every few seconds) may have put a new node in its place, which
	// is the one a second click must reach.
	el, t, ok := at.sameControl(ctx)
	if !ok || t.Expanded == nil || *t.Expanded != *out.Target.Expanded {
		return fb, nil // it says it opened (or closed): heeded, if late
	}
	state := map[bool]string{true: "expanded", false: "collapsed"}[*out.Target.Expanded]
	out.Actions = append(out.Actions, fmt.Sprintf("%s stayed %s, nothing appeared and nothing was sent: the page had not heeded the click; clicked it once more", out.Target.Ref(), state))
	at.el, out.Target = el, &t
	at.m0 = s.Mutations()
	again, err := s.act(ctx, at.action(), false)
	if err != nil {
		return nil, err
	}
	if at.settled, err = s.settle(ctx, at.opts.SettleTimeout, true); err != nil {
		return nil, err
	}
	if err := at.observeAfter(ctx, again == nil); err != nil {
		return nil, err
	}
	if again != nil {
		return again, nil
	}
	return s.check(ctx, at.step, at.el, out, at.opts.WaitBudget)
}

// unheededWait is how long a page that did not heed a click is given before the second.
const unheededWait = 500 * time.Millisecond

// sameControl finds the clicked control again on the page as it is now: what the step's
// description resolves to, of the same role, where it was (its name may have changed
// with the app's status in it: "Unknown Documents", then "Unshared Documents").
func (at *attempt) sameControl(ctx context.Context) (playwright.ElementHandle, page.Element, bool) {
	was := *at.out.Target
	if at.opts.Element != nil {
		return at.s.refind(ctx, at.step, was, false)
	}
	obs, err := at.s.Observe(ctx)
	if err != nil {
		return nil, page.Element{}, false
	}
	r := page.ResolveTarget(at.step.Parts(), at.step.Action, obs.Elements)
	if !r.Resolved() {
		return nil, page.Element{}, false
	}
	e := obs.Elements[r.Index]
	cx, cy := e.Box.X+e.Box.W/2, e.Box.Y+e.Box.H/2
	if e.Role != was.Role || cx < was.Box.X || cx > was.Box.X+was.Box.W || cy < was.Box.Y || cy > was.Box.Y+was.Box.H {
		return nil, page.Element{}, false
	}
	el, err := at.s.element(r.Index)
	if err != nil {
		return nil, page.Element{}, false
	}
	return el, e, true
}
