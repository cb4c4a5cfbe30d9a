//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Ghost's admin: its tests build only with -tags heldout, and
// TestHeldOutGhost is run once, at the end, against an agent nobody tuned to Ghost.
// TestHeldOutGhostJudge checks the harness alone, with no agent.

// ghostSignIn is the admin's sign-in page, where every goal starts (/ghost/ shows it to a
// visitor), written three ways (phrasing i uses the i-th); the password is granted by the
// worker and is in no goal.
var ghostSignIn = [3]string{
	`type "olivia@example.com" into "Email address", type "{{secret:ghost_password}}" into "Password", click "Sign in"`,
	`sign in as olivia@example.com with the password {{secret:ghost_password}}`,
	`First sign in to the Ghost admin: put olivia@example.com in the Email address field and "{{secret:ghost_password}}" in the Password field, then hit the Sign in button.`,
}

// ghostText fills a phrasing in: {signin} is its way of signing in.
func ghostText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", ghostSignIn[i])
}

// TestHeldOutGhost drives npm's Ghost — a real application nobody here wrote: a publishing
// platform, used here through its admin at /ghost (posts and their tags, the editor and its
// publish flow, tags, staff and their invitations, the site's settings) — with everyday
// goals written three ways each, and no model. Each phrasing runs on a fresh instance (its
// own folder, SQLite database and port), starts at the admin's sign-in page, signs in with
// a password the worker grants, and is judged twice: by the run's status and by Ghost's
// database.
// go test -tags heldout -run 'TestHeldOutGhost$' ./e2e/
func TestHeldOutGhost(t *testing.T) {
	if !testenv.GhostInstalled() {
		t.Skip("Ghost is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_GHOST_PASSWORD="+testenv.GhostPassword,
		`WEBAGENT_SECRETS={"ghost_password": {"from": "env:WEBAGENT_TEST_GHOST_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(ghostGoals)), make([][]string, len(ghostGoals))
	for g, goal := range ghostGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartGhost(t)
		return poolRun(t, s, names[g], i+1, ghostText(p, i), w.URL, "Ghost's database",
			func() string { return ghostGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.GhostPassword) {
			t.Errorf("Ghost's password is in the history of %s", id)
		}
	})
}

// TestHeldOutGhostJudge validates the harness without the agent: on a fresh instance the
// sign-in page, the admin's pages and the seed the goals name are there and every judge
// says "not done"; each goal's effect, made through the Admin API requests the admin's
// pages send (signed in as its sign-in form does), makes its judge say "done" and leaves
// the other judges at "not done"; a near miss of each leaves its judge at "not done"; and
// each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutGhostJudge$' ./e2e/
func TestHeldOutGhostJudge(t *testing.T) {
	if !testenv.GhostInstalled() {
		t.Skip("Ghost is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartGhost(t)
	t.Logf("a fresh Ghost was made, started, set up and seeded in %s", time.Since(began).Round(time.Millisecond))
	ghostCheckFresh(t, fresh)
	for _, g := range ghostGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := ghostText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:ghost_password}}", "")
			if !strings.Contains(text, ghostSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.GhostPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range ghostGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartGhost(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, w); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range ghostGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartGhost(t)
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

// ghostCheckFresh checks what the goals rely on: the admin's page and its sign-in form,
// the scripts it loads (the editor among them, served by Ghost itself), the seed's posts,
// drafts, tags, staff and site title as the Admin API shows them to the admin's pages, and
// the database as seeded (reading the pages changes none of it).
func ghostCheckFresh(t *testing.T, g *testenv.Ghost) {
	b := g.Browser()
	admin := b.Page(t, "/ghost/")
	for _, want := range []string{"ghost-admin/config/environment", "koenig-lexical.umd.js", "assets/"} {
		if !strings.Contains(admin, want) {
			t.Errorf("the admin's page lacks %s", want)
		}
	}
	for _, asset := range []string{"/ghost/assets/koenig-lexical/koenig-lexical.umd.js"} {
		if len(b.Page(t, asset)) < 10000 {
			t.Errorf("%s, which the editor loads, is missing or empty", asset)
		}
	}
	b.SignIn(t)
	var site struct {
		Site struct{ Title string } `json:"site"`
	}
	b.Get(t, "/site/", &site)
	if site.Site.Title != testenv.GhostSiteTitle {
		t.Errorf("the site's title is %q, not %q", site.Site.Title, testenv.GhostSiteTitle)
	}
	s := g.Seed()
	for _, p := range []string{"Ferry Schedule Changes for Winter", "Ferry Fares Rise in January", "New Bakery Opens on Main Street",
		"Why We Need a Bigger Library", "Lighthouse Tours Start in May", "Lighthouse Restoration Update"} {
		if s["posts"][p+" (post)"] == nil {
			t.Errorf("the seed lacks the post %q", p)
		}
		b.Post(t, "posts", p)
	}
	if s["posts"]["Ferry Schedule Changes for Winter (post)"]["status"] != "published" ||
		s["posts"]["Lighthouse Tours Start in May (post)"]["status"] != "draft" ||
		s["posts"]["New Bakery Opens on Main Street (post)"]["tags"] != "Food & Drink" {
		t.Errorf("the seed's posts are not as the goals say: %v", s["posts"])
	}
	if s["tags"]["Local Events"] == nil || s["tags"][ghostNewTag] != nil || len(s["invites"]) != 0 ||
		s["users"]["marcus.bell@example.com"]["roles"] != "Editor" || s["settings"]["title"]["value"] != testenv.GhostSiteTitle {
		t.Errorf("the seed's tags, staff, invitations or title are not as the goals say: %v %v %v", s["tags"], s["users"], s["invites"])
	}
	if why := g.Differs(t, g.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
}
