//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on OCS Inventory NG's console: its tests build only with -tags
// heldout, and TestHeldOutOCSInventory is run once, at the end, against an agent nobody
// tuned to OCS Inventory. TestHeldOutOCSInventoryJudge checks the harness alone, with no
// agent.

// ocsSignIn is the console's sign-in form, where every goal starts, written three ways
// (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var ocsSignIn = [3]string{
	`type "admin" into "User", type "{{secret:ocsinventory_password}}" into "Password", click "Send"`,
	`sign in as admin with password {{secret:ocsinventory_password}}`,
	`First log in to the OCS Inventory console: put admin in the User field and "{{secret:ocsinventory_password}}" in the Password field, then hit the Send button.`,
}

// ocsText fills a phrasing in: {signin} is its way of signing in.
func ocsText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", ocsSignIn[i])
}

// TestHeldOutOCSInventory drives Debian's OCS Inventory NG console — a real application
// nobody here wrote: the web console of an IT inventory, for the computers its agents
// report, their TAG and other administrative data, static groups of computers, the
// console's users and profiles, and the server's settings — with everyday goals written
// three ways each, and no model. Each phrasing runs on a fresh instance (its own MariaDB
// server and copy of the console), starts at the sign-in page, signs in with a password
// the worker grants, and is judged twice: by the run's status and by the console's
// database.
// go test -tags heldout -run 'TestHeldOutOCSInventory$' ./e2e/
func TestHeldOutOCSInventory(t *testing.T) {
	if !testenv.OCSInventoryInstalled() {
		t.Skip("OCS Inventory's console is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_OCSINVENTORY_PASSWORD="+testenv.OCSInventoryPassword,
		`WEBAGENT_SECRETS={"ocsinventory_password": {"from": "env:WEBAGENT_TEST_OCSINVENTORY_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(ocsGoals)), make([][]string, len(ocsGoals))
	for g, goal := range ocsGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		o := testenv.StartOCSInventory(t)
		return poolRun(t, s, names[g], i+1, ocsText(p, i), o.URL+"/index.php", "OCS Inventory's database",
			func() string { return ocsGoals[g].done(t, o) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.OCSInventoryPassword) {
			t.Errorf("OCS Inventory's password is in the history of %s", id)
		}
	})
}

// TestHeldOutOCSInventoryJudge validates the harness without the agent: on a fresh
// instance the sign-in page and the pages the goals start from are there and every judge
// says "not done"; each goal's effect, made through the console's own pages along the
// goal's path (signed in through the sign-in form, each form sent as the page fills it,
// its CSRF token with it), makes its judge say "done" and leaves the other judges at "not
// done"; a near miss of each leaves its judge at "not done"; and each phrasing, filled in,
// reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutOCSInventoryJudge$' ./e2e/
func TestHeldOutOCSInventoryJudge(t *testing.T) {
	if !testenv.OCSInventoryInstalled() {
		t.Skip("OCS Inventory's console is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartOCSInventory(t)
	t.Logf("a fresh OCS Inventory console and its MariaDB server were made, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	ocsCheckFresh(t, fresh)
	for _, g := range ocsGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := ocsText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:ocsinventory_password}}", "")
			if !strings.Contains(text, ocsSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.OCSInventoryPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range ocsGoals {
		t.Run(g.name, func(t *testing.T) {
			o := testenv.StartOCSInventory(t)
			b := o.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, o); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, other := range ocsGoals {
				if other.name != g.name && other.done(t, o) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, other.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			o := testenv.StartOCSInventory(t)
			b := o.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if o.Differs(t, nil) == "" {
				t.Fatalf("the near miss changed nothing in the database")
			}
			why := g.done(t, o)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// ocsCheckFresh checks what the goals rely on: the sign-in form, the menu once signed in,
// the computers' list with the seed's computers, each page a goal goes through with the
// controls it names, and the storage as seeded (browsing the pages changes none of it).
func ocsCheckFresh(t *testing.T, o *testenv.OCSInventory) {
	b := o.Browser()
	raw := b.Open(t, "/index.php")
	for _, want := range []string{`placeholder="User"`, `placeholder="Password"`, `value="Send"`} {
		if !strings.Contains(raw, want) {
			t.Errorf("the sign-in page lacks %s", want)
		}
	}
	b.SignIn(t)
	for _, c := range testenv.OCSComputers {
		b.FindComputer(t, c.Name)
	}
	b.OpenComputer(t, "LAB-PC-10", "config")
	if text := testenv.OCSText(b.Page()); !strings.Contains(text, "Statically add to this group") || !strings.Contains(b.Page(), ">Lab Machines</option>") {
		t.Errorf("LAB-PC-10's Configuration lacks the groups' list: %s", text)
	}
	b.OpenComputer(t, "LAB-PC-02", "admin")
	if !strings.Contains(b.Page(), `name='TAG' id='TAG' value='LAB'`) || !strings.Contains(b.Page(), `value="OK"`) {
		t.Errorf("LAB-PC-02's Administrative data lacks its TAG: %s", testenv.OCSText(b.Page()))
	}
	pages := []struct {
		path  string
		wants []string
	}{
		{"/index.php?function=visu_computers", []string{"All computers", "Inventory", "Configuration", "Manage", "Groups", "General configuration",
			"Users", "Administrative data", "Logout"}},
		{"/index.php?function=visu_groups", []string{"DYNAMIC GROUPS", "STATIC GROUPS"}},
		{"/index.php?function=admin_user", []string{"Users", "Profiles", "Create user", "Create profile"}},
		{"/index.php?function=admin_add_user", []string{"Login :", "Type :", "Local administrators", "RO", "First name :", "Last name :", "Password :"}},
		{"/index.php?function=admin_conf", []string{"Inventory", "Server", "FREQUENCY", "Always inventoried", "Never inventoried", "Custom", "day(s)"}},
		{"/index.php?function=admin_info", []string{"Data available", "New data", "Administrative data", "computers"}},
	}
	for _, p := range pages {
		text := testenv.OCSText(b.Open(t, p.path))
		for _, want := range p.wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q: %s", p.path, want, text)
			}
		}
	}
	if !strings.Contains(b.Open(t, "/index.php?function=visu_groups"), "value='New static group'") {
		t.Errorf("Groups has no New static group button")
	}
	b.Open(t, "/index.php?function=admin_info")
	text := testenv.OCSText(b.Pag(t, "admin_info", "onglet", "2"))
	for _, want := range []string{"New Field", "Caption", "Field Type", "TEXT", "Tab", "TAG", "Send"} {
		if !strings.Contains(text, want) && !strings.Contains(b.Page(), `value="`+want+`"`) {
			t.Errorf("Administrative data's New data tab lacks %q: %s", want, text)
		}
	}
	for _, asset := range []string{"/css/ocsreports.css", "/js/function.js", "/javascript/jquery/jquery.min.js", "/javascript/jquery-datatables/jquery.dataTables.min.js", "/javascript/bootstrap/js/bootstrap.min.js"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the pages load, is missing or empty", asset)
		}
	}
	if why := o.Differs(t, nil); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := o.Seed()
	if !testenv.OCSPasswordIs(s["operators"]["admin"]["PASSWD"], testenv.OCSInventoryPassword) ||
		!testenv.OCSPasswordIs(s["operators"][testenv.OCSOperator]["PASSWD"], testenv.OCSOperatorPassword) {
		t.Errorf("admin's or %s's password is not the seed's", testenv.OCSOperator)
	}
	if s["groups_cache"]["Lab Machines > LAB-PC-02"] == nil || s["accountinfo"]["LAB-PC-02"]["TAG"] != "LAB" || s["config"]["FREQUENCY"]["IVALUE"] != "0" {
		t.Errorf("the seed lacks a group member, a TAG or the inventory frequency: %v", s)
	}
}
