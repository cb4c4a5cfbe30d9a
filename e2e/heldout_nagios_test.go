//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Nagios Core: its tests build only with -tags heldout, and
// TestHeldOutNagios is run once, at the end, against an agent nobody tuned to Nagios.
// TestHeldOutNagiosJudge checks the harness alone, with no agent.
//
// Nagios's classic interface has no sign-in page: Debian's Apache set-up asks for HTTP
// digest auth (a browser prompt rather than a page) before a command is sent. Each
// instance's server hands every request to the CGIs as the one user, authorized for
// everything, so no goal signs in and no secret is granted.

// nagiosText fills a phrasing in: {date} is the day the goals schedule for (the instance's
// tomorrow), written as Nagios's forms write dates.
func nagiosText(phrasing string, w *testenv.Nagios) string {
	return strings.ReplaceAll(phrasing, "{date}", w.FormDate())
}

// TestHeldOutNagios drives Debian's Nagios Core 4 — a real application nobody here wrote:
// a host and service monitor whose classic web interface is C CGIs and PHP pages in two
// frames — with everyday goals written three ways each, and no model. Each phrasing runs
// on a fresh instance, starts at the interface's front page and is judged twice: by the
// run's status and by what the daemon keeps in its status.dat.
// go test -tags heldout -run 'TestHeldOutNagios$' ./e2e/
func TestHeldOutNagios(t *testing.T) {
	if !testenv.NagiosInstalled() {
		t.Skip("Nagios is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(nagiosGoals)), make([][]string, len(nagiosGoals))
	for g, goal := range nagiosGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartNagios(t)
		return poolRun(t, s, names[g], i+1, nagiosText(p, w), w.URL+"/nagios4/", "Nagios's status.dat",
			func() string { return nagiosGoals[g].done(t, w) })
	})
	poolReport(t, rows)
}

// TestHeldOutNagiosJudge validates the harness without the agent: on a fresh instance the
// interface's frames are served and every judge says "not done"; each goal's effect, made
// through Nagios's own pages along the goal's path (the side menu's links, the command
// links of a host's or service's page, cmd.cgi's form with the cookie it sets), makes its
// judge say "done" once the daemon has processed the command and leaves the other judges
// at "not done"; a near miss of each leaves its judge at "not done"; and each phrasing
// reads as a whole goal once filled in.
// go test -tags heldout -run 'TestHeldOutNagiosJudge$' ./e2e/
func TestHeldOutNagiosJudge(t *testing.T) {
	if !testenv.NagiosInstalled() {
		t.Skip("Nagios is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartNagios(t)
	t.Logf("a fresh Nagios was configured, checked, seeded and served in %s", time.Since(began).Round(time.Millisecond))
	nagiosCheckFresh(t, fresh)
	for _, g := range nagiosGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if text := nagiosText(p, fresh); strings.ContainsAny(text, "{}") || strings.TrimSpace(text) == "" {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range nagiosGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartNagios(t)
			g.do(t, w, w.Browser())
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range nagiosGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartNagios(t)
			g.miss(t, w, w.Browser())
			// The miss reaches status.dat as the effect would: wait until it is there.
			if why := testenv.Eventually(10*time.Second, func() string { return nagiosChanged(w) }); why != "" {
				t.Fatalf("the near miss changed nothing in status.dat: %s", why)
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// nagiosCheckFresh checks what the goals rely on: the front page's two frames, the side
// menu's links and search box, and the seed's problems and comments on the pages.
func nagiosCheckFresh(t *testing.T, w *testenv.Nagios) {
	b := w.Browser()
	if front := b.Open(t, "/"); !strings.Contains(front, `name="side"`) || !strings.Contains(front, `name="main"`) {
		t.Errorf("the front page is not the two frames:\n%s", front)
	}
	side := testenv.NagiosText(b.Open(t, "/nagios4/side.php"))
	for _, want := range []string{"Hosts", "Services", "Comments", "Downtime", "Quick Search:"} {
		if !strings.Contains(side, want) {
			t.Errorf("the side menu lacks %q: %s", want, side)
		}
	}
	b.Click(t, "Services")
	services := testenv.NagiosText(b.Page())
	for _, want := range []string{"Disk Space CRITICAL", "Backup Job CRITICAL", "Mail Queue WARNING", "HTTPS Certificate WARNING", "12 Matching Services"} {
		if !strings.Contains(services, want) {
			t.Errorf("the Services page lacks %q: %s", want, services)
		}
	}
	if why := w.Differs(w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
}
