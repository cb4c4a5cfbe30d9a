package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	agent "github.com/webagent-dev/webagent/client"
)

// TestGoalCuts: the suite table's goal column (over 50 bytes: 49 and "…") and a run's
// summary line (over 200 bytes: 197 and "...") cut on a character boundary, whatever the
// script.
func TestGoalCuts(t *testing.T) {
	for _, tc := range []struct {
		name        string
		cut         func(string) string
		limit, keep int
		mark        string
	}{
		{"oneLineGoal", func(s string) string { return oneLineGoal(s, 50) }, 50, 49, "…"},
		{"summaryLine", func(s string) string { line, _ := agent.Describe(agent.GoalInput{Goal: s}); return line }, 200, 197, "..."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if s := strings.Repeat("a", tc.limit); tc.cut(s) != s {
				t.Errorf("a goal of %d bytes was cut: %q", tc.limit, tc.cut(s))
			}
			if s, want := strings.Repeat("a", tc.limit+1), strings.Repeat("a", tc.keep)+tc.mark; tc.cut(s) != want {
				t.Errorf("a goal of %d bytes: %q, want %q", tc.limit+1, tc.cut(s), want)
			}
			// Every byte of the pattern comes under the cut once.
			unit := "ab日本αβ😀-"
			for pad := range len(unit) {
				s := strings.Repeat("x", pad) + strings.Repeat(unit, 20)
				got := tc.cut(s)
				kept, marked := strings.CutSuffix(got, tc.mark)
				if !utf8.ValidString(got) || !marked || len(kept) > tc.keep || tc.keep-len(kept) > 3 || !strings.HasPrefix(s, kept) {
					t.Errorf("%q: invalid, unmarked, too long or short, or not a cut of the goal", got)
				}
			}
		})
	}
}
