package driver

import (
	"context"
	"fmt"
	"time"

	"github.com/webagent-dev/webagent/plan"
)

// againIfUnheeded clicks a disclosure once more when its click was not heeded: a control
// that says whether it is expanded (a folder's panel header, an accordion) still says the
// same, nothing on the page changed, and nothing was sent: the page had not yet wired its
// scripts to it (an app still loading its data). That click did nothing a person could
// see or a server could count, so a second is not a repeat (rule 1 holds); it is the only
// one, and its effect is checked as the first's was.
func (at *attempt) againIfUnheeded(ctx context.Context, fb *plan.Feedback) (*plan.Feedback, error) {
	s, out := at.s, at.out
	if fb == nil || fb.Type != plan.PageState || at.step.Action != plan.Click || at.spec.Check != plan.CheckPageChanged ||
		out.Target == nil || out.Target.Expanded == nil || at.el == nil || len(at.more) > 0 || out.Mutated || out.ownCheck {
		return fb, nil
	}
	if err := sleep(ctx, unheededWait); err != nil {
		return nil, err
	}
	// Looked up again on the page as it is now: an app that draws its list again (a
	// folder list refreshed every few seconds) may have put a new node in its place, which
	// is the one a second click must reach.
	el, t, ok := s.refind(ctx, at.step, *out.Target, at.opts.Element == nil)
	if !ok || t.Expanded == nil || *t.Expanded != *out.Target.Expanded {
		return fb, nil
	}
	state := map[bool]string{true: "expanded", false: "collapsed"}[*out.Target.Expanded]
	out.Actions = append(out.Actions, fmt.Sprintf("%s stayed %s, nothing changed and nothing was sent: the page had not heeded the click; clicked it once more", out.Target.Ref(), state))
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
