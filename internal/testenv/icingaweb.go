package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// IcingaWeb is a private Icinga Web 2 — Debian's icingaweb2 2.11.4, the web front end of
// the Icinga monitoring stack — used for what it keeps itself, with no Icinga 2 core: its
// users, user groups and their members and each user's preferences in a PostgreSQL
// database, and its roles, dashboards, shared navigation items and announcements in ini
// files of its configuration folder. Each instance has a PostgreSQL cluster of its own
// (initdb in a temporary folder, its own port and socket folder, no systemd) loaded with
// the schema the package ships, a configuration folder of its own (ICINGAWEB_CONFIGDIR,
// written here in place of the setup wizard) and the package's public folder served by
// PHP's built-in server on a free loopback port, its front controller as the router. The
// judges read the database back with psql and the configuration folder's ini files.
type IcingaWeb struct {
	URL      string // the pages' root, e.g. http://127.0.0.1:PORT (it sends a visitor to its login page)
	User     string // admin
	Password string
	Dir      string // the instance's folder: the cluster, the configuration folder, logs
	Config   string // the configuration folder (ICINGAWEB_CONFIGDIR)
	Socket   string // the cluster's socket folder
	Port     int    // the cluster's port
	seed     IcingaWebState
}

// IcingaWebPassword is admin's password in every instance: one grant on the worker serves
// each fresh instance of a test.
const IcingaWebPassword = "Monitoring-Admin-2024!"

// IcingaWebSeedPassword is the password of the seed's other users.
const IcingaWebSeedPassword = "Seed-Operator-77"

// IcingaWebUser is a user of the seed, with the groups it is a member of.
type IcingaWebUser struct {
	Name   string
	Active bool
	Groups []string
}

// The seed every instance starts from: admin (an administrator through the role
// Administrators) and four people, three user groups, three roles, two dashboards of
// admin's, two shared menu entries, two announcements, and admin's preferences with a
// default page size of 25.
var (
	IcingaWebSeedUsers = []IcingaWebUser{
		{"admin", true, []string{"Administrators"}},
		{"anna", true, []string{"Operators"}},
		{"tom", true, []string{"Operators"}},
		{"lisa", true, []string{"Network Team"}},
		{"omar", false, nil},
	}
	// IcingaWebSeedGroups are the seed's user groups.
	IcingaWebSeedGroups = []string{"Administrators", "Operators", "Network Team"}
	// IcingaWebSeedAnnouncements are the seed's announcements: id, message.
	IcingaWebSeedAnnouncements = [][2]string{
		{"65a1f3c2d4e01", "Firmware upgrade of the core switches on Saturday from 06:00 to 08:00 UTC"},
		{"65a1f3c2d4e02", "The new on-call rota starts on Monday"},
	}
)

// icingawebConfig is the seed's ini files but for resources.ini and config.ini (written
// with the instance's paths): the file's path in the configuration folder, its text.
var icingawebConfig = map[string]string{
	"authentication.ini": "[icingaweb2]\nbackend = \"db\"\nresource = \"icingaweb_db\"\n",
	"groups.ini":         "[icingaweb2]\nbackend = \"db\"\nresource = \"icingaweb_db\"\n",
	"roles.ini": `[Administrators]
users = "admin"
groups = "Administrators"
permissions = "*"

[Operators]
groups = "Operators"
permissions = "application/log, user/password-change"

[Auditors]
users = "omar"
permissions = "application/log"
`,
	"dashboards/admin/dashboard.ini": `[Overview]
title = "Overview"

[Overview.Application Health]
url = "health"
title = "Application Health"

[Team]
title = "Team"

[Team.Announcements]
url = "announcements"
title = "Announcements"
`,
	"navigation/menu.ini": `[Runbooks]
type = "menu-item"
target = "_blank"
url = "https://wiki.example.org/runbooks"
groups = "Operators"
owner = "admin"

[Status Page]
type = "menu-item"
target = "_blank"
url = "https://status.example.org/"
users = "anna, tom"
owner = "admin"
`,
}

// IcingaWebInstalled says whether Debian's icingaweb2, PostgreSQL 15's server and client
// and PHP's command line with the extensions Icinga Web 2 needs are here (deploy/setup.sh
// heldout installs them).
func IcingaWebInstalled() bool {
	if !exists(filepath.Join(icingawebPublic, "index.php")) || !exists(icingawebSchema) || !exists(icingawebRouter) ||
		!exists(filepath.Join(davicalPG, "initdb")) || !exists(filepath.Join(davicalPG, "postgres")) {
		return false
	}
	for _, bin := range []string{"php", "psql"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `exit(extension_loaded("pdo_pgsql") && extension_loaded("dom") && extension_loaded("intl") ? 0 : 1);`).Run() == nil
}

const (
	icingawebPublic = "/usr/share/icingaweb2/public"
	icingawebSchema = "/usr/share/icingaweb2/schema/pgsql.schema.sql"
	icingawebRouter = "/usr/share/php/Icinga/Application/webrouter.php"
)

// StartIcingaWeb starts a private PostgreSQL cluster, loads Icinga Web 2's schema and the
// seed's users, groups and members into it, writes a configuration folder of its own with
// the seed's roles, dashboards, shared menu entries and announcements, serves the package's
// public folder with php -S until the test ends and saves admin's preferences through the
// preferences form. It skips the test when Icinga Web 2, PostgreSQL or a PHP extension it
// needs is missing.
func StartIcingaWeb(t testing.TB) *IcingaWeb {
	t.Helper()
	if !IcingaWebInstalled() {
		t.Skip("Icinga Web 2 is not installed: run `deploy/setup.sh heldout` (it installs Debian's icingaweb2, postgresql and php-pgsql)")
	}
	root := t.TempDir()
	// The socket's folder has a short name of its own: a socket's path is at most 107 bytes.
	socket, err := os.MkdirTemp("", "icingaweb-pg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(socket) })
	w := &IcingaWeb{User: "admin", Password: IcingaWebPassword, Dir: root, Config: filepath.Join(root, "config"), Socket: socket}
	w.startCluster(t)
	w.loadDatabase(t)
	w.writeConfig(t)
	port := FreePort(t)
	w.URL = "http://" + Addr(port)
	// The package's own router for PHP's server is the router (as Icinga Web 2's "web serve"
	// has it): it answers false for a file of the public folder (an image, a font), which the
	// server then sends itself, and hands the rest to the front controller.
	cmd := exec.Command("php", "-S", Addr(port), "-t", icingawebPublic, "-d", "display_errors=0", "-d", "log_errors=1",
		"-d", "error_log="+filepath.Join(root, "php-errors.log"), "-d", "session.save_path="+root, icingawebRouter)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=4", "TZ=UTC", "ICINGAWEB_CONFIGDIR="+w.Config,
		"ICINGAWEB_STORAGEDIR="+filepath.Join(root, "storage"))
	p := start(t, "icingaweb", cmd)
	waitHTTP(t, "icingaweb", w.URL+"/img/favicon.png", 30*time.Second, p)
	b := w.Browser()
	b.SignIn(t)
	b.SavePreferences(t, map[string]string{"default_page_size": "25"})
	w.seed = w.State(t)
	if n := len(w.seed["user"]); n != len(IcingaWebSeedUsers) {
		t.Fatalf("icingaweb: the seed stored %d users, not %d: %v", n, len(IcingaWebSeedUsers), w.seed["user"])
	}
	if v := w.seed["preference"]["admin/icingaweb/default_page_size"]; v != "25" {
		t.Fatalf("icingaweb: admin's default page size is %q, not 25: %v", v, w.seed["preference"])
	}
	return w
}

// startCluster makes a PostgreSQL cluster in the instance's folder (trust on its socket
// alone, no TCP listener) and runs it until the test ends. PostgreSQL will not run as root,
// so as root the cluster is nobody's (as DAViCal's is).
func (w *IcingaWeb) startCluster(t testing.TB) {
	w.Port = startPostgres(t, "icingaweb", w.Dir, w.Socket, nil, func(port int) error {
		w.Port = port
		_, err := w.psql("postgres", "SELECT 1")
		return err
	})
}

// loadDatabase makes the database icingaweb, loads the package's schema into it and
// writes the seed's users (their passwords hashed by PHP's password_hash, as Icinga Web 2
// hashes them), groups and members.
func (w *IcingaWeb) loadDatabase(t testing.TB) {
	t.Helper()
	if _, err := w.psql("postgres", "CREATE DATABASE icingaweb"); err != nil {
		t.Fatalf("icingaweb: %v", err)
	}
	cmd := exec.Command("psql", "-h", w.Socket, "-p", fmt.Sprint(w.Port), "-U", "postgres", "-d", "icingaweb",
		"-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", icingawebSchema)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("icingaweb: load the schema: %v\n%s", err, out)
	}
	out, err := exec.Command("php", "-r", `echo password_hash($argv[1], PASSWORD_DEFAULT), "\n", password_hash($argv[2], PASSWORD_DEFAULT);`,
		"--", w.Password, IcingaWebSeedPassword).Output()
	hashes := strings.Split(string(out), "\n")
	if err != nil || len(hashes) != 2 {
		t.Fatalf("icingaweb: hash the seed's passwords: %v: %q", err, out)
	}
	var sql []string
	for i, g := range IcingaWebSeedGroups {
		sql = append(sql, fmt.Sprintf("INSERT INTO icingaweb_group (id, name, ctime) VALUES (%d, %s, now())", i+1, pgQuote(g)))
	}
	sql = append(sql, fmt.Sprintf("SELECT setval('icingaweb_group_id_seq', %d)", len(IcingaWebSeedGroups)))
	for i, u := range IcingaWebSeedUsers {
		hash, active := hashes[1], 0
		if i == 0 {
			hash = hashes[0]
		}
		if u.Active {
			active = 1
		}
		sql = append(sql, fmt.Sprintf("INSERT INTO icingaweb_user (name, active, password_hash, ctime) VALUES (%s, %d, %s, now())",
			pgQuote(u.Name), active, pgQuote(hash)))
		for _, g := range u.Groups {
			sql = append(sql, fmt.Sprintf("INSERT INTO icingaweb_group_membership (group_id, username, ctime) SELECT id, %s, now() FROM icingaweb_group WHERE name = %s",
				pgQuote(u.Name), pgQuote(g)))
		}
	}
	if _, err := w.psql("icingaweb", strings.Join(sql, ";\n")); err != nil {
		t.Fatalf("icingaweb: the seed: %v", err)
	}
}

// writeConfig writes the configuration folder: the database resource, the preferences kept
// in it, authentication and user groups from it, and the seed's other ini files.
func (w *IcingaWeb) writeConfig(t testing.TB) {
	t.Helper()
	files := map[string]string{
		"config.ini": fmt.Sprintf("[global]\nshow_stacktraces = \"0\"\nconfig_resource = \"icingaweb_db\"\n\n[logging]\nlog = \"file\"\nlevel = \"ERROR\"\nfile = %q\n",
			filepath.Join(w.Dir, "icingaweb2.log")),
		"resources.ini": fmt.Sprintf("[icingaweb_db]\ntype = \"db\"\ndb = \"pgsql\"\nhost = %q\nport = \"%d\"\nusername = \"postgres\"\npassword = \"\"\ndbname = \"icingaweb\"\ncharset = \"utf8\"\n",
			w.Socket, w.Port),
		"announcements.ini": icingawebAnnouncements(),
	}
	for name, text := range icingawebConfig {
		files[name] = text
	}
	for _, dir := range []string{w.Config, filepath.Join(w.Dir, "storage")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range files {
		path := filepath.Join(w.Config, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, path, text)
	}
}

// icingawebAnnouncements is announcements.ini with the seed's announcements, shown from
// 2026 to 2036 (each one's hash is its message's MD5, as Icinga Web 2 keeps it).
func icingawebAnnouncements() string {
	var b strings.Builder
	for _, a := range IcingaWebSeedAnnouncements {
		fmt.Fprintf(&b, "[%s]\nauthor = \"admin\"\nmessage = %q\nstart = \"1767225600\"\nend = \"2082758400\"\nhash = \"%s\"\n\n", a[0], a[1], md5Hex(a[1]))
	}
	return b.String()
}

// pgQuote is a string literal for PostgreSQL.
func pgQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
