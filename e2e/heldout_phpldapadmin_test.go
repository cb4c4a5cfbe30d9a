//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on phpLDAPadmin: its tests build only with -tags heldout, and
// TestHeldOutPhpLDAPadmin is run once, at the end, against an agent nobody tuned to
// phpLDAPadmin. TestHeldOutPhpLDAPadminJudge checks the harness alone, with no agent.

// phpldapadminSignIn is phpLDAPadmin's login form, reached from the "login" link under the
// server's name in the tree, written three ways (phrasing i uses the i-th); the password is
// granted by the worker and is in no goal.
var phpldapadminSignIn = [3]string{
	`click "login", type "cn=admin,dc=example,dc=org" into "Login DN", type "{{secret:phpldapadmin_password}}" into "Password", click "Authenticate"`,
	`go to {url}, press the login link in the tree on the left, fill "Login DN" with cn=admin,dc=example,dc=org and "Password" with "{{secret:phpldapadmin_password}}" and press "Authenticate"`,
	`click the "login" link under My LDAP Server, make sure the field labelled "Login DN" holds cn=admin,dc=example,dc=org, type "{{secret:phpldapadmin_password}}" into the Password field and click the Authenticate button`,
}

// phpldapadminText fills a phrasing in: {signin} is its way of signing in, {url} the front
// page's address (also where a way of signing in names it).
func phpldapadminText(phrasing string, i int, w *testenv.PhpLDAPadmin) string {
	text := strings.ReplaceAll(phrasing, "{signin}", phpldapadminSignIn[i])
	return strings.ReplaceAll(text, "{url}", w.URL)
}

// TestHeldOutPhpLDAPadmin drives Debian's phpLDAPadmin — a real application nobody here
// wrote: a web front end in PHP for an LDAP directory, here in front of a private OpenLDAP
// server — with everyday goals written three ways each, and no model. Each phrasing runs
// on a fresh instance, starts at its front page, signs in through its login form with a
// password the worker grants, and is judged twice: by the run's status and by what the
// directory holds (read with ldapsearch).
// go test -tags heldout -run 'TestHeldOutPhpLDAPadmin$' ./e2e/
func TestHeldOutPhpLDAPadmin(t *testing.T) {
	if !testenv.PhpLDAPadminInstalled() {
		t.Skip("phpLDAPadmin is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh server has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_PHPLDAPADMIN_PASSWORD="+testenv.PhpLDAPadminPassword,
		`WEBAGENT_SECRETS={"phpldapadmin_password": {"from": "env:WEBAGENT_TEST_PHPLDAPADMIN_PASSWORD", "sites": ["127.0.0.1"]}}`)
	var rows []poolRow
	for _, g := range phpldapadminGoals {
		for i, p := range g.phrasings {
			// A harness that stops mid-way (t.Fatal) leaves the row at "not done".
			row := poolRow{goal: g.name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { row = runPhpLDAPadminGoal(t, s, g, i, p) })
			rows = append(rows, row)
		}
	}
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.PhpLDAPadminPassword) {
			t.Errorf("phpLDAPadmin's password is in the history of %s", id)
		}
	})
}

// runPhpLDAPadminGoal runs one phrasing on a fresh instance and judges it; it never fails
// the test itself (the table at the end does).
func runPhpLDAPadminGoal(t *testing.T, s *stack, g phpldapadminGoal, i int, p string) poolRow {
	w := testenv.StartPhpLDAPadmin(t)
	text := phpldapadminText(p, i, w)
	return poolRun(t, s, g.name, i+1, text, w.URL, "the directory", func() string { return g.done(t, w) })
}

// TestHeldOutPhpLDAPadminJudge validates the harness without the agent: on a fresh
// instance every judge says "not done"; each goal's effect, done through phpLDAPadmin's own
// pages along the goal's path (signed in through its login form, each form sent as the
// page fills it), makes its judge say "done" and leaves the other judges at "not done"; a
// near miss of each leaves its judge at "not done"; and each phrasing reads as a whole goal
// once filled in.
// go test -tags heldout -run 'TestHeldOutPhpLDAPadminJudge$' ./e2e/
func TestHeldOutPhpLDAPadminJudge(t *testing.T) {
	if !testenv.PhpLDAPadminInstalled() {
		t.Skip("phpLDAPadmin is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartPhpLDAPadmin(t)
	t.Logf("a fresh phpLDAPadmin and its directory were started and seeded in %s", time.Since(began).Round(time.Millisecond))
	for _, g := range phpldapadminGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if text := phpldapadminText(p, i, fresh); !strings.Contains(text, strings.ReplaceAll(phpldapadminSignIn[i], "{url}", fresh.URL)) ||
				strings.Contains(strings.ReplaceAll(text, "{{secret:phpldapadmin_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range phpldapadminGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartPhpLDAPadmin(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, w, b)
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range phpldapadminGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartPhpLDAPadmin(t)
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
