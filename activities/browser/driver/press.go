package driver

import (
	"context"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/plan"
)

// press drags with the mouse from one point to another: press, a small move that starts
// the page's drag (pages start one only after the pointer has moved), moves on the way,
// release.
func (a *action) press(ctx context.Context, x0, y0, x1, y1 float64) *plan.Feedback {
	return a.pressStarting(ctx, 4, x0, y0, x1, y1)
}

// pressStarting is press with the small first move made in start steps.
func (a *action) pressStarting(ctx context.Context, start int, x0, y0, x1, y1 float64) *plan.Feedback {
	m := a.s.page.Mouse()
	for _, step := range []func() error{
		func() error { return m.Move(x0, y0) },
		func() error { return m.Down() },
		func() error { return m.Move(x0+8, y0+8, playwright.MouseMoveOptions{Steps: playwright.Int(start)}) },
		func() error { return m.Move(x1, y1, playwright.MouseMoveOptions{Steps: playwright.Int(12)}) },
		func() error { return m.Up() },
	} {
		if err := ctx.Err(); err != nil {
			return a.failed(err)
		}
		if err := step(); err != nil {
			return a.failed(err)
		}
	}
	return nil
}
