//go:build heldout

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Tryton's web client: its tests build only with -tags heldout, and
// TestHeldOutTryton is run once, at the end, against an agent nobody tuned to Tryton.
// TestHeldOutTrytonJudge checks the harness alone, with no agent.

// trytonSignIn is the web client's Login dialog, where every goal starts (the page opens
// with it): the user name first, then the password the server asks for in a second
// dialog; written three ways (phrasing i uses the i-th). The password is granted by the
// worker and is in no goal.
var trytonSignIn = [3]string{
	`type "admin" into "User name", click "Login", type "{{secret:tryton_password}}" into "Password for admin", click "OK"`,
	`sign in as admin: enter admin as the User name and press Login, then put {{secret:tryton_password}} in the box that asks "Password for admin" and hit OK`,
	`First log in to Tryton: type admin in the field labelled User name, click the Login button, and when it asks for the password, enter "{{secret:tryton_password}}" and press OK.`,
}

// trytonText fills a phrasing in: {signin} is its way of signing in.
func trytonText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", trytonSignIn[i])
}

// TestHeldOutTryton drives Debian's Tryton 6.0 — a real application nobody here wrote: the
// server of the Tryton business suite with its web client, sao, and its party and product
// modules — with everyday goals written three ways each, and no model. Each phrasing runs
// on a fresh instance (its own SQLite database and server), starts at the web client's
// page, signs in with a password the worker grants, and is judged twice: by the run's
// status and by Tryton's database.
// go test -tags heldout -run 'TestHeldOutTryton$' ./e2e/
func TestHeldOutTryton(t *testing.T) {
	if !testenv.TrytonInstalled() {
		t.Skip("Tryton is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_TRYTON_PASSWORD="+testenv.TrytonPassword,
		`WEBAGENT_SECRETS={"tryton_password": {"from": "env:WEBAGENT_TEST_TRYTON_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(trytonGoals)), make([][]string, len(trytonGoals))
	for g, goal := range trytonGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartTryton(t)
		return poolRun(t, s, names[g], i+1, trytonText(p, i), w.URL, "Tryton's database",
			func() string { return trytonGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.TrytonPassword) {
			t.Errorf("Tryton's password is in the history of %s", id)
		}
	})
}

// TestHeldOutTrytonJudge validates the harness without the agent: on a fresh instance the
// web client's page, its Login dialog and the menus, forms and records the goals name are
// there and every judge says "not done"; each goal's effect, made through the JSON-RPC
// requests sao sends (signed in as its Login dialog signs in), makes its judge say "done"
// and leaves the other judges at "not done"; a near miss of each leaves its judge at "not
// done"; and each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutTrytonJudge$' ./e2e/
func TestHeldOutTrytonJudge(t *testing.T) {
	if !testenv.TrytonInstalled() {
		t.Skip("Tryton is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartTryton(t)
	t.Logf("a fresh Tryton was made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	trytonCheckFresh(t, fresh)
	for _, g := range trytonGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := trytonText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:tryton_password}}", "")
			if !strings.Contains(text, trytonSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.TrytonPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range trytonGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartTryton(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, w); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range trytonGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartTryton(t)
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

// trytonCheckFresh checks what the goals rely on: the web client's page and files with its
// Login dialog and the server's ask for the password, the menus, the forms' labels, the
// searches the goals make, the Preferences dialog, and the database as seeded (reading
// changes none of it).
func trytonCheckFresh(t *testing.T, w *testenv.Tryton) {
	b := w.Browser()
	if page := b.Open(t, ""); !strings.Contains(page, "<title>Tryton</title>") || !strings.Contains(page, "dist/tryton-sao") {
		t.Errorf("the web client's page is not sao's: %.300s", page)
	}
	js := b.Open(t, "dist/tryton-sao.min.js")
	for _, want := range []string{"'User name'", "'Database'", `"Login"`, "'OK'", "'Preferences'"} {
		if !strings.Contains(js, strings.ReplaceAll(want, "'", `"`)) && !strings.Contains(js, want) {
			t.Errorf("the web client lacks the text %s", want)
		}
	}
	for _, asset := range []string{"dist/tryton-sao.min.css", "bower_components/jquery/dist/jquery.min.js", "bower_components/bootstrap/dist/js/bootstrap.min.js"} {
		if len(b.Open(t, asset)) < 1000 {
			t.Errorf("%s, which the page loads, is missing or empty", asset)
		}
	}
	b.SignIn(t)
	menus := b.Names(t, "ir.ui.menu")
	for _, want := range []string{"Party / Parties", "Product / Products", "Administration / Users / Users", "Party", "Product", "Administration"} {
		if !slices.Contains(menus, want) {
			t.Errorf("the menu lacks %q: %v", want, menus)
		}
	}
	views := []struct {
		model, kind string
		wants       []string
	}{
		{"party.party", "form", []string{"Name", "Code", "Active", "Addresses", "Contact Mechanisms", "Categories", "General"}},
		{"party.party", "tree", []string{"Code", "Name"}},
		{"party.address", "form", []string{"Street", "Postal Code", "City", "Country", "Building Name"}},
		{"product.template", "form", []string{"Name", "Default UOM", "List Price", "Cost Price", "Variants"}},
		{"res.user", "form", []string{"Name", "Login", "Active", "Access Permissions", "Groups"}},
	}
	for _, v := range views {
		labels := b.View(t, v.model, v.kind)
		for _, want := range v.wants {
			if !slices.Contains(labels, want) {
				t.Errorf("the %s view of %s lacks %q: %v", v.kind, v.model, want, labels)
			}
		}
	}
	if labels := b.PreferencesView(t); !slices.Contains(labels, "Name") || !slices.Contains(labels, "Email") {
		t.Errorf("the Preferences lack Name or Email: %v", labels)
	}
	trytonCheckSeed(t, b)
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
}

// trytonCheckSeed checks the records the goals name: each search a goal makes finds its
// one party, and the names, categories, groups and unit the goals pick are there.
func trytonCheckSeed(t *testing.T, b *testenv.TrytonBrowser) {
	for search, want := range map[string]string{"Andersen": "Andersen Logistics", "Cartwright": "Cartwright Office Supplies"} {
		if got := b.Names(t, "party.party", []any{"rec_name", "ilike", "%" + search + "%"}); len(got) != 1 || got[0] != want {
			t.Errorf("a search of the parties for %s finds %v, not %s alone", search, got, want)
		}
	}
	for model, names := range map[string][]string{
		"party.party":    {"Anderson Logistics", "Andersen Logistics", "Baker Street Bakery", "Baker & Sons Catering", "Carter Office Supplies"},
		"party.category": {"Wholesale", "Customer", "Retail"},
		"res.group":      {"Product Administration", "Party Administration"},
		"product.uom":    {"Unit"},
		"res.user":       {"Administrator", "Maria Lopez"},
	} {
		got := b.Names(t, model)
		for _, n := range names {
			if !slices.Contains(got, n) {
				t.Errorf("the seed lacks the %s %q: %v", model, n, got)
			}
		}
	}
	if got := b.Names(t, "product.uom", []any{"rec_name", "ilike", "%Unit%"}); len(got) != 1 {
		t.Errorf("Default UOM's suggestions for Unit are %v, not Unit alone", got)
	}
	s := b.Tryton().Seed()
	if s["user"]["admin"] == "" || testenv.TrytonFields(s["user"]["admin"])["name"] != testenv.TrytonAdminName {
		t.Errorf("admin's name is not %s: %v", testenv.TrytonAdminName, s["user"])
	}
}
