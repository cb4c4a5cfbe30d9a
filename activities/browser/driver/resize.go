package driver

import (
	"context"
	"fmt"
	"math"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/plan"
)

// resize makes the step's element bigger or smaller as a person does, by the grip at its
// bottom right corner: the browser's own on a text area, or the handle a page's resizing
// widget puts there. Only the one side moves. It is checked by the element's size: the
// side asked for must have grown or shrunk, else the step failed, whatever the page did
// (and not "done, unverified": the size says it was not done).
func resize(ctx context.Context, a *action, size string, from *playwright.Rect) *plan.Feedback {
	a.out.ownCheck = true // the size is the check, not whether the page looks changed
	dx, dy := 0.0, 0.0
	switch size {
	case "taller":
		dy = 40
	case "shorter":
		dy = -math.Min(30, from.Height/3)
	case "wider":
		dx = 40
	case "narrower":
		dx = -math.Min(30, from.Width/3)
	}
	// The grip is pressed where both kinds sit (3 pixels in from the corner) and left
	// slowly: a resizing widget that sees the pointer jump off its handle may not start.
	x, y := from.X+from.Width-3, from.Y+from.Height-3
	if fb := a.pressStarting(ctx, 12, x, y, x+dx, y+dy); fb != nil {
		return fb
	}
	to, err := a.el.BoundingBox()
	if err != nil || to == nil {
		return a.failed(fmt.Errorf("the resized element has no box on the page: %v", err))
	}
	grew := (to.Height - from.Height) * sign(dy)
	if dx != 0 {
		grew = (to.Width - from.Width) * sign(dx)
	}
	if grew < 1 {
		// Nothing changed: nothing was done, and a look again may press again. A size
		// changed the other way was done in part, and is never pressed again.
		a.out.ActedInPart = to.Width != from.Width || to.Height != from.Height
		return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("dragged the corner of %s, but it is %.0f×%.0f, as it was (%.0f×%.0f): it has no grip there to make it %s", a.ref, to.Width, to.Height, from.Width, from.Height, size),
			Suggestion: "the element may not be resizable by a person"}
	}
	a.note("resized %s by its corner from %.0f×%.0f to %.0f×%.0f (%s)", a.ref, from.Width, from.Height, to.Width, to.Height, size)
	return nil
}

// sign is -1, 0 or 1 as v is below, at or above zero.
func sign(v float64) float64 {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}
