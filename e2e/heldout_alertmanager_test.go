//go:build heldout

package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Prometheus Alertmanager's web UI: its tests build only with
// -tags heldout, and TestHeldOutAlertmanager is run once, at the end, against an agent
// nobody tuned to Alertmanager. TestHeldOutAlertmanagerJudge checks the harness alone, with
// no agent.

// TestHeldOutAlertmanager drives Debian's Prometheus Alertmanager with the web UI of its
// upstream version — a real application nobody here wrote: the server that groups Prometheus's
// alerts and silences them, whose single-page UI lists the firing alerts and creates, edits,
// expires and recreates silences — with everyday goals written three ways each, and no
// model. Each phrasing runs on a fresh instance (seeded with firing alerts and a few
// silences), starts at the UI's front page (there is no login) and is judged twice: by the
// run's status and by the silences and alerts Alertmanager's v2 API gives.
// go test -tags heldout -run 'TestHeldOutAlertmanager$' ./e2e/
func TestHeldOutAlertmanager(t *testing.T) {
	if !testenv.AlertmanagerInstalled() {
		t.Skip("Alertmanager is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(amGoals)), make([][]string, len(amGoals))
	for g, goal := range amGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartAlertmanager(t)
		return poolRun(t, s, names[g], i+1, p, w.URL, "Alertmanager's v2 API",
			func() string { return amGoals[g].done(t, w) })
	})
	poolReport(t, rows)
}

// amPlaceholder is a part of a phrasing left to fill in ({name}): none should be left.
var amPlaceholder = regexp.MustCompile(`\{[a-z_]+\}`)

// TestHeldOutAlertmanagerJudge validates the harness without the agent: on a fresh instance
// the UI and the names the goals use are there, the seed's alerts and silences are listed
// where the goals look for them and every judge says "not done"; each goal's effect, made
// through the UI's own pages along the goal's path (the requests each page and its silence
// form send), makes its judge say "done" and leaves the other judges at "not done"; a near
// miss of each leaves its judge at "not done"; and each phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutAlertmanagerJudge$' ./e2e/
func TestHeldOutAlertmanagerJudge(t *testing.T) {
	if !testenv.AlertmanagerInstalled() {
		t.Skip("Alertmanager is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartAlertmanager(t)
	t.Logf("a fresh Alertmanager was configured, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	amCheckFresh(t, fresh)
	for _, g := range amGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if strings.TrimSpace(p) != p || len(strings.Fields(p)) < 5 || amPlaceholder.MatchString(p) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
		}
	}
	for _, g := range amGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartAlertmanager(t)
			g.do(t, w, w.Browser())
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range amGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartAlertmanager(t)
			g.miss(t, w, w.Browser())
			if why := testenv.Eventually(10*time.Second, func() string { return amChanged(w) }); why != "" {
				t.Fatalf("the near miss changed nothing: %s", why)
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// amCheckFresh checks what the goals rely on: the UI (not Debian's page without one) and
// the names its pages show that the goals use, the seed's unsilenced alerts on the Alerts
// page, its silences in the Silences page's Active and Expired tabs, and the seed as the
// judges read it.
func amCheckFresh(t *testing.T, w *testenv.Alertmanager) {
	b := w.Browser()
	b.Open(t)
	script := b.Script(t)
	for _, want := range []string{"New Silence", "Expand all groups", "Silence", "Matchers", "Duration", "Creator", "Comment",
		"Create", "Update", "Silences", "Edit", "Expire", "Confirm", "Expired", "Recreate"} {
		if !strings.Contains(script, `"`+want+`"`) {
			t.Errorf("the UI's script does not write %q", want)
		}
	}
	shown := map[string]bool{}
	for _, a := range b.AlertsPage(t) {
		shown[amLabels(a.Labels)] = true
	}
	for i, l := range testenv.AlertmanagerSeedAlerts {
		if silenced := i >= 3; shown[amLabels(l)] == silenced {
			t.Errorf("the Alerts page shows %v: %v, want %v", l, shown[amLabels(l)], !silenced)
		}
	}
	for tab, keys := range map[string][]string{"active": {"blackbox", "redis"}, "expired": {"drill", "patching"}} {
		listed := map[string]bool{}
		for _, s := range b.SilencesPage(t, tab) {
			listed[s.ID] = true
		}
		for _, k := range keys {
			if !listed[w.SeedID(k)] {
				t.Errorf("the Silences page's %s tab does not list the seed's silence %s", tab, k)
			}
		}
		if len(listed) != len(keys) {
			t.Errorf("the Silences page's %s tab lists %d silences, want %d", tab, len(listed), len(keys))
		}
	}
	if why := amChanged(w); why == "" {
		t.Errorf("the fresh instance differs from its seed")
	}
}
