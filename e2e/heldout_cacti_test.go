//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Cacti: its tests build only with -tags heldout, and TestHeldOutCacti
// is run once, at the end, against an agent nobody tuned to Cacti. TestHeldOutCactiJudge
// checks the harness alone, with no agent.

// cactiSignIn is Cacti's login form, the page every goal starts at, written three ways
// (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var cactiSignIn = [3]string{
	`type "admin" into "Username", type "{{secret:cacti_password}}" into "Password", click "Login"`,
	`fill Username with admin and Password with "{{secret:cacti_password}}", then press Login`,
	`Sign in first: enter admin in the field labelled "Username", enter "{{secret:cacti_password}}" in the field labelled "Password" and click the Login button.`,
}

// cactiText fills a phrasing in: {signin} is its way of signing in.
func cactiText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", cactiSignIn[i])
}

// TestHeldOutCacti drives Debian's Cacti — a real application nobody here wrote: a
// network-graphing admin panel for devices, graph trees, users and its settings — with
// everyday goals written three ways each, and no model. Each phrasing runs on a fresh
// instance, starts at the login page, signs in with a password the worker grants, and is
// judged twice: by the run's status and by Cacti's own database.
// go test -tags heldout -run 'TestHeldOutCacti$' ./e2e/
func TestHeldOutCacti(t *testing.T) {
	if !testenv.CactiInstalled() {
		t.Skip("Cacti is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_CACTI_PASSWORD="+testenv.CactiPassword,
		`WEBAGENT_SECRETS={"cacti_password": {"from": "env:WEBAGENT_TEST_CACTI_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(cactiGoals)), make([][]string, len(cactiGoals))
	for g, goal := range cactiGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		c := testenv.StartCacti(t)
		return poolRun(t, s, names[g], i+1, cactiText(p, i), c.URL+"/", "Cacti's database",
			func() string { return cactiGoals[g].done(t, c) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.CactiPassword) {
			t.Errorf("Cacti's password is in the history of %s", id)
		}
	})
}

// TestHeldOutCactiJudge validates the harness without the agent: on a fresh instance the
// login page and the pages the goals name are there and every judge says "not done"; each
// goal's effect, made through Cacti's own pages along the goal's path (signed in through
// the login form, each form sent as the page fills it, its CSRF token with it), makes its
// judge say "done" and leaves the other judges at "not done"; a near miss of each leaves
// its judge at "not done"; and each phrasing, filled in, is a whole goal.
// go test -tags heldout -run 'TestHeldOutCactiJudge$' ./e2e/
func TestHeldOutCactiJudge(t *testing.T) {
	if !testenv.CactiInstalled() {
		t.Skip("Cacti is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartCacti(t)
	t.Logf("a fresh Cacti was started, its schema loaded and its seed written in %s", time.Since(began).Round(time.Millisecond))
	cactiCheckFresh(t, fresh)
	for _, g := range cactiGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := cactiText(p, i)
			if !strings.Contains(text, cactiSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:cacti_password}}", ""), "{") ||
				strings.Contains(text, testenv.CactiPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range cactiGoals {
		t.Run(g.name, func(t *testing.T) {
			c := testenv.StartCacti(t)
			b := c.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, c); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range cactiGoals {
				if o.name != g.name && o.done(t, c) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			c := testenv.StartCacti(t)
			b := c.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if c.Differs(t, nil) == "" {
				t.Fatalf("the near miss changed nothing in the database")
			}
			why := g.done(t, c)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// cactiCheckFresh checks what the goals rely on: the login form, the menu once signed in,
// the seed's devices listed with the actions the goals choose, the Device Defaults tab,
// and the database as seeded.
func cactiCheckFresh(t *testing.T, c *testenv.Cacti) {
	b := c.Browser()
	login := testenv.CactiText(b.Open(t, "/"))
	for _, want := range []string{"User Login", "Username", "Password", "Keep me signed in"} {
		if !strings.Contains(login, want) {
			t.Errorf("the login page lacks %q: %s", want, login)
		}
	}
	b.SignIn(t)
	for _, want := range []string{"New Device", "Devices", "Trees", "Settings", "Users"} {
		if !strings.Contains(testenv.CactiText(b.Page()), want) {
			t.Errorf("the menu lacks %q", want)
		}
	}
	devices := testenv.CactiText(b.Open(t, "/host.php"))
	for _, want := range []string{"Core Switch", "Web Server", "File Server", "Old Printer", "Delete", "Place on a Tree (Network)", "Place on a Tree (Default Tree)"} {
		if !strings.Contains(devices, want) {
			t.Errorf("the Devices page lacks %q", want)
		}
	}
	defaults := testenv.CactiText(b.Open(t, "/settings.php?tab=snmp"))
	for _, want := range []string{"Device Defaults", "SNMP Defaults", "Community"} {
		if !strings.Contains(defaults, want) {
			t.Errorf("the Device Defaults tab lacks %q", want)
		}
	}
	if why := c.Differs(t, nil); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	admin := c.Seed()["user_auth"]["admin"]
	if admin == nil || admin["enabled"] != "on" || !testenv.CactiPasswordIs(admin["password"], testenv.CactiPassword) {
		t.Errorf("the seed's admin is not enabled with the password the worker grants: %v", admin)
	}
}
