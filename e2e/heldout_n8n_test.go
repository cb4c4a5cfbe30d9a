//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on n8n's own pages: its tests build only with -tags heldout, and
// TestHeldOutN8N is run once, at the end, against an agent nobody tuned to n8n.
// TestHeldOutN8NJudge checks the harness alone, with no agent.

// n8nSignIn is n8n's sign-in page, where every goal starts, written three ways (phrasing i
// uses the i-th); the password is granted by the worker and is in no goal.
var n8nSignIn = [3]string{
	`type "maya@example.com" into "Email", type "{{secret:n8n_password}}" into "Password", click "Sign in"`,
	`sign in as maya@example.com / {{secret:n8n_password}}`,
	`First sign in to n8n: put maya@example.com in the Email field and "{{secret:n8n_password}}" in the Password field, then hit the Sign in button.`,
}

// n8nText fills a phrasing in: {signin} is its way of signing in.
func n8nText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", n8nSignIn[i])
}

// TestHeldOutN8N drives npm's n8n — a real application nobody here wrote: a workflow
// automation tool whose editor manages workflows, their tags, credentials and the user's
// personal settings — with everyday goals written three ways each, and no model. Each
// phrasing runs on a fresh instance (its own user folder and SQLite database), starts at
// the sign-in page, signs in with a password the worker grants, and is judged twice: by
// the run's status and by n8n's database.
// go test -tags heldout -run 'TestHeldOutN8N$' ./e2e/
func TestHeldOutN8N(t *testing.T) {
	if !testenv.N8NInstalled() {
		t.Skip("n8n is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_N8N_PASSWORD="+testenv.N8NPassword,
		`WEBAGENT_SECRETS={"n8n_password": {"from": "env:WEBAGENT_TEST_N8N_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(n8nGoals)), make([][]string, len(n8nGoals))
	for g, goal := range n8nGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		n := testenv.StartN8N(t)
		return poolRun(t, s, names[g], i+1, n8nText(p, i), n.URL, "n8n's database",
			func() string { return n8nGoals[g].done(t, n) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.N8NPassword) {
			t.Errorf("n8n's password is in the history of %s", id)
		}
	})
}

// TestHeldOutN8NJudge validates the harness without the agent: on a fresh instance the
// sign-in page and the labels the goals name are there, the seed is, and every judge says
// "not done"; each goal's effect, made through the REST requests n8n's own pages send
// (signed in as the sign-in page signs in), makes its judge say "done" and leaves the
// other judges at "not done"; a near miss of each leaves its judge at "not done"; and each
// phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutN8NJudge$' ./e2e/
func TestHeldOutN8NJudge(t *testing.T) {
	if !testenv.N8NInstalled() {
		t.Skip("n8n is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartN8N(t)
	t.Logf("a fresh n8n was started, migrated and seeded in %s", time.Since(began).Round(time.Millisecond))
	n8nCheckFresh(t, fresh)
	for _, g := range n8nGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := n8nText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:n8n_password}}", "")
			if !strings.Contains(text, n8nSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.N8NPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range n8nGoals {
		t.Run(g.name, func(t *testing.T) {
			n := testenv.StartN8N(t)
			b := n.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, n); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range n8nGoals {
				if o.name != g.name && o.done(t, n) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			n := testenv.StartN8N(t)
			b := n.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if n.Differs(t, n.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the database")
			}
			why := g.done(t, n)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// n8nCheckFresh checks what the goals rely on: the sign-in page and the labels of the
// pages the goals pass through (the editor's English texts and the credential types it
// offers), the seed's workflows, tags, credentials and owner, and the storage as seeded
// (signing in and reading the pages changes none of it).
func n8nCheckFresh(t *testing.T, n *testenv.N8N) {
	b := n.Browser()
	b.SignIn(t)
	app := b.AppText(t)
	for _, want := range []string{"<title>n8n.io - Workflow Automation</title>", "`Sign in`", "`Email`", "`Password`",
		"`Create workflow`", "`My workflow`", "`Overview`", "`Search`", "`Archive`", "`Duplicate`", "`Duplicate Workflow`",
		"`Edit description and tags`", "`Rename`", "`Tags`", "`Choose or create a tag`", "`Settings`", "`Personal`",
		"`Personal Settings`", "`First Name`", "`Last Name`", "`Save`", "`Create credential`", "`Add new credential`",
		"`Search for app...`", "`Continue`", "`Credentials`", `"displayName":"Header Auth"`, `"displayName":"Value"`} {
		if !strings.Contains(app, want) {
			t.Errorf("the editor lacks %s", want)
		}
	}
	s := n.Seed()
	for _, w := range testenv.N8NSeedWorkflows {
		row := s["workflows"][w.Name]
		if row == nil || row["archived"] != "0" || row["tags"] != strings.Join(w.Tags, ", ") && w.Name != "Weekly Marketing Report" {
			t.Errorf("the seed's workflow %q is not as seeded: %v", w.Name, row)
		}
	}
	if s["workflows"]["Weekly Marketing Report"]["tags"] != "marketing, reports" || len(s["tags"]) != len(testenv.N8NSeedTags) ||
		s["credentials"]["Billing API Key"]["type"] != "httpHeaderAuth" || len(s["credentials"]) != 2 {
		t.Errorf("the seed lacks its tags or credentials: %v", s)
	}
	owner := s["users"][testenv.N8NEmail]
	if owner["firstName"] != testenv.N8NFirstName || owner["lastName"] != testenv.N8NLastName || owner["role"] != "global:owner" {
		t.Errorf("the owner is not as set up: %v", owner)
	}
	if why := n.Differs(t, n.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
}
