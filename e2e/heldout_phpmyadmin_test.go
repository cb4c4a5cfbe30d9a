//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on phpMyAdmin: its tests build only with -tags heldout, and
// TestHeldOutPhpMyAdmin is run once, at the end, against an agent nobody tuned to
// phpMyAdmin. TestHeldOutPhpMyAdminJudge checks the harness alone, with no agent.

// pmaSignIn is phpMyAdmin's login form, written three ways (phrasing i uses the i-th); the
// password is granted by the worker and is in no goal.
var pmaSignIn = [3]string{
	`type "shopkeeper" into "Username:", type "{{secret:phpmyadmin_password}}" into "Password:", click "Log in"`,
	`fill "Username" with "shopkeeper", fill "Password" with "{{secret:phpmyadmin_password}}" and press "Log in"`,
	`type shopkeeper into the field labelled "Username:", then type "{{secret:phpmyadmin_password}}" into the Password field and click the "Log in" button`,
}

// pmaText fills a phrasing in: {signin} is its way of signing in.
func pmaText(phrasing string, i int) string {
	return strings.NewReplacer("{signin}", pmaSignIn[i]).Replace(phrasing)
}

// TestHeldOutPhpMyAdmin drives Debian's phpMyAdmin — a real application nobody here wrote:
// the MySQL and MariaDB admin panel, its rows, tables and databases edited through pages
// its scripts drive — with everyday goals written three ways each, and no model. Each
// phrasing runs on a fresh instance and server, starts at the login page, signs in with
// a password the worker grants, and is judged twice: by the run's status and by the
// server's databases. go test -tags heldout -run 'TestHeldOutPhpMyAdmin$' ./e2e/
func TestHeldOutPhpMyAdmin(t *testing.T) {
	if !testenv.PhpMyAdminInstalled() {
		t.Skip("phpMyAdmin is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh server has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_PHPMYADMIN_PASSWORD="+testenv.PhpMyAdminPassword,
		`WEBAGENT_SECRETS={"phpmyadmin_password": {"from": "env:WEBAGENT_TEST_PHPMYADMIN_PASSWORD", "sites": ["127.0.0.1"]}}`)
	var rows []poolRow
	for _, g := range pmaGoals {
		for i, p := range g.phrasings {
			// A harness that stops mid-way (t.Fatal) leaves the row at "not done".
			row := poolRow{goal: g.name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { row = runPmaGoal(t, s, g, i, p) })
			rows = append(rows, row)
		}
	}
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.PhpMyAdminPassword) {
			t.Errorf("phpMyAdmin's password is in the history of %s", id)
		}
	})
}

// runPmaGoal runs one phrasing on a fresh instance and judges it; it never fails the
// test itself (the table at the end does).
func runPmaGoal(t *testing.T, s *stack, g pmaGoal, i int, p string) poolRow {
	pma := testenv.StartPhpMyAdmin(t)
	return poolRun(t, s, g.name, i+1, pmaText(p, i), pma.URL, "the database server", func() string { return g.done(t, pma) })
}

// TestHeldOutPhpMyAdminJudge validates the harness without the agent: on a fresh instance
// every judge says "not done", every phrasing reads as a whole goal, the login form
// refuses a wrong password and MariaDB's password-less root; each goal's effect, done
// through phpMyAdmin's own forms and links as its pages send them (the token, the
// cookie sign-in, the confirmation's OK), makes its judge say "done" and leaves the
// other judges at "not done"; and a near miss of each leaves its judge at "not done".
// go test -tags heldout -run TestHeldOutPhpMyAdminJudge ./e2e/
func TestHeldOutPhpMyAdminJudge(t *testing.T) {
	if !testenv.PhpMyAdminInstalled() {
		t.Skip("phpMyAdmin is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartPhpMyAdmin(t)
	t.Logf("a fresh phpMyAdmin and its server answered in %s", time.Since(began).Round(time.Millisecond))
	for _, g := range pmaGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if text := pmaText(p, i); !strings.Contains(text, pmaSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:phpmyadmin_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, who := range [][2]string{{fresh.User, "not-the-password"}, {"root", ""}} {
		if b, page := fresh.TrySignIn(t, who[0], who[1]); b != nil {
			t.Errorf("signing in as %q with %q was not refused: %.300s", who[0], who[1], testenv.PhpMyAdminText(page))
		}
	}
	fresh.SignIn(t) // the login form takes the account's password
	for _, g := range pmaGoals {
		t.Run(g.name, func(t *testing.T) {
			p := testenv.StartPhpMyAdmin(t)
			g.do(t, p, p.SignIn(t))
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, p) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range pmaGoals {
				if o.name != g.name && o.done(t, p) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			p := testenv.StartPhpMyAdmin(t)
			g.miss(t, p, p.SignIn(t))
			why := g.done(t, p)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}
