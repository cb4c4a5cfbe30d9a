package testenv

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// LedgerSMB is a private LedgerSMB — Debian's ledgersmb 1.6.33, double-entry accounting in
// Perl on PostgreSQL — used through the screens its 1.6 code serves itself: contacts
// (customers, vendors, employees) with their credit accounts and addresses, the chart of
// accounts, the company's defaults and each user's permissions.
// Each instance has a PostgreSQL cluster of its own (initdb in a temporary folder, its own
// port and socket folder, no systemd), a ledgersmb.conf of its own (LSMB_CONFIG_FILE) that
// points the package's PSGI app at that cluster, and Starman serving the app on a free
// loopback port. The company database is made by the app's own setup pages (setup.pl:
// create the database, load the US General chart of accounts and the demo templates,
// create the admin user with full permissions), then seeded through its own pages. Users
// are PostgreSQL roles, so the cluster checks their passwords (scram) on its socket; only
// its superuser, which the judges read the company database as, is trusted there.
type LedgerSMB struct {
	URL      string // the app's root, e.g. http://127.0.0.1:PORT (it sends a visitor to login.pl)
	User     string // admin
	Password string
	Company  string // the company database's name, typed into the login form's Company
	Dir      string // the instance's folder: the cluster, the configuration, logs
	Socket   string // the cluster's socket folder
	Port     int    // the cluster's port
	seed     LedgerSMBState
}

// LedgerSMBPassword is admin's password in every instance: one grant on the worker serves
// each fresh instance of a test.
const LedgerSMBPassword = "Ledger-Admin-2024!"

// LedgerSMBSeedPassword is the password of the seed's other users.
const LedgerSMBSeedPassword = "Seed-Clerk-77x"

// LedgerSMBCompany is the company database every instance keeps its books in.
const LedgerSMBCompany = "brightwater"

const (
	ledgersmbHome = "/usr/share/ledgersmb"
	ledgersmbPSGI = ledgersmbHome + "/bin/ledgersmb-server.psgi"
)

// LedgerSMBInstalled says whether Debian's ledgersmb, PostgreSQL 15's server and client
// and Starman are here (deploy/setup.sh heldout installs them).
func LedgerSMBInstalled() bool {
	if !exists(ledgersmbPSGI) || !exists(filepath.Join(ledgersmbHome, "sql", "coa", "us", "chart", "General.sql")) ||
		!exists(filepath.Join(postgresBin, "initdb")) || !exists(filepath.Join(postgresBin, "postgres")) {
		return false
	}
	for _, bin := range []string{"psql", "starman", "perl"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return true
}

// StartLedgerSMB starts a private PostgreSQL cluster and a Starman serving LedgerSMB on
// it until the test ends, makes the company database through the app's setup pages and
// seeds it through the app's own pages (ledgersmb_seed.go). It skips the test when
// LedgerSMB, PostgreSQL or Starman is missing.
func StartLedgerSMB(t testing.TB) *LedgerSMB {
	t.Helper()
	if !LedgerSMBInstalled() {
		t.Skip("LedgerSMB is not installed: run `deploy/setup.sh heldout` (it installs Debian's ledgersmb, postgresql-15 and starman)")
	}
	root := t.TempDir()
	// The socket's folder has a short name of its own: a socket's path is at most 107 bytes.
	socket, err := os.MkdirTemp("", "ledgersmb-pg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(socket) })
	l := &LedgerSMB{User: "admin", Password: LedgerSMBPassword, Company: LedgerSMBCompany, Dir: root, Socket: socket}
	l.Port = startPostgres(t, "ledgersmb", root, socket, nil, func(port int) error {
		_, err := psqlRows(socket, port, "postgres", "SELECT 1")
		return err
	})
	l.serve(t)
	l.createCompany(t)
	l.requirePasswords(t)
	l.seedData(t)
	l.seed = l.State(t)
	return l
}

// serve writes the instance's ledgersmb.conf and runs the package's PSGI app under
// Starman on a free loopback port, in the package's folder (the app finds its templates,
// SQL and pages there). LedgerSMB will not serve as root, so as root it runs as nobody.
// Template is loaded first: the app uses it without loading it, and only a recommended
// package (left out) would load it otherwise.
func (l *LedgerSMB) serve(t testing.TB) {
	t.Helper()
	conf := filepath.Join(l.Dir, "ledgersmb.conf")
	write(t, conf, fmt.Sprintf(`[main]
auth = DB
cache_templates = 0
language =
date_format = yyyy-mm-dd
log_level = ERROR
cookie_name = LedgerSMB-1.6-ds

[paths]
templates = templates
images = UI/images
localepath = locale/po

[database]
host = %s
port = %d
default_db = %s
db_namespace = public
sslmode = disable

[debug]
dojo_built = 0
`, l.Socket, l.Port, l.Company))
	if err := os.Chmod(conf, 0o644); err != nil {
		t.Fatal(err)
	}
	port := FreePort(t)
	l.URL = "http://" + Addr(port)
	cmd := exec.Command("starman", "--listen", Addr(port), "--workers", "3", "-MTemplate", "-I", "lib", "-I", "old/lib", ledgersmbPSGI)
	cmd.Dir = ledgersmbHome
	cmd.Env = append(os.Environ(), "LSMB_CONFIG_FILE="+conf, "TZ=UTC", "PLACK_ENV=deployment")
	p := &process{cmd: cmd, out: &syncBuffer{}, done: make(chan struct{})}
	cmd.SysProcAttr, cmd.Stdout, cmd.Stderr = davicalAsNobody(ownGroup()), p.out, p.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("ledgersmb: start starman: %v", err)
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(p.Kill)
	waitHTTP(t, "ledgersmb", l.URL+"/login.pl", 60*time.Second, p)
}

// createCompany makes the company database as a person does in setup.pl, signed in as the
// cluster's superuser (trusted on the socket, so any password serves): Create Database,
// the "us" chart General.sql, the demo templates, and the admin user (Dana Whitfield,
// employee E-001) with full permissions.
func (l *LedgerSMB) createCompany(t testing.TB) {
	t.Helper()
	c := &http.Client{Timeout: 5 * time.Minute}
	auth := map[string]string{"Authorization": basicAuth("postgres", "setup")}
	steps := []url.Values{
		{"action": {"create_db"}, "database": {l.Company}},
		{"action": {"select_coa"}, "database": {l.Company}, "coa_lc": {"us"}, "chart": {"General.sql"}},
		{"action": {"load_templates"}, "database": {l.Company}, "coa_lc": {"us"}, "template_dir": {"demo"}},
		{"action": {"save_user"}, "database": {l.Company}, "username": {l.User}, "password": {l.Password},
			"first_name": {"Dana"}, "last_name": {"Whitfield"}, "country_id": {ledgersmbUS}, "employeenumber": {"E-001"},
			"salutation_id": {"5"}, "perms": {"1"}, "dob": {""}, "ssn": {""}},
	}
	for _, form := range steps {
		status, _, body := sendForm(t, c, "ledgersmb", http.MethodPost, l.URL+"/setup.pl", form, auth)
		if status != http.StatusOK {
			t.Fatalf("ledgersmb: setup.pl %s answered %d: %s", form.Get("action"), status, LedgerSMBText(body))
		}
	}
	if rows := l.Query(t, "SELECT username FROM users"); len(rows) != 1 || rows[0] != l.User {
		t.Fatalf("ledgersmb: setup made the users %v, not %s alone", rows, l.User)
	}
}

// basicAuth is an Authorization header's value for HTTP basic authentication, which
// LedgerSMB signs in with (its login page's script sends the typed name and password so,
// and the browser then sends them with every request).
func basicAuth(user, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
}

// ledgersmbUS is the United States' id in LedgerSMB's country table.
const ledgersmbUS = "232"

// requirePasswords makes the cluster check every role's password on its socket but its
// superuser's (LedgerSMB signs its users in as their own PostgreSQL roles).
func (l *LedgerSMB) requirePasswords(t testing.TB) {
	t.Helper()
	hba := filepath.Join(l.Dir, "pgdata", "pg_hba.conf")
	write(t, hba, "local all postgres trust\nlocal all all scram-sha-256\n")
	if os.Getuid() == 0 {
		_ = os.Chown(hba, 65534, 65534)
	}
	if _, err := psqlRows(l.Socket, l.Port, "postgres", "SELECT pg_reload_conf()"); err != nil {
		t.Fatalf("ledgersmb: %v", err)
	}
}

// psql runs one query in the database db as the cluster's superuser.
func (l *LedgerSMB) psql(db, query string) ([]string, error) {
	return psqlRows(l.Socket, l.Port, db, query)
}

// Query runs a query in the company database and returns its rows (tab-separated
// fields), failing the test when psql does.
func (l *LedgerSMB) Query(t testing.TB, query string) []string {
	t.Helper()
	rows, err := l.psql(l.Company, query)
	if err != nil {
		t.Fatalf("ledgersmb: %s: %v", query, err)
	}
	return rows
}
