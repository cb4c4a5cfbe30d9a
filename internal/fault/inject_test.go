//go:build faultinject

package fault

import "testing"

// TestAtKills: built with the tag, At kills the process at the armed point of the armed
// step, and nowhere else.
func TestAtKills(t *testing.T) {
	for _, c := range []struct {
		arm, point string
		killed     bool
	}{
		{arm: BeforeAct + ":4", point: BeforeAct, killed: true},
		{arm: Store + ":4", point: Store, killed: true},
		{arm: BeforeAct + ":4", point: Settle},
		{arm: BeforeAct + ":5", point: BeforeAct},
		{arm: BeforeAct, point: BeforeAct},
		{arm: "", point: BeforeAct},
	} {
		if got := passPoint(t, c.arm, c.point); got != c.killed {
			t.Errorf("%s=%q, At(%q) at step 4: killed %v, want %v", Env, c.arm, c.point, got, c.killed)
		}
	}
}
