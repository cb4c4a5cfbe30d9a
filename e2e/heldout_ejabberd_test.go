//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on ejabberd's web admin: its tests build only with -tags heldout, and
// TestHeldOutEjabberd is run once, at the end, against an agent nobody tuned to ejabberd.
// TestHeldOutEjabberdJudge checks the harness alone, with no agent.
//
// ejabberd's web admin has no sign-in page: it asks for HTTP basic auth (a browser prompt
// rather than a page), so each instance's front answers it as the administrator, and no
// goal signs in and no secret is granted (the administrator's password must never reach
// the agent's history).

// TestHeldOutEjabberd drives Debian's ejabberd — a real application nobody here wrote: an
// XMPP server whose web admin registers and removes users, changes their passwords, edits
// their rosters and offline queues and manages shared roster groups — with everyday goals
// written three ways each, and no model. Each phrasing runs on a fresh, seeded node (its
// own name, cookie, ports and Mnesia folder), starts at the web admin's front page and is
// judged twice: by the run's status and by the node's state, read with ejabberdctl.
// go test -tags heldout -run 'TestHeldOutEjabberd$' ./e2e/
func TestHeldOutEjabberd(t *testing.T) {
	if !testenv.EjabberdInstalled() {
		t.Skip("ejabberd is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(ejabberdGoals)), make([][]string, len(ejabberdGoals))
	for g, goal := range ejabberdGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartEjabberd(t)
		return poolRun(t, s, names[g], i+1, p, w.URL, "ejabberd's state (ejabberdctl)",
			func() string { return ejabberdGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.EjabberdPassword) {
			t.Errorf("ejabberd's administrator password is in the history of %s", id)
		}
	})
}

// TestHeldOutEjabberdJudge validates the harness without the agent: on a fresh node the
// pages the goals go through are there with the seed's users, groups, roster and offline
// messages, and every judge says "not done"; each goal's effect, made through the web
// admin's own pages along the goal's path (each form sent as the page fills it), makes
// its judge say "done" and leaves the other judges at "not done"; a near miss of each
// changes the node's state but leaves its judge at "not done"; and each phrasing reads
// as a whole goal.
// go test -tags heldout -run 'TestHeldOutEjabberdJudge$' ./e2e/
func TestHeldOutEjabberdJudge(t *testing.T) {
	if !testenv.EjabberdInstalled() {
		t.Skip("ejabberd is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartEjabberd(t)
	t.Logf("a fresh ejabberd node was made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	ejabberdCheckFresh(t, fresh)
	for _, g := range ejabberdGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if strings.ContainsAny(p, "{}") || strings.Contains(p, testenv.EjabberdPassword) || len(strings.Fields(p)) < 8 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
		}
	}
	for _, g := range ejabberdGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartEjabberd(t)
			g.do(t, w.Browser())
			if why := g.done(t, w); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range ejabberdGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartEjabberd(t)
			g.miss(t, w.Browser())
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the node's state")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// ejabberdCheckFresh checks what the goals rely on: the start page's menu, the virtual
// hosts, each host's Users list and Shared Roster Groups, the user pages with their
// buttons, a roster, an offline queue and a group's form, the node's state as seeded
// (browsing the pages changes none of it), and the front's signing in.
func ejabberdCheckFresh(t *testing.T, w *testenv.Ejabberd) {
	b := w.Browser()
	pages := []struct {
		path  string
		wants []string
	}{
		{"", []string{"ejabberd Web Admin", "Administration", "Virtual Hosts", "Nodes", "Statistics"}},
		{"vhosts/", []string{"Virtual Hosts", "example.org", "lab.example.org", "Registered Users"}},
		{"server/example.org/", []string{"Users", "Online Users", "Last Activity", "Shared Roster Groups"}},
		{"server/example.org/users/", []string{"User:", "Password:", "Add User", "anna@example.org", "annika@example.org",
			"tom@example.org", "lisa@example.org", "omar@example.org", "Offline Messages"}},
		{"server/lab.example.org/users/", []string{"anna@lab.example.org", "omar@lab.example.org", "ben@lab.example.org"}},
		{"server/example.org/user/annika/", []string{"User annika@example.org", "Password:", "Change Password",
			"Remove All Offline Messages", "View Roster", "Remove User"}},
		{"server/example.org/user/lisa/roster/", []string{"Roster of lisa@example.org", "anna@example.org", "annika@example.org", "Add Jabber ID"}},
		{"server/example.org/user/anna/queue/", []string{testenv.EjabberdSeedMessages[0].Body, testenv.EjabberdSeedMessages[1].Body, "Delete Selected"}},
		{"server/example.org/shared-roster/", []string{"Shared Roster Groups", "support", "devs", "Name:", "Add New", "Delete Selected"}},
		{"server/example.org/shared-roster/support/", []string{"Label:", "Description:", "Members:", "Displayed:", "Submit",
			"anna@example.org", "tom@example.org", "Support Team"}},
	}
	for _, p := range pages {
		raw := b.Open(t, w.URL+p.path)
		text := testenv.EjabberdText(raw)
		for _, want := range p.wants {
			// A button's or a filled field's words are its value.
			if !strings.Contains(text, want) && !strings.Contains(raw, "value='"+want+"'") {
				t.Errorf("%s lacks %q: %s", p.path, want, text)
			}
		}
	}
	for _, asset := range []string{"style.css", "additions.js"} {
		if len(b.Open(t, w.URL+asset)) < 200 {
			t.Errorf("%s, which the pages load, is missing or empty", asset)
		}
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := w.Seed()
	if s["offline"]["anna@example.org"] != "2" || s["offline"]["annika@example.org"] != "1" || s["roster"]["anna@example.org>tom@example.org"] != "subscription=both ask=none" ||
		s["group"]["example.org/support"] != `description=Help desk staff; displayed_groups=["support"]; label=Support Team` {
		t.Errorf("the seed lacks its offline messages, its roster items or its shared roster group: %v", s)
	}
	if _, member := s["member"]["example.org/support>tom@example.org"]; !member || s["user"]["annika@example.org"] != "password=seed" {
		t.Errorf("the seed lacks a group member or annika's password: %v", s)
	}
	if !w.PasswordIs(t, testenv.EjabberdAdmin, testenv.EjabberdPassword) {
		t.Errorf("the administrator's password is not the seed's")
	}
}
