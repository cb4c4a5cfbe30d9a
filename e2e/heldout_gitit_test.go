//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Gitit's own pages: its tests build only with -tags heldout, and
// TestHeldOutGitit is run once, at the end, against an agent nobody tuned to Gitit.
// TestHeldOutGititJudge checks the harness alone, with no agent.

// gititSignIn is Gitit's way of signing in from its Front Page, where every goal starts
// (the "Login / Get an account" link at the top and the login form it leads to), written
// three ways (phrasing i uses the i-th); the password is granted by the worker and is in
// no goal.
var gititSignIn = [3]string{
	`click "Login / Get an account", type "nora" into "Username", type "{{secret:gitit_password}}" into "Password", click "Login"`,
	`log in as nora / {{secret:gitit_password}} (the Login / Get an account link at the top)`,
	`First sign in: hit Login / Get an account at the top right of the page, put nora in the Username field and "{{secret:gitit_password}}" in the field labelled Password, then press Login.`,
}

// gititText fills a phrasing in: {signin} is its way of signing in.
func gititText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", gititSignIn[i])
}

// TestHeldOutGitit drives Debian's Gitit — a real application nobody here wrote: a wiki
// whose pages and uploads live in a git repository, one commit per change — with everyday
// goals written three ways each, and no model. Each phrasing runs on a fresh instance (its
// own repository, users file and configuration), starts at the Front Page, signs in with a
// password the worker grants where the goal needs an account, and is judged twice: by the
// run's status and by the wiki's git repository and users file.
// go test -tags heldout -run 'TestHeldOutGitit$' ./e2e/
func TestHeldOutGitit(t *testing.T) {
	if !testenv.GititInstalled() {
		t.Skip("Gitit is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_GITIT_PASSWORD="+testenv.GititPassword,
		`WEBAGENT_SECRETS={"gitit_password": {"from": "env:WEBAGENT_TEST_GITIT_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(gititGoals)), make([][]string, len(gititGoals))
	for g, goal := range gititGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartGitit(t)
		return poolRun(t, s, names[g], i+1, gititText(p, i), w.URL, "the wiki's git repository and users file",
			func() string { return gititGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.GititPassword) {
			t.Errorf("Gitit's password is in the history of %s", id)
		}
	})
}

// TestHeldOutGititJudge validates the harness without the agent: on a fresh instance the
// Front Page, the login and register forms and the pages the goals start from are there
// and every judge says "not done"; each goal's effect, made through Gitit's own pages
// along the goal's path (signed in through the login form where it needs an account, each
// form sent as the page fills it), makes its judge say "done" and leaves the other judges
// at "not done"; a near miss of each leaves its judge at "not done"; and each phrasing,
// filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutGititJudge$' ./e2e/
func TestHeldOutGititJudge(t *testing.T) {
	if !testenv.GititInstalled() {
		t.Skip("Gitit is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartGitit(t)
	t.Logf("a fresh Gitit was made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	gititCheckFresh(t, fresh)
	for _, g := range gititGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := gititText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:gitit_password}}", "")
			signed := strings.Contains(text, gititSignIn[i])
			if signed == g.signedOut || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.GititPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range gititGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartGitit(t)
			b := w.Browser()
			if !g.signedOut {
				b.SignIn(t)
			}
			g.do(t, b)
			if why := g.done(t, w); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range gititGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartGitit(t)
			b := w.Browser()
			if !g.signedOut {
				b.SignIn(t)
			}
			g.miss(t, b)
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the repository or the users file")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// gititCheckFresh checks what the goals rely on: the Front Page's links and menu, the
// login and register forms, a page's tabs and tools, Coffee Machine's history, the search,
// the categories, the upload among all pages, and the storage as seeded (browsing the
// pages changes none of it).
func gititCheckFresh(t *testing.T, w *testenv.Gitit) {
	b := w.Browser()
	front := testenv.GititText(b.Open(t, "/"))
	for _, want := range []string{"Login / Get an account", "Front page", "All pages", "Categories", "Recent activity", "Upload a file",
		"Holiday Schedule 2024", "Holiday Schedule 2025", "Old Onboarding Checklist", "Travel Expenses",
		"Coffee Machine", "Building Access", "Server Room", "Visitor Parking", "Visitor Wi-Fi", "view edit history discuss"} {
		if !strings.Contains(front, want) {
			t.Errorf("the Front Page lacks %q: %s", want, front)
		}
	}
	for _, want := range []string{`id="patterns"`, `value="Search"`, `id="gotopage"`, `value="Go"`} {
		if !strings.Contains(b.Page(), want) {
			t.Errorf("the Front Page's menu lacks %s", want)
		}
	}
	pages := []struct {
		path  string
		wants []string
	}{
		{"/_login", []string{"Username", "Password", "click here to get one."}},
		{"/_register", []string{"Username (at least 3 letters or digits):", "Email (optional, will not be displayed on the Wiki):",
			"Password (at least 6 characters, including at least one non-letter):", "Confirm Password:"}},
		{"/Visitor%20Wi-Fi", []string{"There is no page named 'Visitor Wi-Fi'", "Create the page 'Visitor Wi-Fi'"}},
		{"/Old%20Onboarding%20Checklist", []string{"This page", "Delete this page", "out of date"}},
		{"/_history/Coffee%20Machine", []string{"Shortened the page", "Drip tray", "Cleaning instructions"}},
		{"/_search?patterns=badge+reader&search=Search", []string{"1 matches found", "Building Access"}},
		{"/_categories", []string{"HR", "Finance"}},
		{"/Travel%20Expenses", []string{"Hand in receipts", "Finance"}},
		{"/_index", []string{testenv.GititSeedUpload[0], "Travel Policy", "Onboarding Checklist"}},
	}
	for _, p := range pages {
		text := testenv.GititText(b.Open(t, p.path))
		for _, want := range p.wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q: %s", p.path, want, text)
			}
		}
	}
	for _, asset := range []string{"/css/custom.css", "/css/screen.css", "/js/jquery.min.js", "/img/logo.png", "/" + testenv.GititSeedUpload[0]} {
		if len(b.Open(t, asset)) < 50 {
			t.Errorf("%s, which the pages load, is missing or empty", asset)
		}
	}
	b.SignIn(t)
	for path, button := range map[string]string{"/_edit/Holiday%20Schedule%202025": `value="Save"`, "/_delete/Old%20Onboarding%20Checklist": `value="Yes, delete it!"`} {
		if !strings.Contains(b.Open(t, path), button) {
			t.Errorf("%s has no %s button", path, button)
		}
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if !w.PasswordIs(t, "nora", testenv.GititPassword) || !w.PasswordIs(t, "ben", testenv.GititSeedPassword) {
		t.Errorf("nora's or ben's password is not the seed's")
	}
	if n := len(w.Changes(t, testenv.PageFile("Coffee Machine"))); n != 3 {
		t.Errorf("Coffee Machine has %d revisions, not 3", n)
	}
	if len(w.Seed()["file"]) < 14 {
		t.Errorf("the seed has too few files: %v", w.Seed()["file"])
	}
}
