//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Deluge: its tests build only with -tags heldout, and
// TestHeldOutDeluge is run once, at the end, against an agent nobody tuned to Deluge.
// TestHeldOutDelugeJudge checks the harness alone, with no agent.

// delugeSignIn is deluge-web's password dialog (the Login window over the empty torrent
// list), written three ways (phrasing i uses the i-th); the password is granted by the
// worker and is in no goal.
var delugeSignIn = [3]string{
	`type "{{secret:deluge_password}}" into "Password", click "Login"`,
	`fill "Password" with "{{secret:deluge_password}}" and press "Login"`,
	`in the Login window, type "{{secret:deluge_password}}" into the field labelled "Password" and click the Login button`,
}

// delugeText fills a phrasing in: {signin} is its way of signing in, {url} the web
// interface's address.
func delugeText(phrasing string, i int, w *testenv.Deluge) string {
	return strings.NewReplacer("{signin}", delugeSignIn[i], "{url}", w.URL).Replace(phrasing)
}

// TestHeldOutDeluge drives Debian's Deluge — a real application nobody here wrote: a
// BitTorrent client's daemon driven through its ExtJS web interface (a torrent grid, a
// filter sidebar, context menus, dialogs) — with everyday goals written three ways each,
// and no model. Each phrasing runs on a fresh instance, starts at the web interface,
// signs in through its password dialog with a password the worker grants, and is judged
// twice: by the run's status and by what the daemon holds (its torrents and preferences,
// read through its own JSON-RPC API) and its download folder.
// go test -tags heldout -run 'TestHeldOutDeluge$' ./e2e/
func TestHeldOutDeluge(t *testing.T) {
	if !testenv.DelugeInstalled() {
		t.Skip("Deluge is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_DELUGE_PASSWORD="+testenv.DelugePassword,
		`WEBAGENT_SECRETS={"deluge_password": {"from": "env:WEBAGENT_TEST_DELUGE_PASSWORD", "sites": ["127.0.0.1"]}}`)
	var rows []poolRow
	for _, g := range delugeGoals {
		for i, p := range g.phrasings {
			// A harness that stops mid-way (t.Fatal) leaves the row at "not done".
			row := poolRow{goal: g.name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { row = runDelugeGoal(t, s, g, i, p) })
			rows = append(rows, row)
		}
	}
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.DelugePassword) {
			t.Errorf("Deluge's password is in the history of %s", id)
		}
	})
}

// runDelugeGoal runs one phrasing on a fresh instance and judges it; it never fails the
// test itself (the table at the end does).
func runDelugeGoal(t *testing.T, s *stack, g delugeGoal, i int, p string) poolRow {
	w := testenv.StartDeluge(t)
	text := delugeText(p, i, w)
	return poolRun(t, s, g.name, i+1, text, w.URL, "the daemon's state", func() string { return g.done(t, w) })
}

// TestHeldOutDelugeJudge validates the harness without the agent: on a fresh instance
// every judge says "not done" and every phrasing reads as a whole goal; each goal's
// effect, done through the JSON-RPC calls deluge-web's own pages send (signed in through
// its password dialog's login), makes its judge say "done" and leaves the other judges at
// "not done"; and a near miss of each leaves its judge at "not done".
// go test -tags heldout -run TestHeldOutDelugeJudge ./e2e/
func TestHeldOutDelugeJudge(t *testing.T) {
	if !testenv.DelugeInstalled() {
		t.Skip("Deluge is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartDeluge(t)
	t.Logf("a fresh Deluge was started and seeded in %s", time.Since(began).Round(time.Millisecond))
	for _, g := range delugeGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if text := delugeText(p, i, fresh); !strings.Contains(text, delugeSignIn[i]) ||
				strings.Contains(strings.ReplaceAll(text, "{{secret:deluge_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range delugeGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartDeluge(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, w, b)
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range delugeGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartDeluge(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, w, b)
			// The daemon applies some calls a moment after it answers (a removal's files).
			time.Sleep(2 * time.Second)
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}
