//go:build heldout

package e2e

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// The held-out pool's one harness (docs/benchmarks.md#the-held-out-pool): every app's test
// runs each phrasing of each goal on a fresh instance through poolRun and ends with
// poolReport; only how an app starts, how its goals read and how its storage is judged are
// its own.

// poolModel is how the pool's workers are given a model: the real Gemini API when the
// pool runs with GEMINI_API_KEY set (the path the phrasings people write need: intents,
// names the reader cannot place), none otherwise (the offline path, which refuses what it
// cannot read exactly). poolReport says which path the figures are of.
func poolModel() (env []string, path string) {
	if key := os.Getenv("GEMINI_API_KEY"); key != "" {
		return []string{"GEMINI_API_KEY=" + key}, "with the model (GEMINI_API_KEY set)"
	}
	return nil, "offline: no GEMINI_API_KEY, so no model planned, resolved or judged (the model path was not measured)"
}

// poolWorker starts the pool's worker: the app's own grants (env) and the model, when
// there is one.
func (s *stack) poolWorker(t *testing.T, env ...string) {
	model, path := poolModel()
	t.Logf("the pool runs %s", path)
	s.worker(t, append(env, model...)...)
}

// poolRow is one phrasing's outcome: done-and-said, false success or not done.
type poolRow struct {
	goal            string
	phrasing        int
	outcome, status string
	reason          string
}

// poolPhrasing reports whether a pool run takes phrasing n (1-based): every phrasing, or
// those WEBAGENT_HELDOUT_PHRASINGS lists ("1", "2,3"), to measure one way of writing the
// goals alone.
func poolPhrasing(n int) bool {
	only := os.Getenv("WEBAGENT_HELDOUT_PHRASINGS")
	return only == "" || slices.Contains(strings.Split(strings.ReplaceAll(only, " ", ""), ","), fmt.Sprint(n))
}

// poolEach runs run for each phrasing of each goal (names[g] has len(phrasings[g])
// phrasings), each a subtest of its own; a harness that stops mid-way (t.Fatal) leaves its
// row at "not done". It returns the rows in order.
func poolEach(t *testing.T, names []string, phrasings [][]string, run func(t *testing.T, g, i int, text string) poolRow) []poolRow {
	var rows []poolRow
	for g, name := range names {
		for i, p := range phrasings[g] {
			if !poolPhrasing(i + 1) {
				continue
			}
			row := poolRow{goal: name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", name, i+1), func(t *testing.T) { row = run(t, g, i, p) })
			rows = append(rows, row)
		}
	}
	return rows
}

// poolRun runs the goal text from start and judges it: by the run's status, and by done
// (what the app's storage lacks, "" when it holds the goal's effect), asked again for up
// to 10 s while the app saves. store names the storage in the reasons. It never fails the
// test itself (poolReport does).
func poolRun(t *testing.T, s *stack, goal string, phrasing int, text, start, store string, done func() string) poolRow {
	row := poolRow{goal: goal, phrasing: phrasing, outcome: "not done", status: "no result"}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	// Nobody watches a pool run: a step that would wait for a person (a step in doubt
	// whether it acted) fails at once, saying what it would have asked, as a scheduled
	// run's does, rather than holding the pool for the ten minutes a person is given.
	run := s.start(t, workflows.GoalInput{Goal: text, StartURL: start, Unattended: true})
	var res workflows.GoalResult
	if err := workflows.ResultOf(&res, run.Get(ctx, &res)); err != nil {
		row.reason = "the run ended without a result: " + err.Error()
		t.Logf("goal %q: %s", text, row.reason)
		return row
	}
	why := testenv.Eventually(10*time.Second, done)
	said := res.Execution.Status == workflows.StatusSuccess && res.Validation.Verified
	row.status = fmt.Sprintf("%s (verified %v)", res.Execution.Status, res.Validation.Verified)
	switch {
	case said && why == "":
		row.outcome, row.reason = "done-and-said", store+" holds the goal's effect"
	case res.Execution.Status == workflows.StatusSuccess && why != "":
		row.outcome, row.reason = "false success", store+" disagrees: "+why
	case why == "":
		row.reason = "done in " + store + " but not said: " + res.Validation.Reason
	default:
		row.reason = res.Validation.Reason + "; " + store + ": " + why
	}
	t.Logf("goal %q: %s, %s: %s; errors %v", text, row.outcome, row.status, row.reason, res.Errors)
	if row.outcome != "done-and-said" {
		for _, st := range res.Steps {
			t.Logf("step %s %s: %v", st.Step, st.Status, st.Actions)
		}
	}
	return row
}

// poolReport logs the table (goal × phrasing) and fails on any false success or when
// fewer than 90% of the phrasings were done and said.
func poolReport(t *testing.T, rows []poolRow) {
	var b strings.Builder
	done, falses := 0, 0
	fmt.Fprintf(&b, "%-38s %-3s %-14s %-27s %s\n", "goal", "#", "outcome", "status", "reason")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-38s %-3d %-14s %-27s %s\n", r.goal, r.phrasing, r.outcome, r.status, r.reason)
		switch r.outcome {
		case "done-and-said":
			done++
		case "false success":
			falses++
		}
	}
	_, path := poolModel()
	fmt.Fprintf(&b, "done-and-said %d of %d, false successes %d; the pool ran %s", done, len(rows), falses, path)
	t.Log("\n" + b.String())
	if falses > 0 {
		t.Errorf("%d false successes", falses)
	}
	if len(rows) == 0 || float64(done) < 0.9*float64(len(rows)) {
		t.Errorf("done-and-said %d of %d, under 90%%", done, len(rows))
	}
}
