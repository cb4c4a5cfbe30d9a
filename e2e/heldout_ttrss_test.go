//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Tiny Tiny RSS: its tests build only with -tags heldout, and
// TestHeldOutTTRSS is run once, at the end, against an agent nobody tuned to tt-rss.
// TestHeldOutTTRSSJudge checks the harness alone, with no agent.

// ttrssSignIn is tt-rss's login page, written three ways (phrasing i uses the i-th); the
// password is granted by the worker and is in no goal.
var ttrssSignIn = [3]string{
	`type "admin" into "Login", type "{{secret:ttrss_password}}" into "Password", click "Log in"`,
	`fill "Login" with "admin", fill "Password" with "{{secret:ttrss_password}}" and press "Log in"`,
	`type admin into the field labelled "Login", then type "{{secret:ttrss_password}}" into the Password field and click the "Log in" button`,
}

// ttrssText fills a phrasing in: {signin} is its way of signing in, {url} the reader's root.
func ttrssText(phrasing string, i int, tt *testenv.TTRSS) string {
	return strings.NewReplacer("{signin}", ttrssSignIn[i], "{url}", tt.URL).Replace(phrasing)
}

// TestHeldOutTTRSS drives Debian's Tiny Tiny RSS — a real application nobody here wrote: a
// web feed reader in PHP and Dojo (articles, feeds, categories, preferences, with menus,
// dialogs and the browser's own confirmations) — with everyday goals written three ways
// each, and no model. Each phrasing runs on a fresh reader whose feeds the test serves,
// starts at its login page, signs in with a password the worker grants, and is judged
// twice: by the run's status and by the reader's database.
// go test -tags heldout -run 'TestHeldOutTTRSS$' ./e2e/
func TestHeldOutTTRSS(t *testing.T) {
	if !testenv.TTRSSInstalled() {
		t.Skip("tt-rss is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh reader has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_TTRSS_PASSWORD="+testenv.TTRSSPassword,
		`WEBAGENT_SECRETS={"ttrss_password": {"from": "env:WEBAGENT_TEST_TTRSS_PASSWORD", "sites": ["127.0.0.1"]}}`)
	var rows []poolRow
	for _, g := range ttrssGoals {
		for i, p := range g.phrasings {
			// A harness that stops mid-way (t.Fatal) leaves the row at "not done".
			row := poolRow{goal: g.name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { row = runTTRSSGoal(t, s, g, i, p) })
			rows = append(rows, row)
		}
	}
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.TTRSSPassword) {
			t.Errorf("tt-rss's password is in the history of %s", id)
		}
	})
}

// runTTRSSGoal runs one phrasing on a fresh reader and judges it; it never fails the test
// itself (the table at the end does).
func runTTRSSGoal(t *testing.T, s *stack, g ttrssGoal, i int, p string) poolRow {
	tt := testenv.StartTTRSS(t)
	text := ttrssText(p, i, tt)
	return poolRun(t, s, g.name, i+1, text, tt.URL+"/", "the database", func() string { return g.done(t, tt) })
}

// TestHeldOutTTRSSJudge validates the harness without the agent: on a fresh reader every
// judge says "not done" and every phrasing reads as a whole goal; each goal's effect, done
// through the requests tt-rss's own pages send (signed in through its login form, with the
// CSRF token its main page gives its scripts), makes its judge say "done" and leaves the
// other judges at "not done"; and a near miss of each leaves its judge at "not done".
// go test -tags heldout -run TestHeldOutTTRSSJudge ./e2e/
func TestHeldOutTTRSSJudge(t *testing.T) {
	if !testenv.TTRSSInstalled() {
		t.Skip("tt-rss is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartTTRSS(t)
	t.Logf("a fresh tt-rss was seeded and answered in %s", time.Since(began).Round(time.Millisecond))
	fresh.SignIn(t) // the login form takes admin's password
	for _, g := range ttrssGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh reader", g.name)
		}
		for i, p := range g.phrasings {
			if text := ttrssText(p, i, fresh); !strings.Contains(text, ttrssSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:ttrss_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range ttrssGoals {
		t.Run(g.name, func(t *testing.T) {
			tt := testenv.StartTTRSS(t)
			g.do(t, tt, tt.SignIn(t))
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, tt) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range ttrssGoals {
				if o.name != g.name && o.done(t, tt) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			tt := testenv.StartTTRSS(t)
			g.miss(t, tt, tt.SignIn(t))
			why := g.done(t, tt)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}
