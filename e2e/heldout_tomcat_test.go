//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Apache Tomcat's own administration pages: its tests build only
// with -tags heldout, and TestHeldOutTomcat is run once, at the end, against an agent
// nobody tuned to Tomcat. TestHeldOutTomcatJudge checks the harness alone, with no agent.

// tomcatSignIn is the administration web apps' sign-in form, where every goal starts (the
// Manager's and the Host Manager's pages show it in their place), written three ways
// (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var tomcatSignIn = [3]string{
	`type "admin" into "Username", type "{{secret:tomcat_password}}" into "Password", click "Log In"`,
	`log in as admin / {{secret:tomcat_password}}`,
	`First log in on Tomcat's login page: put admin in the Username field and "{{secret:tomcat_password}}" in the Password field, then press the Log In button.`,
}

// tomcatText fills a phrasing in: {signin} is its way of signing in.
func tomcatText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", tomcatSignIn[i])
}

// TestHeldOutTomcat drives Debian's Apache Tomcat 10.1 — a real application nobody here
// wrote: the servlet container's own administration web apps, the Manager (start, stop,
// undeploy and deploy applications, expire their sessions) and the Host Manager (add and
// remove virtual hosts) — with everyday goals written three ways each, and no model. Each
// phrasing runs on a fresh instance (its own CATALINA_BASE with the seed's applications
// and hosts), starts at the Manager's or the Host Manager's page, signs in with a password
// the worker grants, and is judged twice: by the run's status and by Tomcat's own lists
// and files.
// go test -tags heldout -run 'TestHeldOutTomcat$' ./e2e/
func TestHeldOutTomcat(t *testing.T) {
	if !testenv.TomcatInstalled() {
		t.Skip("Tomcat is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_TOMCAT_PASSWORD="+testenv.TomcatPassword,
		`WEBAGENT_SECRETS={"tomcat_password": {"from": "env:WEBAGENT_TEST_TOMCAT_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(tomcatGoals)), make([][]string, len(tomcatGoals))
	for g, goal := range tomcatGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		tc := testenv.StartTomcat(t)
		return poolRun(t, s, names[g], i+1, tomcatText(p, i), tc.URL+"/"+tomcatGoals[g].app+"/html",
			"Tomcat's application and host lists and its files", func() string { return tomcatGoals[g].done(t, tc) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.TomcatPassword) {
			t.Errorf("Tomcat's password is in the history of %s", id)
		}
	})
}

// TestHeldOutTomcatJudge validates the harness without the agent: on a fresh instance the
// sign-in form and the pages the goals start from are there and every judge says "not
// done"; each goal's effect, made through the Manager's or Host Manager's own pages along
// the goal's path (signed in through the sign-in form, each form sent as the page writes
// it, its CSRF nonce with it), makes its judge say "done" and leaves the other judges at
// "not done"; a near miss of each leaves its judge at "not done"; and each phrasing, filled
// in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutTomcatJudge$' ./e2e/
func TestHeldOutTomcatJudge(t *testing.T) {
	if !testenv.TomcatInstalled() {
		t.Skip("Tomcat is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartTomcat(t)
	t.Logf("a fresh Tomcat and its CATALINA_BASE were made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	tomcatCheckFresh(t, fresh)
	for _, g := range tomcatGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := tomcatText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:tomcat_password}}", "")
			if !strings.Contains(text, tomcatSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.TomcatPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range tomcatGoals {
		t.Run(g.name, func(t *testing.T) {
			tc := testenv.StartTomcat(t)
			b := tc.Browser()
			b.SignIn(t, g.app)
			g.do(t, b)
			if why := g.done(t, tc); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range tomcatGoals {
				if o.name != g.name && o.done(t, tc) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			tc := testenv.StartTomcat(t)
			b := tc.Browser()
			b.SignIn(t, g.app)
			g.miss(t, b)
			if tc.Differs(t, tc.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in Tomcat's lists or files")
			}
			why := g.done(t, tc)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// tomcatCheckFresh checks what the goals rely on: the sign-in form in place of both web
// apps' pages, the Manager's Applications table with the seed's applications, their
// buttons and its Deploy form, the Host Manager's hosts and its Add Virtual Host form, and
// the state as seeded (browsing the pages changes none of it).
func tomcatCheckFresh(t *testing.T, tc *testenv.Tomcat) {
	for _, app := range []string{"manager", "host-manager"} {
		text := testenv.IcingaWebText(tc.Browser().Open(t, "/"+app+"/html"))
		for _, want := range []string{"Apache Tomcat", "Username", "Password"} {
			if !strings.Contains(text, want) {
				t.Errorf("/%s/html, before signing in, lacks %q: %s", app, want, text)
			}
		}
	}
	b := tc.Browser()
	b.SignIn(t, "manager")
	page := b.Page()
	text := testenv.IcingaWebText(page)
	for _, want := range []string{"Tomcat Web Application Manager", "Applications", "Path", "Display Name", "Running", "Sessions", "Commands",
		"with idle ≥", "minutes", "Deploy directory or WAR file located on server", "Context Path:", "WAR or Directory path:"} {
		if !strings.Contains(text, want) {
			t.Errorf("the Manager's page lacks %q: %s", want, text)
		}
	}
	for _, a := range testenv.TomcatSeedApps {
		if !strings.Contains(text, a.Path+" None specified "+a.Name+" ") {
			t.Errorf("the Manager's page lacks the row of %s (%s): %s", a.Path, a.Name, text)
		}
		command := map[bool]string{true: "stop", false: "start"}[a.Running]
		b.Form(t, command, a.Path)
		b.Form(t, "undeploy", a.Path)
	}
	for _, button := range []string{"Start", "Stop", "Undeploy", "Expire sessions", "Deploy"} {
		if !strings.Contains(page, `type="submit" value="`+button+`"`) {
			t.Errorf("the Manager's page has no %s button", button)
		}
	}
	b.Form(t, "expire", "/shop")
	b.Form(t, "deploy", "")
	b.SignIn(t, "host-manager")
	text = testenv.IcingaWebText(b.Page())
	for _, want := range []string{"Tomcat Virtual Host Manager", "Host name", "Host aliases", "stats.example.org stats", "status.example.org",
		"static.example.org cdn.example.org", "Add Virtual Host", "Name:", "Aliases:", "App base:"} {
		if !strings.Contains(text, want) {
			t.Errorf("the Host Manager's page lacks %q: %s", want, text)
		}
	}
	b.Form(t, "remove", "stats.example.org")
	b.Form(t, "add", "")
	if why := tc.Differs(t, tc.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := tc.Seed()
	if s["sessions"]["/shop"] != "some" || s["sessions"]["/shop-staging"] != "some" || s["app"]["/reports"] != "stopped docbase=reports" ||
		s["file"]["webapps/releases/"+tomcatRelease] == "" || s["host"]["stats.example.org"] != "stats" {
		t.Errorf("the seed lacks its sessions, its stopped application, its release or its virtual host: %v", s)
	}
}
