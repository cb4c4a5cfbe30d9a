package testenv

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Cacti is a private Cacti — Debian's cacti 1.2.24: a network-graphing admin panel in PHP
// for devices, their graphs, graph trees, users and the panel's settings, all kept in a
// MySQL database — copied into a temporary folder with a config.php of its own, kept in a
// private MariaDB server (a WordPressDB, with a "cacti" database of its own, loaded from
// the schema the package ships) and served by PHP's built-in server on a free loopback
// port. As Debian's own install does, the schema's version is set to the package's (so that
// the first sign-in does not start the install wizard) and admin's password is set, with
// no change of it asked for at the first sign-in. The seed (CactiDevices, the tree
// CactiTreeNetwork with CactiOnDefaultTree on Default Tree, the user CactiOperator, the
// Device Defaults saved once) is written through the panel's own forms, signed in as
// admin. No poller runs and no device is ever contacted: the devices' addresses are in a
// block reserved for documentation. The judges read the database back with the mariadb
// CLI.
type Cacti struct {
	URL      string // the panel's root, e.g. http://127.0.0.1:PORT (its login page)
	User     string // admin
	Password string
	Dir      string // the instance's copy of the site folder, its config.php and log
	DB       *WordPressDB
	seed     CactiState
}

// CactiPassword is admin's password in every instance: one grant on the worker serves each
// fresh instance of a test.
const CactiPassword = "Graph-Admin-2024!"

// CactiDevice is a device of the seed, as the New Device form takes it.
type CactiDevice struct{ Description, Hostname string }

// The seed every instance starts from, besides what Cacti's schema holds (admin, guest,
// the tree Default Tree, the sites Edge and Core).
var (
	CactiDevices = []CactiDevice{
		{"Core Switch", "192.0.2.1"},
		{"Web Server", "192.0.2.20"},
		{"File Server", "192.0.2.30"},
		{"Old Printer", "192.0.2.40"},
	}
	// CactiOnDefaultTree are the devices placed on Default Tree.
	CactiOnDefaultTree = []string{"Web Server", "File Server"}
)

const (
	CactiDefaultTree = "Default Tree"
	CactiTreeNetwork = "Network"
	// CactiOperator is a second user, with its full name and password.
	CactiOperator         = "operator"
	CactiOperatorFullName = "NOC Operator"
	CactiOperatorPassword = "Operator-Pass-2024"
	cactiSite             = "/usr/share/cacti/site"
	cactiSchema           = "/usr/share/cacti/conf_templates/cacti.sql"
	// cactiVersion is the version Debian's install writes into the schema's version table.
	cactiVersion = "1.2.24"
)

// CactiInstalled says whether Debian's cacti, the MariaDB server and client, and PHP with
// the extensions Cacti needs are here (deploy/setup.sh heldout installs them).
func CactiInstalled() bool {
	if !exists(filepath.Join(cactiSite, "index.php")) || !exists(cactiSchema) {
		return false
	}
	for _, bin := range []string{"php", "mariadbd", "mariadb", "mariadb-install-db"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `foreach (["pdo_mysql", "gd", "gmp", "ldap", "mbstring", "snmp", "xml", "simplexml"] as $e) if (!extension_loaded($e)) exit(1);`).Run() == nil
}

// StartCacti starts a private MariaDB server, loads Cacti's schema into a "cacti"
// database, copies the site folder into a temporary folder with a config.php of its own
// (the package's is a link into /etc/cacti, left alone), serves it with php -S until the
// test ends and writes the seed through the panel's forms. It skips the test when Cacti,
// MariaDB or a PHP extension it needs is missing.
func StartCacti(t testing.TB) *Cacti {
	t.Helper()
	if !CactiInstalled() {
		t.Skip("Cacti, MariaDB or a PHP extension it needs is not installed: run `deploy/setup.sh heldout` (it installs Debian's cacti, mariadb-server and mariadb-client)")
	}
	db := StartWordPressDB(t)
	root := t.TempDir()
	c := &Cacti{User: "admin", Password: CactiPassword, Dir: filepath.Join(root, "site"), DB: db}
	copyCacti(t, c.Dir)
	write(t, filepath.Join(c.Dir, "include", "config.php"), cactiConfig(db.Socket, filepath.Join(root, "csrf-secret.php")))
	c.loadSchema(t)
	port := FreePort(t)
	c.URL = "http://" + Addr(port)
	cmd := exec.Command("php", "-S", Addr(port), "-d", "display_errors=0", "-d", "log_errors=1",
		"-d", "error_log="+filepath.Join(root, "php-errors.log"), "-d", "session.save_path="+root)
	cmd.Dir = c.Dir
	// Several workers: the panel's pages ask for more as they load (the device's status).
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=4", "TZ=UTC")
	p := start(t, "cacti", cmd)
	waitHTTP(t, "cacti", c.URL+"/include/themes/modern/main.css", 30*time.Second, p)
	c.seedForms(t)
	return c
}

// copyCacti copies the package's site folder to dir. Its relative symbolic links into
// other Debian packages (the fonts, the jQuery themes, the resource folder) are made
// absolute; its links to the package's log, cache and RRD folders and configuration become
// folders and files of the copy's own.
func copyCacti(t testing.TB, dir string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", cactiSite, dir).CombinedOutput(); err != nil {
		t.Fatalf("copy cacti: %v\n%s", err, out)
	}
	own := map[string]bool{"log": true, "cache": true, "rra": true, "include/config.php": true}
	err := filepath.WalkDir(cactiSite, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return err
		}
		rel, _ := filepath.Rel(cactiSite, path)
		copied := filepath.Join(dir, rel)
		if own[rel] {
			return os.Remove(copied)
		}
		target, err := os.Readlink(path)
		if err != nil || filepath.IsAbs(target) {
			return err
		}
		if err := os.Remove(copied); err != nil {
			return err
		}
		return os.Symlink(filepath.Join(filepath.Dir(path), target), copied)
	})
	if err != nil {
		t.Fatalf("copy cacti's links: %v", err)
	}
	for _, d := range []string{"log", "rra", "cache/boost", "cache/mibcache", "cache/realtime", "cache/spikekill"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(dir, "log", "cacti.log"), "")
}

// cactiConfig is the copy's include/config.php (the settings Debian's debian.php holds):
// the database through the private server's socket, the panel at the root of its address,
// and the CSRF secret in the instance's folder.
func cactiConfig(socket, csrfSecret string) string {
	return fmt.Sprintf(`<?php
$database_type     = 'mysql';
$database_default  = 'cacti';
$database_hostname = %s;
$database_username = 'root';
$database_password = '';
$database_port     = '3306';
$database_retries  = 5;
$database_ssl      = false;
$database_ssl_key  = '';
$database_ssl_cert = '';
$database_ssl_ca   = '';
$database_persist  = false;
$poller_id = 1;
$url_path = '/';
$cacti_session_name = 'Cacti';
$cacti_db_session = false;
$disable_log_rotation = true;
$path_csrf_secret = %s;
$proxy_headers = null;
`, phpString(socket), phpString(csrfSecret))
}

// loadSchema creates the "cacti" database (latin1, as Debian's dbconfig makes it), loads
// the package's schema into it and does what Debian's install then does: sets admin's
// password (no change asked for at the first sign-in), writes the version (no install
// wizard) and the RRDtool version; the log goes to the copy's own file.
func (c *Cacti) loadSchema(t testing.TB) {
	t.Helper()
	c.DB.Exec(t, "CREATE DATABASE cacti CHARACTER SET latin1")
	schema, err := os.Open(cactiSchema)
	if err != nil {
		t.Fatal(err)
	}
	defer schema.Close()
	load := exec.Command("mariadb", "--no-defaults", "--socket="+c.DB.Socket, "--user=root", "cacti")
	load.Stdin = schema
	if out, err := load.CombinedOutput(); err != nil {
		t.Fatalf("load cacti's schema: %v\n%s", err, out)
	}
	c.Exec(t, "UPDATE user_auth SET password = "+sqlQuote(cactiHash(t, c.Password))+", must_change_password = '' WHERE username = 'admin'")
	c.Exec(t, "UPDATE version SET cacti = "+sqlQuote(cactiVersion))
	c.Exec(t, "INSERT INTO settings SET name = 'rrdtool_version', value = 'rrd-1.7.x'")
	c.Exec(t, "UPDATE settings SET value = "+sqlQuote(filepath.Join(c.Dir, "log", "cacti.log"))+" WHERE name = 'path_cactilog'")
}

// cactiHash is password as Cacti keeps it (PHP's password_hash).
func cactiHash(t testing.TB, password string) string {
	t.Helper()
	out, err := exec.Command("php", "-r", `echo password_hash($argv[1], PASSWORD_DEFAULT);`, password).Output()
	if err != nil {
		t.Fatalf("cacti: hash a password: %v", err)
	}
	return string(out)
}

// CactiPasswordIs says whether hash (user_auth's password column) is password's.
func CactiPasswordIs(hash, password string) bool {
	return hash != "" && exec.Command("php", "-r", `exit(password_verify($argv[1], $argv[2]) ? 0 : 1);`, password, hash).Run() == nil
}

// seedForms signs in as admin and writes the seed through the panel's forms: the devices
// (New Device), the tree Network (Trees' Add), the devices placed on Default Tree (the
// Devices list's "Place on a Tree" action), the user operator (Users' Add) and the Device
// Defaults tab of Settings saved as it is shown (so its values are stored); then keeps
// what the database holds as the fresh state.
func (c *Cacti) seedForms(t testing.TB) {
	t.Helper()
	b := c.Browser()
	b.SignIn(t)
	for _, d := range CactiDevices {
		b.Open(t, "/host.php?action=edit&create=true")
		b.Save(t, "host_form", map[string]string{"description": d.Description, "hostname": d.Hostname})
	}
	b.Open(t, "/tree.php?action=edit")
	b.Save(t, "tree_edit", map[string]string{"name": CactiTreeNetwork, "sort_type": "2"})
	for _, d := range CactiOnDefaultTree {
		b.Open(t, "/host.php")
		b.Act(t, "Place on a Tree ("+CactiDefaultTree+")", d)
		b.Save(t, "form1", nil)
	}
	b.Open(t, "/user_admin.php?tab=general&action=user_edit")
	b.Save(t, "form1", map[string]string{"username": CactiOperator, "full_name": CactiOperatorFullName,
		"password": CactiOperatorPassword, "password_confirm": CactiOperatorPassword, "enabled": "on"})
	b.Open(t, "/settings.php?tab=snmp")
	b.Save(t, "form_settings", nil)
	c.seed = c.State(t)
	if n := len(c.seed["host"]); n != len(CactiDevices) {
		t.Fatalf("cacti: the seed stored %d devices, not %d: %v", n, len(CactiDevices), c.seed["host"])
	}
	if n := len(c.seed["graph_tree_items"]); n != len(CactiOnDefaultTree) {
		t.Fatalf("cacti: the seed placed %d devices on trees, not %d: %v", n, len(CactiOnDefaultTree), c.seed["graph_tree_items"])
	}
	if c.seed["user_auth"][CactiOperator] == nil || c.seed["settings"]["snmp_community"] == nil {
		t.Fatalf("cacti: the seed lacks its user or its Device Defaults: %v", c.seed)
	}
}
