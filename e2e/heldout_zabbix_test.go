//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on the Zabbix frontend: its tests build only with -tags heldout, and
// TestHeldOutZabbix is run once, at the end, against an agent nobody tuned to Zabbix.
// TestHeldOutZabbixJudge checks the harness alone, with no agent.

// zabbixSignIn is the frontend's sign-in form, the page every goal starts at, written three
// ways (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var zabbixSignIn = [3]string{
	`type "Admin" into "Username", type "{{secret:zabbix_password}}" into "Password", click "Sign in"`,
	`fill Username with Admin and Password with "{{secret:zabbix_password}}", then press Sign in`,
	`Sign in first: enter Admin in the field labelled "Username", enter "{{secret:zabbix_password}}" in the field labelled "Password" and click the Sign in button.`,
}

// zabbixText fills a phrasing in: {signin} is its way of signing in.
func zabbixText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", zabbixSignIn[i])
}

// TestHeldOutZabbix drives Debian's Zabbix frontend — a real application nobody here
// wrote: the web panel of a monitoring system, for its hosts, host groups, users and
// maintenance periods — with everyday goals written three ways each, and no model. Each
// phrasing runs on a fresh instance, starts at the frontend's sign-in page, signs in with a
// password the worker grants, and is judged twice: by the run's status and by the
// frontend's MySQL database.
// go test -tags heldout -run 'TestHeldOutZabbix$' ./e2e/
func TestHeldOutZabbix(t *testing.T) {
	if !testenv.ZabbixInstalled() {
		t.Skip("the Zabbix frontend is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_ZABBIX_PASSWORD="+testenv.ZabbixPassword,
		`WEBAGENT_SECRETS={"zabbix_password": {"from": "env:WEBAGENT_TEST_ZABBIX_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(zabbixGoals)), make([][]string, len(zabbixGoals))
	for g, goal := range zabbixGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		z := testenv.StartZabbix(t)
		return poolRun(t, s, names[g], i+1, zabbixText(p, i), z.URL+"/", "Zabbix's database",
			func() string { return zabbixGoals[g].done(t, z) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.ZabbixPassword) {
			t.Errorf("Zabbix's password is in the history of %s", id)
		}
	})
}

// TestHeldOutZabbixJudge validates the harness without the agent: on a fresh instance the
// sign-in page and the pages the goals name are there and every judge says "not done";
// each goal's effect, made through the frontend's own pages along the goal's path (signed
// in through the sign-in form, each form sent as the page fills it or as its script sends
// it, the session's token with it), makes its judge say "done" and leaves the other judges
// at "not done"; a near miss of each leaves its judge at "not done"; and each phrasing,
// filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutZabbixJudge$' ./e2e/
func TestHeldOutZabbixJudge(t *testing.T) {
	if !testenv.ZabbixInstalled() {
		t.Skip("the Zabbix frontend is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartZabbix(t)
	t.Logf("a fresh Zabbix was loaded, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	zabbixCheckFresh(t, fresh)
	for _, g := range zabbixGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := zabbixText(p, i)
			if !strings.Contains(text, zabbixSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:zabbix_password}}", ""), "{") ||
				strings.Contains(text, testenv.ZabbixPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range zabbixGoals {
		t.Run(g.name, func(t *testing.T) {
			z := testenv.StartZabbix(t)
			b := z.Browser()
			b.SignIn(t)
			g.do(t, b, z)
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, z) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range zabbixGoals {
				if o.name != g.name && o.done(t, z) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			z := testenv.StartZabbix(t)
			b := z.Browser()
			b.SignIn(t)
			g.miss(t, b, z)
			if why := z.Differs(t, nil); why == "" {
				t.Fatalf("the near miss changed nothing in the database")
			}
			why := g.done(t, z)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// zabbixCheckFresh checks what the goals rely on: the sign-in form, the menu once signed
// in, the pages the goals open with the seed's rows and buttons they name, and the
// database as seeded.
func zabbixCheckFresh(t *testing.T, z *testenv.Zabbix) {
	b := z.Browser()
	signin := testenv.ZabbixText(b.Open(t, "/"))
	for _, want := range []string{"Username", "Password", "Sign in"} {
		if !strings.Contains(signin, want) {
			t.Errorf("the sign-in page lacks %q: %s", want, signin)
		}
	}
	b.SignIn(t)
	menu := testenv.ZabbixText(b.Page())
	for _, want := range []string{"Configuration", "Host groups", "Hosts", "Maintenance", "Administration", "Users"} {
		if !strings.Contains(menu, want) {
			t.Errorf("the menu lacks %q", want)
		}
	}
	pages := map[string][]string{
		"/hostgroups.php":                  {"Create host group", testenv.ZabbixWebServers, testenv.ZabbixStaging, testenv.ZabbixTest},
		"/zabbix.php?action=host.list":     {"Create host", "web-01", "web-02", "db-01", "Enabled"},
		"/zabbix.php?action=user.list":     {"Create user", "Admin", "guest"},
		"/maintenance.php":                 {"Create maintenance period"},
		"/zabbix.php?action=user.edit":     {"Username", "Last name", "Groups", "Password (once again)", "Permissions", "Role"},
		"/maintenance.php?form=create":     {"Name", "Periods", "Host groups", "Active since"},
		"/hostgroups.php?form=create":      {"Group name"},
		"/zabbix.php?action=host.edit":     {"Host name", "Visible name", "Groups", "Interfaces", "IP address"},
		"/zabbix.php?action=userrole.list": {"Admin role", "User role"},
	}
	for path, wants := range pages {
		text := testenv.ZabbixText(b.Open(t, path))
		for _, want := range wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q", path, want)
			}
		}
	}
	if why := z.Differs(t, nil); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if admin := z.Seed()["users"][testenv.ZabbixAdmin]; admin == nil || !testenv.ZabbixPasswordIs(admin["passwd"], testenv.ZabbixPassword) || admin["role"] != "Super admin role" {
		t.Errorf("the seed's Admin is not a super admin with the password the worker grants: %v", admin)
	}
}
