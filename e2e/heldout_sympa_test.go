//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Sympa's web interface, WWSympa: its tests build only with -tags
// heldout, and TestHeldOutSympa is run once, at the end, against an agent nobody tuned to
// Sympa. TestHeldOutSympaJudge checks the harness alone, with no agent.

// sympaSignIn is WWSympa's login form, where every goal starts, written three ways
// (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var sympaSignIn = [3]string{
	`type "admin@example.org" into "email address", type "{{secret:sympa_password}}" into "password", click "Go"`,
	`log in as admin@example.org with the password {{secret:sympa_password}}`,
	`First sign in to Sympa: put admin@example.org in the email address field and "{{secret:sympa_password}}" in the password field, then hit the Go button.`,
}

// sympaText fills a phrasing in: {signin} is its way of signing in.
func sympaText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", sympaSignIn[i])
}

// TestHeldOutSympa drives Debian's Sympa — a real application nobody here wrote: the
// mailing list manager, through its web interface WWSympa (lists made from templates,
// their members, owners and moderators, their settings, their closing) — with everyday
// goals written three ways each. Each phrasing runs on a fresh instance (its own folder,
// SQLite database and lighttpd), starts at the login page, signs in as the listmaster with
// a password the worker grants, and is judged twice: by the run's status and by Sympa's
// database and its lists' config files.
// go test -tags heldout -run 'TestHeldOutSympa$' ./e2e/
func TestHeldOutSympa(t *testing.T) {
	if !testenv.SympaInstalled() {
		t.Skip("Sympa is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_SYMPA_PASSWORD="+testenv.SympaPassword,
		`WEBAGENT_SECRETS={"sympa_password": {"from": "env:WEBAGENT_TEST_SYMPA_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(sympaGoals)), make([][]string, len(sympaGoals))
	for g, goal := range sympaGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartSympa(t)
		return poolRun(t, s, names[g], i+1, sympaText(p, i), w.URL+"/login", "Sympa's database and list config files",
			func() string { return sympaGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.SympaPassword) {
			t.Errorf("Sympa's password is in the history of %s", id)
		}
	})
}

// TestHeldOutSympaJudge validates the harness without the agent: on a fresh instance the
// login page and the pages the goals go through are there, the seed is stored, and every
// judge says "not done"; each goal's effect, made through WWSympa's own pages along the
// goal's path (signed in through the login form, each form sent as the page fills it, its
// csrftoken with it), makes its judge say "done" and leaves the other judges at "not
// done"; a near miss of each changes the storage but leaves its judge at "not done"; and
// each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutSympaJudge$' ./e2e/
func TestHeldOutSympaJudge(t *testing.T) {
	if !testenv.SympaInstalled() {
		t.Skip("Sympa is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartSympa(t)
	t.Logf("a fresh Sympa, its database and its seeded lists were made and served in %s", time.Since(began).Round(time.Millisecond))
	sympaCheckFresh(t, fresh)
	for _, g := range sympaGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := sympaText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:sympa_password}}", "")
			if !strings.Contains(text, sympaSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.SympaPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range sympaGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartSympa(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, w); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range sympaGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartSympa(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the database or the config files")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// sympaCheckFresh checks what the goals rely on: the login form, the menu once signed in,
// the lists under My lists, each list's admin pages with the controls the goals name, the
// search form, the static files the pages load, and the storage as seeded (browsing the
// pages changes none of it).
func sympaCheckFresh(t *testing.T, w *testenv.Sympa) {
	b := w.Browser()
	raw := b.Open(t, "/login")
	for _, want := range []string{`name="email"`, `name="passwd"`, `name="action_login"`, "email address:", "password:", "Go"} {
		if !strings.Contains(testenv.SympaText(raw), want) && !strings.Contains(raw, want) {
			t.Errorf("the login page lacks %s", want)
		}
	}
	b.SignIn(t)
	pages := []struct {
		path  string
		wants []string
	}{
		{"/", []string{"Create list", "Search for List(s)", "My lists", "Logout"}},
		{"/my", []string{"hiking-club", "hiking-board", "choir", "choir-news", "garden-volunteers", "garden-club"}},
		{"/create_list_request", []string{"List name:", "Public discussion mailing list", "Subject:", "Audience:", "Leisure and Sports",
			"Description:", "Submit your creation request"}},
		{"/admin/hiking-club", []string{"Edit List Config", "List definition", "Privileges", "Subscribers", "Owners", "Moderators", "Remove List"}},
		{"/review/hiking-club", []string{"Email address:", "Add", "anna.berg@example.org", "Delete selected email addresses"}},
		{"/review/choir", []string{"tom.fischer@example.org", "tom.fisher@example.org"}},
		{"/review/choir/editor", []string{"Add moderators", "email address", "name", "Apply modifications"}},
		{"/edit_list_request/choir-news/description", []string{"Subject of the list", "Choir news", "Apply modifications"}},
		{"/edit_list_request/hiking-board/command", []string{"Who can subscribe to the list", "owners approval (owner)"}},
		{"/search_list_request", []string{"Search for list(s)", "Enter a list name", "Search lists"}},
	}
	for _, p := range pages {
		raw := b.Open(t, p.path)
		text := testenv.SympaText(raw)
		for _, want := range p.wants {
			// A button's label is its value, a field's hint its placeholder.
			if !strings.Contains(text, want) && !strings.Contains(raw, `value="`+want+`"`) && !strings.Contains(raw, `placeholder="`+want+`"`) {
				t.Errorf("%s lacks %q: %s", p.path, want, text)
			}
		}
	}
	found := testenv.SympaText(b.SearchLists(t, "garden"))
	if !strings.Contains(found, "Allotment garden volunteers") || !strings.Contains(found, "Garden club chat") {
		t.Errorf("searching lists for garden does not find both garden lists: %s", found)
	}
	for _, asset := range []string{"/static-sympa/js/jquery.js", "/static-sympa/js/sympa.js", "/static-sympa/fonts/font-awesome/css/font-awesome.min.css"} {
		if page := b.Open(t, strings.Replace(w.URL, "/sympa", "", 1)+asset); len(page) < 500 {
			t.Errorf("%s, which the pages load, is missing or empty", asset)
		}
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := w.Seed()
	if s["member"]["choir>tom.fischer@example.org"] == "" || s["admin"]["choir>owner>"+testenv.SympaListmaster] == "" ||
		s["config/hiking-club"]["subject"] != "Weekend hiking trips" || s["status"]["garden-volunteers"] != "open" ||
		s["info"]["choir"] == "" {
		t.Errorf("the seed lacks a member, an owner, a subject, a status or a description: %v", s)
	}
}
