//go:build heldout

package e2e

import (
	"html"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on LDAP Account Manager: its tests build only with -tags heldout, and
// TestHeldOutLAM is run once, at the end, against an agent nobody tuned to LAM.
// TestHeldOutLAMJudge checks the harness alone, with no agent.

// lamSignIn is LAM's login page, the page every goal starts at, written three ways
// (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var lamSignIn = [3]string{
	`select "admin" in "User name", type "{{secret:lam_password}}" into "Password", click "Login"`,
	`log in as admin: fill Password with "{{secret:lam_password}}" and press Login`,
	`Sign in first: keep admin as the User name, enter "{{secret:lam_password}}" in the field labelled "Password" and click the Login button.`,
}

// lamText fills a phrasing in: {signin} is its way of signing in.
func lamText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", lamSignIn[i])
}

// TestHeldOutLAM drives Debian's LDAP Account Manager — a real application nobody here
// wrote: a web front end that manages the users and groups of an LDAP directory — with
// everyday goals written three ways each, and no model. Each phrasing runs on a fresh
// instance (its own slapd and its own copy of LAM), starts at LAM's login page, signs in
// with a password the worker grants, and is judged twice: by the run's status and by the
// directory itself, read back with ldapsearch.
// go test -tags heldout -run 'TestHeldOutLAM$' ./e2e/
func TestHeldOutLAM(t *testing.T) {
	if !testenv.LAMInstalled() {
		t.Skip("LDAP Account Manager is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_LAM_PASSWORD="+testenv.LAMPassword,
		`WEBAGENT_SECRETS={"lam_password": {"from": "env:WEBAGENT_TEST_LAM_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(lamGoals)), make([][]string, len(lamGoals))
	for g, goal := range lamGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		l := testenv.StartLAM(t)
		return poolRun(t, s, names[g], i+1, lamText(p, i), l.URL, "LAM's directory",
			func() string { return lamGoals[g].done(t, l) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.LAMPassword) {
			t.Errorf("LAM's password is in the history of %s", id)
		}
	})
}

// TestHeldOutLAMJudge validates the harness without the agent: on a fresh instance the
// login page and the lists the goals start from are there and every judge says "not done";
// each goal's effect, made through LAM's own pages along the goal's path (signed in through
// the login page, each form sent as the page fills it, its sec_token with it), makes its
// judge say "done" and leaves the other judges at "not done"; a near miss of each leaves
// its judge at "not done"; and each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutLAMJudge$' ./e2e/
func TestHeldOutLAMJudge(t *testing.T) {
	if !testenv.LAMInstalled() {
		t.Skip("LDAP Account Manager is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartLAM(t)
	t.Logf("a fresh LAM and its slapd were laid out, seeded and started in %s", time.Since(began).Round(time.Millisecond))
	lamCheckFresh(t, fresh)
	for _, g := range lamGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := lamText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:lam_password}}", "")
			if !strings.Contains(text, lamSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.LAMPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range lamGoals {
		t.Run(g.name, func(t *testing.T) {
			l := testenv.StartLAM(t)
			b := l.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, l); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range lamGoals {
				if o.name != g.name && o.done(t, l) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			l := testenv.StartLAM(t)
			b := l.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if lamChanged(l) != "" {
				t.Fatalf("the near miss changed nothing in the directory")
			}
			why := g.done(t, l)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// lamCheckFresh checks what the goals rely on: the login page's fields, the lists of users
// and groups once signed in with the buttons and links the goals follow, and the directory
// as seeded.
func lamCheckFresh(t *testing.T, l *testenv.LAM) {
	b := l.Browser()
	login := testenv.LAMText(b.Open(t, l.URL))
	for _, want := range []string{"User name", "admin", "Password", "Login"} {
		if !strings.Contains(login, want) {
			t.Errorf("the login page lacks %q: %s", want, login)
		}
	}
	b.SignIn(t)
	users := testenv.LAMText(b.Page())
	for _, want := range []string{"Users", "Groups", "New user", "User name", "First name", "Last name"} {
		if !strings.Contains(users, want) {
			t.Errorf("the user list lacks %q: %s", want, users)
		}
	}
	for _, p := range testenv.LAMSeedPeople {
		if !strings.Contains(html.UnescapeString(b.Page()), lamEditLink("user", lamUserDN(p.UID))) || !strings.Contains(users, p.UID+" "+p.First+" "+p.Last) {
			t.Errorf("the user list does not show %s with its Edit link", p.UID)
		}
	}
	groups := testenv.LAMText(b.Click(t, lamGroupList))
	for _, g := range testenv.LAMSeedGroups {
		if !strings.Contains(html.UnescapeString(b.Page()), lamEditLink("group", lamGroupDN(g.Name))) || !strings.Contains(groups, g.Name+" "+g.GIDNumber) {
			t.Errorf("the group list does not show %s with its Edit link", g.Name)
		}
	}
	if n := len(l.Seeded); n != 3+len(testenv.LAMSeedPeople)+len(testenv.LAMSeedGroups) {
		t.Errorf("the seeded directory holds %d entries", n)
	}
	if why := lamDiffers(l, l.Seeded); why != "" {
		t.Errorf("the fresh directory differs from its seed: %s", why)
	}
}
