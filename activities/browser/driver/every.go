package driver

import (
	"context"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// targetEvery finds each element a target that says "every" describes ("every "Like"
// icon for "@ann""): the step acts on the first, then on the others in reading order.
// None is the step's failure, with the reason.
func (at *attempt) targetEvery(ctx context.Context, obs page.Observation, parts plan.Target) (*Outcome, error) {
	s := at.s
	all, why := page.ResolveEvery(parts, at.step.Action, obs.Elements)
	if len(all) == 0 {
		return s.without(ctx, at.out, obs, &plan.Feedback{Type: plan.NotVisible, Details: why})
	}
	for i, e := range all {
		el, err := s.element(e.Index)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			t := e
			at.out.Target, at.el = &t, el
			continue
		}
		at.more, at.moreRefs = append(at.more, el), append(at.moreRefs, e.Ref())
	}
	at.out.Before = obs
	return nil, nil
}
