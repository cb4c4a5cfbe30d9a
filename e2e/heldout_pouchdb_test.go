//go:build heldout

package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on PouchDB Server's Fauxton: its tests build only with -tags heldout,
// and TestHeldOutPouchdb is run once, at the end, against an agent nobody tuned to Fauxton.
// TestHeldOutPouchdbJudge checks the harness alone, with no agent.

// TestHeldOutPouchdb drives npm's PouchDB Server 4.2.0 through the admin web interface it
// serves, Fauxton — a real application nobody here wrote: a CouchDB-compatible database
// server, used here for what a person does with its admin pages (create and delete a
// database; create a document, change, add and remove one of its fields in the JSON
// editor, delete a document; change a setting) — with everyday goals written three ways each, and no model.
// Each phrasing runs on a fresh instance (its own folder of databases and config.json,
// seeded with a small shop's customers, orders, products and stock), starts at Fauxton's
// Databases page, and is judged twice: by the run's status and by every database and
// document the server's own API reads from its storage, and the settings of its
// config.json. The server has no admin (no
// sign-in: see testenv.Pouchdb), so the worker is granted no secret.
// go test -tags heldout -run 'TestHeldOutPouchdb$' ./e2e/
func TestHeldOutPouchdb(t *testing.T) {
	if !testenv.PouchdbInstalled() {
		t.Skip("PouchDB Server is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(pouchdbGoals)), make([][]string, len(pouchdbGoals))
	for g, goal := range pouchdbGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartPouchdb(t)
		return poolRun(t, s, names[g], i+1, p, w.URL, "PouchDB Server's databases",
			func() string { return pouchdbGoals[g].done(t, w) })
	})
	poolReport(t, rows)
}

// TestHeldOutPouchdbJudge validates the harness without the agent: on a fresh instance
// Fauxton's page and the script that draws its pages, dialogs and editor are there, the
// server is an admin party (no sign-in), and every judge says "not done"; each goal's
// effect, made through the requests Fauxton sends, makes its judge say "done" and leaves
// the other judges at "not done"; a near miss of each changes the databases but leaves its
// judge at "not done"; and each phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutPouchdbJudge$' ./e2e/
func TestHeldOutPouchdbJudge(t *testing.T) {
	if !testenv.PouchdbInstalled() {
		t.Skip("PouchDB Server is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartPouchdb(t)
	t.Logf("a fresh PouchDB Server was started and seeded in %s", time.Since(began).Round(time.Millisecond))
	pouchdbCheckFresh(t, fresh)
	for _, g := range pouchdbGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if strings.ContainsAny(p, "{}") || len(strings.Fields(p)) < 8 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
		}
	}
	for _, g := range pouchdbGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartPouchdb(t)
			g.do(t, w.Browser())
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range pouchdbGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartPouchdb(t)
			g.miss(t, w.Browser())
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed no database and no setting")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// pouchdbBundle finds the script Fauxton's page loads (its whole app).
var pouchdbBundle = regexp.MustCompile(`<script src="\./(dashboard\.assets/js/bundle-[0-9a-f]+\.js)"`)

// pouchdbStyles finds the style sheet Fauxton's page loads.
var pouchdbStyles = regexp.MustCompile(`<link rel="stylesheet" href="\./(dashboard\.assets/css/styles-[0-9a-f]+\.css)"`)

// pouchdbCheckFresh checks what the goals rely on: the server's version, Fauxton's page
// and the script that draws the Databases page, its Create Database tray, the Delete
// Database dialog, a database's page, New Doc, the document editor with its buttons and
// the Configuration page's boxes and save buttons; the timeout setting the goal changes;
// the admin party (Fauxton then shows every control with no sign-in); each document the
// goals open, as the editor loads it; and the databases as seeded (reading them changes
// none of it).
func pouchdbCheckFresh(t *testing.T, w *testenv.Pouchdb) {
	b := w.Browser()
	if root := b.Open(t, "/"); !strings.Contains(root, `"version":"`+testenv.PouchdbVersion+`"`) {
		t.Errorf("the server is not pouchdb-server %s: %s", testenv.PouchdbVersion, root)
	}
	page := b.Open(t, "/_utils/")
	m := pouchdbBundle.FindStringSubmatch(page)
	if !strings.Contains(page, `<div id="app">`) || m == nil {
		t.Fatalf("Fauxton's page has no app or no script: %s", page)
	}
	bundle := b.Open(t, "/_utils/"+m[1])
	for _, s := range []string{"Create Database", "Name of database", "Delete Database",
		"you must enter the database's name", "All Documents", "New Doc", "Create Document", "Save Changes",
		"Edit document", "Delete Document", "Are you sure you want to delete this document?", "Add Option",
		"config-value-input", "btn-config-save"} {
		if !strings.Contains(bundle, s) {
			t.Errorf("Fauxton's script has no %q", s)
		}
	}
	if css := pouchdbStyles.FindStringSubmatch(page); css == nil || len(b.Open(t, "/_utils/"+css[1])) < 1000 {
		t.Errorf("Fauxton's style sheet is missing or empty: %v", css)
	}
	var timeout string
	b.Get(t, "/_node/node1@127.0.0.1/_config/couch_httpd_auth/timeout", &timeout)
	if timeout != "600" {
		t.Errorf("the Configuration page would show couch_httpd_auth's timeout as %q, not 600", timeout)
	}
	if s := b.Open(t, "/_session"); !strings.Contains(s, `"_admin"`) {
		t.Errorf("the server is not an admin party (Fauxton would ask to sign in): %s", s)
	}
	for db, id := range map[string]string{"customers": "cust-0003", "products": "prod-0005", "orders": "order-1005"} {
		if doc := b.Doc(t, db, id); doc["_id"] != id || doc["_rev"] == nil {
			t.Errorf("the editor would load %s/%s as %v", db, id, doc)
		}
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if why := w.Seed().Diff(testenv.PouchdbSeed); !strings.Contains(why, `"_users"`) || strings.Count(why, ";") != 1 {
		t.Errorf("the seed is not PouchdbSeed and the server's _replicator and _users: %s", why)
	}
}
