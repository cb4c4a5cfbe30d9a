package skills

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/webagent-dev/webagent/plan"
)

// refuse says why a skill similar enough to a goal cannot run it with the goal's values,
// or "" when it can: its slots differ from the goal's, its plan would ignore a new value,
// or its bound plan would replay an old one. Exact or silent: a skill that cannot take
// every new value into every place is not reused.
func refuse(s Skill, params map[string]string) string {
	have := slices.Clone(s.Params)
	sort.Strings(have)
	want := make([]string, 0, len(params))
	for name := range params {
		want = append(want, name)
	}
	sort.Strings(want)
	if !slices.Equal(have, want) {
		return fmt.Sprintf("slots differ: skill %s has %v, the goal has %v", s.ID, have, want)
	}
	if unbound := Unbound(s.Plan, s.Examples, params); len(unbound) > 0 {
		return fmt.Sprintf("slots differ: skill %s's plan does not use the goal's %v, so the new values would be ignored", s.ID, unbound)
	}
	bound := make([]plan.Step, len(s.Plan))
	for i, st := range s.Plan {
		bound[i] = st.Bind(params)
	}
	if leaks := Leaks(bound, s.Examples, params); len(leaks) > 0 {
		return fmt.Sprintf("an old value would be replayed: skill %s's plan still holds %v", s.ID, leaks)
	}
	return ""
}

// missReason says why no skill was found: the refusals of the skills similar enough, a
// disabled skill learned from this very template, the best similarity under the
// threshold, or no skill at all for the site.
func (l *Library) missReason(ctx context.Context, site, tmpl string, matches []Match, refused []string) string {
	if len(refused) > 0 {
		return strings.Join(refused, "; ")
	}
	// Nearest leaves disabled skills out; the one this template would reuse is asked for
	// by its ID, so that a miss it causes is named.
	if s, err := l.Store.Get(ctx, ID(site, tmpl, l.Embedder.Model())); err == nil && s.Disabled {
		return fmt.Sprintf("skill %s is disabled (%d failures, %d successes); a success of this run learns it afresh", s.ID, s.FailureCount, s.SuccessCount)
	}
	if len(matches) == 0 {
		return fmt.Sprintf("no skill for this site (%s, embedder %s)", site, l.Embedder.Model())
	}
	best := matches[0]
	// Rounded down, so that 0.9496 is never shown as "0.950 < 0.95".
	sim := math.Floor(best.Similarity*1000) / 1000
	return fmt.Sprintf("best similarity %.3f < %.2f (skill %s, %q)", sim, l.threshold(), best.Skill.ID, best.Skill.Template)
}
