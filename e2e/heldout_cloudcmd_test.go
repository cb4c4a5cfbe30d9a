//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Cloud Commander's own pages: its tests build only with -tags
// heldout, and TestHeldOutCloudcmd is run once, at the end, against an agent nobody tuned
// to Cloud Commander. TestHeldOutCloudcmdJudge checks the harness alone, with no agent.

// TestHeldOutCloudcmd drives npm's Cloud Commander — a real application nobody here wrote:
// a two-panel web file manager, used here for what a person does with one (make a folder
// and a file, rename, delete, move and copy a file, edit a text file in its editor) — with
// everyday goals written three ways each, and no model. Each phrasing runs on a fresh
// instance (its own root folder holding the seed, and its own home folder), starts at the
// app's root page, and is judged twice: by the run's status and by the files and folders
// under that root. Cloud Commander asks for credentials by HTTP Basic alone, so its
// instances have no sign-in (see testenv.Cloudcmd) and the worker is granted no secret.
// go test -tags heldout -run 'TestHeldOutCloudcmd$' ./e2e/
func TestHeldOutCloudcmd(t *testing.T) {
	if !testenv.CloudcmdInstalled() {
		t.Skip("Cloud Commander is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(cloudcmdGoals)), make([][]string, len(cloudcmdGoals))
	for g, goal := range cloudcmdGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartCloudcmd(t)
		return poolRun(t, s, names[g], i+1, p, w.URL, "the files under Cloud Commander's root",
			func() string { return cloudcmdGoals[g].done(t, w) })
	})
	poolReport(t, rows)
}

// TestHeldOutCloudcmdJudge validates the harness without the agent: on a fresh instance
// the root page, its buttons and the folders the goals open are there and every judge says
// "not done"; each goal's effect, made through Cloud Commander's own REST calls (those its
// dialogs and editor send), makes its judge say "done" and leaves the other judges at "not
// done"; a near miss of each changes the root but leaves its judge at "not done"; and each
// phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutCloudcmdJudge$' ./e2e/
func TestHeldOutCloudcmdJudge(t *testing.T) {
	if !testenv.CloudcmdInstalled() {
		t.Skip("Cloud Commander is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartCloudcmd(t)
	t.Logf("a fresh Cloud Commander was seeded and started in %s", time.Since(began).Round(time.Millisecond))
	cloudcmdCheckFresh(t, fresh)
	for _, g := range cloudcmdGoals {
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
	for _, g := range cloudcmdGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartCloudcmd(t)
			g.do(t, w.Browser())
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range cloudcmdGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartCloudcmd(t)
			g.miss(t, w.Browser())
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing under the root")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// cloudcmdCheckFresh checks what the goals rely on: the root page with both panels on the
// root folder, the buttons under them (their titles), every folder's page listing the
// seed's files, the scripts the page loads for its menu, dialogs, operations and editor,
// and the root as seeded (browsing the pages changes none of it).
func cloudcmdCheckFresh(t *testing.T, w *testenv.Cloudcmd) {
	b := w.Browser()
	root := b.Open(t, "/")
	if n := strings.Count(root, `data-name="js-files"`); n != 2 {
		t.Errorf("the root page has %d panels, not 2", n)
	}
	for _, button := range []string{"F4", "F5", "F6", "F7", "F8", "F9"} {
		if !strings.Contains(root, `id=`+strings.ToLower(button)+` `) || !strings.Contains(root, ">"+button+"</button>") {
			t.Errorf("the root page has no %s button", button)
		}
	}
	for _, title := range []string{"title=Edit", "title=Copy", "title=Move", `title="New Directory"`, "title=Delete", "title=Menu"} {
		if !strings.Contains(root, title) {
			t.Errorf("the root page has no button with %s", title)
		}
	}
	pages := map[string]string{"": root}
	for _, p := range cloudcmdNames() {
		dir := ""
		if i := strings.LastIndex(strings.TrimSuffix(p, "/"), "/"); i >= 0 {
			dir = p[:i+1]
		}
		page, ok := pages[dir]
		if !ok {
			page = b.Open(t, "/fs/"+dir)
			pages[dir] = page
		}
		if !strings.Contains(page, `title="`+cloudcmdLeaf(p)+`"`) {
			t.Errorf("the page of /%s does not list %s", dir, cloudcmdLeaf(p))
		}
	}
	for _, asset := range []string{"/dist/cloudcmd.js", "/dist/cloudcmd.common.js", "/dist/cloudcmd.common.css",
		"/dist/modules/menu.js", "/dist/modules/operation.js", "/dist/modules/edit.js", "/dist/modules/edit-file.js",
		"/fileop/fileop.js", "/edward/edward.js", "/edward/modules/ace-builds/src-min/ace.js", "/socket.io/socket.io.js"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the page loads, is missing or empty", asset)
		}
	}
	if got := b.ReadFile(t, "/notes/todo.txt"); got != testenv.CloudcmdSeed["notes/todo.txt"] {
		t.Errorf("the app reads notes/todo.txt as %q", got)
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
}
