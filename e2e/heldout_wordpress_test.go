//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on WordPress: its tests build only with -tags heldout, and
// TestHeldOutWordPress is run once, at the end, against an agent nobody tuned to
// WordPress. TestHeldOutWordPressJudge checks the harness alone, with no agent.

// wpSignIn is the Log In page's form, written three ways (phrasing i uses the i-th); the
// password is granted by the worker and is in no goal.
var wpSignIn = [3]string{
	`type "admin" into "Username or Email Address", type "{{secret:wordpress_password}}" into "Password", click "Log In"`,
	`fill "Username or Email Address" with "admin", fill "Password" with "{{secret:wordpress_password}}" and press "Log In"`,
	`type admin into the field labelled "Username or Email Address", then type "{{secret:wordpress_password}}" into the Password field and click the "Log In" button`,
}

// wpText fills a phrasing in: {signin} is its way of signing in, {url} the site's root.
func wpText(phrasing string, i int, w *testenv.WordPress) string {
	return strings.NewReplacer("{signin}", wpSignIn[i], "{url}", w.URL).Replace(phrasing)
}

// TestHeldOutWordPress drives Debian's WordPress — a real application nobody here wrote:
// posts in the block editor, categories, settings, comment moderation and users — with
// everyday goals written three ways each, and no model. Each phrasing runs on a fresh
// site, signs in at /wp-login.php with a password the worker grants, and is judged twice:
// by the run's status and by the site's database.
// go test -tags heldout -run 'TestHeldOutWordPress$' ./e2e/
func TestHeldOutWordPress(t *testing.T) {
	if !testenv.WordPressInstalled() {
		t.Skip("WordPress is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh site has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_WORDPRESS_PASSWORD="+testenv.WordPressPassword,
		`WEBAGENT_SECRETS={"wordpress_password": {"from": "env:WEBAGENT_TEST_WORDPRESS_PASSWORD", "sites": ["127.0.0.1"]}}`)
	var rows []poolRow
	for _, g := range wpGoals {
		for i, p := range g.phrasings {
			// A harness that stops mid-way (t.Fatal) leaves the row at "not done".
			row := poolRow{goal: g.name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { row = runWPGoal(t, s, g, i, p) })
			rows = append(rows, row)
		}
	}
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.WordPressPassword) {
			t.Errorf("WordPress's password is in the history of %s", id)
		}
	})
}

// runWPGoal runs one phrasing on a fresh site and judges it; it never fails the test
// itself (the table at the end does).
func runWPGoal(t *testing.T, s *stack, g wpGoal, i int, p string) poolRow {
	w := testenv.StartWordPress(t)
	text := wpText(p, i, w)
	return poolRun(t, s, g.name, i+1, text, w.URL+"/wp-login.php", "the database", func() string { return g.done(t, w) })
}

// TestHeldOutWordPressJudge validates the harness without the agent: on a fresh site
// every judge says "not done" and every phrasing reads as a whole goal; each goal's
// effect, done through WordPress's own forms, links and REST requests as its dashboard
// sends them, makes its judge say "done" and leaves the other judges at "not done"; and a
// near miss of each leaves its judge at "not done".
// go test -tags heldout -run TestHeldOutWordPressJudge ./e2e/
func TestHeldOutWordPressJudge(t *testing.T) {
	if !testenv.WordPressInstalled() {
		t.Skip("WordPress is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartWordPress(t)
	t.Logf("a fresh WordPress answered in %s", time.Since(began).Round(time.Millisecond))
	fresh.SignIn(t) // the Log In page takes the administrator's password
	for _, g := range wpGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh site", g.name)
		}
		for i, p := range g.phrasings {
			if text := wpText(p, i, fresh); !strings.Contains(text, wpSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:wordpress_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range wpGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartWordPress(t)
			g.do(t, w, w.SignIn(t))
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range wpGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartWordPress(t)
			g.miss(t, w, w.SignIn(t))
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}
