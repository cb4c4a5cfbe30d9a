//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Transmission: its tests build only with -tags heldout, and
// TestHeldOutTransmission is run once, at the end, against an agent nobody tuned to
// Transmission. TestHeldOutTransmissionJudge checks the harness alone, with no agent.
//
// Transmission's web interface has no login page (the daemon asks for HTTP basic auth when
// a user is set, a browser prompt rather than a page), so each instance runs without one,
// its RPC open to 127.0.0.1 alone, and no goal signs in.

// transmissionText fills a phrasing in: {media} is the instance's empty second folder.
func transmissionText(phrasing string, w *testenv.Transmission) string {
	return strings.ReplaceAll(phrasing, "{media}", w.Media)
}

// TestHeldOutTransmission drives Debian's Transmission — a real application nobody here
// wrote: a BitTorrent daemon whose web interface adds, pauses, resumes and removes torrents
// and edits its preferences — with everyday goals written three ways each, and no model.
// Each phrasing runs on a fresh, seeded instance cut off from the network, starts at its
// web interface and is judged twice: by the run's status and by what the daemon keeps, read
// through its own RPC (and its download folder on disk).
// go test -tags heldout -run 'TestHeldOutTransmission$' ./e2e/
func TestHeldOutTransmission(t *testing.T) {
	if !testenv.TransmissionInstalled() {
		t.Skip("Transmission is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	var rows []poolRow
	for _, g := range transmissionGoals {
		for i, p := range g.phrasings {
			// A harness that stops mid-way (t.Fatal) leaves the row at "not done".
			row := poolRow{goal: g.name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { row = runTransmissionGoal(t, s, g, i, p) })
			rows = append(rows, row)
		}
	}
	poolReport(t, rows)
}

// runTransmissionGoal runs one phrasing on a fresh instance and judges it; it never fails
// the test itself (the table at the end does).
func runTransmissionGoal(t *testing.T, s *stack, g transmissionGoal, i int, p string) poolRow {
	w := testenv.StartTransmission(t)
	text := transmissionText(p, w)
	return poolRun(t, s, g.name, i+1, text, w.URL, "Transmission's RPC", func() string { return g.done(t, w) })
}

// TestHeldOutTransmissionJudge validates the harness without the agent: on a fresh
// instance every judge says "not done"; each goal's effect, made through the RPC requests
// the web interface's own buttons, menus and dialogs send (the page loaded first, the
// session id handshake done), makes its judge say "done" and leaves the other judges at
// "not done"; a near miss of each leaves its judge at "not done"; and each phrasing reads as
// a whole goal once filled in.
// go test -tags heldout -run TestHeldOutTransmissionJudge ./e2e/
func TestHeldOutTransmissionJudge(t *testing.T) {
	if !testenv.TransmissionInstalled() {
		t.Skip("Transmission is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartTransmission(t)
	t.Logf("a fresh Transmission was seeded and served in %s", time.Since(began).Round(time.Millisecond))
	transmissionCheckFresh(t, fresh)
	for _, g := range transmissionGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if text := transmissionText(p, fresh); p == "" || strings.ContainsAny(text, "{}") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range transmissionGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartTransmission(t)
			b := w.Browser()
			b.Open(t)
			g.do(t, w, b)
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range transmissionGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartTransmission(t)
			b := w.Browser()
			b.Open(t)
			g.miss(t, w, b)
			time.Sleep(500 * time.Millisecond) // let a removal reach the disk
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// transmissionCheckFresh checks what the goals and the isolation rely on: the seed's
// torrents as the goals name them, their data on disk, and the network cut off.
func transmissionCheckFresh(t *testing.T, w *testenv.Transmission) {
	if why := transmissionExactly(w, nil); why != "" {
		t.Errorf("the seed: %s", why)
	}
	conf, err := w.Session()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"dht-enabled": "false", "lpd-enabled": "false", "pex-enabled": "false", "utp-enabled": "false",
		"port-forwarding-enabled": "false", "blocklist-enabled": "false", "speed-limit-down-enabled": "false", "start-added-torrents": "true"} {
		if conf[k] != v {
			t.Errorf("the fresh instance's %s is %s, not %s", k, conf[k], v)
		}
	}
	seeded := w.Seeded()
	for _, s := range testenv.TransmissionSeed {
		tt, ok := seeded[s.Name]
		if !ok || tt.Stopped() != s.Paused || (tt.PercentDone == 1) != s.Data {
			t.Errorf("the seed's %q is %+v", s.Name, tt)
		}
		if s.Data && len(w.DataOnDisk(s.Name)) != len(tt.Files) {
			t.Errorf("the seed's %q has %q on disk", s.Name, w.DataOnDisk(s.Name))
		}
	}
}
