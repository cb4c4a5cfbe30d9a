//go:build heldout

package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Glewlwyd's administration web app: its tests build only with
// -tags heldout, and TestHeldOutGlewlwyd is run once, at the end, against an agent nobody
// tuned to Glewlwyd. TestHeldOutGlewlwydJudge checks the harness alone, with no agent.

// glewlwydSignIn is how every goal signs in from the admin page, where it starts: the
// page's "Log in" button leads to the sign-in page, whose OK leads to a page with a
// Continue back to the admin page. Written three ways (phrasing i uses the i-th); the
// password is granted by the worker and is in no goal.
var glewlwydSignIn = [3]string{
	`click "Log in", type "admin" into "Login", type "{{secret:glewlwyd_password}}" into "Password", click "OK", click "Continue"`,
	`sign in with the Log in button at the top right as admin / {{secret:glewlwyd_password}} (OK, then Continue back to the admin page)`,
	`First sign in: press the Log in button (the icon at the top right of the admin page), put admin in the Login field and "{{secret:glewlwyd_password}}" in the field labelled Password, hit OK and then click Continue to get back to the administration page.`,
}

// glewlwydSecrets are the placeholders of the worker's grants: admin's password and the
// new user's.
var glewlwydSecrets = []string{"{{secret:glewlwyd_password}}", "{{secret:glewlwyd_user_password}}"}

// glewlwydText fills a phrasing in: {signin} is its way of signing in.
func glewlwydText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", glewlwydSignIn[i])
}

// TestHeldOutGlewlwyd drives Debian's Glewlwyd — a real application nobody here wrote: a
// single sign-on server (OAuth2, OpenID Connect), used here through its administration web
// app for its users, clients and scopes — with everyday goals written three ways each, and
// no model. Each phrasing runs on a fresh instance (its own SQLite database, folder and
// port), starts at the admin page, signs in with a password the worker grants, and is
// judged twice: by the run's status and by Glewlwyd's database.
// go test -tags heldout -run 'TestHeldOutGlewlwyd$' ./e2e/
func TestHeldOutGlewlwyd(t *testing.T) {
	if !testenv.GlewlwydInstalled() {
		t.Skip("Glewlwyd is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_GLEWLWYD_PASSWORD="+testenv.GlewlwydPassword,
		"WEBAGENT_TEST_GLEWLWYD_USER_PASSWORD="+testenv.GlewlwydUserPassword,
		`WEBAGENT_SECRETS={"glewlwyd_password": {"from": "env:WEBAGENT_TEST_GLEWLWYD_PASSWORD", "sites": ["127.0.0.1"]}, `+
			`"glewlwyd_user_password": {"from": "env:WEBAGENT_TEST_GLEWLWYD_USER_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(glewlwydGoals)), make([][]string, len(glewlwydGoals))
	for g, goal := range glewlwydGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartGlewlwyd(t)
		return poolRun(t, s, names[g], i+1, glewlwydText(p, i), w.URL, "Glewlwyd's database",
			func() string { return glewlwydGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		for _, secret := range []string{testenv.GlewlwydPassword, testenv.GlewlwydUserPassword} {
			if strings.Contains(text, secret) {
				t.Errorf("a password Glewlwyd's goals use is in the history of %s", id)
			}
		}
	})
}

// TestHeldOutGlewlwydJudge validates the harness without the agent: on a fresh instance
// the admin page, the sign-in page, the web app's scripts and labels are there, the seed's
// users, clients and scopes are, and every judge says "not done"; each goal's effect, made
// through the requests the admin app's pages send (signed in as its sign-in page does),
// makes its judge say "done" and leaves the other judges at "not done"; a near miss of each
// leaves its judge at "not done"; and each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutGlewlwydJudge$' ./e2e/
func TestHeldOutGlewlwydJudge(t *testing.T) {
	if !testenv.GlewlwydInstalled() {
		t.Skip("Glewlwyd is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartGlewlwyd(t)
	t.Logf("a fresh Glewlwyd was made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	glewlwydCheckFresh(t, fresh)
	for _, g := range glewlwydGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := glewlwydText(p, i)
			rest := text
			for _, s := range glewlwydSecrets {
				rest = strings.ReplaceAll(rest, s, "")
			}
			if !strings.Contains(text, glewlwydSignIn[i]) || strings.ContainsAny(rest, "{}") ||
				strings.Contains(text, testenv.GlewlwydPassword) || strings.Contains(text, testenv.GlewlwydUserPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range glewlwydGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartGlewlwyd(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, w); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range glewlwydGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartGlewlwyd(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if w.Differs(t, w.Seed()) == "" {
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

// glewlwydCheckFresh checks what the goals rely on: the admin page and its "Log in", the
// sign-in page, the web app's scripts and its English labels (the menu, the dialogs'
// fields and buttons), the seed's users, clients and scopes as the admin app lists them,
// admin's password (and not the package's default), and the database as seeded (signing in
// and listing change none of it).
func glewlwydCheckFresh(t *testing.T, w *testenv.Glewlwyd) {
	b := w.Browser()
	if page := b.Open(t, ""); !strings.Contains(page, "<title>Glewlwyd admin</title>") || !strings.Contains(page, `src="admin.js"`) {
		t.Errorf("the admin page is not Glewlwyd's: %s", testenv.GlewlwydText(page))
	}
	if page := b.Open(t, "login.html"); !strings.Contains(page, `src="login.js"`) {
		t.Errorf("the sign-in page is not Glewlwyd's: %s", testenv.GlewlwydText(page))
	}
	for _, asset := range []string{"admin.js", "login.js", "js/jquery.min.js", "css/bootstrap.min.css", "fonts/forkawesome-webfont.woff2"} {
		if len(b.Open(t, asset)) < 10000 {
			t.Errorf("%s, which the pages load, is missing or short", asset)
		}
	}
	if conf := b.Open(t, "config.json"); !strings.Contains(conf, `"GlewlwydUrl": "./"`) || !strings.Contains(conf, `"AdminUrl": "index.html"`) {
		t.Errorf("the web app's config.json does not point at the instance's own API: %s", conf)
	}
	labels := b.Open(t, "locales/en/translations.json")
	for _, want := range []string{`"Log in"`, `"Login"`, `"Continue"`, `"Add a user"`, `"Add a client"`, `"Search pattern"`, `"Redirect URIs"`,
		`"E-mail address"`, `"Enter password"`, `"Confirm password"`, `"Display name"`, `"Add an element"`, `"Scopes"`, `"Clients"`} {
		if !strings.Contains(labels, want) {
			t.Errorf("the web app's English labels lack %s", want)
		}
	}
	b.SignIn(t)
	var list []map[string]any
	b.Call(t, http.MethodGet, "user?offset=0&limit=20", nil, &list)
	if len(list) != len(testenv.GlewlwydSeedUsers)+1 {
		t.Errorf("the user list shows %d users, not %d: %v", len(list), len(testenv.GlewlwydSeedUsers)+1, list)
	}
	if got := b.SearchUsers(t, "dav"); len(got) != 4 {
		t.Errorf("searching the users for dav finds %d, not dave, davina, david and davey: %v", len(got), got)
	}
	b.Call(t, http.MethodGet, "client?offset=0&limit=20", nil, &list)
	if len(list) != len(testenv.GlewlwydSeedClients) {
		t.Errorf("the client list shows %d clients, not %d: %v", len(list), len(testenv.GlewlwydSeedClients), list)
	}
	b.Call(t, http.MethodGet, "scope?offset=0&limit=20", nil, &list)
	if len(list) != len(testenv.GlewlwydSeedScopes)+3 {
		t.Errorf("the scope list shows %d scopes, not %d: %v", len(list), len(testenv.GlewlwydSeedScopes)+3, list)
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if !w.PasswordIs(t, "admin", testenv.GlewlwydPassword) || w.PasswordIs(t, "admin", "password") || !w.PasswordIs(t, "dave", testenv.GlewlwydSeedPassword) {
		t.Errorf("admin's or dave's password is not the seed's")
	}
	s := w.Seed()
	if s.Fields("user", "davina")["scope"] != "calendar,g_profile,mail" || s.Fields("user", "erik")["enabled"] != "0" ||
		s.Fields("client", "wiki")["redirect_uri"] != "https://wiki.example.org/callback" || s.Fields("scope", "mail")["display_name"] != "E-mail" {
		t.Errorf("the seed lacks davina's scopes, erik disabled, wiki's redirect URI or the scope mail: %v", s)
	}
}
