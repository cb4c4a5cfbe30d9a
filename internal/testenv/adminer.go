package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// AdminerVersion is the Debian package deploy/setup.sh installs (ADMINER_VERSION there).
const AdminerVersion = "4.8.1"

// adminerDir is where Debian installs Adminer: the compiled app and its plugins.
const adminerDir = "/usr/share/adminer"

// Adminer is a private Adminer, Debian's one-file database admin panel served by PHP's
// built-in server: a real application, written by nobody here. It manages SQLite files
// (NewDB makes a fresh, seeded one per goal); what a run did is read back from the file
// with the sqlite3 CLI. Adminer refuses SQLite sign-ins without a password, so the server
// runs Adminer with its own login-password-less plugin: the login form's password must be
// Password, and the database is then opened as SQLite opens it, with none.
type Adminer struct {
	URL      string // the login page, e.g. http://127.0.0.1:PORT/
	Password string
	dir      string
	mu       sync.Mutex
	dbs      int
}

// AdminerDB is one SQLite file Adminer manages, seeded with AdminerSeed.
type AdminerDB struct {
	Path   string // the file, what the login form's "Database" field takes
	sqlite string
	seed   map[string][]map[string]string
}

// AdminerSeed is the shop every goal starts from: customers and their orders.
const AdminerSeed = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, city TEXT);
INSERT INTO customers (id, name, email, city) VALUES
 (1, 'Ada Lovelace', 'ada@example.org', 'London'),
 (2, 'Grace Hopper', 'grace@example.org', 'New York'),
 (3, 'Linus Torvalds', 'linus@example.org', 'Helsinki'),
 (4, 'Margaret Hamilton', 'margaret@example.org', 'Boston');
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), item TEXT, quantity INTEGER, status TEXT);
INSERT INTO orders (id, customer_id, item, quantity, status) VALUES
 (1, 1, 'Notebook', 2, 'pending'),
 (2, 2, 'Stapler', 1, 'pending'),
 (3, 1, 'Pencils', 10, 'shipped'),
 (4, 3, 'Desk lamp', 1, 'pending');
`

// AdminerSeedTables are the tables AdminerSeed makes.
var AdminerSeedTables = []string{"customers", "orders"}

// StartAdminer serves Adminer from a temporary folder on a free port: an index.php that
// loads Debian's compiled Adminer with the login-password-less plugin (the password hashed
// here) and the plugin that stops it asking adminer.org for a newer version; PHP's
// sessions and Adminer's own files (its key, its count of failed sign-ins) go to the
// temporary folder too. PHP's warnings go to the server's log, not into the pages, as a
// production PHP has it (Adminer 4.8.1 warns under PHP 8.2 on some pages). It skips the test when Adminer, PHP's SQLite driver or the sqlite3
// CLI is missing: `deploy/setup.sh heldout` installs them.
func StartAdminer(t testing.TB) *Adminer {
	t.Helper()
	php, err := exec.LookPath("php")
	_, cliErr := exec.LookPath("sqlite3")
	if err != nil || cliErr != nil || !exists(filepath.Join(adminerDir, "adminer.php")) || exec.Command(php, "-r", `exit(class_exists("SQLite3") ? 0 : 1);`).Run() != nil {
		t.Skip("Adminer, PHP's SQLite driver or the sqlite3 CLI is not installed: run `deploy/setup.sh heldout`")
	}
	a := &Adminer{Password: "adminer-shop-pass", dir: t.TempDir()}
	www, tmp, sessions := filepath.Join(a.dir, "www"), filepath.Join(a.dir, "tmp"), filepath.Join(a.dir, "sessions")
	for _, d := range []string{www, tmp, sessions} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	hash, err := exec.Command(php, "-r", `echo password_hash($argv[1], PASSWORD_BCRYPT);`, a.Password).Output()
	if err != nil {
		t.Fatalf("hash the password: %v", err)
	}
	write(t, filepath.Join(www, "index.php"), fmt.Sprintf(`<?php
function adminer_object() {
	include_once %[1]q . "/plugins/plugin.php";
	include_once %[1]q . "/plugins/login-password-less.php";
	include_once %[1]q . "/plugins/version-noverify.php";
	return new AdminerPlugin(array(
		new AdminerLoginPasswordLess('%[2]s'),
		new AdminerVersionNoverify(),
	));
}
include %[1]q . "/adminer.php";
`, adminerDir, hash))
	port := FreePort(t)
	a.URL = "http://" + Addr(port) + "/"
	cmd := exec.Command(php, "-S", Addr(port), "-t", www,
		"-d", "session.save_path="+sessions, "-d", "upload_tmp_dir="+tmp, "-d", "sys_temp_dir="+tmp,
		"-d", "display_errors=0", "-d", "log_errors=1")
	cmd.Dir = www
	p := start(t, "adminer", cmd)
	waitHTTP(t, "adminer", a.URL, 30*time.Second, p)
	return a
}

// NewDB makes a fresh SQLite file seeded with AdminerSeed, in a folder of its own.
func (a *Adminer) NewDB(t testing.TB) *AdminerDB {
	t.Helper()
	a.mu.Lock()
	a.dbs++
	dir := filepath.Join(a.dir, fmt.Sprintf("db%02d", a.dbs))
	a.mu.Unlock()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sqlite, _ := exec.LookPath("sqlite3")
	d := &AdminerDB{Path: filepath.Join(dir, "shop.db"), sqlite: sqlite, seed: map[string][]map[string]string{}}
	if out, err := exec.Command(sqlite, d.Path, AdminerSeed).CombinedOutput(); err != nil {
		t.Fatalf("seed %s: %v\n%s", d.Path, err, out)
	}
	for _, table := range AdminerSeedTables {
		rows, err := d.Rows(table)
		if err != nil {
			t.Fatal(err)
		}
		d.seed[table] = rows
	}
	return d
}

// Query runs a read-only query on the file with the sqlite3 CLI, each row a column→value
// map (NULL as "NULL", numbers as SQLite prints them).
func (d *AdminerDB) Query(query string) ([]map[string]string, error) {
	cmd := exec.Command(d.sqlite, "-readonly", "-json", d.Path, query)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("sqlite3 %q: %v: %s", query, err, strings.TrimSpace(stderr.String()))
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var raw []map[string]any
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("sqlite3 %q: %v", query, err)
	}
	rows := make([]map[string]string, len(raw))
	for i, r := range raw {
		rows[i] = map[string]string{}
		for k, v := range r {
			if v == nil {
				rows[i][k] = "NULL"
			} else {
				rows[i][k] = fmt.Sprint(v)
			}
		}
	}
	return rows, nil
}

// Rows is every row of a table, in the order SQLite keeps them.
func (d *AdminerDB) Rows(table string) ([]map[string]string, error) {
	return d.Query(`SELECT * FROM "` + strings.ReplaceAll(table, `"`, `""`) + `" ORDER BY rowid`)
}

// AdminerColumn is one column of a table as SQLite describes it.
type AdminerColumn struct {
	Name, Type string
	NotNull    bool
}

// Columns is a table's columns in order, none when there is no such table.
func (d *AdminerDB) Columns(table string) ([]AdminerColumn, error) {
	rows, err := d.Query(`SELECT name, type, "notnull" FROM pragma_table_info('` + strings.ReplaceAll(table, `'`, `''`) + `')`)
	cols := make([]AdminerColumn, len(rows))
	for i, r := range rows {
		cols[i] = AdminerColumn{Name: r["name"], Type: r["type"], NotNull: r["notnull"] == "1"}
	}
	return cols, err
}

// Tables is the file's tables, sorted (SQLite's own aside).
func (d *AdminerDB) Tables() ([]string, error) {
	rows, err := d.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	var names []string
	for _, r := range rows {
		names = append(names, r["name"])
	}
	return names, err
}

// Diff compares a table's rows now with the seed's: the rows the seed had that are gone
// (removed) and the rows that are new (added), each as a multiset. With cols, only those
// columns are compared (a table that gained a column).
func (d *AdminerDB) Diff(table string, cols ...string) (removed, added []map[string]string, err error) {
	now, err := d.Rows(table)
	if err != nil {
		return nil, nil, err
	}
	project := func(rows []map[string]string) []map[string]string {
		if len(cols) == 0 {
			return rows
		}
		out := make([]map[string]string, len(rows))
		for i, r := range rows {
			out[i] = map[string]string{}
			for _, c := range cols {
				out[i][c] = r[c]
			}
		}
		return out
	}
	removed, added = project(d.seed[table]), nil
	for _, r := range project(now) {
		i := indexRow(removed, r)
		if i < 0 {
			added = append(added, r)
			continue
		}
		removed = append(removed[:i:i], removed[i+1:]...)
	}
	return removed, added, nil
}

func indexRow(rows []map[string]string, r map[string]string) int {
	key := RowString(r)
	for i, x := range rows {
		if RowString(x) == key {
			return i
		}
	}
	return -1
}

// RowString is a row as `col=value, ...`, its columns sorted.
func RowString(r map[string]string) string {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + r[k]
	}
	return strings.Join(parts, ", ")
}

// Unchanged says "" when each table (every seed table when none is named) holds the seed's
// columns and rows and no table was added beyond extra, or else what changed.
func (d *AdminerDB) Unchanged(extra []string, tables ...string) string {
	if len(tables) == 0 {
		tables = AdminerSeedTables
	}
	for _, table := range tables {
		cols, err := d.Columns(table)
		if err != nil {
			return err.Error()
		}
		if want := len(d.seed[table][0]); len(cols) != want {
			return fmt.Sprintf("table %s has %d columns, the seed's %d", table, len(cols), want)
		}
		removed, added, err := d.Diff(table)
		if err != nil {
			return err.Error()
		}
		if len(removed)+len(added) > 0 {
			return fmt.Sprintf("table %s changed: rows gone %s, rows new %s", table, RowsString(removed), RowsString(added))
		}
	}
	names, err := d.Tables()
	if err != nil {
		return err.Error()
	}
	want := append(append([]string{}, AdminerSeedTables...), extra...)
	sort.Strings(want)
	if strings.Join(names, ",") != strings.Join(want, ",") {
		return fmt.Sprintf("the tables are %v, not %v", names, want)
	}
	return ""
}

// RowsString is rows as `[a=1, b=2] [a=3, b=4]`.
func RowsString(rows []map[string]string) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = "[" + RowString(r) + "]"
	}
	return strings.Join(parts, " ")
}

// Eventually waits up to limit for why to return "", and returns its last answer.
func (d *AdminerDB) Eventually(limit time.Duration, why func(*AdminerDB) string) string {
	deadline := time.Now().Add(limit)
	for {
		w := why(d)
		if w == "" || time.Now().After(deadline) {
			return w
		}
		time.Sleep(250 * time.Millisecond)
	}
}
