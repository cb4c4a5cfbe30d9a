//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Syncthing: its tests build only with -tags heldout, and
// TestHeldOutSyncthing is run once, at the end, against an agent nobody tuned to Syncthing.
// TestHeldOutSyncthingJudge checks the harness alone, with no agent.
//
// Syncthing 1.19's GUI has no login page (a GUI user means HTTP basic auth, a browser
// prompt rather than a page), so it runs without one, as it does by default on 127.0.0.1,
// and no goal signs in.

// TestHeldOutSyncthing drives Debian's Syncthing — a real application nobody here wrote:
// a file-sync daemon whose web GUI adds, edits, pauses, shares and removes folders and
// remote devices — with everyday goals written three ways each, and no model. Each
// phrasing runs on a fresh instance and is judged twice: by the run's status and by
// Syncthing's config.xml and the folders on disk.
// go test -tags heldout -run 'TestHeldOutSyncthing$' ./e2e/
func TestHeldOutSyncthing(t *testing.T) {
	if !testenv.SyncthingInstalled() {
		t.Skip("Syncthing is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	var rows []poolRow
	for _, g := range syncthingGoals {
		for i, p := range g.phrasings {
			// A harness that stops mid-way (t.Fatal) leaves the row at "not done".
			row := poolRow{goal: g.name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { row = runSyncthingGoal(t, s, g, i, p) })
			rows = append(rows, row)
		}
	}
	poolReport(t, rows)
}

// runSyncthingGoal runs one phrasing on a fresh instance and judges it; it never fails the
// test itself (the table at the end does).
func runSyncthingGoal(t *testing.T, s *stack, g syncthingGoal, i int, text string) poolRow {
	st := testenv.StartSyncthing(t)
	return poolRun(t, s, g.name, i+1, text, st.URL, "config.xml and the folders", func() string { return g.done(t, st) })
}

// TestHeldOutSyncthingJudge validates the harness without the agent: a fresh instance is
// seeded as the goals expect and cut off from the network; there every judge says "not
// done"; each goal's effect, made through the REST API the GUI's own dialogs call, makes
// its judge say "done" and leaves the other judges at "not done"; and a near miss of each
// leaves its judge at "not done".
// go test -tags heldout -run TestHeldOutSyncthingJudge ./e2e/
func TestHeldOutSyncthingJudge(t *testing.T) {
	if !testenv.SyncthingInstalled() {
		t.Skip("Syncthing is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartSyncthing(t)
	t.Logf("a fresh, seeded Syncthing answered in %s", time.Since(began).Round(time.Millisecond))
	syncthingCheckFresh(t, fresh)
	for _, g := range syncthingGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if strings.ContainsAny(p, "{}") || p == "" {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
		}
	}
	for _, g := range syncthingGoals {
		t.Run(g.name, func(t *testing.T) {
			st := testenv.StartSyncthing(t)
			g.do(t, st)
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, st) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range syncthingGoals {
				if o.name != g.name && o.done(t, st) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			st := testenv.StartSyncthing(t)
			g.miss(t, st)
			time.Sleep(500 * time.Millisecond) // let a saved change reach config.xml
			why := g.done(t, st)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// syncthingCheckFresh checks what the goals and the isolation rely on: the seed, the
// network options, no notice over the page and the GUI's page itself.
func syncthingCheckFresh(t *testing.T, st *testenv.Syncthing) {
	c := st.Config(t)
	if why := syncthingSeedIntact(st, c, ""); why != "" {
		t.Errorf("the seed: %s", why)
	}
	if c.Options.GlobalAnnounce || c.Options.Relays || c.Options.URAccepted != -1 {
		t.Errorf("the options reach the network or leave the usage-reporting question open: %+v", c.Options)
	}
	if _, body := st.API(t, "GET", "rest/system/error", nil); strings.Contains(body, `"message"`) {
		t.Errorf("a notice is shown over the page: %s", body)
	}
	if status, body := st.API(t, "GET", "", nil); status != 200 || !strings.Contains(body, "Add Folder") {
		t.Errorf("the GUI's page answered %d", status)
	}
}
