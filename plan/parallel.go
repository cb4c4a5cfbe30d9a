package plan

import (
	"fmt"
	"regexp"
	"strings"
)

// Part is a sub-goal of a goal whose parts are independent: it runs as a goal of its own,
// after the parts it depends on.
type Part struct {
	ID        string   `json:"id"`
	Goal      string   `json:"goal"`
	DependsOn []string `json:"depends_on,omitempty"`
}

var (
	reParallel = regexp.MustCompile(`(?is)^\s*in\s+parallel\s*:\s*(.+)$`)
	reAfterAll = regexp.MustCompile(`(?i)\s*(?:\.|;)?\s*\b(?:after\s+(?:all\s+of\s+)?(?:them|that|both)|afterwards|when\s+(?:they|both|all)\s+are\s+done|then\s+after\s+(?:all|both))\s*:\s*`)
)

// Parallel reads a goal written as independent parts:
//
//	In parallel: <goal A>; <goal B>. After both: <goal C>
//
// — the parts before the marker run side by side, each in its own browser; the part after
// it ("after both:", "after all of them:", "afterwards:", "when they are done:") runs once
// they all have. ok is false when the goal is not written so. Every part must be a goal
// the offline planner reads step by step: one that is not is an error, never a guess.
func Parallel(goal string) (parts []Part, ok bool, err error) {
	m := reParallel.FindStringSubmatch(goal)
	if m == nil {
		return nil, false, nil
	}
	body, after := m[1], ""
	if loc := reAfterAll.FindStringIndex(body); loc != nil {
		body, after = body[:loc[0]], strings.TrimSpace(body[loc[1]:])
	}
	var ids []string
	for _, g := range strings.Split(body, ";") {
		g = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(g), "."))
		if g == "" {
			continue
		}
		id := fmt.Sprintf("part%d", len(parts)+1)
		parts = append(parts, Part{ID: id, Goal: g})
		ids = append(ids, id)
	}
	if len(parts) < 2 {
		return nil, true, &ParseError{Index: 1, Sentence: strings.TrimSpace(goal), Reason: `"in parallel:" needs two or more parts separated by semicolons ("In parallel: <goal A>; <goal B>. After both: <goal C>")`}
	}
	if after = strings.TrimSpace(strings.TrimSuffix(after, ".")); after != "" {
		parts = append(parts, Part{ID: fmt.Sprintf("part%d", len(parts)+1), Goal: after, DependsOn: ids})
	}
	for i, p := range parts {
		if _, err := Parse(p.Goal); err != nil {
			return nil, true, fmt.Errorf("part %d of the parallel goal: %w", i+1, err)
		}
	}
	return parts, true, nil
}
