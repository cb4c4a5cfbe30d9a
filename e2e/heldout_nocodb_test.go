//go:build heldout

package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on NocoDB's own pages: its tests build only with -tags heldout, and
// TestHeldOutNocoDB is run once, at the end, against an agent nobody tuned to NocoDB.
// TestHeldOutNocoDBJudge checks the harness alone, with no agent.

// nocodbSignIn is NocoDB's sign-in page, where every goal starts (the app's root sends a
// visitor there), written three ways (phrasing i uses the i-th); the password is granted
// by the worker and is in no goal.
var nocodbSignIn = [3]string{
	`type "` + testenv.NocoDBEmail + `" into "E-mail", type "{{secret:nocodb_password}}" into "Password", click "SIGN IN"`,
	`sign in as ` + testenv.NocoDBEmail + ` with the password {{secret:nocodb_password}}`,
	`First log in to NocoDB: put ` + testenv.NocoDBEmail + ` in the E-mail field and "{{secret:nocodb_password}}" in Password, then hit SIGN IN.`,
}

// nocodbText fills a phrasing in: {signin} is its way of signing in.
func nocodbText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", nocodbSignIn[i])
}

// TestHeldOutNocoDB drives npm's NocoDB — a real application nobody here wrote: an
// Airtable-like app over a database, used here for a bookshop's base (its books, authors
// and orders) — with everyday goals written three ways each. Each phrasing runs on a fresh
// instance (its own SQLite file and port), starts at the app's root (its sign-in page),
// signs in with a password the worker grants, and is judged twice: by the run's status
// and by NocoDB's SQLite file.
// go test -tags heldout -run 'TestHeldOutNocoDB$' ./e2e/
func TestHeldOutNocoDB(t *testing.T) {
	if !testenv.NocoDBInstalled() {
		t.Skip("NocoDB is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_NOCODB_PASSWORD="+testenv.NocoDBPassword,
		`WEBAGENT_SECRETS={"nocodb_password": {"from": "env:WEBAGENT_TEST_NOCODB_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(nocodbGoals)), make([][]string, len(nocodbGoals))
	for g, goal := range nocodbGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		n := testenv.StartNocoDB(t)
		return poolRun(t, s, names[g], i+1, nocodbText(p, i), n.URL, "NocoDB's SQLite file",
			func() string { return nocodbGoals[g].done(t, n) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.NocoDBPassword) {
			t.Errorf("NocoDB's password is in the history of %s", id)
		}
	})
}

// TestHeldOutNocoDBJudge validates the harness without the agent: on a fresh instance the
// sign-in page, the web UI's labels the goals name and the seed are there and every judge
// says "not done"; each goal's effect, made through the requests NocoDB's pages send
// (signed in as its sign-in page signs in), makes its judge say "done" and leaves the other
// judges at "not done"; a near miss of each leaves its judge at "not done"; and each
// phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutNocoDBJudge$' ./e2e/
func TestHeldOutNocoDBJudge(t *testing.T) {
	if !testenv.NocoDBInstalled() {
		t.Skip("NocoDB is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartNocoDB(t)
	t.Logf("a fresh NocoDB was started, its owner signed up and its base seeded in %s", time.Since(began).Round(time.Millisecond))
	nocodbCheckFresh(t, fresh)
	for _, g := range nocodbGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := nocodbText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:nocodb_password}}", "")
			if !strings.Contains(text, nocodbSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.NocoDBPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range nocodbGoals {
		t.Run(g.name, func(t *testing.T) {
			n := testenv.StartNocoDB(t)
			b := n.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, n); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range nocodbGoals {
				if o.name != g.name && o.done(t, n) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			n := testenv.StartNocoDB(t)
			b := n.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if n.Differs(t, n.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the SQLite file")
			}
			why := g.done(t, n)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// nocodbCheckFresh checks what the goals rely on: the root sends a visitor to the web UI,
// whose page and scripts are served; the UI's labels the goals name; the seed's base,
// tables, fields and records; and the storage as seeded (signing in changes none of it).
func nocodbCheckFresh(t *testing.T, n *testenv.NocoDB) {
	b := n.Browser()
	if code, page := b.Page(t, "/"); code != http.StatusOK || !strings.Contains(page, "_nuxt") {
		t.Errorf("the app's root does not lead to the web UI (%d): %.300s", code, page)
	}
	ui := testenv.NocoDBUIText(t)
	for _, want := range []string{`"SIGN IN"`, `"E-mail"`, `"New record"`, `"Save record"`, `"Rename"`, `"Table"`,
		`"Create View"`, `"Create view"`, `"Add filter"`, `"Filter"`, `"is equal"`, `"Delete record"`, `"Field"`,
		`"Search In"`, `"Single line text"`, `"URL"`, `"Grid"`} {
		if !strings.Contains(ui, want) {
			t.Errorf("the web UI's scripts lack the label %s", want)
		}
	}
	b.SignIn(t)
	s := n.Seed()
	for kind, keys := range map[string][]string{
		"base":   {"Bookshop"},
		"table":  {"Books", "Authors", "Orders"},
		"field":  {"Books.Title", "Books.Stock", "Books.Genre", "Authors.Name", "Authors.Country", "Authors.Email", "Orders.Status"},
		"view":   {"Books/Books", "Authors/Authors", "Orders/Orders"},
		"record": {"Books/Northern Skies", "Books/Northern Lights", "Books/The Silent Forest", "Books/The Silent Harbor", "Authors/Maria Lopez"},
	} {
		for _, k := range keys {
			if _, ok := s[kind][k]; !ok {
				t.Errorf("the seed lacks the %s %q: %v", kind, k, s[kind])
			}
		}
	}
	if v := s["record"]["Books/Northern Skies"]; !strings.Contains(v, "Stock=12") {
		t.Errorf("Northern Skies's stock is not 12: %s", v)
	}
	if len(s["base"]) != 1 || s["field"]["Authors.Website"] != "" {
		t.Errorf("the seed has other bases or a Website field already: %v %v", s["base"], s["field"])
	}
	if why := n.Differs(t, n.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
}
