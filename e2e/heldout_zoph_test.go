//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Zoph: its tests build only with -tags heldout, and TestHeldOutZoph
// is run once, at the end, against an agent nobody tuned to Zoph. TestHeldOutZophJudge
// checks the harness alone, with no agent.

// zophSignIn is Zoph's sign-in form, where every goal starts, written three ways (phrasing
// i uses the i-th); the password is granted by the worker and is in no goal.
var zophSignIn = [3]string{
	`type "admin" into "username", type "{{secret:zoph_password}}" into "password", click "logon"`,
	`log on as admin with password {{secret:zoph_password}}`,
	`First sign in to Zoph: put admin in the username box and "{{secret:zoph_password}}" in the password box, then press the logon button.`,
}

// zophText fills a phrasing in: {signin} is its way of signing in.
func zophText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", zophSignIn[i])
}

// TestHeldOutZoph drives Debian's Zoph — a real application nobody here wrote: a web photo
// organiser that keeps a family's photos with their albums, categories, people, places,
// ratings and descriptions — with everyday goals written three ways each, and no model.
// Each phrasing runs on a fresh instance (its own MariaDB server, copy of Zoph and image
// folder), starts at the sign-in page, signs in with a password the worker grants, and is
// judged twice: by the run's status and by Zoph's database.
// go test -tags heldout -run 'TestHeldOutZoph$' ./e2e/
func TestHeldOutZoph(t *testing.T) {
	if !testenv.ZophInstalled() {
		t.Skip("Zoph is not installed: run `deploy/setup.sh zoph`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_ZOPH_PASSWORD="+testenv.ZophPassword,
		`WEBAGENT_SECRETS={"zoph_password": {"from": "env:WEBAGENT_TEST_ZOPH_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(zophGoals)), make([][]string, len(zophGoals))
	for g, goal := range zophGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		z := testenv.StartZoph(t)
		return poolRun(t, s, names[g], i+1, zophText(p, i), z.URL+"/logon.php", "Zoph's database",
			func() string { return zophGoals[g].done(t, z) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.ZophPassword) {
			t.Errorf("Zoph's password is in the history of %s", id)
		}
	})
}

// TestHeldOutZophJudge validates the harness without the agent: on a fresh instance the
// sign-in page and the pages the goals go through are there with the controls they name,
// and every judge says "not done"; each goal's effect, made through Zoph's own pages along
// the goal's path (signed in through the sign-in form, each link of the action bar
// followed, each form sent as the page fills it), makes its judge say "done" and leaves
// the other judges at "not done"; a near miss of each leaves its judge at "not done"; and
// each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutZophJudge$' ./e2e/
func TestHeldOutZophJudge(t *testing.T) {
	if !testenv.ZophInstalled() {
		t.Skip("Zoph is not installed: run `deploy/setup.sh zoph`")
	}
	began := time.Now()
	fresh := testenv.StartZoph(t)
	t.Logf("a fresh Zoph and its MariaDB server were made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	zophCheckFresh(t, fresh)
	for _, g := range zophGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := zophText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:zoph_password}}", "")
			if !strings.Contains(text, zophSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.ZophPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range zophGoals {
		t.Run(g.name, func(t *testing.T) {
			z := testenv.StartZoph(t)
			b := z.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, z); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, other := range zophGoals {
				if other.name != g.name && other.done(t, z) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, other.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			z := testenv.StartZoph(t)
			b := z.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if z.Differs(t, nil) == "" {
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

// zophCheckFresh checks what the goals rely on: the sign-in form, the menu once signed in,
// each page a goal goes through with the links and controls it names, and the storage as
// seeded (browsing the pages changes none of it).
func zophCheckFresh(t *testing.T, z *testenv.Zoph) {
	b := z.Browser()
	raw := b.Open(t, "/logon.php")
	for _, want := range []string{`name="uname"`, `name="pword"`, `value="logon"`, `<label for="uname">username</label>`, `<label for="pword">password</label>`} {
		if !strings.Contains(raw, want) {
			t.Errorf("the sign-in page lacks %s", want)
		}
	}
	b.SignIn(t)
	pages := []struct {
		path  string
		wants []string
	}{
		{"/zoph.php", []string{"albums", "categories", "people", "places", "photos", "prefs", "logout"}},
		{"/album.php", []string{"Holidays", "Family Events", "Best of 2022"}},
		{"/album.php?album_id=" + b.ID(t, "albums", "album_id", "album", "Holidays"), []string{"new", "Tuscany 2023", "Brittany 2022"}},
		{"/album.php?album_id=" + b.ID(t, "albums", "album_id", "album", "Family Events"), []string{"Summer Camp 2022", "Summer Camp 2023"}},
		{"/album.php?album_id=" + b.ID(t, "albums", "album_id", "album", zophTuscany), []string{"8 photos", "delete"}},
		{"/album.php?album_id=" + b.ID(t, "albums", "album_id", "album", zophBrittany), []string{"6 photos"}},
		{"/category.php", []string{"Food", "Landscapes"}},
		{"/person.php?_action=people", []string{"Anna Berger", "Paul Keller"}},
		{"/person.php?_action=new", []string{"first name", "last name", "insert"}},
		{"/place.php", []string{"Italy", "France"}},
		{"/place.php?_action=new&parent_place_id=" + b.ID(t, "places", "place_id", "title", "Italy"), []string{"title", "city", "country", "submit"}},
		{"/album.php?_action=new&parent_album_id=1", []string{"Album name", "Parent album", "insert"}},
		{"/category.php?_action=edit&category_id=" + b.ID(t, "categories", "category_id", "category", zophCategory), []string{"Category name", "update"}},
		{"/admin.php", []string{"config", "users"}},
		{"/config.php", []string{"Title", "submit"}},
		{"/photo.php?photo_id=" + b.ID(t, "photos", "photo_id", "title", zophRated), []string{zophRated, "not rated", "rate", "edit"}},
		{"/photo.php?_action=edit&photo_id=" + b.ID(t, "photos", "photo_id", "title", zophPicnic), []string{"description", "albums", "update"}},
	}
	for _, p := range pages {
		page := b.Open(t, p.path)
		text := testenv.ZophText(page)
		for _, want := range p.wants {
			if !strings.Contains(text, want) && !strings.Contains(page, `value="`+want+`"`) {
				t.Errorf("%s lacks %q: %s", p.path, want, text)
			}
		}
	}
	for _, asset := range []string{"/css.php", "/js/util.js", "/js/autocomplete.js", "/templates/default/images/icons/favicon.png",
		"/image.php?photo_id=1&type=thumb", "/image.php?photo_id=1&type=mid"} {
		if len(b.Open(t, asset)) < 200 {
			t.Errorf("%s, which the pages load, is missing or empty", asset)
		}
	}
	if why := z.Differs(t, nil); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := z.Seed()
	if s["albums"]["Tuscany 2023"]["parent"] != "Holidays" || s["places"]["Siena"]["country"] != "Italy" || s["conf"]["interface.title"]["value"] != "Zoph" ||
		s["photo_albums"]["IMG_2203.jpg > Best of 2023"] == nil || s["photo_people"]["IMG_2204.jpg > Paul Keller"] == nil {
		t.Errorf("the seed lacks an album's parent, a place's country, a preference or a photo's album or person: %v", s)
	}
}
