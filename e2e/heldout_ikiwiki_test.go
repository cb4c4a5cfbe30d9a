//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on ikiwiki: its tests build only with -tags heldout, and
// TestHeldOutIkiWiki is run once, at the end, against an agent nobody tuned to ikiwiki.
// TestHeldOutIkiWikiJudge checks the harness alone, with no agent.

// ikiwikiSignIn is the sign-in form ikiwiki shows when an edit needs a signed-in user,
// written three ways (phrasing i uses the i-th); the password is granted by the worker
// and is in no goal.
var ikiwikiSignIn = [3]string{
	`type "editor" into "Name", type "{{secret:ikiwiki_password}}" into "Password", click "Login"`,
	`fill "Name" with "editor", fill "Password" with "{{secret:ikiwiki_password}}" and press "Login"`,
	`type editor into the field labelled "Name", then type "{{secret:ikiwiki_password}}" into the Password field and click the Login button`,
}

// ikiwikiText fills a phrasing in: {signin} is its way of signing in, {url} the wiki's root.
func ikiwikiText(phrasing string, i int, w *testenv.IkiWiki) string {
	return strings.NewReplacer("{signin}", ikiwikiSignIn[i], "{url}", w.URL).Replace(phrasing)
}

// TestHeldOutIkiWiki drives Debian's ikiwiki — a real application nobody here wrote: a wiki
// compiler edited through its CGI program (pages, comments, renames, removals, posts,
// preferences) — with everyday goals written three ways each, and no model. Each phrasing
// runs on a fresh wiki, starts at its front page, signs in where ikiwiki asks with a
// password the worker grants, and is judged twice: by the run's status and by the wiki's
// source files. go test -tags heldout -run 'TestHeldOutIkiWiki$' ./e2e/
func TestHeldOutIkiWiki(t *testing.T) {
	if !testenv.IkiWikiInstalled() {
		t.Skip("ikiwiki is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh server has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_IKIWIKI_PASSWORD="+testenv.IkiWikiPassword,
		`WEBAGENT_SECRETS={"ikiwiki_password": {"from": "env:WEBAGENT_TEST_IKIWIKI_PASSWORD", "sites": ["127.0.0.1"]}}`)
	var rows []poolRow
	for _, g := range ikiwikiGoals {
		for i, p := range g.phrasings {
			// A harness that stops mid-way (t.Fatal) leaves the row at "not done".
			row := poolRow{goal: g.name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { row = runIkiWikiGoal(t, s, g, i, p) })
			rows = append(rows, row)
		}
	}
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.IkiWikiPassword) {
			t.Errorf("ikiwiki's password is in the history of %s", id)
		}
	})
}

// runIkiWikiGoal runs one phrasing on a fresh wiki and judges it; it never fails
// the test itself (the table at the end does).
func runIkiWikiGoal(t *testing.T, s *stack, g ikiwikiGoal, i int, p string) poolRow {
	w := testenv.StartIkiWiki(t)
	text := ikiwikiText(p, i, w)
	return poolRun(t, s, g.name, i+1, text, w.URL+"/", "the wiki's files", func() string { return g.done(t, w) })
}

// TestHeldOutIkiWikiJudge validates the harness without the agent: on a fresh wiki every
// judge says "not done"; each goal's effect, done through ikiwiki's own CGI forms along
// the goal's path (signing in where ikiwiki asks, the buttons a person presses), makes its
// judge say "done" and leaves the other judges at "not done"; and a near miss of each
// leaves its judge at "not done".
// go test -tags heldout -run TestHeldOutIkiWikiJudge ./e2e/
func TestHeldOutIkiWikiJudge(t *testing.T) {
	if !testenv.IkiWikiInstalled() {
		t.Skip("ikiwiki is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartIkiWiki(t)
	t.Logf("a fresh ikiwiki was built and served in %s", time.Since(began).Round(time.Millisecond))
	for _, g := range ikiwikiGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh wiki", g.name)
		}
		for i, p := range g.phrasings {
			if text := ikiwikiText(p, i, fresh); !strings.Contains(text, ikiwikiSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:ikiwiki_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range ikiwikiGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartIkiWiki(t)
			g.do(t, w, w.Browser())
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range ikiwikiGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartIkiWiki(t)
			g.miss(t, w, w.Browser())
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}
