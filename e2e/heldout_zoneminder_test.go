//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on ZoneMinder's own web console: its tests build only with -tags
// heldout, and TestHeldOutZoneMinder is run once, at the end, against an agent nobody tuned
// to ZoneMinder. TestHeldOutZoneMinderJudge checks the harness alone, with no agent.

// zoneminderSignIn is ZoneMinder's login form, where every goal starts, written three ways
// (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var zoneminderSignIn = [3]string{
	`type "admin" into "Username", type "{{secret:zoneminder_password}}" into "Password", click "Login"`,
	`sign in as admin with the password {{secret:zoneminder_password}}`,
	`First log in to ZoneMinder: put admin in the Username field and "{{secret:zoneminder_password}}" in the Password field, then hit Login.`,
}

// zoneminderText fills a phrasing in: {signin} is its way of signing in.
func zoneminderText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", zoneminderSignIn[i])
}

// TestHeldOutZoneMinder drives Debian's ZoneMinder — a real application nobody here wrote:
// the web console of a video surveillance system, used here for what it manages without
// its capture daemons (monitors, their source and function, groups of monitors, the
// console's users and their permissions, the options) — with everyday goals written three
// ways each, and no model. Each phrasing runs on a fresh instance (its own MariaDB server
// and copy of the console), starts at the login page, signs in with a password the worker
// grants, and is judged twice: by the run's status and by ZoneMinder's database.
// go test -tags heldout -run 'TestHeldOutZoneMinder$' ./e2e/
func TestHeldOutZoneMinder(t *testing.T) {
	if !testenv.ZoneMinderInstalled() {
		t.Skip("ZoneMinder is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_ZONEMINDER_PASSWORD="+testenv.ZoneMinderPassword,
		`WEBAGENT_SECRETS={"zoneminder_password": {"from": "env:WEBAGENT_TEST_ZONEMINDER_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(zoneminderGoals)), make([][]string, len(zoneminderGoals))
	for g, goal := range zoneminderGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		z := testenv.StartZoneMinder(t)
		return poolRun(t, s, names[g], i+1, zoneminderText(p, i), z.URL, "ZoneMinder's database",
			func() string { return zoneminderGoals[g].done(t, z) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.ZoneMinderPassword) {
			t.Errorf("ZoneMinder's password is in the history of %s", id)
		}
	})
}

// TestHeldOutZoneMinderJudge validates the harness without the agent: on a fresh instance
// the login page and the pages the goals start from are there and every judge says "not
// done"; each goal's effect, made through ZoneMinder's own pages along the goal's path
// (signed in through the login form, each form sent as the page fills it, its
// __csrf_magic token with it), makes its judge say "done" and leaves the other judges at
// "not done"; a near miss of each leaves its judge at "not done"; and each phrasing, filled
// in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutZoneMinderJudge$' ./e2e/
func TestHeldOutZoneMinderJudge(t *testing.T) {
	if !testenv.ZoneMinderInstalled() {
		t.Skip("ZoneMinder is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartZoneMinder(t)
	t.Logf("a fresh ZoneMinder and its MariaDB server were made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	zoneminderCheckFresh(t, fresh)
	for _, g := range zoneminderGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := zoneminderText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:zoneminder_password}}", "")
			if !strings.Contains(text, zoneminderSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.ZoneMinderPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range zoneminderGoals {
		t.Run(g.name, func(t *testing.T) {
			z := testenv.StartZoneMinder(t)
			b := z.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, z); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range zoneminderGoals {
				if o.name != g.name && o.done(t, z) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			z := testenv.StartZoneMinder(t)
			b := z.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if z.Differs(t, z.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the database")
			}
			why := g.done(t, z)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// zoneminderCheckFresh checks what the goals rely on: the login form, the console with the
// seed's monitors and its buttons, the monitor form's tabs and fields, Options' Users and
// Web tabs, the user form, Groups with the seed's group, the modal forms of Groups and of
// the console's Function links, the assets the pages load, and the storage as seeded
// (browsing the pages changes none of it).
func zoneminderCheckFresh(t *testing.T, z *testenv.ZoneMinder) {
	b := z.Browser()
	raw := b.Open(t, "/")
	for _, want := range []string{`placeholder="Username"`, `placeholder="Password"`, `>Login</button>`} {
		if !strings.Contains(raw, want) {
			t.Errorf("the login page lacks %s", want)
		}
	}
	b.SignIn(t)
	pages := []struct {
		path  string
		wants []string
	}{
		{"/?view=console", []string{"Console", "Options", "Groups", "Group", testenv.ZoneMinderGroup, "Add", "Edit", "Delete", "Name", "Function", "Source",
			"Front Door", "Front Gate", "Back Yard", "Back Door", "Driveway", "192.0.2.14", "Monitor", "Modect", "None"}},
		{"/?view=monitor", []string{"General", "Source", "Name", "Function", "Record", "Source Path", "Capture Resolution (pixels)", "640x480", "Save"}},
		{"/?view=options&tab=users", []string{"Web", "Users", "Add New User", "admin", "guard", "installer"}},
		{"/?view=user&uid=0", []string{"Username", "New Password", "Confirm Password", "Stream", "Events", "Monitors", "View", "Edit", "Save"}},
		{"/?view=options&tab=web", []string{"WEB_CONSOLE_BANNER", "Arbitrary text message near the top of the console", "Save"}},
		{"/?view=groups", []string{"New", "Delete", testenv.ZoneMinderGroup}},
	}
	for _, p := range pages {
		text := testenv.ZoneMinderText(b.Open(t, p.path))
		for _, want := range p.wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q: %s", p.path, want, text)
			}
		}
	}
	for modal, wants := range map[string][]string{"modal=group": {"Name", "Parent Group", "Monitor", "Front Door", "Save"},
		"modal=function": {"Function", "Modect", "Analysis Enabled", "Save"}} {
		text := testenv.ZoneMinderText(b.Modal(t, modal))
		for _, want := range wants {
			if !strings.Contains(text, want) {
				t.Errorf("the modal %s lacks %q: %s", modal, want, text)
			}
		}
	}
	console := b.Open(t, "/?view=console")
	for _, asset := range []string{"/skins/classic/js/jquery.min.js", "/skins/classic/views/js/console.js", "/skins/classic/css/base/skin.css", "/fonts/glyphicons-halflings-regular.woff2"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the pages load, is missing or empty", asset)
		}
	}
	if i := strings.Index(console, `href="cache/`); i < 0 || len(b.Open(t, "/"+console[i+6:i+6+strings.IndexByte(console[i+6:], '"')])) < 500 {
		t.Errorf("the console's style sheets are not served from its cache folder")
	}
	if why := z.Differs(t, z.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if !z.PasswordIs(t, "admin", testenv.ZoneMinderPassword) || !z.PasswordIs(t, "guard", testenv.ZoneMinderUsers[0].Password) {
		t.Errorf("admin's or guard's password is not the seed's")
	}
	s := z.Seed()
	if s["Monitors"]["Back Door"]["Path"] != "rtsp://192.0.2.14:554/stream1" || s["Monitors"]["Front Gate"]["Function"] != "Monitor" ||
		s["Users"]["guard"]["Events"] != "View" || s["Config"]["ZM_WEB_CONSOLE_BANNER"]["Value"] != "" {
		t.Errorf("the seed lacks a monitor, a function, a permission or the empty banner the goals rely on: %v", s)
	}
}
