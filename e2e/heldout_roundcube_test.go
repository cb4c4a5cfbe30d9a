//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Roundcube Webmail: its tests build only with -tags heldout, and
// TestHeldOutRoundcube is run once, at the end, against an agent nobody tuned to
// Roundcube. TestHeldOutRoundcubeJudge checks the harness alone, with no agent.

// roundcubeSignIn is the login form, written three ways (phrasing i uses the i-th); the
// password is granted by the worker and is in no goal.
var roundcubeSignIn = [3]string{
	`type "` + testenv.RoundcubeUser + `" into "Username", type "{{secret:roundcube_password}}" into "Password", click "Login"`,
	`fill "Username" with "` + testenv.RoundcubeUser + `", fill "Password" with "{{secret:roundcube_password}}" and press "Login"`,
	`type ` + testenv.RoundcubeUser + ` into the field labelled "Username", then type "{{secret:roundcube_password}}" into the Password field and click the Login button`,
}

// roundcubeText fills a phrasing in: {signin} is its way of signing in.
func roundcubeText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", roundcubeSignIn[i])
}

// TestHeldOutRoundcube drives Debian's Roundcube Webmail — a real application nobody here
// wrote, in front of Debian's Dovecot — with everyday mail goals written three ways each,
// and no model. Each phrasing runs on a fresh instance (mail, database, servers), signs in
// through the login form with a password the worker grants, and is judged twice: by the
// run's status and by the Maildir on disk and Roundcube's own database (and what its
// SMTP server received). go test -tags heldout -run 'TestHeldOutRoundcube$' ./e2e/
func TestHeldOutRoundcube(t *testing.T) {
	if !testenv.RoundcubeInstalled() {
		t.Skip("Roundcube is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh server has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_ROUNDCUBE_PASSWORD="+testenv.RoundcubePassword,
		`WEBAGENT_SECRETS={"roundcube_password": {"from": "env:WEBAGENT_TEST_ROUNDCUBE_PASSWORD", "sites": ["127.0.0.1"]}}`)
	var rows []poolRow
	for _, g := range roundcubeGoals {
		for i, p := range g.phrasings {
			// A harness that stops mid-way (t.Fatal) leaves the row at "not done".
			row := poolRow{goal: g.name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { row = runRoundcubeGoal(t, s, g, i, p) })
			rows = append(rows, row)
		}
	}
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.RoundcubePassword) {
			t.Errorf("Roundcube's password is in the history of %s", id)
		}
	})
}

// runRoundcubeGoal runs one phrasing on a fresh instance and judges it; it never fails
// the test itself (the table at the end does).
func runRoundcubeGoal(t *testing.T, s *stack, g roundcubeGoal, i int, p string) poolRow {
	rc := testenv.StartRoundcube(t)
	text := roundcubeText(p, i)
	return poolRun(t, s, g.name, i+1, text, rc.URL, "the mailbox and the database", func() string { return g.done(t, rc) })
}

// TestHeldOutRoundcubeJudge validates the harness without the agent: on a fresh instance
// every judge says "not done"; each goal's effect, made through Roundcube's own requests
// as its pages send them, makes its judge say "done" and leaves the other judges at "not
// done"; and a near miss of each leaves its judge at "not done".
// go test -tags heldout -run TestHeldOutRoundcubeJudge ./e2e/
func TestHeldOutRoundcubeJudge(t *testing.T) {
	if !testenv.RoundcubeInstalled() {
		t.Skip("Roundcube is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartRoundcube(t)
	t.Logf("a fresh Roundcube (Dovecot, the SMTP sink, php -S, a first sign-in) answered in %s", time.Since(began).Round(time.Millisecond))
	for _, g := range roundcubeGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if text := roundcubeText(p, i); !strings.Contains(text, roundcubeSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:roundcube_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range roundcubeGoals {
		t.Run(g.name, func(t *testing.T) {
			rc := testenv.StartRoundcube(t)
			g.do(t, rc, rc.SignIn(t))
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, rc) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range roundcubeGoals {
				if o.name != g.name && o.done(t, rc) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			rc := testenv.StartRoundcube(t)
			g.miss(t, rc, rc.SignIn(t))
			why := g.done(t, rc)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}
