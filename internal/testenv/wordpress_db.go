package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// WordPressDB is a private MariaDB server (Debian's mariadbd) for one WordPress site: a
// fresh data folder in a temporary one, no network (a unix socket of its own), no grant
// tables (any local client is root), the machine's own configuration files not read. It
// stops when the test ends.
type WordPressDB struct {
	Socket  string
	DataDir string
}

// StartWordPressDB initialises a data folder with mariadb-install-db, starts mariadbd on
// it and creates the empty "wordpress" database.
func StartWordPressDB(t testing.TB) *WordPressDB {
	t.Helper()
	root := t.TempDir()
	// A unix socket's path is limited to about a hundred bytes; a test's temporary folder
	// can be longer than that.
	sockDir, err := os.MkdirTemp("", "wpdb")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	db := &WordPressDB{Socket: filepath.Join(sockDir, "mysqld.sock"), DataDir: filepath.Join(root, "data")}
	install := exec.Command("mariadb-install-db", "--no-defaults", "--datadir="+db.DataDir, "--user=root",
		"--auth-root-authentication-method=normal", "--skip-test-db")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	cmd := exec.Command("mariadbd", "--no-defaults", "--datadir="+db.DataDir, "--socket="+db.Socket,
		"--skip-networking", "--user=root", "--skip-grant-tables", "--skip-log-bin",
		"--innodb-buffer-pool-size=32M", "--pid-file="+filepath.Join(root, "mariadbd.pid"),
		"--log-error="+filepath.Join(root, "mariadbd.err"))
	p := start(t, "mariadbd", cmd)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if out, err := db.client("", "CREATE DATABASE IF NOT EXISTS wordpress CHARACTER SET utf8mb4"); err == nil {
			break
		} else if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(root, "mariadbd.err"))
			t.Fatalf("mariadbd did not answer in 30s: %v\n%s\n%s%s", err, out, p.out.String(), log)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return db
}

// client runs one statement with the mariadb CLI, in batch mode (tab-separated, a header
// line).
func (db *WordPressDB) client(database, stmt string) (string, error) {
	args := []string{"--no-defaults", "--socket=" + db.Socket, "--user=root", "--batch", "--execute=" + stmt}
	if database != "" {
		args = append(args, database)
	}
	out, err := exec.Command("mariadb", args...).CombinedOutput()
	return string(out), err
}

// Exec runs a statement on the site's database, failing the test on an error.
func (db *WordPressDB) Exec(t testing.TB, stmt string) {
	t.Helper()
	if out, err := db.client("wordpress", stmt); err != nil {
		t.Fatalf("mariadb %s: %v\n%s", stmt, err, out)
	}
}

// Query reads the site's database with the mariadb CLI: one map per row, column → value
// as text ("NULL" for NULL).
func (db *WordPressDB) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return db.QueryIn(t, "wordpress", query)
}

// QueryIn is Query in another database of the same server (none for ""): the other apps
// that run on a private MariaDB server of this kind (phpMyAdmin, Tiny Tiny RSS, Cacti)
// read theirs through it.
func (db *WordPressDB) QueryIn(t testing.TB, database, query string) []map[string]string {
	t.Helper()
	args := []string{"--no-defaults", "--socket=" + db.Socket, "--user=root", "--batch", "--execute=" + query}
	if database != "" {
		args = append(args, database)
	}
	out, err := exec.Command("mariadb", args...).Output()
	if err != nil {
		t.Fatalf("mariadb %s: %v", query, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return nil
	}
	head := strings.Split(lines[0], "\t")
	var rows []map[string]string
	for _, l := range lines[1:] {
		cells := strings.Split(l, "\t")
		r := map[string]string{}
		for i, c := range head {
			if i < len(cells) {
				r[c] = unescapeBatch(cells[i])
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// unescapeBatch undoes the mariadb CLI's batch escapes: \n, \t, \0 and \\.
func unescapeBatch(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '0':
			b.WriteByte(0)
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// sqlQuote is a string literal for MariaDB.
func sqlQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(s) + "'"
}

// htmlTagOrComment is an HTML tag or comment (the block editor keeps its blocks in
// comments).
var htmlTagOrComment = regexp.MustCompile(`(?s)<!--.*?-->|<[^>]*>`)
