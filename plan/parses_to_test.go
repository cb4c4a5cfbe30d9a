package plan

import (
	"strings"
	"testing"
)

// parsesTo parses goal and reports where its steps, written as Step.String joined by " |
// ", are not want; it returns the steps (none when the goal was refused).
func parsesTo(t *testing.T, goal, want string) []Step {
	t.Helper()
	steps, err := Parse(goal)
	if err != nil {
		t.Errorf("%s: %v", goal, err)
		return nil
	}
	var got []string
	for _, s := range steps {
		got = append(got, s.String())
	}
	if g := strings.Join(got, " | "); g != want {
		t.Errorf("%s:\n got %s\nwant %s", goal, g, want)
	}
	return steps
}
