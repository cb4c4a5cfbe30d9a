//go:build heldout

package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Directus's Data Studio: its tests build only with -tags heldout,
// and TestHeldOutDirectus is run once, at the end, against an agent nobody tuned to
// Directus. TestHeldOutDirectusJudge checks the harness alone, with no agent.

// directusSignIn is the Data Studio's sign-in page, where every goal starts, written three
// ways (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var directusSignIn = [3]string{
	`type "admin@example.com" into "Email", type "{{secret:directus_password}}" into "Password", click "Sign In"`,
	`sign in as admin@example.com with the password "{{secret:directus_password}}"`,
	`Start by logging in: put admin@example.com in the Email field and "{{secret:directus_password}}" in the Password field, then hit the Sign In button.`,
}

// directusText fills a phrasing in: {signin} is its way of signing in.
func directusText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", directusSignIn[i])
}

// TestHeldOutDirectus drives Directus — a real application nobody here wrote: a headless
// CMS whose Data Studio manages a project's collections, their fields and items, its users
// and roles and its settings — with everyday goals written three ways each, and no model.
// Each phrasing runs on a fresh instance (its own SQLite database, bootstrapped and
// seeded), starts at the sign-in page, signs in with a password the worker grants, and is
// judged twice: by the run's status and by Directus's database, read back with sqlite3.
// go test -tags heldout -run 'TestHeldOutDirectus$' ./e2e/
func TestHeldOutDirectus(t *testing.T) {
	if !testenv.DirectusInstalled() {
		t.Skip("Directus is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_DIRECTUS_PASSWORD="+testenv.DirectusPassword,
		`WEBAGENT_SECRETS={"directus_password": {"from": "env:WEBAGENT_TEST_DIRECTUS_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(directusGoals)), make([][]string, len(directusGoals))
	for g, goal := range directusGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		d := testenv.StartDirectus(t)
		return poolRun(t, s, names[g], i+1, directusText(p, i), d.URL, "Directus's database",
			func() string { return directusGoals[g].done(t, d) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.DirectusPassword) {
			t.Errorf("Directus's password is in the history of %s", id)
		}
	})
}

// TestHeldOutDirectusJudge validates the harness without the agent: on a fresh instance
// the sign-in page, the app's labels the goals name and the seed the goals act on are
// there and every judge says "not done"; each goal's effect, made through the REST API as
// the Data Studio's pages send it (signed in with the session cookie the sign-in form
// gets), makes its judge say "done" and leaves the other judges at "not done"; a near miss
// of each leaves its judge at "not done"; and each phrasing, filled in, reads as a whole
// goal.
// go test -tags heldout -run 'TestHeldOutDirectusJudge$' ./e2e/
func TestHeldOutDirectusJudge(t *testing.T) {
	if !testenv.DirectusInstalled() {
		t.Skip("Directus is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartDirectus(t)
	t.Logf("a fresh Directus was bootstrapped, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	directusCheckFresh(t, fresh)
	for _, g := range directusGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := directusText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:directus_password}}", "")
			if !strings.Contains(text, directusSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.DirectusPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range directusGoals {
		t.Run(g.name, func(t *testing.T) {
			d := testenv.StartDirectus(t)
			b := d.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, d); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range directusGoals {
				if o.name != g.name && o.done(t, d) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			d := testenv.StartDirectus(t)
			b := d.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if d.Differs(t, nil) == "" {
				t.Fatalf("the near miss changed nothing in the database")
			}
			why := g.done(t, d)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// directusCheckFresh checks what the goals rely on: the sign-in page and the labels of the
// pages the goals pass through, the seed's collections, items, roles and users as the
// pages read them, the Status dropdown's choices, the project's name, and the database as
// seeded.
func directusCheckFresh(t *testing.T, d *testenv.Directus) {
	b := d.Browser()
	app := b.AppText(t)
	for key, label := range map[string]string{
		"sign_in": "Sign In", "email": "Email", "password": "Password", "create": "Create", "save": "Save",
		"delete_label": "Delete", "user_directory": "User Directory", "first_name": "First Name", "last_name": "Last Name",
		"role": "Role", "settings_project": "Settings", "settings_data_model": "Data Model", "project_name": "Project Name",
		"create_field": "Create Field", "input": "Input", "key": "Key",
	} {
		if !testenv.DirectusLabel(app, key, label) {
			t.Errorf("the Data Studio has no label %q (%s)", label, key)
		}
	}
	b.SignIn(t)
	var info struct {
		Project struct {
			Name string `json:"project_name"`
		} `json:"project"`
	}
	b.Get(t, "/server/info", &info)
	if info.Project.Name != testenv.DirectusProject {
		t.Errorf("the project is named %q, not %q", info.Project.Name, testenv.DirectusProject)
	}
	directusCheckSeedItems(t, b)
	var status struct {
		Meta struct {
			Options struct {
				Choices []struct{ Text, Value string } `json:"choices"`
			} `json:"options"`
		} `json:"meta"`
	}
	b.Get(t, "/fields/articles/status", &status)
	if raw, _ := json.Marshal(status.Meta.Options.Choices); !strings.Contains(string(raw), `{"Text":"Published","Value":"published"}`) ||
		!strings.Contains(string(raw), `{"Text":"Draft","Value":"draft"}`) {
		t.Errorf("the Status dropdown does not offer Published and Draft: %s", raw)
	}
	if why := d.Differs(t, nil); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := d.Seed()
	if s["users"]["admin@example.com"]["role"] != "Administrator" || s["users"]["lena.fischer@example.com"]["role"] != "Editor" ||
		s["articles"]["Local Library Extends Weekend Hours"]["status"] != "draft" || s["fields"]["articles.subtitle"] != nil {
		t.Errorf("the seed lacks its administrator, its editor or its draft, or has a subtitle: %v", s)
	}
}

// directusCheckSeedItems checks that the collections' pages list the seed's items and the
// user page's Role list its roles.
func directusCheckSeedItems(t *testing.T, b *testenv.DirectusBrowser) {
	for _, a := range testenv.DirectusArticles {
		if b.ItemID(t, "articles", "title", a.Title) == "" {
			t.Errorf("Articles does not list %q", a.Title)
		}
	}
	for _, a := range testenv.DirectusAuthors {
		if b.ItemID(t, "authors", "name", a.Name) == "" {
			t.Errorf("Authors does not list %q", a.Name)
		}
	}
	for _, r := range testenv.DirectusRoles {
		b.RoleID(t, r)
	}
}
