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

// PhpLiteAdmin is a private phpLiteAdmin — Debian's phpliteadmin 1.9.8.2, the web admin
// for SQLite databases, one PHP file — over a folder of SQLite databases of its own. Each
// instance has a temporary folder holding a docroot (a thin phpliteadmin.php that runs the
// package's own file, a phpliteadmin.config.php of its own with the instance's password
// and database folder, and the package's CodeMirror linked where its SQL pages load it
// from), the database folder with the seed's databases, and PHP's sessions; PHP's built-in
// server serves the docroot on a free loopback port. The judges read the SQLite files
// themselves with the sqlite3 CLI, read-only. /etc/phpliteadmin.config.php is not used.
type PhpLiteAdmin struct {
	URL      string // the app's page, http://127.0.0.1:PORT/phpliteadmin.php (its login form until signed in)
	Password string
	Dir      string // the instance's folder: the docroot, the databases, the sessions, logs
	DBDir    string // the folder of databases phpLiteAdmin lists ($directory)
	seed     PhpLiteAdminState
}

// PhpLiteAdminPassword is the password of every instance: one grant on the worker serves
// each fresh instance of a test.
const PhpLiteAdminPassword = "Lite-Shelf-2024!"

// PhpLiteAdminDatabases are the seed's databases: a file name in the database folder and
// the SQL that makes it. library.sqlite comes first in the folder, so it is the database
// phpLiteAdmin opens after signing in.
var PhpLiteAdminDatabases = [][2]string{
	{"library.sqlite", `
CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author TEXT, year INTEGER, isbn TEXT);
INSERT INTO books VALUES
 (1, 'The Hobbit', 'J. R. R. Tolkien', 1937, '978-0261102217'),
 (2, 'The Fellowship of the Ring', 'J. R. R. Tolkien', 1954, '978-0261102354'),
 (3, 'Pride and Prejudice', 'Jane Austen', 1811, '978-0141439518'),
 (4, 'Emma', 'Jane Austen', 1815, '978-0141439587'),
 (5, 'Dune', 'Frank Herbert', 1965, '978-0441172719'),
 (6, 'Dune Messiah', 'Frank Herbert', 1969, '978-0593098233'),
 (7, 'The Left Hand of Darkness', 'Ursula K. Le Guin', 1969, '978-0441478125');
CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, city TEXT, joined TEXT);
INSERT INTO members VALUES
 (1, 'Anna Berg', 'anna.berg@example.org', 'Oslo', '2023-01-14'),
 (2, 'Anne Berger', 'anne.berger@example.org', 'Bergen', '2023-03-02'),
 (3, 'Tom Weller', 'tom.weller@example.org', 'Oslo', '2023-05-20'),
 (4, 'Tomas Weller', 'tomas.weller@example.org', 'Trondheim', '2024-02-11'),
 (5, 'Lisa Novak', 'lisa.novak@example.org', 'Bergen', '2024-06-30'),
 (6, 'Lisa Nowak', 'lisa.nowak@example.org', 'Tromsø', '2024-08-19'),
 (7, 'Omar Haddad', 'omar.haddad@example.org', 'Oslo', '2025-01-07'),
 (8, 'Ingrid Dahl', 'ingrid.dahl@example.org', 'Bergen', '2025-03-15');
CREATE TABLE loans (id INTEGER PRIMARY KEY, book_id INTEGER, member_id INTEGER, loaned TEXT, due TEXT, returned TEXT);
INSERT INTO loans VALUES
 (1, 5, 1, '2025-09-01', '2025-09-29', NULL),
 (2, 3, 3, '2025-09-03', '2025-10-01', '2025-09-20'),
 (3, 1, 5, '2025-09-10', '2025-10-08', NULL),
 (4, 6, 7, '2025-09-12', '2025-10-10', NULL);
CREATE INDEX loans_member ON loans (member_id);
`},
	{"shop.sqlite", `
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL, stock INTEGER);
INSERT INTO products VALUES (1, 'Bookmark', 2.5, 120), (2, 'Tote bag', 12.0, 35), (3, 'Reading lamp', 24.9, 8);
CREATE TABLE suppliers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
INSERT INTO suppliers VALUES (1, 'Nordic Paper', 'Oslo'), (2, 'Fjord Lights', 'Bergen');
`},
}

const (
	phpliteadminFile       = "/usr/share/phpliteadmin/phpliteadmin.php"
	phpliteadminCodeMirror = "/usr/share/javascript/codemirror"
)

// PhpLiteAdminInstalled says whether Debian's phpliteadmin, PHP's command line with its
// SQLite driver and the sqlite3 CLI are here (deploy/setup.sh heldout installs them).
func PhpLiteAdminInstalled() bool {
	if !exists(phpliteadminFile) {
		return false
	}
	for _, bin := range []string{"php", "sqlite3"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `exit(extension_loaded("pdo_sqlite") && extension_loaded("mbstring") ? 0 : 1);`).Run() == nil
}

// StartPhpLiteAdmin writes the seed's databases into a folder of the instance's own,
// writes the docroot and its configuration, serves it with php -S until the test ends and
// reads the seed back. It skips the test when phpLiteAdmin, PHP or sqlite3 is missing.
func StartPhpLiteAdmin(t testing.TB) *PhpLiteAdmin {
	t.Helper()
	if !PhpLiteAdminInstalled() {
		t.Skip("phpLiteAdmin is not installed: run `deploy/setup.sh heldout` (it installs Debian's phpliteadmin, php-sqlite3 and sqlite3)")
	}
	root := t.TempDir()
	a := &PhpLiteAdmin{Password: PhpLiteAdminPassword, Dir: root, DBDir: filepath.Join(root, "databases")}
	a.writeDatabases(t)
	docroot := a.writeDocroot(t)
	port := FreePort(t)
	a.URL = "http://" + Addr(port) + "/phpliteadmin.php"
	cmd := exec.Command("php", "-S", Addr(port), "-t", docroot, "-d", "display_errors=0", "-d", "log_errors=1",
		"-d", "error_log="+filepath.Join(root, "php-errors.log"), "-d", "session.save_path="+filepath.Join(root, "sessions"))
	cmd.Dir = docroot
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=4", "TZ=UTC")
	p := start(t, "phpliteadmin", cmd)
	waitHTTP(t, "phpliteadmin", a.URL+"?resource=css", 30*time.Second, p)
	a.seed = a.State(t)
	if n := len(a.seed["table"]); n != 5 {
		t.Fatalf("phpliteadmin: the seed has %d tables, not 5: %v", n, a.seed["table"])
	}
	return a
}

// writeDatabases makes the seed's databases in the database folder with the sqlite3 CLI.
func (a *PhpLiteAdmin) writeDatabases(t testing.TB) {
	t.Helper()
	for _, dir := range []string{a.DBDir, filepath.Join(a.Dir, "sessions")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, db := range PhpLiteAdminDatabases {
		cmd := exec.Command("sqlite3", "-bail", filepath.Join(a.DBDir, db[0]))
		cmd.Stdin = strings.NewReader(db[1])
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("phpliteadmin: make %s: %v\n%s", db[0], err, out)
		}
	}
}

// writeDocroot writes the docroot: phpliteadmin.php running the package's file (which
// reads ./phpliteadmin.config.php, the server's working folder being the docroot), the
// configuration, and javascript/codemirror linked to the package's CodeMirror (the SQL
// pages load /javascript/codemirror/…). It returns the docroot.
func (a *PhpLiteAdmin) writeDocroot(t testing.TB) string {
	t.Helper()
	docroot := filepath.Join(a.Dir, "www")
	if err := os.MkdirAll(filepath.Join(docroot, "javascript"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(docroot, "phpliteadmin.php"), fmt.Sprintf("<?php\nrequire %s;\n", phpQuote(phpliteadminFile)))
	write(t, filepath.Join(docroot, "phpliteadmin.config.php"), fmt.Sprintf(`<?php
$password = %s;
$directory = %s;
$subdirectories = false;
$language = 'en';
$rowsNum = 30;
$cookie_name = 'pla_private';
$debug = false;
`, phpQuote(a.Password), phpQuote(a.DBDir)))
	if exists(phpliteadminCodeMirror) {
		if err := os.Symlink(phpliteadminCodeMirror, filepath.Join(docroot, "javascript", "codemirror")); err != nil {
			t.Fatal(err)
		}
	}
	return docroot
}

// phpQuote is a single-quoted PHP string literal.
func phpQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// Seed is the storage as the instance started: each call a copy to change.
func (a *PhpLiteAdmin) Seed() PhpLiteAdminState { return a.seed.Clone() }

// Differs says how the storage differs from want now, "" when it does not.
func (a *PhpLiteAdmin) Differs(t testing.TB, want PhpLiteAdminState) string {
	t.Helper()
	return a.State(t).Diff(want)
}
