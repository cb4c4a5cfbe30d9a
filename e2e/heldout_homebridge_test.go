//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on the Homebridge UI's own pages: its tests build only with -tags
// heldout, and TestHeldOutHomebridge is run once, at the end, against an agent nobody
// tuned to Homebridge. TestHeldOutHomebridgeJudge checks the harness alone, with no agent.

// homebridgeSignIn is the Homebridge UI's sign-in page, where every goal starts (the start
// page sends a visitor there), written three ways (phrasing i uses the i-th); the password
// is granted by the worker and is in no goal.
var homebridgeSignIn = [3]string{
	`type "admin" into "Username", type "{{secret:homebridge_password}}" into "Password", click "Continue"`,
	`sign in as admin with the password {{secret:homebridge_password}}`,
	`First log in to the Homebridge UI: admin in the Username box, "{{secret:homebridge_password}}" as the Password, then press Continue.`,
}

// homebridgeText fills a phrasing in: {signin} is its way of signing in.
func homebridgeText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", homebridgeSignIn[i])
}

// TestHeldOutHomebridge drives npm's Homebridge UI (homebridge-config-ui-x) — a real
// application nobody here wrote: the web admin of Homebridge, the HomeKit bridge, used
// here for what it keeps itself (the users who may sign in, the bridge's name and port,
// the UI's own settings) — with everyday goals written three ways each, and no model. Each
// phrasing runs on a fresh instance (its own storage folder and port), starts at the
// sign-in page, signs in with a password the worker grants, and is judged twice: by the
// run's status and by the storage folder's config.json and auth.json.
// go test -tags heldout -run 'TestHeldOutHomebridge$' ./e2e/
func TestHeldOutHomebridge(t *testing.T) {
	if !testenv.HomebridgeInstalled() {
		t.Skip("Homebridge is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_HOMEBRIDGE_PASSWORD="+testenv.HomebridgePassword,
		`WEBAGENT_SECRETS={"homebridge_password": {"from": "env:WEBAGENT_TEST_HOMEBRIDGE_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(homebridgeGoals)), make([][]string, len(homebridgeGoals))
	for g, goal := range homebridgeGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartHomebridge(t)
		return poolRun(t, s, names[g], i+1, homebridgeText(p, i), w.URL, "the Homebridge UI's config.json and auth.json",
			func() string { return homebridgeGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.HomebridgePassword) {
			t.Errorf("the Homebridge UI's password is in the history of %s", id)
		}
	})
}

// TestHeldOutHomebridgeJudge validates the harness without the agent: on a fresh instance
// the sign-in page, the labels the goals name and the seed's users and settings are there
// and every judge says "not done"; each goal's effect, made through the requests the UI's
// own pages send (signed in through the sign-in form's request), makes its judge say
// "done" and leaves the other judges at "not done"; a near miss of each leaves its judge
// at "not done"; and each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutHomebridgeJudge$' ./e2e/
func TestHeldOutHomebridgeJudge(t *testing.T) {
	if !testenv.HomebridgeInstalled() {
		t.Skip("Homebridge is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartHomebridge(t)
	t.Logf("a fresh Homebridge UI and its storage folder were made, started and signed in to in %s", time.Since(began).Round(time.Millisecond))
	homebridgeCheckFresh(t, fresh)
	for _, g := range homebridgeGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := homebridgeText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:homebridge_password}}", "")
			if !strings.Contains(text, homebridgeSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.HomebridgePassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range homebridgeGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartHomebridge(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, w); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range homebridgeGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartHomebridge(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in config.json or auth.json")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// homebridgeCheckFresh checks what the goals rely on: the sign-in page and the scripts it
// loads, the labels the goals name in them, the seed's users as the Users page lists them,
// the bridge's name and port as the Settings page reads them, and the storage as seeded
// (reading the pages changes none of it), with admin's and the others' passwords.
func homebridgeCheckFresh(t *testing.T, w *testenv.Homebridge) {
	b := w.Browser()
	if page := b.Open(t, "/login"); !strings.Contains(page, "<app-root") || !strings.Contains(page, "<title>Homebridge</title>") {
		t.Errorf("the sign-in page is not the UI's: %.300s", page)
	}
	// The scripts write a degree sign as \xB0.
	scripts := b.Scripts(t)
	for _, label := range []string{"Welcome to Homebridge", "Continue", "User Accounts", "Add User", "Full Name", "Confirm Password",
		"New Password", "Admin User?", "Added New User", "User Updated", "User Deleted", "Homebridge Name", "Temperature Units",
		`Fahrenheit (\xB0F)`, "Lighting Mode", "Dark", "Homebridge Port", "Start Port", "Search..."} {
		if !strings.Contains(scripts, label) {
			t.Errorf("the UI's scripts lack the label %q", label)
		}
	}
	var settings struct {
		Env struct {
			Name string `json:"homebridgeInstanceName"`
		} `json:"env"`
		FormAuth bool `json:"formAuth"`
	}
	b.Get(t, "/auth/settings", &settings)
	if settings.Env.Name != "Homebridge Loft" || !settings.FormAuth {
		t.Errorf("the UI's settings are not the seed's: %+v", settings)
	}
	b.SignIn(t)
	var users []struct {
		Username, Name string
		Admin          bool
	}
	b.Get(t, "/users", &users)
	if len(users) != len(testenv.HomebridgeSeedUsers) {
		t.Errorf("the Users page lists %d users, not %d: %+v", len(users), len(testenv.HomebridgeSeedUsers), users)
	}
	for i, u := range testenv.HomebridgeSeedUsers {
		if i < len(users) && (users[i].Username != u.Username || users[i].Name != u.Name || users[i].Admin != u.Admin) {
			t.Errorf("the Users page lists %+v, not %+v", users[i], u)
		}
	}
	var port struct{ Port int }
	b.Get(t, "/server/port", &port)
	if port.Port != 51871 {
		t.Errorf("the Settings page reads the Homebridge Port %d, not 51871", port.Port)
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if !w.PasswordIs(t, "admin", testenv.HomebridgePassword) || !w.PasswordIs(t, "maria", testenv.HomebridgeSeedPassword) {
		t.Errorf("admin's or maria's password is not the seed's")
	}
	s := w.Seed()
	if s["bridge"]["name"] != `"Homebridge Loft"` || s["ui"]["tempUnits"] != `"c"` || s["ui"]["lightingMode"] != `"light"` ||
		s["user"]["jonas"] != "name=Jonas Keller; admin=true" || s["user"]["guest"] == "" {
		t.Errorf("the seed lacks its bridge's name, its display settings or its users: %v", s)
	}
}
