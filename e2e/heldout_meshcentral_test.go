//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on MeshCentral's web app: its tests build only with -tags heldout,
// and TestHeldOutMeshCentral is run once, at the end, against an agent nobody tuned to
// MeshCentral. TestHeldOutMeshCentralJudge checks the harness alone, with no agent.

// meshcentralSignIn is MeshCentral's login page, where every goal starts, written three
// ways (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var meshcentralSignIn = [3]string{
	`type "admin" into "Username", type "{{secret:meshcentral_password}}" into "Password", click "Log In"`,
	`log in as admin / {{secret:meshcentral_password}}`,
	`First sign in to MeshCentral: put admin in the Username box and "{{secret:meshcentral_password}}" in the Password box, then press Log In.`,
}

// meshcentralText fills a phrasing in: {signin} is its way of signing in.
func meshcentralText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", meshcentralSignIn[i])
}

// TestHeldOutMeshCentral drives npm's MeshCentral — a real application nobody here wrote:
// a remote device management server, used here for what its web app manages without any
// device (device groups and their members, user accounts and their server permissions,
// the administrator's own account settings) — with everyday goals written three ways
// each, and no model. Each phrasing runs on a fresh instance (its own meshcentral-data
// folder and port), starts at the login page, signs in with a password the worker grants,
// and is judged twice: by the run's status and by MeshCentral's NeDB database.
// go test -tags heldout -run 'TestHeldOutMeshCentral$' ./e2e/
func TestHeldOutMeshCentral(t *testing.T) {
	if !testenv.MeshCentralInstalled() {
		t.Skip("MeshCentral is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_MESHCENTRAL_PASSWORD="+testenv.MeshCentralPassword,
		`WEBAGENT_SECRETS={"meshcentral_password": {"from": "env:WEBAGENT_TEST_MESHCENTRAL_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(meshcentralGoals)), make([][]string, len(meshcentralGoals))
	for g, goal := range meshcentralGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartMeshCentral(t)
		return poolRun(t, s, names[g], i+1, meshcentralText(p, i), w.URL+"/", "MeshCentral's database",
			func() string { return meshcentralGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.MeshCentralPassword) {
			t.Errorf("MeshCentral's password is in the history of %s", id)
		}
	})
}

// TestHeldOutMeshCentralJudge validates the harness without the agent: on a fresh
// instance the login page and what the goals use are there and every judge says "not
// done"; each goal's effect, made through the web app's own commands along the goal's path
// (signed in through the login form, each dialog's OK sent on the app's WebSocket as its
// page sends it), makes its judge say "done" and leaves the other judges at "not done"; a
// near miss of each leaves its judge at "not done"; and each phrasing, filled in, reads as
// a whole goal.
// go test -tags heldout -run 'TestHeldOutMeshCentralJudge$' ./e2e/
func TestHeldOutMeshCentralJudge(t *testing.T) {
	if !testenv.MeshCentralInstalled() {
		t.Skip("MeshCentral is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartMeshCentral(t)
	t.Logf("a fresh MeshCentral was made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	meshcentralCheckFresh(t, fresh)
	for _, g := range meshcentralGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := meshcentralText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:meshcentral_password}}", "")
			if !strings.Contains(text, meshcentralSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.MeshCentralPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range meshcentralGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartMeshCentral(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, w); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range meshcentralGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartMeshCentral(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, b)
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

// meshcentralCheckFresh checks what the goals rely on: the login form; the web app's page
// once signed in, with the menu, dialogs and links the goals name (the app draws them from
// its script); the seed's device groups and accounts as the app lists them; the assets the
// page loads; and the storage as seeded (signing in and listing change none of it).
func meshcentralCheckFresh(t *testing.T, w *testenv.MeshCentral) {
	b := w.Browser()
	raw := b.Open(t, "/")
	for _, want := range []string{`placeholder="Username"`, `placeholder="Password"`, `value="Log In"`, testenv.MeshCentralTitle} {
		if !strings.Contains(raw, want) {
			t.Errorf("the login page lacks %s", want)
		}
	}
	b.SignIn(t)
	app := b.Open(t, "/")
	for _, want := range []string{`title="My Devices"`, `title="My Account"`, `title="My Users"`, "Add Device Group", "New Device Group",
		"Click here to edit the device group name", "Edit Device Group", "Delete Group", "Confirm", "Add Users", "Add Users to Device Group",
		"User Identifiers", "Full Administrator", "New Account...", "Create Account", "Filter", "No server rights", "Server Permissions",
		"Lock Account", "Lock Account Settings", "Change email address", "Email Address Change", "Account actions"} {
		if !strings.Contains(app, want) {
			t.Errorf("the web app's page lacks %q", want)
		}
	}
	for _, g := range testenv.MeshCentralSeedGroups {
		b.GroupID(t, g.Name)
	}
	for _, u := range testenv.MeshCentralSeedUsers {
		b.UserID(t, u.Name)
	}
	for _, asset := range []string{"/images/link5.png", "/images/mesh-256.png", "/scripts/common-0.0.1.js", "/favicon.ico"} {
		if len(b.Open(t, asset)) < 200 {
			t.Errorf("%s, which the page loads, is missing or empty", asset)
		}
	}
	b.Close()
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if !w.PasswordIs(t, "admin", testenv.MeshCentralPassword) || !w.PasswordIs(t, "omar", testenv.MeshCentralSeedPassword) {
		t.Errorf("admin's or omar's password is not the seed's")
	}
	s := w.Seed()
	if s["group"]["Servers"]["user:tom"] == "" || s["user"]["thomas"]["group:Office PCs"] != "8" || s["user"]["omar"]["siteadmin"] != "" ||
		s["user"]["admin"]["email"] != testenv.MeshCentralEmail || s["group"]["Old Kiosks"]["deleted"] != "" {
		t.Errorf("the seed lacks a membership, omar is not a plain account, admin's email is not the seed's or Old Kiosks is deleted: %v", s)
	}
}
