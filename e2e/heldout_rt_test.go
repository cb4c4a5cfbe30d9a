//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
)

// The held-out check on Request Tracker: its tests build only with -tags heldout, and
// TestHeldOutRT is run once, at the end, against an agent nobody tuned to RT.
// TestHeldOutRTJudge checks the harness alone, with no agent.

// rtSignIn is RT's login page, written three ways (phrasing i uses the i-th); the password
// is granted by the worker and is in no goal.
var rtSignIn = [3]string{
	`type "root" into "Username", type "{{secret:rt_password}}" into "Password", click "Login"`,
	`fill Username with root and Password with "{{secret:rt_password}}", then press Login`,
	`type root into the field labelled "Username", type "{{secret:rt_password}}" into the Password field and click the Login button`,
}

// rtText fills a phrasing in: {signin} is its way of signing in.
func rtText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", rtSignIn[i])
}

// TestHeldOutRT drives Debian's Request Tracker 5 — a real application nobody here wrote:
// a ticketing system in Perl and Mason (tickets in queues, their comments, statuses and
// owners, an admin area of queues, users and groups, drop-down menus, a rich-text editor)
// — with everyday goals written three ways each, and no model. Each phrasing runs on a
// fresh instance, starts at its login page, signs in with a password the worker grants,
// and is judged twice: by the run's status and by what RT's SQLite database holds.
// go test -tags heldout -run 'TestHeldOutRT$' ./e2e/
func TestHeldOutRT(t *testing.T) {
	if !testenv.RTInstalled() {
		t.Skip("Request Tracker is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_RT_PASSWORD="+testenv.RTPassword,
		`WEBAGENT_SECRETS={"rt_password": {"from": "env:WEBAGENT_TEST_RT_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(rtGoals)), make([][]string, len(rtGoals))
	for g, goal := range rtGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartRT(t)
		return poolRun(t, s, names[g], i+1, rtText(p, i), w.URL+"/", "RT's database",
			func() string { return rtGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.RTPassword) {
			t.Errorf("RT's password is in the history of %s", id)
		}
	})
}

// TestHeldOutRTJudge validates the harness without the agent: on a fresh instance the
// login page and the seed's tickets, queues and groups are shown and every judge says "not
// done"; each goal's effect, made through RT's own pages along the goal's path (signed in
// through its login page, each form sent as the page fills it, with the page's Referer),
// makes its judge say "done" and leaves the other judges at "not done"; a near miss of
// each leaves its judge at "not done"; and each phrasing reads as a whole goal once filled
// in.
// go test -tags heldout -run 'TestHeldOutRTJudge$' ./e2e/
func TestHeldOutRTJudge(t *testing.T) {
	if !testenv.RTInstalled() {
		t.Skip("Request Tracker is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartRT(t)
	t.Logf("a fresh RT was set up, seeded and served in %s", time.Since(began).Round(time.Millisecond))
	rtCheckFresh(t, fresh)
	for _, g := range rtGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := rtText(p, i)
			if strings.Contains(strings.ReplaceAll(text, "{{secret:rt_password}}", ""), "{") || !strings.Contains(text, rtSignIn[i]) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
			if steps, err := plan.Parse(text); err != nil || len(steps) == 0 {
				t.Errorf("%s, phrasing %d, does not parse (%v): %s", g.name, i+1, err, text)
			}
		}
	}
	for _, g := range rtGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartRT(t)
			b := w.Browser()
			g.do(t, w, b, b.SignIn(t))
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range rtGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartRT(t)
			b := w.Browser()
			g.miss(t, w, b, b.SignIn(t))
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

// rtCheckFresh checks what the goals rely on: the login page's fields, and after signing
// in the seed's tickets on RT at a glance, its Quick ticket creation box, the Admin
// menu's items and the seed's groups; and that the database holds the seed.
func rtCheckFresh(t *testing.T, w *testenv.RT) {
	b := w.Browser()
	login := testenv.RTText(b.Get(t, "/"))
	for _, want := range []string{"Username:", "Password:"} {
		if !strings.Contains(login, want) {
			t.Errorf("the login page lacks %q: %s", want, login)
		}
	}
	home := b.SignIn(t)
	text := testenv.RTText(home)
	for _, tk := range testenv.RTTickets {
		if !strings.Contains(text, tk.Subject) {
			t.Errorf("RT at a glance lacks the ticket %q", tk.Subject)
		}
	}
	for _, want := range []string{"Quick ticket creation", "Subject:", "Queue:", "Content:"} {
		if !strings.Contains(text, want) {
			t.Errorf("RT at a glance lacks %q", want)
		}
	}
	groups := testenv.RTText(b.Menu(t, home, "admin-groups"))
	for _, g := range testenv.RTGroups {
		if !strings.Contains(groups, g[0]) {
			t.Errorf("Admin > Groups lacks %q: %s", g[0], groups)
		}
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
}
