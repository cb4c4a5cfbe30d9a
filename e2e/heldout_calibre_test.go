//go:build heldout

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on calibre's content server: its tests build only with -tags heldout,
// and TestHeldOutCalibre is run once, at the end, against an agent nobody tuned to calibre.
// TestHeldOutCalibreJudge checks the harness alone, with no agent.
//
// calibre's content server has no login page (with its users on, it asks for HTTP auth, a
// browser prompt rather than a page), so each instance lets 127.0.0.1 change its library
// with no sign-in, listens there alone, and no goal signs in: no password is granted.

// TestHeldOutCalibre drives Debian's calibre — a real application nobody here wrote: an
// e-book library manager whose content server's web interface browses, searches, edits
// and deletes the books of a library — with everyday goals written three ways each, and no
// model. Each phrasing runs on a fresh instance (its own library, seeded with nine books,
// and its own server), starts at the server's home page and is judged twice: by the run's
// status and by the library's metadata.db.
// go test -tags heldout -run 'TestHeldOutCalibre$' ./e2e/
func TestHeldOutCalibre(t *testing.T) {
	if !testenv.CalibreInstalled() {
		t.Skip("calibre is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(calibreGoals)), make([][]string, len(calibreGoals))
	for g, goal := range calibreGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		c := testenv.StartCalibre(t)
		return poolRun(t, s, names[g], i+1, p, c.URL+"/", "calibre's metadata.db",
			func() string { return calibreGoals[g].done(t, c) })
	})
	poolReport(t, rows)
}

// TestHeldOutCalibreJudge validates the harness without the agent: on a fresh instance the
// home page, the library, its books and the labels the goals name are there and every
// judge says "not done"; each goal's effect, made with the requests calibre's own pages
// send along the goal's path (the book list or its search loaded, the book's details, the
// editor's Apply changes or the delete's confirmation), makes its judge say "done" and
// leaves the other judges at "not done"; a near miss of each changes the library but
// leaves its judge at "not done"; and each phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutCalibreJudge$' ./e2e/
func TestHeldOutCalibreJudge(t *testing.T) {
	if !testenv.CalibreInstalled() {
		t.Skip("calibre is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartCalibre(t)
	t.Logf("a fresh calibre library was made, seeded and served in %s", time.Since(began).Round(time.Millisecond))
	calibreCheckFresh(t, fresh)
	for _, g := range calibreGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if !strings.Contains(p, testenv.CalibreLibrary) || strings.ContainsAny(p, "{}") || len(strings.Fields(p)) < 12 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
		}
	}
	for _, g := range calibreGoals {
		t.Run(g.name, func(t *testing.T) {
			c := testenv.StartCalibre(t)
			g.do(t, c.Browser())
			if why := g.done(t, c); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range calibreGoals {
				if o.name != g.name && o.done(t, c) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			c := testenv.StartCalibre(t)
			g.miss(t, c.Browser())
			if c.Differs(t, nil) == "" {
				t.Fatalf("the near miss changed nothing in metadata.db")
			}
			why := g.done(t, c)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// calibreCheckFresh checks what the goals rely on: the home page with the web interface's
// labels the goals name (its script is in the page), the one library, the book list with
// the seed's books as seeded, the search the last goal makes, and the storage as seeded
// (browsing changes none of it).
func calibreCheckFresh(t *testing.T, c *testenv.Calibre) {
	b := c.Browser()
	page := b.Open(t, "/")
	for _, want := range []string{"Choose the calibre library to browse", "Search for books", "Enter the search query",
		"Edit the metadata for this book", "Tap any field below to edit it", "Apply changes", "Delete this book", "Are you sure?"} {
		if !strings.Contains(page, want) {
			t.Errorf("the home page lacks %q", want)
		}
	}
	if libs := b.Libraries(t); len(libs) != 1 || libs[testenv.CalibreLibraryID] != testenv.CalibreLibrary {
		t.Errorf("the home page lists the libraries %v, not %s alone", libs, testenv.CalibreLibrary)
	}
	shown := b.Search(t, "")
	if len(shown) != len(testenv.CalibreSeedBooks) {
		t.Errorf("the book list shows %d books, not %d: %v", len(shown), len(testenv.CalibreSeedBooks), shown)
	}
	for _, book := range shown {
		seed := testenv.CalibreSeedBooks[book.ID-1]
		got := b.Details(t, book.ID)
		slices.Sort(got.Tags)
		if got.Title != seed.Title || !slices.Equal(got.Authors, seed.Authors) || !slices.Equal(got.Tags, seed.Tags) ||
			got.Series != seed.Series || got.Publisher != seed.Publisher || int(got.Rating) != seed.Rating {
			t.Errorf("book %d is %+v, not as seeded: %+v", book.ID, got, seed)
		}
	}
	var found []string
	for _, book := range b.Search(t, "Voss") {
		found = append(found, book.Title)
	}
	slices.Sort(found)
	if !slices.Equal(found, []string{"The Clockmaker's Apprentice", "The Clockmaker's Daughter"}) {
		t.Errorf("a search for Voss finds %q, not Elena Voss's two books", found)
	}
	if why := c.Differs(t, nil); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
}
