//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
)

// The held-out check on ZNC's web admin: its tests build only with -tags heldout, and
// TestHeldOutZNC is run once, at the end, against an agent nobody tuned to ZNC.
// TestHeldOutZNCJudge checks the harness alone, with no agent.

// zncSignIn is the web admin's login form, the page every goal starts at, written three
// ways (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var zncSignIn = [3]string{
	`type "admin" into "User", type "{{secret:znc_password}}" into "Pass", click "Login"`,
	`fill User with admin and Pass with "{{secret:znc_password}}", then press Login`,
	`Sign in first: enter admin in the field labelled "User", enter "{{secret:znc_password}}" in the field labelled "Pass" and click the Login button.`,
}

// zncText fills a phrasing in: {signin} is its way of signing in.
func zncText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", zncSignIn[i])
}

// TestHeldOutZNC drives Debian's ZNC — a real application nobody here wrote: an IRC
// bouncer whose webadmin module manages its users, their networks, channels and modules
// and the bouncer's global settings — with everyday goals written three ways each, and no
// model. Each phrasing runs on a fresh instance, starts at the web admin's login page,
// signs in with a password the worker grants, and is judged twice: by the run's status
// and by the znc.conf ZNC rewrites after each change.
// go test -tags heldout -run 'TestHeldOutZNC$' ./e2e/
func TestHeldOutZNC(t *testing.T) {
	if !testenv.ZNCInstalled() {
		t.Skip("ZNC is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_ZNC_PASSWORD="+testenv.ZNCPassword,
		`WEBAGENT_SECRETS={"znc_password": {"from": "env:WEBAGENT_TEST_ZNC_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(zncGoals)), make([][]string, len(zncGoals))
	for g, goal := range zncGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartZNC(t)
		return poolRun(t, s, names[g], i+1, zncText(p, i), w.URL, "ZNC's znc.conf",
			func() string { return zncGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.ZNCPassword) {
			t.Errorf("ZNC's password is in the history of %s", id)
		}
	})
}

// TestHeldOutZNCJudge validates the harness without the agent: on a fresh instance the
// login page and the pages the goals name are there and every judge says "not done"; each
// goal's effect, made through the web admin's own pages along the goal's path (signed in
// through the login form, each form sent as the page fills it, its CSRF token with it),
// makes its judge say "done" once ZNC has rewritten znc.conf and leaves the other judges
// at "not done"; a near miss of each leaves its judge at "not done"; and each phrasing,
// filled in, parses as a whole goal.
// go test -tags heldout -run 'TestHeldOutZNCJudge$' ./e2e/
func TestHeldOutZNCJudge(t *testing.T) {
	if !testenv.ZNCInstalled() {
		t.Skip("ZNC is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartZNC(t)
	t.Logf("a fresh ZNC was configured, started and its znc.conf rewritten in %s", time.Since(began).Round(time.Millisecond))
	zncCheckFresh(t, fresh)
	for _, g := range zncGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := zncText(p, i)
			if !strings.Contains(text, zncSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:znc_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
			if steps, err := plan.Parse(text); err != nil || len(steps) == 0 {
				t.Errorf("%s, phrasing %d, does not parse (%v): %s", g.name, i+1, err, text)
			}
		}
	}
	for _, g := range zncGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartZNC(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range zncGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartZNC(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, b)
			// The miss reaches znc.conf as the effect would: wait until it is there.
			if why := testenv.Eventually(10*time.Second, func() string { return zncChanged(w) }); why != "" {
				t.Fatalf("the near miss changed nothing in znc.conf: %s", why)
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// zncCheckFresh checks what the goals rely on: the login form, the menu once signed in,
// the seed's users listed with the links the goals follow, and znc.conf as seeded.
func zncCheckFresh(t *testing.T, w *testenv.ZNC) {
	b := w.Browser()
	login := testenv.ZNCText(b.Open(t, "/"))
	for _, want := range []string{"Not logged in", "User:", "Pass:"} {
		if !strings.Contains(login, want) {
			t.Errorf("the login page lacks %q: %s", want, login)
		}
	}
	b.SignIn(t)
	for _, want := range []string{"Global Settings", "Your Settings", "Manage Users"} {
		if !strings.Contains(testenv.ZNCText(b.Page()), want) {
			t.Errorf("the menu lacks %q", want)
		}
	}
	users := b.Open(t, testenv.ZNCWebAdmin+"listusers")
	for _, u := range testenv.ZNCSeed {
		if !strings.Contains(users, "<td>"+u.Name+"</td>") || !strings.Contains(users, "edituser?user="+u.Name) {
			t.Errorf("Manage Users does not list %s", u.Name)
		}
	}
	if why := w.Differs(w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	c := w.Seed()
	if !c.User(testenv.ZNCAdmin).PasswordIs(testenv.ZNCPassword) || c.User(testenv.ZNCAdmin).Get("Admin") != "true" {
		t.Errorf("the seed's admin is not an admin with the password the worker grants: %+v", c.User(testenv.ZNCAdmin))
	}
}
