package driver

import (
	"context"
	"fmt"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// checkShows waits, within the budget the attempt had, for one element to hold or show
// the step's value (or, negated, not to): a field's value, an element's text, or the text
// of the row or item it sits in ("make sure the field labelled "Login DN" holds
// cn=admin", "check that "family-recipes" shows "Paused""). A secret field's value is
// never read, so a check of it is refused.
func (s *Session) checkShows(ctx context.Context, step plan.Step, el playwright.ElementHandle, out *Outcome, budget time.Duration) (*plan.Feedback, error) {
	ref := out.Target.Ref()
	if out.Target.Secret {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s is a secret field, whose value is never read", ref),
			Suggestion: "check what the page shows after the form is sent instead"}, nil
	}
	deadline := time.Now().Add(budget)
	obs := out.After // the page as the attempt saw it after the step; looked at again while it waits
	for {
		got := shownValue(el)
		row := out.Target.Row
		if i := out.Target.Index; i < len(obs.Elements) && obs.Elements[i].Name == out.Target.Name {
			row = obs.Elements[i].Row // the row as it is now
		}
		found := page.ContainsText(page.NormalizeText(got), step.Value) || page.ContainsText(page.NormalizeText(row), step.Value)
		if found != step.Negated {
			out.Actions = append(out.Actions, fmt.Sprintf("%s %s %q", ref, map[bool]string{false: "holds", true: "does not hold"}[step.Negated], step.Value))
			return nil, nil
		}
		if !time.Now().Before(deadline) {
			if step.Negated {
				return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("%s still holds %q", ref, step.Value), ActualElement: ref}, nil
			}
			return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("%s holds %q, not %q", ref, page.Truncate(page.OneLine(got), 120), step.Value),
				Suggestion: "an earlier step may not have done what it should, or another element is the one meant", ActualElement: ref}, nil
		}
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return nil, err
		}
		var err error
		if obs, err = s.Observe(ctx); err != nil {
			obs = page.Observation{} // the row as first seen, then
		}
	}
}
