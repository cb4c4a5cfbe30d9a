//go:build heldout

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Monit's web interface: its tests build only with -tags heldout,
// and TestHeldOutMonit is run once, at the end, against an agent nobody tuned to Monit.
// TestHeldOutMonitJudge checks the harness alone, with no agent.
//
// Monit's web interface can only ask for credentials by HTTP Basic (it has no sign-in
// page), and asks for none unless an "allow user:password" line is set, so each
// instance's is open to localhost without accounts, as Cloud Commander's instance runs
// without its HTTP Basic: the goals have no sign-in and the worker is granted no secret.

// TestHeldOutMonit drives Debian's Monit — a real application nobody here wrote: a
// process and service monitor whose web interface lists the services it checks and
// stops, starts and restarts each one and disables or enables its monitoring — with
// everyday goals written three ways each, and no model. Each phrasing runs on a fresh
// instance (a monit daemon of its own with its own monitrc and a small web shop's
// services, the processes started by the harness, in a temporary folder), starts at the
// home page, and is judged twice: by the run's status and by monit's own status report
// and the processes themselves.
// go test -tags heldout -run 'TestHeldOutMonit$' ./e2e/
func TestHeldOutMonit(t *testing.T) {
	if !testenv.MonitInstalled() {
		t.Skip("Monit is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(monitGoals)), make([][]string, len(monitGoals))
	for g, goal := range monitGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartMonit(t)
		return poolRun(t, s, names[g], i+1, p, w.URL, "monit's status report and the processes",
			func() string { return monitGoals[g].done(t, w) })
	})
	poolReport(t, rows)
}

// TestHeldOutMonitJudge validates the harness without the agent: on a fresh instance the
// home page, each service's page with the buttons the goals press and what the goals name
// are there and every judge says "not done"; each goal's effect, made through the pages'
// own links and forms, makes its judge say "done" and leaves the other judges at "not
// done"; a near miss of each changes monit's state or the processes but leaves its judge
// at "not done"; and each phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutMonitJudge$' ./e2e/
func TestHeldOutMonitJudge(t *testing.T) {
	if !testenv.MonitInstalled() {
		t.Skip("Monit is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartMonit(t)
	t.Logf("a fresh monit was made, started and settled in %s", time.Since(began).Round(time.Millisecond))
	monitCheckFresh(t, fresh)
	for _, g := range monitGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if strings.ContainsAny(p, "{}") || len(strings.Fields(p)) < 4 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
		}
	}
	for _, g := range monitGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartMonit(t)
			g.do(t, w.Browser())
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range monitGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartMonit(t)
			g.miss(t, w.Browser())
			if testenv.Eventually(5*time.Second, func() string { return w.Differs(t, w.Seed()) }) == "" {
				t.Fatalf("the near miss changed nothing in monit's state or the processes")
			}
			time.Sleep(2 * time.Second) // what a slow judge would see
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// monitCheckFresh checks what the goals rely on: the home page with its tables and each
// seed service's link and status, each service's page with its buttons (Start, Stop and
// Restart service for a process, Disable or Enable monitoring as seeded), monit's own
// summary telling the same, and the state as seeded (browsing the pages changes none of
// it).
func monitCheckFresh(t *testing.T, w *testenv.Monit) {
	b := w.Browser()
	text := testenv.IcingaWebText(b.Open(t, "/"))
	for _, want := range []string{"Monit Service Manager", "running on " + testenv.MonitSystem, "System", "Process", "Program", "File", "Directory", "Status"} {
		if !strings.Contains(text, want) {
			t.Errorf("the home page lacks %q: %s", want, text)
		}
	}
	for _, s := range testenv.MonitSeedServices {
		status, toggle := "OK", "Disable monitoring"
		if !s.Monitored {
			status, toggle = "Not monitored", "Enable monitoring"
		}
		if !strings.Contains(text, s.Name+" "+status) {
			t.Errorf("the home page does not show %s as %s: %s", s.Name, status, text)
		}
		b.Open(t, "/")
		page := testenv.IcingaWebText(b.Click(t, s.Name))
		if !strings.Contains(page, "Name "+s.Name+" ") {
			t.Errorf("the page of %s does not name it: %s", s.Name, page)
		}
		want := []string{toggle}
		if s.Kind == "process" {
			want = []string{"Start service", "Stop service", "Restart service", toggle}
		}
		if got := b.Buttons(); !slices.Equal(got, want) {
			t.Errorf("the page of %s has the buttons %q, want %q", s.Name, got, want)
		}
	}
	monitCheckSummary(t, w)
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := w.Seed()
	if s["pid of export-worker"] == "" || s["pid of invoice-mailer"] != "" || s["pid of thumbnail-worker"] == "" ||
		s["monitoring of thumbnail-worker"] != "not monitored" || s["monitoring of backups"] != "not monitored" ||
		s["monitoring of disk-usage-report"] != "monitored" || s["starts of report-worker"] != "1" {
		t.Errorf("the seed lacks its running, stopped or unmonitored services: %v", s)
	}
}

// monitCheckSummary checks that monit's own command line (monit -c monitrc summary) tells
// of each service what its status report, which the judges read, says.
func monitCheckSummary(t *testing.T, w *testenv.Monit) {
	out, err := w.Summary()
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 1 {
			lines[f[0]] = strings.Join(f[1:], " ")
		}
	}
	for _, s := range append([]testenv.MonitService{{Name: testenv.MonitSystem, Kind: "system", Monitored: true}}, testenv.MonitSeedServices...) {
		status := "OK"
		if !s.Monitored {
			status = "Not monitored"
		}
		if want := status + " " + strings.ToUpper(s.Kind[:1]) + s.Kind[1:]; lines[s.Name] != want {
			t.Errorf("monit summary says %s is %q, want %q:\n%s", s.Name, lines[s.Name], want, out)
		}
	}
}
