package driver

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// resolveWaiting resolves the step's target, looking again until it appears or the
// wait budget runs out; a target that several elements match is not waited for.
func (s *Session) resolveWaiting(ctx context.Context, step plan.Step, obs page.Observation, opts DoOptions) (page.Resolution, page.Observation, error) {
	if opts.Element != nil {
		return decided(*opts.Element, opts.ElementWas, obs), obs, nil
	}
	// A WAIT may have left the rest of its time to this step: the target may come
	// meanwhile, and is waited for as long after the wait as any other.
	deadline := s.pace.targetDeadline(opts.WaitBudget)
	revealed, hovered, followed := false, false, false
	parts := step.Parts()
	for {
		res := page.ResolveTarget(parts, step.Action, obs.Elements)
		if o, ok, err := s.unfoldExact(ctx, res, obs, parts, &revealed); err != nil || ok {
			if obs = o; err == nil {
				continue
			}
			return res, obs, err
		}
		// A choice whose list is not on the page, only a button named like it (a menu's
		// "Domain List"): the link the click before showed may lead to the list.
		standIn := res.Resolved() && step.Action == plan.Select && !obs.Elements[res.Index].Chooser()
		if (res.Resolved() && !(standIn && !followed)) || len(res.Candidates) > 0 || !time.Now().Before(deadline) {
			return res, obs, nil
		}
		if !followed {
			// Not in the menu the click before opened: that click's link is followed.
			followed = true
			if ok, err := s.followThrough(ctx, obs, opts.SettleTimeout); err != nil || ok {
				if err == nil {
					obs, err = s.Observe(ctx)
				}
				if err != nil {
					return res, obs, err
				}
				continue
			}
			if res.Resolved() {
				return res, obs, nil // the stand-in, with no link to follow
			}
		}
		if !revealed || !hovered {
			// Not in sight: it may be in a tab or a submenu the page hides (looked for
			// once), or among a row's controls that show while the row is hovered (once
			// the row is there: a list may still be loading).
			var ok bool
			var err error
			if !revealed {
				revealed = true
				var why string
				if ok, why, err = s.reveal(ctx, parts, step.Action != plan.Wait); why != "" && err == nil {
					// Paged through a whole list without it: not there to wait for.
					res.Reason = why
					obs, err = s.Observe(ctx)
					return res, obs, err
				}
			}
			if err == nil && !ok && !hovered {
				ok, err = s.revealInRow(ctx, parts, obs)
				hovered = ok
			}
			if err != nil || ok {
				if err == nil {
					obs, err = s.Observe(ctx)
				}
				if err != nil {
					return res, obs, err
				}
				continue
			}
		}
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return res, obs, err
		}
		var err error
		if obs, err = s.Observe(ctx); err != nil {
			return res, obs, err
		}
	}
}

// unfoldExact unfolds the part of the page that holds what parts names exactly, when the
// page shows it in sight only inside a longer name ("Devices" in "Create devices", and
// "Devices" itself in a folded menu): the folded one is the one named. It gives the page
// as it is then.
// It looks once (revealed).
func (s *Session) unfoldExact(ctx context.Context, res page.Resolution, obs page.Observation, parts plan.Target, revealed *bool) (page.Observation, bool, error) {
	if !res.Resolved() || *revealed || namedExactly(obs.Elements[res.Index], parts) {
		return obs, false, nil
	}
	*revealed = true
	if ok, _ := s.revealInSection(ctx, parts); !ok {
		return obs, false, nil
	}
	obs, err := s.Observe(ctx)
	return obs, err == nil, err
}

// decided maps a decision made on an earlier observation onto this one.
func decided(i int, was *page.Element, obs page.Observation) page.Resolution {
	if was == nil {
		if i >= 0 && i < len(obs.Elements) {
			return page.Resolution{Index: i, Matched: "decision"}
		}
		return page.Resolution{Index: -1, Reason: fmt.Sprintf("element %d is not in the observation (0-%d)", i, len(obs.Elements)-1)}
	}
	// The page may have changed since the decision (an element appeared and the numbers
	// moved): the element is found again by what it is and where it sits — its role, name,
	// row and container — never by its number alone, and a tie is no answer.
	var found []page.Element
	for _, e := range obs.Elements {
		if e.SameAs(*was) {
			found = append(found, e)
		}
	}
	dist := func(e page.Element) int { return abs(e.Box.X-was.Box.X) + abs(e.Box.Y-was.Box.Y) }
	switch {
	case len(found) == 0:
		return page.Resolution{Index: -1, Reason: fmt.Sprintf("the element the decision named (#%d %s %q) is no longer on the page", was.Index, was.Role, was.Name)}
	case len(found) == 1:
		return page.Resolution{Index: found[0].Index, Matched: "decision"}
	}
	slices.SortStableFunc(found, func(a, b page.Element) int { return dist(a) - dist(b) })
	if dist(found[0]) == dist(found[1]) || dist(found[0]) > 40 {
		// Equally near, or the page moved: which of them was meant cannot be told.
		return page.Resolution{Index: -1, Candidates: found, Reason: fmt.Sprintf("%d elements are the one the decision named (#%d %s %q) equally well", len(found), was.Index, was.Role, was.Name)}
	}
	return page.Resolution{Index: found[0].Index, Matched: "decision"}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
