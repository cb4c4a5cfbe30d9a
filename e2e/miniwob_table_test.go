package e2e

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/workflows"
)

// TestMiniWoBTableCountsStatuses: the table counts what the runs said beside what the
// pages rewarded, so that an unverified run is never read as a success of the run, and a
// success the page did not reward is a false success.
func TestMiniWoBTableCountsStatuses(t *testing.T) {
	cfg := miniwobConfig{tasks: []string{"a", "b"}, seeds: 2}
	res := miniwobTable(cfg, []miniwobEpisode{
		{task: "a", seed: 1, outcome: outcomeSuccess, status: workflows.StatusSuccess},
		{task: "a", seed: 2, outcome: outcomeSuccess, status: workflows.StatusUnverified},
		{task: "b", seed: 1, outcome: outcomeFailed, status: workflows.StatusUnverified},
		{task: "b", seed: 2, outcome: outcomeFalseSuccess, status: workflows.StatusSuccess},
	})
	got := res.statuses()
	for _, want := range []string{"success 2 (1 rewarded)", "unverified 2 (1 rewarded)", "partial 0 (0 rewarded)", "failed 0 (0 rewarded)"} {
		if !strings.Contains(got, want) {
			t.Errorf("statuses %q: want %q", got, want)
		}
	}
	if res.total.falseSuccess != 1 || res.total.success != 2 || res.total.failed != 1 {
		t.Errorf("totals %+v: want 2 successes, 1 false success, 1 failed", res.total)
	}
}
