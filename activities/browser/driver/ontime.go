package driver

//lint:file-ignore SA1019 A timed click acts on the exact node its observation numbered; only an ElementHandle names that node, where a locator would query the page again by selector.

import (
	"context"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/plan"
)

// clicksElement reports whether the action is a click on an element, which a timed step
// does in two parts (clickOnTime).
func (a *action) clicksElement() bool { return a.step.Action == plan.Click && a.el != nil }

// clickOnTime is a click a WAIT times: the browser's checks on the target (in view,
// still, enabled, not covered) take from a few to hundreds of milliseconds, so they are
// done first, and the click itself comes on time where they found the target.
func clickOnTime(ctx context.Context, a *action) *plan.Feedback {
	a.note("clicked %s", a.ref)
	if err := a.el.Click(playwright.ElementHandleClickOptions{Timeout: timeout, Trial: playwright.Bool(true)}); err != nil {
		return a.failed(err)
	}
	box, boxErr := a.el.BoundingBox()
	if err := a.s.pace.keep(ctx); err != nil {
		return a.failed(err)
	}
	if boxErr == nil && box != nil {
		return a.failed(a.s.page.Mouse().Click(box.X+box.Width/2, box.Y+box.Height/2))
	}
	return a.failed(a.el.Click(playwright.ElementHandleClickOptions{Timeout: timeout}))
}
