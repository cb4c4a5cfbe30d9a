//go:build heldout

package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on the Signal K server's own admin UI: its tests build only with
// -tags heldout, and TestHeldOutSignalK is run once, at the end, against an agent nobody
// tuned to Signal K. TestHeldOutSignalKJudge checks the harness alone, with no agent.

// signalkSignIn is the admin UI's Login form, where every goal starts (the start page
// shows it until one signs in), written three ways (phrasing i uses the i-th); the
// password is granted by the worker and is in no goal.
var signalkSignIn = [3]string{
	`type "admin" into "Username", type "{{secret:signalk_password}}" into "Password", click "Login"`,
	`log in as admin / {{secret:signalk_password}}`,
	`First sign in to the Signal K admin: put admin in the Username field and "{{secret:signalk_password}}" in the Password field, then hit the Login button.`,
}

// signalkText fills a phrasing in: {signin} is its way of signing in.
func signalkText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", signalkSignIn[i])
}

// TestHeldOutSignalK drives npm's Signal K server — a real application nobody here
// wrote: the data hub of a boat's instruments, used here through its admin UI for what it
// keeps itself (the vessel's base data, data connections, plugins' configuration, users
// and security settings) — with everyday goals written three ways each, and no model.
// Each phrasing runs on a fresh instance (its own configuration folder and port), starts
// at the admin UI's Login form, signs in with a password the worker grants, and is judged
// twice: by the run's status and by the server's own JSON files.
// go test -tags heldout -run 'TestHeldOutSignalK$' ./e2e/
func TestHeldOutSignalK(t *testing.T) {
	if !testenv.SignalKInstalled() {
		t.Skip("Signal K is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_SIGNALK_PASSWORD="+testenv.SignalKPassword,
		`WEBAGENT_SECRETS={"signalk_password": {"from": "env:WEBAGENT_TEST_SIGNALK_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(signalkGoals)), make([][]string, len(signalkGoals))
	for g, goal := range signalkGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartSignalK(t)
		return poolRun(t, s, names[g], i+1, signalkText(p, i), w.URL, "Signal K's configuration files",
			func() string { return signalkGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.SignalKPassword) {
			t.Errorf("Signal K's password is in the history of %s", id)
		}
	})
}

// TestHeldOutSignalKJudge validates the harness without the agent: on a fresh instance
// the Login form, the pages and the seed the goals name are there and every judge says
// "not done"; each goal's effect, made through the REST API as the admin UI's own pages
// send it (signed in through the Login form's request), makes its judge say "done" and
// leaves the other judges at "not done"; a near miss of each leaves its judge at "not
// done"; and each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutSignalKJudge$' ./e2e/
func TestHeldOutSignalKJudge(t *testing.T) {
	if !testenv.SignalKInstalled() {
		t.Skip("Signal K is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartSignalK(t)
	t.Logf("a fresh Signal K server was seeded and started in %s", time.Since(began).Round(time.Millisecond))
	signalkCheckFresh(t, fresh)
	for _, g := range signalkGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := signalkText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:signalk_password}}", "")
			if !strings.Contains(text, signalkSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.SignalKPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range signalkGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartSignalK(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range signalkGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartSignalK(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if testenv.Eventually(5*time.Second, func() string { return w.Differs(t, w.Seed()) }) == "" {
				t.Fatalf("the near miss changed nothing in the configuration files")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// signalkCheckFresh checks what the goals rely on: the Login form at the start page, the
// labels of the pages the goals go through in the admin UI's scripts, the seed's users,
// vessel and plugins as the pages list them, and the storage as seeded (browsing changes
// none of it).
func signalkCheckFresh(t *testing.T, w *testenv.SignalK) {
	b := w.Browser()
	if page := b.Open(t, "/admin/"); !strings.Contains(page, "<title>Signal K Server</title>") {
		t.Errorf("the start page is not the admin UI: %.300s", page)
	}
	var status struct {
		Status                 string `json:"status"`
		AuthenticationRequired bool   `json:"authenticationRequired"`
		ReadOnlyAccess         bool   `json:"readOnlyAccess"`
	}
	b.Get(t, "/skServer/loginStatus", &status)
	if status.Status != "notLoggedIn" || !status.AuthenticationRequired || status.ReadOnlyAccess {
		t.Errorf("a visitor is not asked to sign in: %+v", status)
	}
	scripts := b.Scripts(t)
	for _, want := range []string{`placeholder:"Username"`, `placeholder:"Password"`, "Remember Me", "Sign In to your account",
		"Security", "Users", "User ID", "Confirm Password", "Permissions", "Read/Write", "Read Only", "Apply", "Delete",
		"Vessel Base Data", "MMSI", "Data Connections", "Data Type", "NMEA 0183 Source", "TCP Client", "Host",
		"Plugin Config", "Search plugins...", "Save Configuration", "Allow Readonly Access", "Allow New User Registration"} {
		if !strings.Contains(scripts, want) {
			t.Errorf("the admin UI's scripts lack %q", want)
		}
	}
	b.SignIn(t)
	var users []struct{ UserID, Type string }
	b.Get(t, "/skServer/security/users", &users)
	listed, _ := json.Marshal(users)
	for _, u := range []string{`"martin","Type":"readonly"`, `"marta","Type":"readwrite"`, `"charter-guest"`, `"guest"`} {
		if !strings.Contains(string(listed), u) {
			t.Errorf("the Users page lacks %s: %s", u, listed)
		}
	}
	var vessel map[string]any
	b.Get(t, "/skServer/vessel", &vessel)
	if vessel["name"] != "Nordlys" || vessel["mmsi"] != "257123450" {
		t.Errorf("the Vessel Base Data form shows %v", vessel)
	}
	var plugins []struct {
		ID, Name string
		Schema   json.RawMessage
	}
	b.Get(t, "/skServer/plugins", &plugins)
	names := map[string]string{}
	for _, p := range plugins {
		names[p.Name] = p.ID + " " + string(p.Schema)
	}
	if !strings.Contains(names["N2K AIS to NMEA0183"], "Send self data") || names["AIS Status Manager"] == "" {
		t.Errorf("Plugin Config lacks N2K AIS to NMEA0183 (with Send self data) or AIS Status Manager: %v", names)
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if !w.PasswordIs(t, "admin", testenv.SignalKPassword) || !w.PasswordIs(t, "martin", testenv.SignalKSeedPassword) ||
		w.PasswordIs(t, "martin", testenv.SignalKPassword) {
		t.Errorf("admin's or martin's password is not the seed's")
	}
}
