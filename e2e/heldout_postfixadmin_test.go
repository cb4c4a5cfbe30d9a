//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
)

// The held-out check on Postfix Admin: its tests build only with -tags heldout, and
// TestHeldOutPostfixAdmin is run once, at the end, against an agent nobody tuned to Postfix
// Admin. TestHeldOutPostfixAdminJudge checks the harness alone, with no agent.

// postfixadminSignIn is Postfix Admin's login page, where every goal starts, written three
// ways (phrasing i uses the i-th); the superadmin's password is granted by the worker and is
// in no goal.
var postfixadminSignIn = [3]string{
	`type "admin@example.org" into "Login (email)", type "{{secret:postfixadmin_password}}" into "Password", click "Login"`,
	`fill "Login (email)" with admin@example.org and "Password" with "{{secret:postfixadmin_password}}" and press "Login"`,
	`type admin@example.org into the field labelled "Login (email):", then type "{{secret:postfixadmin_password}}" into the Password field and click the Login button`,
}

// postfixadminText fills a phrasing in: {signin} is its way of signing in.
func postfixadminText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", postfixadminSignIn[i])
}

// TestHeldOutPostfixAdmin drives Debian's Postfix Admin — a real application nobody here
// wrote: a web admin in PHP for a mail server's virtual domains, mailboxes, aliases and
// domain admins — with everyday goals written three ways each, and no model. Each phrasing
// runs on a fresh instance, starts at its login page, signs in with a password the worker
// grants, and is judged twice: by the run's status and by what the app's own database
// holds. go test -tags heldout -run 'TestHeldOutPostfixAdmin$' ./e2e/
func TestHeldOutPostfixAdmin(t *testing.T) {
	if !testenv.PostfixAdminInstalled() {
		t.Skip("Postfix Admin is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh server has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_POSTFIXADMIN_PASSWORD="+testenv.PostfixAdminPassword,
		`WEBAGENT_SECRETS={"postfixadmin_password": {"from": "env:WEBAGENT_TEST_POSTFIXADMIN_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(postfixadminGoals)), make([][]string, len(postfixadminGoals))
	for g, goal := range postfixadminGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartPostfixAdmin(t)
		return poolRun(t, s, names[g], i+1, postfixadminText(p, i), w.URL+"/login.php", "Postfix Admin's database",
			func() string { return postfixadminGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.PostfixAdminPassword) {
			t.Errorf("Postfix Admin's password is in the history of %s", id)
		}
	})
}

// TestHeldOutPostfixAdminJudge validates the harness without the agent: on a fresh instance
// the seed is all the database holds and every judge says "not done"; each goal's effect,
// done through Postfix Admin's own pages along the goal's path (signed in through its login
// page, each form sent as the page fills it, with the token it carries and the session's
// cookie), makes its judge say "done" and leaves the other judges at "not done"; a near
// miss of each leaves its judge at "not done"; and each phrasing, filled in, reads as a
// whole goal. go test -tags heldout -run 'TestHeldOutPostfixAdminJudge$' ./e2e/
func TestHeldOutPostfixAdminJudge(t *testing.T) {
	if !testenv.PostfixAdminInstalled() {
		t.Skip("Postfix Admin is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartPostfixAdmin(t)
	t.Logf("a fresh Postfix Admin was set up, seeded and served in %s", time.Since(began).Round(time.Millisecond))
	if why := fresh.Differs(t, nil); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	for _, g := range postfixadminGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := postfixadminText(p, i)
			if !strings.Contains(text, postfixadminSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:postfixadmin_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
			if _, err := plan.Parse(text); err != nil {
				t.Errorf("%s, phrasing %d, does not parse: %v", g.name, i+1, err)
			}
		}
	}
	for _, g := range postfixadminGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartPostfixAdmin(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, w, b)
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range postfixadminGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartPostfixAdmin(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, w, b)
			if w.Differs(t, nil) == "" {
				t.Fatalf("the near miss changed nothing in the database")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}
