//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on DAViCal's admin pages: its tests build only with -tags heldout, and
// TestHeldOutDAViCal is run once, at the end, against an agent nobody tuned to DAViCal.
// TestHeldOutDAViCalJudge checks the harness alone, with no agent.

// davicalSignIn is DAViCal's login form, the page every goal starts at, written three ways
// (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var davicalSignIn = [3]string{
	`type "admin" into "User Name", type "{{secret:davical_password}}" into "Password", click "GO!"`,
	`log in as admin with the password "{{secret:davical_password}}" and press GO!`,
	`Sign in first: enter admin in the field labelled "User Name", enter "{{secret:davical_password}}" in the field labelled "Password" and click the GO! button.`,
}

// davicalText fills a phrasing in: {signin} is its way of signing in.
func davicalText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", davicalSignIn[i])
}

// TestHeldOutDAViCal drives Debian's DAViCal — a real application nobody here wrote: a
// CalDAV and CardDAV server whose admin pages manage its users, resources and groups, their
// calendars, group members and the privileges they grant each other — with everyday goals
// written three ways each, and no model. Each phrasing runs on a fresh instance (its own
// PostgreSQL cluster and its own copy of DAViCal's pages), starts at the login page, signs
// in with a password the worker grants, and is judged twice: by the run's status and by
// DAViCal's database, read back with psql.
// go test -tags heldout -run 'TestHeldOutDAViCal$' ./e2e/
func TestHeldOutDAViCal(t *testing.T) {
	if !testenv.DAViCalInstalled() {
		t.Skip("DAViCal is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_DAVICAL_PASSWORD="+testenv.DAViCalPassword,
		`WEBAGENT_SECRETS={"davical_password": {"from": "env:WEBAGENT_TEST_DAVICAL_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(davicalGoals)), make([][]string, len(davicalGoals))
	for g, goal := range davicalGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		d := testenv.StartDAViCal(t)
		return poolRun(t, s, names[g], i+1, davicalText(p, i), d.URL, "DAViCal's database",
			func() string { return davicalGoals[g].done(t, d) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.DAViCalPassword) {
			t.Errorf("DAViCal's password is in the history of %s", id)
		}
	})
}

// TestHeldOutDAViCalJudge validates the harness without the agent: on a fresh instance the
// login page and the lists the goals start from are there and every judge says "not done";
// each goal's effect, made through DAViCal's own pages along the goal's path (signed in
// through the login form, each form sent as the page fills it, its csrf_token with it),
// makes its judge say "done" and leaves the other judges at "not done"; a near miss of each
// leaves its judge at "not done"; and each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutDAViCalJudge$' ./e2e/
func TestHeldOutDAViCalJudge(t *testing.T) {
	if !testenv.DAViCalInstalled() {
		t.Skip("DAViCal is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartDAViCal(t)
	t.Logf("a fresh DAViCal and its PostgreSQL cluster were made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	davicalCheckFresh(t, fresh)
	for _, g := range davicalGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := davicalText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:davical_password}}", "")
			if !strings.Contains(text, davicalSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.DAViCalPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range davicalGoals {
		t.Run(g.name, func(t *testing.T) {
			d := testenv.StartDAViCal(t)
			b := d.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, d); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range davicalGoals {
				if o.name != g.name && o.done(t, d) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			d := testenv.StartDAViCal(t)
			b := d.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if d.Differs(t, d.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the database")
			}
			why := g.done(t, d)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// davicalCheckFresh checks what the goals rely on: the login form's fields, the menu once
// signed in, the lists of users, resources and groups with the seed's principals and their
// links, the pages' forms the goals fill, and the database as seeded.
func davicalCheckFresh(t *testing.T, d *testenv.DAViCal) {
	b := d.Browser()
	login := testenv.DAViCalText(b.Open(t, "/"))
	for _, want := range []string{"Log On Please", "User Name:", "Password:"} {
		if !strings.Contains(login, want) {
			t.Errorf("the login page lacks %q: %s", want, login)
		}
	}
	b.SignIn(t)
	menu := testenv.DAViCalText(b.Page())
	for _, want := range []string{"List Users", "List Resources", "List Groups", "Create Principal"} {
		if !strings.Contains(menu, want) {
			t.Errorf("the menu lacks %q", want)
		}
	}
	lists := map[string]string{"1": "List Users", "2": "List Resources", "3": "List Groups"}
	for _, p := range testenv.DAViCalSeed {
		b.Open(t, "/")
		list := b.ClickText(t, lists[p.Type])
		if !strings.Contains(list, `<td class="left">`+p.Username+`</td>`) || !strings.Contains(list, `id=`+d.PrincipalID(t, p.Username)+`">`) {
			t.Errorf("%s does not list %s with its link", lists[p.Type], p.Username)
		}
	}
	raw := b.Open(t, "/admin.php?action=edit&t=principal&id="+d.PrincipalID(t, "alice"))
	if !strings.Contains(raw, `value="Apply Changes"`) {
		t.Errorf("alice's page has no Apply Changes button")
	}
	page := testenv.DAViCalText(raw)
	for _, want := range []string{"Email Address:", "Active:", "Principal Grants", "Create Collection", "Delete Principal", "Read"} {
		if !strings.Contains(page, want) {
			t.Errorf("alice's page lacks %q", want)
		}
	}
	if !strings.Contains(testenv.DAViCalText(b.Open(t, "/admin.php?action=edit&t=principal&id="+d.PrincipalID(t, "sales"))), "Group Members") {
		t.Errorf("the group sales has no Group Members")
	}
	if why := d.Differs(t, d.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if !d.PasswordIs(t, "admin", testenv.DAViCalPassword) || !d.PasswordIs(t, "alice", testenv.DAViCalSeedPassword) {
		t.Errorf("admin's or alice's password is not the seed's")
	}
	s := d.Seed()
	if _, member := s["member"]["sales>alice"]; !strings.Contains(s["principal"]["admin"], "admin=t ") || !member || s["collection"]["/carol/calendar/"] == "" {
		t.Errorf("the seed lacks its administrator, its group member or carol's calendar: %v", s)
	}
}
