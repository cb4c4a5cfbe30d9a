package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// DAViCal is a private DAViCal — Debian's davical 1.1.12: a CalDAV and CardDAV server
// whose web pages (admin.php) are an admin panel for its principals (users, resources and
// groups), their calendars and address books, group members and the privileges one
// principal grants another, all kept in a PostgreSQL database. Each instance has a
// PostgreSQL cluster of its own (initdb in a temporary folder, its own port and socket
// folder, no systemd), its database made by the package's own create-database.sh (which
// also sets admin's password), and a copy of the package's htdocs served by PHP's built-in
// server on a free loopback port with a config.php of its own (the copy's always.php reads
// it in place of /etc/davical's). The seed (DAViCalSeed, DAViCalSeedMembers) is written
// through the admin pages' own forms, signed in as admin. The judges read the database
// back with psql.
type DAViCal struct {
	URL      string // the pages' root, e.g. http://127.0.0.1:PORT (its login page)
	User     string // admin
	Password string
	Dir      string // the instance's folder: the cluster, its socket, the htdocs copy
	Socket   string // the cluster's socket folder
	Port     int    // the cluster's port
	seed     DAViCalState
}

// DAViCalPassword is admin's password in every instance: one grant on the worker serves
// each fresh instance of a test.
const DAViCalPassword = "Calendar-Admin-2024!"

// DAViCalPrincipal is a principal of the seed, as the Create Principal form takes it.
type DAViCalPrincipal struct {
	Username, Fullname, Email string
	Type                      string // "1" Person, "2" Resource, "3" Group (the form's values)
}

// The seed every instance starts from, besides admin: three people, two resources and a
// group whose one member is alice. People and resources have a password; groups none.
var (
	DAViCalSeed = []DAViCalPrincipal{
		{"alice", "Alice Moreau", "alice@example.org", "1"},
		{"bob", "Bob Lindqvist", "bob@example.org", "1"},
		{"carol", "Carol Ndiaye", "carol@example.org", "1"},
		{"room101", "Meeting Room 101", "room101@example.org", "2"},
		{"projector", "Conference Projector", "projector@example.org", "2"},
		{"sales", "Sales Team", "sales@example.org", "3"},
	}
	// DAViCalSeedMembers are the seed's group memberships: group, member.
	DAViCalSeedMembers = [][2]string{{"sales", "alice"}}
)

// DAViCalSeedPassword is the seed's people's and resources' password.
const DAViCalSeedPassword = "Seed-Principal-55"

const (
	davicalShare = "/usr/share/davical"
	davicalPG    = "/usr/lib/postgresql/15/bin"
)

// DAViCalInstalled says whether Debian's davical, PostgreSQL 15's server and client and
// PHP's command line with the PostgreSQL and XML extensions are here (deploy/setup.sh
// heldout installs them).
func DAViCalInstalled() bool {
	if !exists(filepath.Join(davicalShare, "htdocs", "admin.php")) || !exists(filepath.Join(davicalShare, "dba", "create-database.sh")) ||
		!exists(filepath.Join(davicalPG, "initdb")) || !exists(filepath.Join(davicalPG, "postgres")) {
		return false
	}
	for _, bin := range []string{"php", "psql", "perl"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `exit(extension_loaded("pgsql") && extension_loaded("pdo_pgsql") && extension_loaded("xml") ? 0 : 1);`).Run() == nil
}

// StartDAViCal starts a private PostgreSQL cluster, makes DAViCal's database in it with
// the package's create-database.sh, serves a copy of the package's htdocs with php -S until
// the test ends and writes the seed through the admin pages' forms. It skips the test when
// DAViCal, PostgreSQL or a PHP extension it needs is missing.
func StartDAViCal(t testing.TB) *DAViCal {
	t.Helper()
	if !DAViCalInstalled() {
		t.Skip("DAViCal is not installed: run `deploy/setup.sh heldout` (it installs Debian's davical, postgresql and php-pgsql)")
	}
	root := t.TempDir()
	// The socket's folder has a short name of its own: a socket's path is at most 107 bytes,
	// and postgres reads commas (which a subtest's folder may hold) as separating folders.
	socket, err := os.MkdirTemp("", "davical-pg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(socket) })
	d := &DAViCal{User: "admin", Password: DAViCalPassword, Dir: root, Socket: socket}
	d.startCluster(t)
	d.createDatabase(t)
	d.layout(t)
	port := FreePort(t)
	d.URL = "http://" + Addr(port)
	htdocs := filepath.Join(root, "htdocs")
	cmd := exec.Command("php", "-S", Addr(port), "-t", htdocs, "-d", "display_errors=0", "-d", "log_errors=1",
		"-d", "error_log="+filepath.Join(root, "php-errors.log"), "-d", "session.save_path="+root)
	cmd.Dir = htdocs
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=4", "TZ=UTC")
	p := start(t, "davical", cmd)
	waitHTTP(t, "davical", d.URL+"/davical.css", 30*time.Second, p)
	d.seedForms(t)
	return d
}

// startCluster makes a PostgreSQL cluster in the instance's folder (trust on its socket
// alone, no TCP listener) and runs it until the test ends. PostgreSQL will not run as root,
// so as root the cluster is nobody's: the folder becomes nobody's, and the test's temporary
// folders above it (0700) are opened for it to pass through.
func (d *DAViCal) startCluster(t testing.TB) {
	d.Port = startPostgres(t, "davical", d.Dir, d.Socket, []string{d.Dir}, func(port int) error {
		d.Port = port
		_, err := d.psql("postgres", "SELECT 1")
		return err
	})
}

// davicalAsNobody makes attr run its process as nobody when the test runs as root.
func davicalAsNobody(attr *syscall.SysProcAttr) *syscall.SysProcAttr {
	if os.Getuid() == 0 {
		attr.Credential = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	return attr
}

// createDatabase runs the package's create-database.sh against the cluster: the roles
// davical_dba and davical_app, the "davical" database, its schema and base data, and
// admin's password (which the script keeps as DAViCal's plain "**" form).
func (d *DAViCal) createDatabase(t testing.TB) {
	t.Helper()
	cmd := exec.Command("sh", filepath.Join(davicalShare, "dba", "create-database.sh"), "davical", d.Password)
	cmd.Dir = d.Dir
	cmd.Env = append(os.Environ(), "PGHOST="+d.Socket, fmt.Sprintf("PGPORT=%d", d.Port), "PGUSER=postgres", "TMPDIR="+d.Dir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "The password for the 'admin' user has been set") {
		t.Fatalf("davical: create-database.sh: %v\n%s", err, out)
	}
}

// layout copies the package's htdocs into the instance's folder beside links to its inc
// and locale folders (which the pages find as ../inc and ../locale), and writes the
// instance's config/config.php. The copy's always.php is told to look for its
// configuration in that folder where it would look in /etc/davical.
func (d *DAViCal) layout(t testing.TB) {
	t.Helper()
	htdocs := filepath.Join(d.Dir, "htdocs")
	if out, err := exec.Command("cp", "-r", filepath.Join(davicalShare, "htdocs"), htdocs).CombinedOutput(); err != nil {
		t.Fatalf("davical: copy htdocs: %v\n%s", err, out)
	}
	for _, name := range []string{"inc", "locale"} {
		if err := os.Symlink(filepath.Join(davicalShare, name), filepath.Join(d.Dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(d.Dir, "config")
	if err := os.MkdirAll(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	always := filepath.Join(htdocs, "always.php")
	b, err := os.ReadFile(always)
	if err != nil {
		t.Fatal(err)
	}
	mended := strings.ReplaceAll(string(b), "'/etc/davical/", "'"+conf+"/")
	if mended == string(b) {
		t.Fatalf("davical: always.php no longer reads /etc/davical")
	}
	write(t, always, mended)
	write(t, filepath.Join(conf, "config.php"), fmt.Sprintf(`<?php
$c->pg_connect[] = %s;
$c->system_name = 'DAViCal CalDAV Server';
$c->admin_email = 'admin@example.org';
$c->default_locale = 'en';
`, phpString(fmt.Sprintf("host=%s port=%d dbname=davical user=davical_app", d.Socket, d.Port))))
}

// seedForms signs in as admin and creates the seed's principals through Create Principal
// (each page's fields as it fills them), adds the group members through the group's Group
// Members form, then keeps what the database holds as the fresh state.
func (d *DAViCal) seedForms(t testing.TB) {
	t.Helper()
	b := d.Browser()
	b.SignIn(t)
	for _, p := range DAViCalSeed {
		b.Open(t, "/admin.php?action=edit&t=principal")
		f := b.Form(t, "submit")
		f.Fields.Set("xxxxusername", p.Username)
		f.Fields.Set("fullname", p.Fullname)
		f.Fields.Set("email", p.Email)
		f.Fields.Set("type_id", p.Type)
		pass := DAViCalSeedPassword
		if p.Type == "3" {
			pass = ""
		}
		f.Fields.Set("newpass1", pass)
		f.Fields.Set("newpass2", pass)
		b.Send(t, f, "submit")
	}
	for _, m := range DAViCalSeedMembers {
		b.Open(t, "/admin.php?action=edit&t=principal&id="+d.PrincipalID(t, m[0]))
		f := b.Form(t, "savegrouprow")
		f.Fields.Set("member_id", d.PrincipalID(t, m[1]))
		b.Send(t, f, "savegrouprow")
	}
	d.seed = d.State(t)
	if n := len(d.seed["principal"]); n != len(DAViCalSeed)+1 {
		t.Fatalf("davical: the seed stored %d principals, not %d: %v", n, len(DAViCalSeed)+1, d.seed["principal"])
	}
	if n := len(d.seed["member"]); n != len(DAViCalSeedMembers) {
		t.Fatalf("davical: the seed stored %d group members, not %d: %v", n, len(DAViCalSeedMembers), d.seed["member"])
	}
}
