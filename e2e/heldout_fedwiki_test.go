//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on the Federated Wiki's own pages: its tests build only with -tags
// heldout, and TestHeldOutFedwiki is run once, at the end, against an agent nobody tuned to
// the Federated Wiki. TestHeldOutFedwikiJudge checks the harness alone, with no agent.

// fedwikiSignIn is how the site's owner signs in, where every goal starts: the padlock in
// the footer opens a dialog that asks for the reclaim code, and the footer's "wiki" then
// turns editing on (it shows a check mark while it is on). It is written three ways
// (phrasing i uses the i-th); the reclaim code is granted by the worker and is in no goal.
var fedwikiSignIn = [3]string{
	`click the "Reclaim this Wiki" lock in the footer, type "{{secret:fedwiki_password}}" into the reclaim code box, click "Submit", then click "wiki" in the footer so that a ✔ shows after it`,
	`sign in with the padlock at the bottom left (reclaim code {{secret:fedwiki_password}}, then Submit) and turn editing on by clicking wiki in the footer until it shows a check mark`,
	`First unlock the wiki: hit the little lock icon in the bar at the bottom of the window, enter "{{secret:fedwiki_password}}" as the reclaim code and press Submit. Then click the word wiki in that bar so a check mark appears next to it, which turns editing on.`,
}

// fedwikiText fills a phrasing in: {signin} is its way of signing in.
func fedwikiText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", fedwikiSignIn[i])
}

// TestHeldOutFedwiki drives the Federated Wiki — a real application nobody here wrote: a
// wiki whose pages are edited in place, paragraph by paragraph, used here by its site's
// owner (paragraphs written, edited, moved and deleted, a list changed, a page made from a
// link, a page found with the search box) — with everyday goals written three ways each,
// and no model. Each phrasing runs on a fresh instance (its own data folder), starts at the
// welcome page, signs in with a reclaim code the worker grants, and is judged twice: by
// the run's status and by the wiki's page files.
// go test -tags heldout -run 'TestHeldOutFedwiki$' ./e2e/
func TestHeldOutFedwiki(t *testing.T) {
	if !testenv.FedwikiInstalled() {
		t.Skip("the Federated Wiki is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_FEDWIKI_PASSWORD="+testenv.FedwikiPassword,
		`WEBAGENT_SECRETS={"fedwiki_password": {"from": "env:WEBAGENT_TEST_FEDWIKI_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(fedwikiGoals)), make([][]string, len(fedwikiGoals))
	for g, goal := range fedwikiGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartFedwiki(t)
		return poolRun(t, s, names[g], i+1, fedwikiText(p, i), w.URL, "the wiki's page files",
			func() string { return fedwikiGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.FedwikiPassword) {
			t.Errorf("the Federated Wiki's reclaim code is in the history of %s", id)
		}
	})
}

// TestHeldOutFedwikiJudge validates the harness without the agent: on a fresh instance
// the welcome page, the pages the goals name and the controls they use are there and every
// judge says "not done"; each goal's effect, made through the wiki's own requests along the
// goal's path (signed in with the reclaim code, each change one action of the page's
// journal as the client sends it), makes its judge say "done" and leaves the other judges
// at "not done"; a near miss of each leaves its judge at "not done"; and each phrasing,
// filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutFedwikiJudge$' ./e2e/
func TestHeldOutFedwikiJudge(t *testing.T) {
	if !testenv.FedwikiInstalled() {
		t.Skip("the Federated Wiki is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartFedwiki(t)
	t.Logf("a fresh Federated Wiki was made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	fedwikiCheckFresh(t, fresh)
	for _, g := range fedwikiGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := fedwikiText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:fedwiki_password}}", "")
			rest = strings.NewReplacer("[[", "", "]]", "").Replace(rest)
			if !strings.Contains(text, fedwikiSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.FedwikiPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range fedwikiGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartFedwiki(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, w); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range fedwikiGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartFedwiki(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the page files")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// fedwikiCheckFresh checks what the goals rely on: the welcome page and its links, the
// footer's search box and security slot, the client's controls (the padlock's dialog, the
// "wiki" switch, the add paragraph button, the factory's Double-Click to Edit, a missing
// page's create button), every seed page as the client reads it, the scripts and styles
// the page loads (all from the wiki itself), and the page files as seeded (reading the
// pages changes none of them).
func fedwikiCheckFresh(t *testing.T, w *testenv.Fedwiki) {
	b := w.Browser()
	welcome := b.Open(t, "/view/welcome-visitors")
	for _, want := range []string{"<section class='main'>", `id='security'`, `placeholder="Search"`, "Wiki by:", testenv.FedwikiOwner,
		`isClaimed = ('true' === "true")`, `isOwner = ('false' === "true")`} {
		if !strings.Contains(welcome, want) {
			t.Errorf("the welcome page lacks %s", want)
		}
	}
	scripts := map[string][]string{
		"/security/security.js": {"Reclaim this Wiki", "Please enter your reclaim code.", ">Submit</button>", "/auth/reclaim/"},
		"/client.js":            {"add paragraph", "Double-Click to Edit", `<button class="create">create</button> new blank page`, "wiki <span class=editEnable>", "input.search"},
	}
	for path, wants := range scripts {
		body := b.Open(t, path)
		for _, want := range wants {
			if !strings.Contains(body, want) {
				t.Errorf("%s lacks %q", path, want)
			}
		}
	}
	for _, asset := range []string{"/style/style.css", "/js/jquery-4.0.0.js", "/js/jquery-ui/1.14.2/jquery-ui.min.js", "/js/underscore-min.js",
		"/favicon.png", "/plugins/markdown/markdown.js", "/system/factories.json"} {
		if body := b.Open(t, asset); len(body) < 300 {
			t.Errorf("%s, which the pages load, is missing or empty", asset)
		}
	}
	for slug, p := range testenv.FedwikiSeed {
		page := b.Open(t, "/"+slug+".json")
		for _, want := range append([]string{`"title":"` + p.Title + `"`}, p.Items[len(p.Items)-1].Text) {
			if !strings.Contains(strings.ReplaceAll(page, `\n`, "\n"), want) {
				t.Errorf("%s.json lacks %q", slug, want)
			}
		}
	}
	if sitemap := b.Open(t, "/system/sitemap.json"); !strings.Contains(sitemap, `"title":"Shed Key Rota"`) {
		t.Errorf("the sitemap the search box reads lacks Shed Key Rota: %s", sitemap)
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if why := w.Seed().Diff(testenv.FedwikiSeed); why != "" {
		t.Errorf("the seed is not the seed the goals name: %s", why)
	}
}
