//go:build heldout

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Flood's page: its tests build only with -tags heldout, and
// TestHeldOutFlood is run once, at the end, against an agent nobody tuned to Flood.
// TestHeldOutFloodJudge checks the harness alone, with no agent.

// floodSignIn is Flood's Login form, where every goal starts (the root shows it to a
// visitor not signed in), written three ways (phrasing i uses the i-th); the password is
// granted by the worker and is in no goal.
var floodSignIn = [3]string{
	`type "admin" into "Username", type "{{secret:flood_password}}" into "Password", click "Log In"`,
	`log in as admin with password {{secret:flood_password}}`,
	`First sign in to Flood: put admin in the Username box and "{{secret:flood_password}}" in the Password box, then press Log In.`,
}

// floodText fills a phrasing in: {signin} is its way of signing in.
func floodText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", floodSignIn[i])
}

// TestHeldOutFlood drives npm's Flood — a real application nobody here wrote: a web UI for
// torrent clients, here in front of Debian's Transmission daemon, used for what a person
// does with it (start, stop, remove and tag torrents, search the list, set a speed limit,
// change the client's settings) — with everyday goals written three ways each, and no
// model. Each phrasing runs on a fresh instance (its own daemon, configuration and download
// folders, and Flood's own run folder), starts at Flood's sign-in, signs in with a password
// the worker grants, and is judged twice: by the run's status and by the daemon's own state.
// go test -tags heldout -run 'TestHeldOutFlood$' ./e2e/
func TestHeldOutFlood(t *testing.T) {
	if !testenv.FloodInstalled() {
		t.Skip("Flood is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_FLOOD_PASSWORD="+testenv.FloodPassword,
		`WEBAGENT_SECRETS={"flood_password": {"from": "env:WEBAGENT_TEST_FLOOD_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(floodGoals)), make([][]string, len(floodGoals))
	for g, goal := range floodGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartFlood(t)
		return poolRun(t, s, names[g], i+1, floodText(p, i), w.URL, "the Transmission daemon's torrents, settings and download folder",
			func() string { return floodGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.FloodPassword) {
			t.Errorf("Flood's password is in the history of %s", id)
		}
	})
}

// TestHeldOutFloodJudge validates the harness without the agent: on a fresh instance the
// sign-in page, its scripts and the list are there and every judge says "not done"; each
// goal's effect, made through Flood's own requests along the goal's path (signed in
// through the Login form), makes its judge say "done" and leaves the other judges at "not
// done"; a near miss of each leaves its judge at "not done"; and each phrasing, filled in,
// reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutFloodJudge$' ./e2e/
func TestHeldOutFloodJudge(t *testing.T) {
	if !testenv.FloodInstalled() {
		t.Skip("Flood is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartFlood(t)
	t.Logf("a fresh Transmission daemon and Flood were made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	floodCheckFresh(t, fresh)
	for _, g := range floodGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := floodText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:flood_password}}", "")
			if !strings.Contains(text, floodSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.FloodPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range floodGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartFlood(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := floodEventually(t, w, g.done); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range floodGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartFlood(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if floodEventually(t, w, func(t testing.TB, w *testenv.Flood) string {
				if w.Differs(t, w.Seed()) == "" {
					return "the near miss changed nothing"
				}
				return ""
			}) != "" {
				t.Fatalf("the near miss changed nothing in the daemon's state")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// floodEventually is what a judge says once the daemon has settled (a torrent started or
// stopped moves on its own within a second or two), "" as soon as it says done, within 10 s.
func floodEventually(t testing.TB, w *testenv.Flood, judge func(testing.TB, *testenv.Flood) string) string {
	return testenv.Eventually(10*time.Second, func() string { return judge(t, w) })
}

// floodCheckFresh checks what the goals rely on: the sign-in page and the scripts it loads
// (with the labels the goals name), the list with the seed's torrents and tags, the search
// the last goal makes, the client's settings as Settings shows them, and the daemon as
// seeded (signing in and browsing change none of it).
func floodCheckFresh(t *testing.T, w *testenv.Flood) {
	b := w.Browser()
	if page := b.Open(t, "/"); !strings.Contains(page, "<title>Flood</title>") {
		t.Errorf("the root is not Flood's page: %s", page)
	}
	var scripts strings.Builder
	for _, asset := range b.Assets(t) {
		scripts.WriteString(b.Open(t, asset))
	}
	for _, want := range []string{"Username", "Password", "Log In", "Stop Torrent", "Start Torrent", "Remove Torrent", "Delete data",
		"Set Tags", "Enter tags", "Speed Limits", "UPLOAD", "Search torrents", "Settings", "Resources", "Default Download Directory",
		"Save Settings", "Yes"} {
		if !strings.Contains(scripts.String(), `"`+want+`"`) {
			t.Errorf("Flood's scripts lack the label %q", want)
		}
	}
	b.SignIn(t)
	list := b.List(t)
	for _, s := range testenv.FloodSeed {
		tt, ok := list[s.Name]
		if !ok {
			t.Errorf("the list lacks %s", s.Name)
			continue
		}
		if !slices.Equal(tt.Tags, s.Tags) && len(tt.Tags)+len(s.Tags) > 0 {
			t.Errorf("the list shows %s tagged %q, not %q", s.Name, tt.Tags, s.Tags)
		}
		if stopped := slices.Contains(tt.Status, "stopped"); stopped != s.Stopped {
			t.Errorf("the list shows %s with the status %q", s.Name, tt.Status)
		}
	}
	if shown := b.Shown(t, "budget"); !slices.Equal(shown, []string{"city-budget-2023-draft.pdf", "city-budget-2023.pdf"}) {
		t.Errorf("searching for budget shows %q", shown)
	}
	conf := b.ClientSettings(t)
	if conf["directoryDefault"] != w.Downloads || conf["throttleGlobalUpSpeed"] != 0.0 || conf["throttleGlobalDownSpeed"] != 0.0 {
		t.Errorf("Settings shows the client's settings as %v", conf)
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := w.Seed()
	if s["session"]["speed-limit-up-enabled"] != "false" || s["data"]["city-budget-2023-draft.pdf"] != "1 of 1 files" ||
		!strings.Contains(s["torrent"]["holiday-photos-2022"], "tags=travel;") {
		t.Errorf("the seed lacks its unlimited upload, its draft's file or its tagged torrent: %v", s)
	}
}
