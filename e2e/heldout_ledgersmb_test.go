//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on LedgerSMB's own screens: its tests build only with -tags heldout,
// and TestHeldOutLedgerSMB is run once, at the end, against an agent nobody tuned to
// LedgerSMB. TestHeldOutLedgerSMBJudge checks the harness alone, with no agent.

// ledgersmbSignIn is LedgerSMB's login page, where every goal starts (the start page sends
// a visitor there), written three ways (phrasing i uses the i-th); the password is granted
// by the worker and is in no goal.
var ledgersmbSignIn = [3]string{
	`type "admin" into "User Name", type "{{secret:ledgersmb_password}}" into "Password", type "brightwater" into "Company", click "Login"`,
	`log in as admin / {{secret:ledgersmb_password}} to the company brightwater`,
	`First sign in to LedgerSMB: put admin in the User Name field, "{{secret:ledgersmb_password}}" in the Password field and brightwater in the field labelled Company, then hit the Login button.`,
}

// ledgersmbText fills a phrasing in: {signin} is its way of signing in.
func ledgersmbText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", ledgersmbSignIn[i])
}

// TestHeldOutLedgerSMB drives Debian's LedgerSMB 1.6 — a real application nobody here
// wrote: double-entry accounting for small businesses, used here through the screens its
// 1.6 code serves (contacts and their credit accounts and addresses, the chart of
// accounts, the company's defaults, users' permissions) — with everyday goals
// written three ways each, and no model. Each phrasing runs on a fresh instance (its own
// PostgreSQL cluster, company database and Starman), starts at the login page, signs in
// with a password the worker grants, and is judged twice: by the run's status and by the
// company database.
// go test -tags heldout -run 'TestHeldOutLedgerSMB$' ./e2e/
func TestHeldOutLedgerSMB(t *testing.T) {
	if !testenv.LedgerSMBInstalled() {
		t.Skip("LedgerSMB is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_LEDGERSMB_PASSWORD="+testenv.LedgerSMBPassword,
		`WEBAGENT_SECRETS={"ledgersmb_password": {"from": "env:WEBAGENT_TEST_LEDGERSMB_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(ledgersmbGoals)), make([][]string, len(ledgersmbGoals))
	for g, goal := range ledgersmbGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		l := testenv.StartLedgerSMB(t)
		return poolRun(t, s, names[g], i+1, ledgersmbText(p, i), l.URL, "LedgerSMB's company database",
			func() string { return ledgersmbGoals[g].done(t, l) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.LedgerSMBPassword) {
			t.Errorf("LedgerSMB's password is in the history of %s", id)
		}
	})
}

// TestHeldOutLedgerSMBJudge validates the harness without the agent: on a fresh instance
// the login page and the screens the goals go through are there with the seed the goals
// name, and every judge says "not done"; each goal's effect, made through LedgerSMB's own
// pages along the goal's path (signed in as its login page's script signs in, each form
// posted as the screen fills it), makes its judge say "done" and leaves the other judges
// at "not done"; a near miss of each leaves its judge at "not done"; and each phrasing,
// filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutLedgerSMBJudge$' ./e2e/
func TestHeldOutLedgerSMBJudge(t *testing.T) {
	if !testenv.LedgerSMBInstalled() {
		t.Skip("LedgerSMB is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartLedgerSMB(t)
	t.Logf("a fresh LedgerSMB, its PostgreSQL cluster and company database were made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	ledgersmbCheckFresh(t, fresh)
	for _, g := range ledgersmbGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := ledgersmbText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:ledgersmb_password}}", "")
			if !strings.Contains(text, ledgersmbSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.LedgerSMBPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range ledgersmbGoals {
		t.Run(g.name, func(t *testing.T) {
			l := testenv.StartLedgerSMB(t)
			b := l.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, l); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range ledgersmbGoals {
				if o.name != g.name && o.done(t, l) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			l := testenv.StartLedgerSMB(t)
			b := l.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if l.Differs(t, l.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the company database")
			}
			why := g.done(t, l)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// ledgersmbCheckFresh checks what the goals rely on: the login form and its script, the
// menu once signed in, the screens the goals go through with the labels they name, the
// seed's contacts, employees and users, admin's password, and the storage as seeded
// (browsing the screens changes none of it).
func ledgersmbCheckFresh(t *testing.T, l *testenv.LedgerSMB) {
	b := l.Browser()
	raw := b.Open(t, "/login.pl")
	for _, want := range []string{`title="User Name"`, `title="Password"`, `title="Company"`, `>Login</button>`} {
		if !strings.Contains(raw, want) {
			t.Errorf("the login page lacks %s", want)
		}
	}
	if !l.BrowserAs("admin", "not-the-password").SignInFails(t) {
		t.Errorf("LedgerSMB takes a wrong password")
	}
	b.SignIn(t)
	menu := b.Open(t, "/menu.pl?action=menuitems_json")
	for _, want := range []string{`"Contacts"`, `"Add Contact"`, `"Search"`, `"General Journal"`, `"Add Accounts"`, `"System"`,
		`"Defaults"`, `"HR"`, `"Employees"`} {
		if !strings.Contains(menu, want) {
			t.Errorf("the menu lacks %s", want)
		}
	}
	pages := []struct {
		path  string
		wants []string
	}{
		{"/contact.pl?action=add", []string{"Class", "Customer", "Control Code", "Name", "Country", "United States", "Save", "Company"}},
		{"/reports.pl?action=start_report&module_name=gl&report_name=contact_search", []string{"Name", "Search"}},
		{"/account.pl?action=new", []string{"Account Number", "Description", "Heading", "1000--CURRENT ASSETS", "Account Type", "Asset", "Save"}},
		{"/configuration.pl?action=defaults_screen", []string{"Company Phone", "Company Fax", "+1 503 555 0100", "Save"}},
	}
	for _, p := range pages {
		ledgersmbShows(t, p.path, b.Open(t, p.path), p.wants)
	}
	if text := testenv.LedgerSMBText(b.SearchContact(t, "Harbor Lights")); !strings.Contains(text, "Harbor Lights Bakery") || !strings.Contains(text, "Harbor Lights Cafe") {
		t.Errorf("searching Harbor Lights does not list the bakery and the cafe: %s", text)
	}
	ledgersmbShows(t, "Harbor Lights Bakery's screen", b.ClickText(t, "Harbor Lights Bakery"),
		[]string{"Credit Accounts", "Payment Terms", "Save Changes", "Addresses", "Address", "City", "Save New Location", "Zip/Post Code",
			"State/Province", "Contact Info", "Type", "Primary Phone", "Description", "Save Contact"})
	for _, asset := range []string{"/js-src/dojo/dojo.js", "/js-src/lsmb/main.js", "/css/ledgersmb.css", "/login.js", "/js-src/dijit/themes/claro/claro.css"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the pages load, is missing or empty", asset)
		}
	}
	if why := l.Differs(t, l.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := l.Seed()
	if s["user"]["mlopez"] != "Maria Lopez" || s["user"]["jchen"] != "James Chen" {
		t.Errorf("the seed lacks its users: %v", s["user"])
	}
	if _, ok := s["member"]["mlopez>contact_read"]; !ok {
		t.Errorf("the seed's mlopez lacks contact read: %v", s["member"])
	}
	if !strings.HasPrefix(s["credit"]["C-1002"], "entity=Harbor Lights Bakery class=2") || s["contact"]["V-2001"] != "class=1 name=Northwind Paper Supply" {
		t.Errorf("the seed lacks its bakery or its vendor: %v %v", s["credit"], s["contact"])
	}
	if ms := l.BrowserAs("mlopez", testenv.LedgerSMBSeedPassword); ms.SignInFails(t) {
		t.Errorf("mlopez cannot sign in with the seed's password")
	}
}

// ledgersmbShows checks that a page shows each of wants: in its text, or as a field's or a
// tab's title (the screens' scripts show a field's title as its label, a tab's as its
// name), or as a field's value.
func ledgersmbShows(t *testing.T, where, page string, wants []string) {
	text := testenv.LedgerSMBText(page)
	for _, want := range wants {
		if !strings.Contains(text, want) && !strings.Contains(page, `title="`+want+`"`) && !strings.Contains(page, `value="`+want+`"`) {
			t.Errorf("%s lacks %q: %.300s", where, want, text)
		}
	}
}
