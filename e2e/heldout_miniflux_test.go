//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Miniflux's pages: its tests build only with -tags heldout, and
// TestHeldOutMiniflux is run once, at the end, against an agent nobody tuned to Miniflux.
// TestHeldOutMinifluxJudge checks the harness alone, with no agent.

// minifluxSignIn is Miniflux's sign-in form, the page every goal starts at, written three
// ways (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var minifluxSignIn = [3]string{
	`type "admin" into "Username", type "{{secret:miniflux_password}}" into "Password", click "Login"`,
	`sign in as admin with password {{secret:miniflux_password}} and hit Login`,
	`First log in: enter admin in the field labelled "Username" and "{{secret:miniflux_password}}" in the Password field, then click the Login button.`,
}

// minifluxText fills a phrasing in for the instance m: {signin} is its way of signing in,
// {feed} the address of the feed the instance's feed server serves and the seed does not
// subscribe to.
func minifluxText(phrasing string, i int, m *testenv.Miniflux) string {
	return strings.NewReplacer("{signin}", minifluxSignIn[i], "{feed}", m.FeedURL(testenv.MinifluxNewFeed.Path)).Replace(phrasing)
}

// TestHeldOutMiniflux drives Miniflux — a real application nobody here wrote: a
// minimalist RSS and Atom feed reader people host themselves, whose pages manage
// subscriptions and their categories, entries read and starred, settings and users — with
// everyday goals written three ways each, and no model. Each phrasing runs on a fresh
// instance (its own PostgreSQL cluster, its own Miniflux and feed server), starts at the
// sign-in page, signs in with a password the worker grants, and is judged twice: by the
// run's status and by Miniflux's database, read back with psql.
// go test -tags heldout -run 'TestHeldOutMiniflux$' ./e2e/
func TestHeldOutMiniflux(t *testing.T) {
	if !testenv.MinifluxInstalled() {
		t.Skip("Miniflux is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_MINIFLUX_PASSWORD="+testenv.MinifluxPassword,
		`WEBAGENT_SECRETS={"miniflux_password": {"from": "env:WEBAGENT_TEST_MINIFLUX_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(minifluxGoals)), make([][]string, len(minifluxGoals))
	for g, goal := range minifluxGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		m := testenv.StartMiniflux(t)
		return poolRun(t, s, names[g], i+1, minifluxText(p, i, m), m.URL, "Miniflux's database",
			func() string { return minifluxGoals[g].done(t, m) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.MinifluxPassword) {
			t.Errorf("Miniflux's password is in the history of %s", id)
		}
	})
}

// TestHeldOutMinifluxJudge validates the harness without the agent: on a fresh instance the
// sign-in page and the pages the goals start from are there and every judge says "not
// done"; each goal's effect, made through Miniflux's own pages along the goal's path
// (signed in through the sign-in form, each form sent as the page fills it, each scripted
// button's request as the page's script sends it), makes its judge say "done" and leaves
// the other judges at "not done"; a near miss of each leaves its judge at "not done"; and
// each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutMinifluxJudge$' ./e2e/
func TestHeldOutMinifluxJudge(t *testing.T) {
	if !testenv.MinifluxInstalled() {
		t.Skip("Miniflux is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartMiniflux(t)
	t.Logf("a fresh Miniflux, its PostgreSQL cluster and its feed server were made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	minifluxCheckFresh(t, fresh)
	for _, g := range minifluxGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := minifluxText(p, i, fresh)
			rest := strings.ReplaceAll(text, "{{secret:miniflux_password}}", "")
			if !strings.Contains(text, minifluxSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.MinifluxPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range minifluxGoals {
		t.Run(g.name, func(t *testing.T) {
			m := testenv.StartMiniflux(t)
			b := m.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, m); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range minifluxGoals {
				if o.name != g.name && o.done(t, m) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			m := testenv.StartMiniflux(t)
			b := m.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if m.Differs(t, m.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the database")
			}
			why := g.done(t, m)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// minifluxCheckFresh checks what the goals rely on: the sign-in form's fields, the menu
// once signed in, the feeds and categories the goals name with their Edit and Remove
// buttons, the entry to star, the settings' fields, the Users page's Add user, the feed
// server's feed to subscribe to (not yet subscribed to), and the database as seeded.
func minifluxCheckFresh(t *testing.T, m *testenv.Miniflux) {
	b := m.Browser()
	minifluxLacks(t, "the sign-in page", b.Open(t, m.URL), "Sign In", "Username", "Password", "Login")
	b.SignIn(t)
	minifluxLacks(t, "the menu", b.Page(), "Unread", "Starred", "Feeds", "Categories", "Settings", "Logout")
	feeds := b.ClickText(t, "Feeds", "")
	minifluxLacks(t, "Feeds", feeds, "Add feed", "Edit", "Remove", "Orbital Notes", "The Weekday Pantry", "Harbour City Gazette")
	minifluxLacks(t, "Add feed", b.ClickText(t, "Add feed", ""), "URL", "Category", "Science", "Find a feed")
	b.Open(t, "/feeds")
	b.ClickText(t, "Edit", "The Weekday Pantry")
	minifluxLacks(t, "The Weekday Pantry's Edit", b.Page(), "Category", "Cooking", "Title", "Update")
	b.Open(t, "/feeds")
	b.ClickText(t, "Orbital Notes", "")
	minifluxLacks(t, "the entry", b.ClickText(t, minifluxStarEntry, ""), minifluxStarEntry, "Star")
	b.ClickText(t, "Categories", "")
	minifluxLacks(t, "News's Edit", b.ClickText(t, "Edit", "News"), "Edit Category: News", "Title", "Update")
	minifluxLacks(t, "Settings", b.ClickText(t, "Settings", ""), "Entries per page", "Entry sorting", "Recent entries first", "Update", "Users")
	b.ClickText(t, "Users", "")
	minifluxLacks(t, "Add user", b.ClickText(t, "Add user", ""), "Username", "Password Confirmation", "Administrator", "Save")
	if b.Open(t, m.FeedURL(testenv.MinifluxNewFeed.Path)); !strings.Contains(b.Page(), "<title>"+testenv.MinifluxNewFeed.Title+"</title>") {
		t.Errorf("the feed server does not serve %s: %s", testenv.MinifluxNewFeed.Title, b.Page())
	}
	if why := m.Differs(t, m.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if !m.PasswordIs(t, "admin", testenv.MinifluxPassword) || !m.PasswordIs(t, "emma", testenv.MinifluxSeedPassword) || m.PasswordIs(t, "emma", "wrong-password") {
		t.Errorf("admin's or emma's password is not the seed's")
	}
	s := m.Seed()
	if !strings.Contains(s["user"]["admin"], `"is_admin": true`) || !strings.Contains(s["user"]["admin"], `"entries_per_page": 100`) ||
		len(s["entry"]) != 12 || s["category"]["admin>News"] == "" {
		t.Errorf("the seed lacks its administrator, its settings, its entries or its categories: %v", s)
	}
}

// minifluxLacks fails the test for each text the page (as a person reads it) lacks.
func minifluxLacks(t *testing.T, what, page string, texts ...string) {
	t.Helper()
	text := testenv.MinifluxText(page)
	for _, want := range texts {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q: %s", what, want, text)
		}
	}
}
