//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Shaarli: its tests build only with -tags heldout, and
// TestHeldOutShaarli is run once, at the end, against an agent nobody tuned to Shaarli.
// TestHeldOutShaarliJudge checks the harness alone, with no agent.

// shaarliSignIn is Shaarli's login form, reached from the Login link at the top of every
// page, written three ways (phrasing i uses the i-th); the password is granted by the
// worker and is in no goal.
var shaarliSignIn = [3]string{
	`click "Login", type "admin" into "Username", type "{{secret:shaarli_password}}" into "Password", click "Login"`,
	`go to {url}/login, fill "Username" with "admin", fill "Password" with "{{secret:shaarli_password}}" and press "Login"`,
	`click the Login link at the top of the page, then type admin into the field labelled "Username" and "{{secret:shaarli_password}}" into the Password field and click the Login button`,
}

// shaarliText fills a phrasing in: {signin} is its way of signing in, {url} the front
// page's address (also where a way of signing in names it).
func shaarliText(phrasing string, i int, w *testenv.Shaarli) string {
	text := strings.ReplaceAll(phrasing, "{signin}", shaarliSignIn[i])
	return strings.ReplaceAll(text, "{url}", w.URL)
}

// TestHeldOutShaarli drives Debian's Shaarli — a real application nobody here wrote: a
// personal bookmarks manager in PHP with flat-file storage — with everyday goals written
// three ways each, and no model. Each phrasing runs on a fresh instance, starts at its
// front page, signs in through its login form with a password the worker grants, and is
// judged twice: by the run's status and by what Shaarli stored (its datastore and its
// configuration file). go test -tags heldout -run 'TestHeldOutShaarli$' ./e2e/
func TestHeldOutShaarli(t *testing.T) {
	if !testenv.ShaarliInstalled() {
		t.Skip("Shaarli is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh server has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_SHAARLI_PASSWORD="+testenv.ShaarliPassword,
		`WEBAGENT_SECRETS={"shaarli_password": {"from": "env:WEBAGENT_TEST_SHAARLI_PASSWORD", "sites": ["127.0.0.1"]}}`)
	var rows []poolRow
	for _, g := range shaarliGoals {
		for i, p := range g.phrasings {
			// A harness that stops mid-way (t.Fatal) leaves the row at "not done".
			row := poolRow{goal: g.name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { row = runShaarliGoal(t, s, g, i, p) })
			rows = append(rows, row)
		}
	}
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.ShaarliPassword) {
			t.Errorf("Shaarli's password is in the history of %s", id)
		}
	})
}

// runShaarliGoal runs one phrasing on a fresh instance and judges it; it never fails the
// test itself (the table at the end does).
func runShaarliGoal(t *testing.T, s *stack, g shaarliGoal, i int, p string) poolRow {
	w := testenv.StartShaarli(t)
	text := shaarliText(p, i, w)
	return poolRun(t, s, g.name, i+1, text, w.URL+"/", "Shaarli's data", func() string { return g.done(t, w) })
}

// TestHeldOutShaarliJudge validates the harness without the agent: on a fresh instance
// every judge says "not done"; each goal's effect, done through Shaarli's own forms and
// links along the goal's path (signed in through its login form, each form sent with the
// token its page carries), makes its judge say "done" and leaves the other judges at "not
// done"; a near miss of each leaves its judge at "not done"; and each phrasing reads as a
// whole goal once filled in.
// go test -tags heldout -run TestHeldOutShaarliJudge ./e2e/
func TestHeldOutShaarliJudge(t *testing.T) {
	if !testenv.ShaarliInstalled() {
		t.Skip("Shaarli is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartShaarli(t)
	t.Logf("a fresh Shaarli was installed, seeded and served in %s", time.Since(began).Round(time.Millisecond))
	for _, g := range shaarliGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if text := shaarliText(p, i, fresh); !strings.Contains(text, strings.ReplaceAll(shaarliSignIn[i], "{url}", fresh.URL)) ||
				strings.Contains(strings.ReplaceAll(text, "{{secret:shaarli_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range shaarliGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartShaarli(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, w, b)
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range shaarliGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartShaarli(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, w, b)
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}
