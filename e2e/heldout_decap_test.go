//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Decap CMS's admin page: its tests build only with -tags heldout,
// and TestHeldOutDecap is run once, at the end, against an agent nobody tuned to Decap
// CMS. TestHeldOutDecapJudge checks the harness alone, with no agent.

// TestHeldOutDecap drives npm's Decap CMS — a real application nobody here wrote: a
// Git-based headless CMS whose single-page admin app edits a static site's content through
// forms built from its config.yml, here a gardening blog's posts, authors and site
// settings, with its local backend (decap-server) committing each change to the site's
// git repository — with everyday goals written three ways each, and no model. Each
// phrasing runs on a fresh instance (its own seeded repository, decap-server and admin
// page), starts at the admin page, signs in with its Login button (the local backend has
// no accounts, so no secret is granted), and is judged twice: by the run's status and by
// the repository's files and git's status.
// go test -tags heldout -run 'TestHeldOutDecap$' ./e2e/
func TestHeldOutDecap(t *testing.T) {
	if !testenv.DecapInstalled() {
		t.Skip("Decap CMS is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(decapGoals)), make([][]string, len(decapGoals))
	for g, goal := range decapGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartDecap(t)
		return poolRun(t, s, names[g], i+1, p, w.URL, "the site's git repository",
			func() string { return decapGoals[g].done(t, w) })
	})
	poolReport(t, rows)
}

// TestHeldOutDecapJudge validates the harness without the agent: on a fresh instance the
// admin page, its configuration and bundle, and the entries the goals start from are there
// and every judge says "not done"; each goal's effect, made with the requests the admin
// page sends to decap-server (the entries listed and opened, then written or deleted as
// Publish now and Delete entry do), makes its judge say "done" and leaves the other judges
// at "not done"; a near miss of each leaves its judge at "not done"; and each phrasing
// reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutDecapJudge$' ./e2e/
func TestHeldOutDecapJudge(t *testing.T) {
	if !testenv.DecapInstalled() {
		t.Skip("Decap CMS is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartDecap(t)
	t.Logf("a fresh Decap CMS, its repository and decap-server were made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	decapCheckFresh(t, fresh)
	for _, g := range decapGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, text := range g.phrasings {
			if !strings.Contains(text, "Login") || strings.ContainsAny(text, "{}") || len(text) < 60 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range decapGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartDecap(t)
			b := w.Browser()
			b.Login(t)
			g.do(t, b)
			if why := g.done(t, w); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range decapGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
			if c := w.Commits(t); len(c) != 2 {
				t.Errorf("decap-server made %d commits, not one: %q", len(c)-1, c)
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartDecap(t)
			b := w.Browser()
			b.Login(t)
			g.miss(t, b)
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the repository")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// decapCheckFresh checks what the goals rely on: the admin page and the bundle it loads
// (served here, nothing from outside), its config.yml with the collections and fields the
// goals name, decap-server answering as the local git backend with the seed's posts,
// authors and settings, and the repository as seeded (one commit, nothing uncommitted;
// reading it through decap-server changes none of it).
func decapCheckFresh(t *testing.T, w *testenv.Decap) {
	b := w.Browser()
	if page := b.Open(t, "/admin/"); !strings.Contains(page, `<script src="decap-cms.js"></script>`) || strings.Contains(page, "https://") {
		t.Errorf("the admin page does not load the bundle served beside it: %s", page)
	}
	if js := b.Open(t, "/admin/decap-cms.js"); len(js) < 1_000_000 || !strings.Contains(js, `searchAll:"Search all"`) ||
		!strings.Contains(js, `publishNow:"Publish now"`) || !strings.Contains(js, `deleteEntry:"Delete entry"`) {
		t.Errorf("the CMS bundle is missing, or lacks the labels the goals name (%d bytes)", len(js))
	}
	cfg := b.Open(t, "/admin/config.yml")
	for _, want := range []string{"local_backend:", "url: " + w.APIURL, "label: Posts", "label: Authors", "label: Settings", "label: Site Settings",
		"label: Title", "label: Tags", "label_singular: Tag", "label: Draft", "label: Body", "label: Name", "label: Email", "label: Bio",
		"label: Site Title", "label: Tagline", "label: Description"} {
		if !strings.Contains(cfg, want) {
			t.Errorf("config.yml lacks %q", want)
		}
	}
	b.Login(t)
	var titles []string
	for _, e := range b.Entries(t, "content/posts", "md") {
		f, _ := testenv.DecapFields(e.Path, e.Raw)
		titles = append(titles, f["title"])
	}
	for _, want := range []string{"Spring Garden Tips", "Spring Garden Tour", "Summer Garden Tips", "Autumn Planting Guide",
		"Autumn Pruning Guide", "Composting for Beginners", "Compost Tea Recipes"} {
		if !strings.Contains(strings.Join(titles, "|"), want) {
			t.Errorf("decap-server does not list the post %q: %q", want, titles)
		}
	}
	if n := len(b.Entries(t, "content/authors", "yml")); n != len(testenv.DecapSeedAuthors) {
		t.Errorf("decap-server lists %d authors, not %d", n, len(testenv.DecapSeedAuthors))
	}
	if s := b.Entry(t, "data/settings.yml"); !strings.Contains(s.Raw, "site_title: Green Thumb Notes") {
		t.Errorf("the site settings are not the seed's: %q", s.Raw)
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if c := w.Commits(t); len(c) != 1 {
		t.Errorf("the fresh repository has %d commits, not one: %q", len(c), c)
	}
	seed := w.Seed()
	if seed["content/posts/autumn-planting-guide.md"]["draft"] != "false" || seed["content/posts/composting-for-beginners.md"]["tags"] != "compost, beginners" ||
		seed["data/settings.yml"]["site_title"] != "Green Thumb Notes" || seed["(git)"]["uncommitted"] != "" {
		t.Errorf("the seed is not as the goals expect: %v", seed)
	}
}
