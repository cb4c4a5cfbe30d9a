//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Icinga Web 2's own pages: its tests build only with -tags heldout,
// and TestHeldOutIcingaWeb is run once, at the end, against an agent nobody tuned to Icinga
// Web 2. TestHeldOutIcingaWebJudge checks the harness alone, with no agent.

// icingawebSignIn is Icinga Web 2's login form, where every goal starts (the start page
// sends a visitor there), written three ways (phrasing i uses the i-th); the password is
// granted by the worker and is in no goal.
var icingawebSignIn = [3]string{
	`type "admin" into "Username", type "{{secret:icingaweb_password}}" into "Password", click "Login"`,
	`log in as admin / {{secret:icingaweb_password}}`,
	`First sign in to Icinga Web: put admin in the Username field and "{{secret:icingaweb_password}}" in the Password field, then hit the Login button.`,
}

// icingawebText fills a phrasing in: {signin} is its way of signing in.
func icingawebText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", icingawebSignIn[i])
}

// TestHeldOutIcingaWeb drives Debian's Icinga Web 2 — a real application nobody here wrote:
// the web front end of the Icinga monitoring stack, used here for what it manages itself
// (users, user groups and their members, roles, dashboards, shared navigation items,
// preferences, announcements) — with everyday goals written three ways each, and no model.
// Each phrasing runs on a fresh instance (its own PostgreSQL cluster and configuration
// folder), starts at the login page, signs in with a password the worker grants, and is
// judged twice: by the run's status and by Icinga Web 2's database and ini files.
// go test -tags heldout -run 'TestHeldOutIcingaWeb$' ./e2e/
func TestHeldOutIcingaWeb(t *testing.T) {
	if !testenv.IcingaWebInstalled() {
		t.Skip("Icinga Web 2 is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_ICINGAWEB_PASSWORD="+testenv.IcingaWebPassword,
		`WEBAGENT_SECRETS={"icingaweb_password": {"from": "env:WEBAGENT_TEST_ICINGAWEB_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(icingawebGoals)), make([][]string, len(icingawebGoals))
	for g, goal := range icingawebGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartIcingaWeb(t)
		return poolRun(t, s, names[g], i+1, icingawebText(p, i), w.URL, "Icinga Web 2's database and ini files",
			func() string { return icingawebGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.IcingaWebPassword) {
			t.Errorf("Icinga Web 2's password is in the history of %s", id)
		}
	})
}

// TestHeldOutIcingaWebJudge validates the harness without the agent: on a fresh instance
// the login page and the pages the goals start from are there and every judge says "not
// done"; each goal's effect, made through Icinga Web 2's own pages along the goal's path
// (signed in through the login form, each form sent as the page fills it, its CSRFToken
// with it), makes its judge say "done" and leaves the other judges at "not done"; a near
// miss of each leaves its judge at "not done"; and each phrasing, filled in, reads as a
// whole goal.
// go test -tags heldout -run 'TestHeldOutIcingaWebJudge$' ./e2e/
func TestHeldOutIcingaWebJudge(t *testing.T) {
	if !testenv.IcingaWebInstalled() {
		t.Skip("Icinga Web 2 is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartIcingaWeb(t)
	t.Logf("a fresh Icinga Web 2 and its PostgreSQL cluster were made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	icingawebCheckFresh(t, fresh)
	for _, g := range icingawebGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := icingawebText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:icingaweb_password}}", "")
			if !strings.Contains(text, icingawebSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.IcingaWebPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range icingawebGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartIcingaWeb(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, w); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range icingawebGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartIcingaWeb(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the database or the ini files")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// icingawebCheckFresh checks what the goals rely on: the login form, the menu once signed
// in, the Access Control tabs with the seed's users, groups and roles, the shared menu
// entries, the announcements, the dashboard's tabs, the preferences form, and the storage
// as seeded (browsing the pages changes none of it).
func icingawebCheckFresh(t *testing.T, w *testenv.IcingaWeb) {
	b := w.Browser()
	raw := b.Open(t, "/")
	for _, want := range []string{`placeholder="Username"`, `placeholder="Password"`, `value="Login"`} {
		if !strings.Contains(raw, want) {
			t.Errorf("the login page lacks %s", want)
		}
	}
	b.SignIn(t)
	pages := []struct {
		path  string
		wants []string
	}{
		{"/dashboard", []string{"Dashboard", "System", "Announcements", "Configuration", "Access Control", "Shared Navigation", "My Account",
			"Overview", "Team", "Add Dashlet", "Application Health"}},
		{"/role/list", []string{"Roles", "Users", "User Groups", "Create a New Role", "Administrators", "Operators", "Auditors"}},
		{"/user/list", []string{"Add a New User", "anna", "tom", "lisa", "omar"}},
		{"/group/list", []string{"Operators", "Network Team", "Administrators"}},
		{"/group/show?backend=icingaweb2&group=Network%20Team", []string{"Add New Member", "lisa"}},
		{"/navigation/shared", []string{"Runbooks", "Status Page", "Menu Entry"}},
		{"/announcements", []string{"Create a New Announcement", testenv.IcingaWebSeedAnnouncements[0][1], testenv.IcingaWebSeedAnnouncements[1][1]}},
		{"/dashboard/new-dashlet", []string{"Url", "Dashlet Title", "New dashboard", "Dashboard * Overview Team"}},
		{"/role/add", []string{"Role Name", "Groups", "Icinga Web 2", "Allow to manage announcements"}},
		{"/account", []string{"Preferences", "Default page size", "Theme", "Your Current Language"}},
	}
	for _, p := range pages {
		text := testenv.IcingaWebText(b.Open(t, p.path))
		for _, want := range p.wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q: %s", p.path, want, text)
			}
		}
	}
	for path, button := range map[string]string{"/account": "Save to the Preferences", "/dashboard/new-dashlet": "Add To Dashboard",
		"/role/add": "Create Role", "/user/add?backend=icingaweb2": "Add"} {
		if !strings.Contains(b.Open(t, path), `value="`+button+`"`) {
			t.Errorf("%s has no %s button", path, button)
		}
	}
	for _, asset := range []string{"/css/icinga.min.css", "/js/icinga.min.js", "/img/favicon.png", "/font/ifont.woff2"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the pages load, is missing or empty", asset)
		}
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if !w.PasswordIs(t, "admin", testenv.IcingaWebPassword) || !w.PasswordIs(t, "anna", testenv.IcingaWebSeedPassword) {
		t.Errorf("admin's or anna's password is not the seed's")
	}
	s := w.Seed()
	if _, member := s["member"]["Network Team>lisa"]; !member || s["roles.ini"]["Administrators"] == "" || s["navigation/menu.ini"]["Runbooks"] == "" {
		t.Errorf("the seed lacks its group member, its administrators' role or its shared menu entry: %v", s)
	}
}
