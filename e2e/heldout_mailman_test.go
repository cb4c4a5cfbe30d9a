//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on GNU Mailman 3's web UI (Postorius): its tests build only with -tags
// heldout, and TestHeldOutMailman is run once, at the end, against an agent nobody tuned to
// Mailman. TestHeldOutMailmanJudge checks the harness alone, with no agent.

// mailmanSignIn is how the goals sign in: the Login link of the list index, where every
// goal starts, and Django's sign-in form, written three ways (phrasing i uses the i-th);
// the password is granted by the worker and is in no goal.
var mailmanSignIn = [3]string{
	`click "Login", type "admin" into "Login", type "{{secret:mailman_password}}" into "Password", click "Sign In"`,
	`log in via the Login link at the top as admin / {{secret:mailman_password}}`,
	`First sign in to Mailman: hit Login in the menu at the top, put admin in the Login field and "{{secret:mailman_password}}" in the Password field, then press the Sign In button.`,
}

// mailmanText fills a phrasing in: {signin} is its way of signing in.
func mailmanText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", mailmanSignIn[i])
}

// TestHeldOutMailman drives Debian's GNU Mailman 3 — a real application nobody here wrote:
// the mailing list manager's core with its web UI, Postorius (and HyperKitty beside it) —
// with a list owner's everyday goals (create a list, subscribe and remove members, change a
// list's description, hold a member's posts, ban an address, delete a list) written three
// ways each, and no model. Each phrasing runs on a fresh instance (its own core, REST API,
// SQLite databases and web server), starts at the list index, signs in with a password the
// worker grants, and is judged twice: by the run's status and by the core's database.
// go test -tags heldout -run 'TestHeldOutMailman$' ./e2e/
func TestHeldOutMailman(t *testing.T) {
	if !testenv.MailmanInstalled() {
		t.Skip("Mailman 3 is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_MAILMAN_PASSWORD="+testenv.MailmanPassword,
		`WEBAGENT_SECRETS={"mailman_password": {"from": "env:WEBAGENT_TEST_MAILMAN_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(mailmanGoals)), make([][]string, len(mailmanGoals))
	for g, goal := range mailmanGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		m := testenv.StartMailman(t)
		return poolRun(t, s, names[g], i+1, mailmanText(p, i), m.URL, "Mailman's database",
			func() string { return mailmanGoals[g].done(t, m) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.MailmanPassword) {
			t.Errorf("Mailman's password is in the history of %s", id)
		}
	})
}

// TestHeldOutMailmanJudge validates the harness without the agent: on a fresh instance the
// list index, the sign-in form and the pages the goals go through are there and every
// judge says "not done"; each goal's effect, made through Postorius's own pages along the
// goal's path (signed in through the sign-in form, each form sent as the page fills it,
// its CSRF token with it), makes its judge say "done" and leaves the other judges at "not
// done"; a near miss of each leaves its judge at "not done"; and each phrasing, filled in,
// reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutMailmanJudge$' ./e2e/
func TestHeldOutMailmanJudge(t *testing.T) {
	if !testenv.MailmanInstalled() {
		t.Skip("Mailman 3 is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartMailman(t)
	t.Logf("a fresh Mailman (core, REST API, web UI and their SQLite databases) was made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	mailmanCheckFresh(t, fresh)
	for _, g := range mailmanGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := mailmanText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:mailman_password}}", "")
			if !strings.Contains(text, mailmanSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.MailmanPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range mailmanGoals {
		t.Run(g.name, func(t *testing.T) {
			m := testenv.StartMailman(t)
			b := m.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, m); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range mailmanGoals {
				if o.name != g.name && o.done(t, m) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			m := testenv.StartMailman(t)
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

// mailmanCheckFresh checks what the goals rely on: the list index and its Login link, the
// sign-in form, the list index once signed in with every list of the seed, each list's
// tabs, the members, the settings, the mass subscription, ban and delete pages, a member's
// options, the site's Bans page, the pages' assets, and the storage as seeded (browsing the
// pages and signing in again change none of it).
func mailmanCheckFresh(t *testing.T, m *testenv.Mailman) {
	b := m.Browser()
	if text := testenv.MailmanText(b.Open(t, "/")); !strings.Contains(text, "Login") || !strings.Contains(text, "Staff") {
		t.Errorf("the list index lacks its Login link or the Staff list: %s", text)
	}
	raw := b.ClickText(t, "Login")
	for _, want := range []string{`name="login"`, `name="password"`, "Sign In"} {
		if !strings.Contains(raw, want) {
			t.Errorf("the sign-in page lacks %s", want)
		}
	}
	b.SignIn(t)
	index := testenv.MailmanText(b.Page())
	for _, l := range testenv.MailmanSeedLists {
		if !strings.Contains(index, l.DisplayName) || !strings.Contains(index, l.Description) {
			t.Errorf("the list index lacks %s (%s): %s", l.DisplayName, l.Description, index)
		}
	}
	staff, support := "/postorius/lists/staff.lists.example.org/", "/postorius/lists/support.lists.example.org/"
	pages := []struct {
		path  string
		wants []string
	}{
		{"/postorius/lists/new/", []string{"List Name", "Mail Host", "lists.example.org", "lists.example.net", "Short Description", "Create list"}},
		{staff, []string{"Info", "Users", "Members", "Settings", "Mass operations", "Mass subscribe", "Ban List", "Delete"}},
		{staff + "members/member/", []string{`"Carla Mendes" <carla.mendes@example.com>`, `"Carl Mendel" <carl.mendel@example.com>`,
			`"Dmitri Volkov" <dmitri.volkov@example.com>`, "Remove Selected"}},
		{staff + "members/member/?q=mendes", []string{"carla.mendes@example.com"}},
		{staff + "mass_subscribe/", []string{"Emails to mass subscribe", "Pre confirm", "Pre approved", "Pre Verified", "Subscribe users"}},
		{staff + "members/options/dmitri.volkov@example.com?role=member", []string{"Administration options", "Moderation",
			"Hold for moderation", "Reject (with notification)", "Save changes"}},
		{support + "settings/", []string{"List Identity", "Member Policy", "Short Description", "Long Description", "Save changes"}},
		{support + "bans/", []string{"Add ban", "Ban email", "offers@promo-mail.example"}},
		{"/postorius/lists/events-2024.lists.example.org/delete", []string{"Are you sure", "Delete events-2024@lists.example.org"}},
		{"/postorius/bans/", []string{"spam@junk-mail.example", "Ban email"}},
	}
	for _, p := range pages {
		text := testenv.MailmanText(b.Open(t, p.path))
		for _, want := range p.wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q: %s", p.path, want, text)
			}
		}
	}
	if strings.Contains(testenv.MailmanText(b.Open(t, staff+"members/member/?q=mendes")), "carl.mendel@example.com") {
		t.Errorf("searching Staff's members for mendes finds Carl Mendel too")
	}
	for _, asset := range []string{"/mailman3/static/postorius/libs/bootstrap/css/bootstrap.min.css", "/mailman3/static/postorius/libs/jquery/jquery-3.6.0.min.js",
		"/mailman3/static/postorius/libs/bootstrap/js/bootstrap.min.js", "/mailman3/static/hyperkitty/libs/hyperkitty.css"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the pages load, is missing or empty", asset)
		}
	}
	m.Browser().SignIn(t)
	if why := m.Differs(t, m.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := m.Seed()
	if _, ok := s["ban"]["support.lists.example.org>offers@promo-mail.example"]; !ok || s["list"]["support.lists.example.org/description"] != "Customer support coordination" ||
		!strings.HasPrefix(s["member"]["staff.lists.example.org>farah.khan@example.com>member"], "moderation=accept") {
		t.Errorf("the seed lacks its list ban, Support Team's description or Farah Khan's moderation: %v", s)
	}
}
