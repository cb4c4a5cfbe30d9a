//go:build heldout

package e2e

import (
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Jupyter Notebook's pages: its tests build only with -tags heldout,
// and TestHeldOutJupyter is run once, at the end, against an agent nobody tuned to Jupyter.
// TestHeldOutJupyterJudge checks the harness alone, with no agent.

// jupyterSignIn is Jupyter's login page, the page every goal starts at, written three ways
// (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var jupyterSignIn = [3]string{
	`type "{{secret:jupyter_password}}" into "Password", click "Log in"`,
	`log in with the password {{secret:jupyter_password}}`,
	`First sign in: enter "{{secret:jupyter_password}}" in the field labelled "Password" and press the Log in button.`,
}

// jupyterText fills a phrasing in: {signin} is its way of signing in.
func jupyterText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", jupyterSignIn[i])
}

// TestHeldOutJupyter drives Debian's Jupyter Notebook 6 — a real application nobody here
// wrote: the classic notebook server, whose pages are a file browser, a notebook editor, a
// text editor and a list of the notebooks running — with everyday goals written three ways
// each, and no model. Each phrasing runs on a fresh instance (its own folder of notebooks
// and files, its own configuration and port), starts at the login page, signs in with a
// password the worker grants, and is judged twice: by the run's status and by the folder's
// files and the server's REST API.
// go test -tags heldout -run 'TestHeldOutJupyter$' ./e2e/
func TestHeldOutJupyter(t *testing.T) {
	if !testenv.JupyterInstalled() {
		t.Skip("Jupyter Notebook is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_JUPYTER_PASSWORD="+testenv.JupyterPassword,
		`WEBAGENT_SECRETS={"jupyter_password": {"from": "env:WEBAGENT_TEST_JUPYTER_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(jupyterGoals)), make([][]string, len(jupyterGoals))
	for g, goal := range jupyterGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		j := testenv.StartJupyter(t)
		return poolRun(t, s, names[g], i+1, jupyterText(p, i), j.URL, "Jupyter's folder and sessions",
			func() string { return jupyterGoals[g].done(t, j) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.JupyterPassword) {
			t.Errorf("Jupyter's password is in the history of %s", id)
		}
	})
}

// TestHeldOutJupyterJudge validates the harness without the agent: on a fresh instance the
// login page, the file browser, the editors and the seed the goals start from are there and
// every judge says "not done"; each goal's effect, made through the server's REST API as
// its pages make it (signed in through the login form, the _xsrf cookie's value with each
// change), makes its judge say "done" and leaves the other judges at "not done"; a near
// miss of each leaves its judge at "not done"; and each phrasing, filled in, reads as a
// whole goal.
// go test -tags heldout -run 'TestHeldOutJupyterJudge$' ./e2e/
func TestHeldOutJupyterJudge(t *testing.T) {
	if !testenv.JupyterInstalled() {
		t.Skip("Jupyter Notebook is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartJupyter(t)
	t.Logf("a fresh Jupyter was seeded, started and its two notebooks opened in %s", time.Since(began).Round(time.Millisecond))
	jupyterCheckFresh(t, fresh)
	for _, g := range jupyterGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := jupyterText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:jupyter_password}}", "")
			if !strings.Contains(text, jupyterSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.JupyterPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range jupyterGoals {
		t.Run(g.name, func(t *testing.T) {
			j := testenv.StartJupyter(t)
			b := j.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, j) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range jupyterGoals {
				if o.name != g.name && o.done(t, j) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			j := testenv.StartJupyter(t)
			b := j.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if j.Differs(t, j.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the folder or the sessions")
			}
			why := g.done(t, j)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// jupyterCheckFresh checks what the goals rely on: the login form, the file browser's tabs,
// menus and buttons, the notebook editor's menus and cell types, the text editor's File
// menu, the seed's entries in the server's own listing, and the notebooks running.
func jupyterCheckFresh(t *testing.T, j *testenv.Jupyter) {
	b := j.Browser()
	login := b.Page(t, "/login")
	for _, want := range []string{"Password:", `id="password_input"`, "Log in"} {
		if !strings.Contains(login, want) {
			t.Errorf("the login page lacks %q", want)
		}
	}
	b.SignIn(t)
	pages := map[string][]string{
		"/tree": {">Files<", ">Running<", "<span>New</span>", ">Folder<", ">Text File<", ">Rename<", ">Move<", ">Duplicate",
			`title="Delete selected"`, ">Shutdown<"},
		"/notebooks/report.ipynb": {">File<", ">Save and Checkpoint<", ">Insert<", ">Insert Cell Below<", ">Cell Type<", ">Markdown<"},
		"/notebooks/budget.ipynb": {">Insert Cell Below<", ">Save and Checkpoint<"},
		"/edit/todo.txt":          {">File<", ">Save<"},
	}
	for path, wants := range pages {
		page := b.Page(t, path)
		for _, want := range wants {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %q", path, want)
			}
		}
		jupyterCheckAssets(t, b, path, page)
	}
	list := string(b.API(t, "GET", "/api/contents/", nil))
	for _, want := range []string{`"Untitled.ipynb"`, `"Untitled1.ipynb"`, `"old-notes.txt"`, `"todo.txt"`, `"budget.ipynb"`, `"archive"`} {
		if !strings.Contains(list, want) {
			t.Errorf("the server's listing lacks %s", want)
		}
	}
	if why := j.Differs(t, j.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := j.Seed()
	if strings.Join(s.Running, ",") != "analysis.ipynb,scratch.ipynb" || s.Entries["report.ipynb"].Cells[2].Type != "code" {
		t.Errorf("the seed lacks its running notebooks or report's code cell: %v", s)
	}
}

var jupyterAsset = regexp.MustCompile(`<(?:script|link)\b[^>]*\b(?:src|href)="(/(?:static|custom)/[^"]*)"`)

// jupyterCheckAssets checks that the scripts and style sheets a page names are served: the
// pages are drawn by them (Debian ships them as packages of their own).
func jupyterCheckAssets(t *testing.T, b *testenv.JupyterBrowser, path, page string) {
	found := jupyterAsset.FindAllStringSubmatch(page, -1)
	if len(found) < 5 {
		t.Errorf("%s names %d scripts and style sheets", path, len(found))
	}
	for _, m := range found {
		b.Page(t, html.UnescapeString(m[1]))
	}
}
