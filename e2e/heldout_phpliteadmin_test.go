//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on phpLiteAdmin's own pages: its tests build only with -tags heldout,
// and TestHeldOutPhpLiteAdmin is run once, at the end, against an agent nobody tuned to
// phpLiteAdmin. TestHeldOutPhpLiteAdminJudge checks the harness alone, with no agent.

// phpliteadminSignIn is phpLiteAdmin's login form, where every goal starts, written three
// ways (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var phpliteadminSignIn = [3]string{
	`type "{{secret:phpliteadmin_password}}" into "Password", click "Log In"`,
	`log in with the password {{secret:phpliteadmin_password}}`,
	`First sign in to phpLiteAdmin: put "{{secret:phpliteadmin_password}}" in the Password field and press the Log In button.`,
}

// phpliteadminText fills a phrasing in: {signin} is its way of signing in.
func phpliteadminText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", phpliteadminSignIn[i])
}

// TestHeldOutPhpLiteAdmin drives Debian's phpLiteAdmin — a real application nobody here
// wrote: the web admin for SQLite databases, in one PHP file — with everyday goals written
// three ways each, and no model. Each phrasing runs on a fresh instance (its own folder of
// seeded SQLite databases, its own configuration and port), starts at the login page,
// signs in with a password the worker grants, and is judged twice: by the run's status and
// by the SQLite files themselves.
// go test -tags heldout -run 'TestHeldOutPhpLiteAdmin$' ./e2e/
func TestHeldOutPhpLiteAdmin(t *testing.T) {
	if !testenv.PhpLiteAdminInstalled() {
		t.Skip("phpLiteAdmin is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_PHPLITEADMIN_PASSWORD="+testenv.PhpLiteAdminPassword,
		`WEBAGENT_SECRETS={"phpliteadmin_password": {"from": "env:WEBAGENT_TEST_PHPLITEADMIN_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(phpliteadminGoals)), make([][]string, len(phpliteadminGoals))
	for g, goal := range phpliteadminGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		a := testenv.StartPhpLiteAdmin(t)
		return poolRun(t, s, names[g], i+1, phpliteadminText(p, i), a.URL, "phpLiteAdmin's SQLite files",
			func() string { return phpliteadminGoals[g].done(t, a) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.PhpLiteAdminPassword) {
			t.Errorf("phpLiteAdmin's password is in the history of %s", id)
		}
	})
}

// TestHeldOutPhpLiteAdminJudge validates the harness without the agent: on a fresh
// instance the login page and the pages the goals start from are there and every judge
// says "not done"; each goal's effect, made through phpLiteAdmin's own pages along the
// goal's path (signed in through the login form, each form sent as the page fills it, its
// CSRF token with it), makes its judge say "done" and leaves the other judges at "not
// done"; a near miss of each leaves its judge at "not done"; and each phrasing, filled in,
// reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutPhpLiteAdminJudge$' ./e2e/
func TestHeldOutPhpLiteAdminJudge(t *testing.T) {
	if !testenv.PhpLiteAdminInstalled() {
		t.Skip("phpLiteAdmin is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartPhpLiteAdmin(t)
	t.Logf("a fresh phpLiteAdmin and its SQLite databases were made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	phpliteadminCheckFresh(t, fresh)
	for _, g := range phpliteadminGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := phpliteadminText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:phpliteadmin_password}}", "")
			if !strings.Contains(text, phpliteadminSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.PhpLiteAdminPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range phpliteadminGoals {
		t.Run(g.name, func(t *testing.T) {
			a := testenv.StartPhpLiteAdmin(t)
			b := a.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, a); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range phpliteadminGoals {
				if o.name != g.name && o.done(t, a) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			a := testenv.StartPhpLiteAdmin(t)
			b := a.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if a.Differs(t, a.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the SQLite files")
			}
			why := g.done(t, a)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// phpliteadminCheckFresh checks what the goals rely on: the login form, the database page
// once signed in with its tables and its Create new table form, each table's tabs, the
// rows the goals name, the forms the goals fill, the scripts and styles the pages load, and
// the storage as seeded (browsing the pages changes none of it).
func phpliteadminCheckFresh(t *testing.T, a *testenv.PhpLiteAdmin) {
	b := a.Browser()
	raw := b.Open(t, a.URL)
	for _, want := range []string{`type='password' name='password'`, `value='Log In'`, "Remember me"} {
		if !strings.Contains(raw, want) {
			t.Errorf("the login page lacks %s", want)
		}
	}
	b.SignIn(t)
	if !strings.Contains(b.Page(), "value='Logout'") {
		t.Errorf("the database page has no Logout button")
	}
	home := testenv.PhpLiteAdminText(b.Page())
	for _, want := range []string{"library.sqlite", "shop.sqlite", "books", "members", "loans", "Create new table on database 'library.sqlite'",
		"Name:", "Number of Fields:"} {
		if !strings.Contains(home, want) {
			t.Errorf("the database page lacks %q: %s", want, home)
		}
	}
	pages := []struct {
		table, tab string
		wants      []string
	}{
		{"books", "Browse", []string{"Structure", "Search", "Insert", "Rename", "Pride and Prejudice", "1811", "Emma", "Edit", "Delete"}},
		{"books", "Insert", []string{"Field Type Function Null Value", "title", "author", "year", "isbn"}},
		{"members", "Browse", []string{"Tomas Weller", "Tom Weller", "Lisa Novak", "Lisa Nowak"}},
		{"members", "Structure", []string{"Add", "field(s) at end of table", "Primary Key"}},
		{"members", "Search", []string{"Field Type Operator Value", "email", "city"}},
		{"loans", "Rename", []string{"Rename table 'loans' to"}},
	}
	for _, p := range pages {
		b.Open(t, a.URL)
		b.ClickText(t, p.table)
		text := testenv.PhpLiteAdminText(b.ClickText(t, p.tab))
		for _, want := range p.wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s's %s tab lacks %q: %s", p.table, p.tab, want, text)
			}
		}
	}
	for _, asset := range []string{"?resource=css", "?resource=javascript", "/javascript/codemirror/lib/codemirror.js"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the pages load, is missing or empty", asset)
		}
	}
	if why := a.Differs(t, a.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := a.Seed()
	if len(s["row"]) != 24 || s["table"]["library.sqlite/books"] == "" || s["schema"]["library.sqlite/index/loans_member"] == "" {
		t.Errorf("the seed lacks its rows, its books or its index: %v", s)
	}
}
