//go:build heldout

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Actual Budget's own pages: its tests build only with -tags
// heldout, and TestHeldOutActual is run once, at the end, against an agent nobody tuned to
// Actual. TestHeldOutActualJudge checks the harness alone, with no agent.

// actualSignIn is Actual's sign-in page and its Files page, where every goal starts (the
// server's root shows them), written three ways (phrasing i uses the i-th); the password
// is granted by the worker and is in no goal.
var actualSignIn = [3]string{
	`type "{{secret:actual_password}}" into "Password", click "Sign in", click "Household Budget"`,
	`sign in with the server password {{secret:actual_password}} and open the Household Budget file`,
	`First sign in to Actual: put "{{secret:actual_password}}" in the Password box and press Sign in, then pick the budget file called Household Budget.`,
}

// actualText fills a phrasing in: {signin} is its way of signing in.
func actualText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", actualSignIn[i])
}

// TestHeldOutActual drives npm's Actual Budget — a real application nobody here wrote: a
// personal finance app whose web app keeps a budget's accounts, payees, categories, each
// month's budgeted amounts, transactions and rules, and syncs them to its server — with
// everyday goals written three ways each. Each phrasing runs on a fresh instance (its own
// server folders and budget file), starts at the server's root (its sign-in page), signs in
// with a password the worker grants, opens the budget file, and is judged twice: by the
// run's status and by the budget the server holds, downloaded and read back with Actual's
// own API client.
// go test -tags heldout -run 'TestHeldOutActual$' ./e2e/
func TestHeldOutActual(t *testing.T) {
	if !testenv.ActualInstalled() {
		t.Skip("Actual is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_ACTUAL_PASSWORD="+testenv.ActualPassword,
		`WEBAGENT_SECRETS={"actual_password": {"from": "env:WEBAGENT_TEST_ACTUAL_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(actualGoals)), make([][]string, len(actualGoals))
	for g, goal := range actualGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		a := testenv.StartActual(t)
		return poolRun(t, s, names[g], i+1, actualText(p, i), a.URL, "Actual's budget file on its server",
			func() string { return actualGoals[g].done(t, a) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.ActualPassword) {
			t.Errorf("Actual's password is in the history of %s", id)
		}
	})
}

// TestHeldOutActualJudge validates the harness without the agent: on a fresh instance the
// sign-in page, the web app's files and the controls the goals name are there, the budget
// file holds the seed the goals name, and every judge says "not done"; each goal's effect,
// made through the server as the web app makes it (signed in with the password, the budget
// file opened from the Files page's list, the change sent as sync messages by Actual's own
// budget code), makes its judge say "done" and leaves the other judges at "not done"; a
// near miss of each leaves its judge at "not done"; and each phrasing, filled in, reads as
// a whole goal.
// go test -tags heldout -run 'TestHeldOutActualJudge$' ./e2e/
func TestHeldOutActualJudge(t *testing.T) {
	if !testenv.ActualInstalled() {
		t.Skip("Actual is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartActual(t)
	t.Logf("a fresh Actual server was started, its password set and its budget file made and seeded in %s", time.Since(began).Round(time.Millisecond))
	actualCheckFresh(t, fresh)
	for _, g := range actualGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := actualText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:actual_password}}", "")
			if !strings.Contains(text, actualSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.ActualPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range actualGoals {
		t.Run(g.name, func(t *testing.T) {
			a := testenv.StartActual(t)
			b := a.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, a); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range actualGoals {
				if o.name != g.name && o.done(t, a) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			a := testenv.StartActual(t)
			b := a.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if a.Differs(t, nil) == "" {
				t.Fatalf("the near miss changed nothing in the budget")
			}
			why := g.done(t, a)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// actualCheckFresh checks what the goals rely on: the server bootstrapped with a password,
// its start page and the files the web app loads, the labels of the controls the goals
// name in the web app's code, and the budget file as seeded (signing in and reading it
// changes none of it).
func actualCheckFresh(t *testing.T, a *testenv.Actual) {
	b := a.Browser()
	var boot struct {
		Data struct {
			Bootstrapped bool
			LoginMethod  string
		}
	}
	if err := json.Unmarshal([]byte(b.Open(t, "/account/needs-bootstrap")), &boot); err != nil || !boot.Data.Bootstrapped || boot.Data.LoginMethod != "password" {
		t.Errorf("the server is not bootstrapped with a password: %v %+v", err, boot)
	}
	index := b.Open(t, "/")
	script := regexp.MustCompile(`src="(/static/js/index\.[^"]+\.js)"`).FindStringSubmatch(index)
	if script == nil {
		t.Fatalf("the start page loads no web app: %.500s", index)
	}
	for _, asset := range []string{script[1], "/sql-wasm.wasm", "/data-file-index.txt", "/favicon.ico"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the web app loads, is missing or empty", asset)
		}
	}
	actualCheckLabels(t)
	b.SignIn(t)
	s := a.Seed()
	for table, keys := range map[string][]string{
		"account":  {"Everyday Checking", "Visa Card"},
		"payee":    {"Fresh Market", "Fresh Mart", "Corner Cafe", "Corner Bakery", "City Power", "City Parking", "Starting Balance"},
		"group":    {"Bills", "Usual Expenses"},
		"category": {"Groceries", "Dining Out", "Electricity", "Starting Balances"},
		"budget":   {a.Month + " Dining Out", a.Month + " Groceries"},
		"rule":     {"payee is Metro Fuel"},
	} {
		for _, k := range keys {
			if s[table][k] == nil {
				t.Errorf("the seed lacks the %s %q:\n%s", table, k, s)
			}
		}
	}
	if len(s.Transactions("Everyday Checking", "Corner Cafe")) != 2 || s["budget"][a.Month+" Dining Out"]["amount"] != "150.00" ||
		s["account"]["Travel Fund"] != nil || s["category"]["Water"] != nil || s["payee"]["Corner Coffee House"] != nil {
		t.Errorf("the seed is not what the goals start from:\n%s", s)
	}
	if why := a.Differs(t, nil); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
}

// actualCheckLabels checks that the web app the server serves has the pages and controls
// the goals name (its code holds each label once, as the pages show it in English).
func actualCheckLabels(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testenv.ActualDir(), "node_modules", "@actual-app", "web", "build", "static", "js", "*.js"))
	var code strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code.Write(data)
	}
	for _, label := range []string{"Sign in to this Actual instance", "Add account", "Create a local account", "Create Local Account",
		"Add New", "Search", "Payment", "Payees", "Filter payees...", "Rules", "Create new rule", "Then apply these actions:",
		"Add category", "New category name", "Budgeted", "{{count}} transactions", "Confirm Delete"} {
		if !strings.Contains(code.String(), label) {
			t.Errorf("the web app has no %q", label)
		}
	}
}
