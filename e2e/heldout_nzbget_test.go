//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on NZBGet's web control panel: its tests build only with -tags
// heldout, and TestHeldOutNZBGet is run once, at the end, against an agent nobody tuned to
// NZBGet. TestHeldOutNZBGetJudge checks the harness alone, with no agent.

// nzbgetSignIn is the panel's login dialog (NZBGet's FormAuth), which the start page shows
// before anything else, written three ways (phrasing i uses the i-th); the password is
// granted by the worker and is in no goal.
var nzbgetSignIn = [3]string{
	`type "nzbget" into "Username", type "{{secret:nzbget_password}}" into "Password", click "Login"`,
	`sign in to the NZBGet Login box as nzbget with the password {{secret:nzbget_password}}`,
	`First log in to NZBGet: put nzbget in the Username field and "{{secret:nzbget_password}}" in the Password field, then press Login.`,
}

// nzbgetText fills a phrasing in: {signin} is its way of signing in.
func nzbgetText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", nzbgetSignIn[i])
}

// TestHeldOutNZBGet drives Debian's NZBGet 21 — a real application nobody here wrote: a
// Usenet downloader, used here through its web control panel for what a user does there
// (settings: categories and news servers; the speed limit; the queue's downloads: delete,
// priority, category, name) — with everyday goals written three ways each, and no model.
// Each phrasing runs on a fresh instance (its own configuration file, folders and port,
// nothing ever downloaded), starts at the panel's page, signs in through its login dialog
// with a password the worker grants, and is judged twice: by the run's status and by
// NZBGet's configuration file and its queue as its JSON-RPC reports it.
// go test -tags heldout -run 'TestHeldOutNZBGet$' ./e2e/
func TestHeldOutNZBGet(t *testing.T) {
	if !testenv.NZBGetInstalled() {
		t.Skip("NZBGet is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_NZBGET_PASSWORD="+testenv.NZBGetPassword,
		`WEBAGENT_SECRETS={"nzbget_password": {"from": "env:WEBAGENT_TEST_NZBGET_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(nzbgetGoals)), make([][]string, len(nzbgetGoals))
	for g, goal := range nzbgetGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartNZBGet(t)
		return poolRun(t, s, names[g], i+1, nzbgetText(p, i), w.URL, "NZBGet's configuration file and queue",
			func() string { return nzbgetGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.NZBGetPassword) {
			t.Errorf("NZBGet's password is in the history of %s", id)
		}
	})
}

// TestHeldOutNZBGetJudge validates the harness without the agent: on a fresh instance the
// login dialog, the panel's scripts and the seed the goals act on are there and every judge
// says "not done"; each goal's effect, made through the panel's own JSON-RPC calls (signed
// in through the login dialog, the session cookie alone afterwards), makes its judge say
// "done" and leaves the other judges at "not done"; a near miss of each leaves its judge at
// "not done"; and each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutNZBGetJudge$' ./e2e/
func TestHeldOutNZBGetJudge(t *testing.T) {
	if !testenv.NZBGetInstalled() {
		t.Skip("NZBGet is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartNZBGet(t)
	t.Logf("a fresh NZBGet was configured, started and seeded in %s", time.Since(began).Round(time.Millisecond))
	nzbgetCheckFresh(t, fresh)
	for _, g := range nzbgetGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := nzbgetText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:nzbget_password}}", "")
			if !strings.Contains(text, nzbgetSignIn[i]) || strings.ContainsAny(rest, "{}") || strings.Contains(text, testenv.NZBGetPassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range nzbgetGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartNZBGet(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := g.done(t, w); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range nzbgetGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartNZBGet(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, b)
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the configuration file or the queue")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// nzbgetCheckFresh checks what the goals rely on: the login dialog, the controls the
// phrasings name in the panel's page and scripts, the files the page loads, a session
// that the login dialog's request opens, the seed's downloads (paused, with their
// categories), news servers and categories, and the storage as seeded (browsing changes
// none of it).
func nzbgetCheckFresh(t *testing.T, w *testenv.NZBGet) {
	b := w.Browser()
	page := b.Open(t, "/")
	for _, want := range []string{"NZBGet Login", `id="LoginDialog_Username"`, `id="LoginDialog_Password"`, ">Login</button>",
		"Settings", "Downloads", `placeholder="Search downloads"`, "Save all changes", "Configuration has been saved successfully",
		"Speed Limit", "Speed limit", "Set limit", "--- KB/s", ">Name</label>", ">Priority</label>", ">Category</label>",
		`id="DownloadsEdit_Save">Save</a>`, "Actions", "How to delete selected downloads?", `id="DownloadsDeleteConfirmDialog_OK">Delete</div>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the panel's page lacks %s", want)
		}
	}
	scripts := map[string][]string{
		"status.js":    {"--- MB/s", "'rate'"},
		"config.js":    {"'Add ' + (hasOptions ? 'another ' : '')", "'saveconfig'", "'loadconfig'"},
		"downloads.js": {`'<option value="100">very high</option>'`, "Util.formatNZBName(group.NZBName)", "GroupParkDelete"},
		"edit.js":      {"GroupSetName", "GroupSetCategory", "GroupSetPriority"},
		"util.js":      {"replace(/\\./g, ' ')"},
		"nzbget.conf":  {"### CATEGORIES", "### NEWS-SERVERS", "Category1.Name=", "Server1.Connections="},
	}
	for file, wants := range scripts {
		text := b.Open(t, file)
		for _, want := range wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %s", file, want)
			}
		}
	}
	for _, asset := range []string{"lib/jquery.min.js", "lib/bootstrap.min.js", "lib/raphael.min.js", "lib/elycharts.min.js",
		"style.css", "lib/bootstrap.css", "img/icons.png", "index.js", "fasttable.js"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the page loads, is missing or empty", asset)
		}
	}
	b.SignIn(t)
	var opts []testenv.NZBGetOption
	b.Call(t, "loadconfig", nil, &opts)
	conf := map[string]string{}
	for _, o := range opts {
		conf[o.Name] = o.Value
	}
	for k, v := range map[string]string{"Server1.Name": "Primary News", "Server2.Name": "Backup News", "Server2.Connections": "4",
		"Server1.Connections": "8", "Category1.Name": "Movies", "Category2.Name": "Software", "Category3.Name": "Ebooks",
		"FormAuth": "yes", "ControlUsername": "nzbget", "DownloadRate": "0"} {
		if conf[k] != v {
			t.Errorf("the Settings page loads %s=%q, not %q", k, conf[k], v)
		}
	}
	if _, ok := conf["Category4.Name"]; ok {
		t.Errorf("the seed already has a fourth category")
	}
	var groups []testenv.NZBGetGroup
	b.Call(t, "listgroups", nil, &groups)
	if len(groups) != len(testenv.NZBGetSeedItems) {
		t.Errorf("the queue holds %d downloads, not %d: %+v", len(groups), len(testenv.NZBGetSeedItems), groups)
	}
	for i, g := range groups {
		if s := testenv.NZBGetSeedItems[min(i, len(testenv.NZBGetSeedItems)-1)]; g.NZBName != s.Name || g.Category != s.Category || g.Status != "PAUSED" || g.MaxPriority != 0 {
			t.Errorf("download %d is %+v, not %+v (paused, normal priority)", i+1, g, s)
		}
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if s := w.Seed(); len(s["history"]) != 0 || s["runtime"]["DownloadLimit"] != "0" || s["runtime"]["Server2.Active"] != "true" {
		t.Errorf("the seed has a history, a speed limit or an inactive server: %v %v", s["history"], s["runtime"])
	}
}
