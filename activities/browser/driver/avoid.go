package driver

import (
	"context"
	"fmt"
	"slices"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// refuseAvoided ends the attempt without acting when its target is an element an earlier
// attempt of the step acted on and the run found wrong: acting on it again would repeat
// what was vetoed (and, on a toggle, undo it). The feedback names it, so that the model
// deciding next, or a replan, looks for another element.
func (at *attempt) refuseAvoided(ctx context.Context) (*Outcome, error) {
	t := at.out.Target
	if t == nil || !slices.ContainsFunc(at.opts.Avoid, t.SameAs) {
		return nil, nil
	}
	where := ""
	if t.Row != "" {
		where = fmt.Sprintf(" in the row %q", page.Truncate(t.Row, 40))
	}
	fb := &plan.Feedback{Type: plan.WrongElement,
		Details:       fmt.Sprintf("%s%s is what an earlier attempt acted on, and that attempt was found wrong: it is not acted on again", t.Ref(), where),
		Suggestion:    "the step's description names that element: describe the element meant more exactly, or reach it another way",
		ActualElement: t.Ref()}
	at.out.Target = nil
	return at.s.without(ctx, at.out, at.out.Before, fb)
}
