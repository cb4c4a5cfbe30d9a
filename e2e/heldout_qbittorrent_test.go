//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on qBittorrent's Web UI: its tests build only with -tags heldout, and
// TestHeldOutQBittorrent is run once, at the end, against an agent nobody tuned to
// qBittorrent. TestHeldOutQBittorrentJudge checks the harness alone, with no agent.

// qbtSignIn is the Web UI's login page, where every goal starts, written three ways
// (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var qbtSignIn = [3]string{
	`type "admin" into "Username", type "{{secret:qbittorrent_password}}" into "Password", click "Login"`,
	`fill Username with admin and Password with "{{secret:qbittorrent_password}}", then press Login`,
	`Log in first: enter admin in the field labelled "Username", enter "{{secret:qbittorrent_password}}" in the field labelled "Password" and click the Login button.`,
}

// qbtText fills a phrasing in: {signin} is its way of signing in.
func qbtText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", qbtSignIn[i])
}

// TestHeldOutQBittorrent drives Debian's qbittorrent-nox — a real application nobody here
// wrote: a BitTorrent client whose Web UI adds, pauses, renames, sorts into categories and
// removes torrents and sets the client's options — with everyday goals written three ways
// each, and no model. Each phrasing runs on a fresh instance, starts at the Web UI's login
// page, signs in with a password the worker grants, and is judged twice: by the run's
// status and by the client's own state read back through its Web API.
// go test -tags heldout -run 'TestHeldOutQBittorrent$' ./e2e/
func TestHeldOutQBittorrent(t *testing.T) {
	if !testenv.QBittorrentInstalled() {
		t.Skip("qBittorrent is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_QBITTORRENT_PASSWORD="+testenv.QBittorrentPassword,
		`WEBAGENT_SECRETS={"qbittorrent_password": {"from": "env:WEBAGENT_TEST_QBITTORRENT_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(qbtGoals)), make([][]string, len(qbtGoals))
	for g, goal := range qbtGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		q := testenv.StartQBittorrent(t)
		return poolRun(t, s, names[g], i+1, qbtText(p, i), q.URL, "qBittorrent's Web API",
			func() string { return qbtGoals[g].done(t, q) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.QBittorrentPassword) {
			t.Errorf("qBittorrent's password is in the history of %s", id)
		}
	})
}

// TestHeldOutQBittorrentJudge validates the harness without the agent: on a fresh instance
// the login page and the pages the goals name are there and every judge says "not done";
// each goal's effect, made through the Web UI's own requests along the goal's path (signed
// in through the login page, each dialog's page opened and its request sent as the page
// sends it, with the Referer its CSRF check wants), makes its judge say "done" and leaves
// the other judges at "not done"; a near miss of each leaves its judge at "not done"; and
// each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutQBittorrentJudge$' ./e2e/
func TestHeldOutQBittorrentJudge(t *testing.T) {
	if !testenv.QBittorrentInstalled() {
		t.Skip("qBittorrent is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartQBittorrent(t)
	t.Logf("a fresh qBittorrent was configured, started, seeded and its seed checked in %s", time.Since(began).Round(time.Millisecond))
	qbtCheckFresh(t, fresh)
	for _, g := range qbtGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := qbtText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:qbittorrent_password}}", "")
			if !strings.Contains(text, qbtSignIn[i]) || strings.ContainsAny(rest, "{}") || len(strings.Fields(rest)) < 12 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
			if strings.Contains(text, testenv.QBittorrentPassword) {
				t.Errorf("%s, phrasing %d, holds the password", g.name, i+1)
			}
		}
	}
	for _, g := range qbtGoals {
		t.Run(g.name, func(t *testing.T) {
			q := testenv.StartQBittorrent(t)
			b := q.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, q) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range qbtGoals {
				if o.name != g.name && o.done(t, q) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			q := testenv.StartQBittorrent(t)
			b := q.Browser()
			b.SignIn(t)
			g.miss(t, b)
			// The miss reaches the client's state as the effect would: wait until it is there.
			if why := testenv.Eventually(10*time.Second, func() string { return qbtChanged(q) }); why != "" {
				t.Fatalf("the near miss changed nothing: %s", why)
			}
			why := g.done(t, q)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// qbtCheckFresh checks what the goals rely on: the login form, the main page's toolbar
// and menus, the dialogs' pages, the Options window's Speed tab, and the seed as started.
func qbtCheckFresh(t *testing.T, q *testenv.QBittorrent) {
	b := q.Browser()
	login := b.Open(t, "")
	for _, want := range []string{`<label for="username">Username</label>`, `<label for="password">Password</label>`, `value="Login"`} {
		if !strings.Contains(login, want) {
			t.Errorf("the login page lacks %s", want)
		}
	}
	b.SignIn(t)
	pages := map[string][]string{
		"": {`title="Add Torrent Link..."`, `title="Remove"`, `title="Pause"`, `title="Options"`, "Options...",
			`Rename...`, `href="#Category"`, `Add category...`},
		"views/filters.html":            {"Categories"},
		"download.html":                 {"Download Torrents from their URLs or Magnet links", `<label for="category">Category:</label>`, ">Download</button>"},
		"rename.html":                   {"New name:", `value="Save"`},
		"confirmdeletion.html":          {"Also permanently delete the files", `value="Remove"`},
		"newcategory.html":              {"Category:", "Save path:", `value="Add"`},
		"views/preferences.html":        {"Global Rate Limits", `<label for="dl_limit_value">Download:</label>`, "Alternative Rate Limits", `value="Save"`},
		"views/preferencesToolbar.html": {`<a>Speed</a>`},
	}
	for path, wants := range pages {
		page := b.Open(t, path)
		for _, want := range wants {
			if !strings.Contains(page, want) {
				t.Errorf("the page /%s lacks %s", path, want)
			}
		}
	}
	if why := q.Differs(q.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	seed := q.Seed()
	for _, s := range testenv.QBittorrentSeed {
		tor, ok := seed.Torrents[testenv.QBittorrentSeedHash(s.Name)]
		if !ok || tor.Name != s.Name || tor.Category != s.Category || tor.Paused() {
			t.Errorf("the seed's %s is not listed, running, in %q: %+v", s.Name, s.Category, tor)
		}
	}
	if len(seed.Categories) != len(testenv.QBittorrentCategories) {
		t.Errorf("the seed's categories are %v", seed.Categories)
	}
}
