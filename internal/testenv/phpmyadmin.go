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

// PhpMyAdmin is a private phpMyAdmin — Debian's phpmyadmin: the MySQL and MariaDB admin
// panel in PHP — served by PHP's built-in server on a free loopback port from a
// temporary folder (the package's code linked in, a configuration of its own), in front
// of a private MariaDB server (WordPressDB) seeded with a shop. Its user signs in through
// phpMyAdmin's own login form (cookie authentication) with a MariaDB account and
// password. What a run did is read back from the server itself with the mariadb CLI.
type PhpMyAdmin struct {
	URL      string // the login page, e.g. http://127.0.0.1:PORT/index.php
	User     string // the MariaDB account the goals sign in as
	Password string
	Dir      string // the served folder: links to the package's code, config.inc.php
	DB       *WordPressDB
}

// PhpMyAdminPassword is the MariaDB account's password in every instance: one grant on
// the worker serves each fresh instance of a test.
const PhpMyAdminPassword = "pma-shop-pass-4"

// The seed every instance starts from: one database, shop, with customers and their
// orders, and one account with every privilege that signs in to phpMyAdmin with
// PhpMyAdminPassword (MariaDB's root has no password, which phpMyAdmin refuses).
const (
	PhpMyAdminUser     = "shopkeeper"
	PhpMyAdminDatabase = "shop"
	PhpMyAdminSeed     = `
CREATE DATABASE shop CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
USE shop;
CREATE TABLE customers (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(100), city VARCHAR(60));
INSERT INTO customers (id, name, email, city) VALUES
 (1, 'Ada Lovelace', 'ada@example.org', 'London'),
 (2, 'Grace Hopper', 'grace@example.org', 'New York'),
 (3, 'Linus Torvalds', 'linus@example.org', 'Helsinki'),
 (4, 'Margaret Hamilton', 'margaret@example.org', 'Boston');
CREATE TABLE orders (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, item VARCHAR(100) NOT NULL, quantity INT NOT NULL DEFAULT 1, status VARCHAR(20) NOT NULL DEFAULT 'pending');
INSERT INTO orders (id, customer_id, item, quantity, status) VALUES
 (1, 1, 'Notebook', 2, 'pending'),
 (2, 2, 'Stapler', 1, 'pending'),
 (3, 1, 'Pencils', 10, 'shipped'),
 (4, 3, 'Desk lamp', 1, 'pending');
`
	phpmyadminDir = "/usr/share/phpmyadmin"
)

// phpmyadminSystemDBs are the server's own databases, which every instance has and the
// judges leave out.
var phpmyadminSystemDBs = []string{"information_schema", "mysql", "performance_schema", "sys"}

// PhpMyAdminInstalled says whether Debian's phpMyAdmin, the MariaDB server and client,
// and PHP with its MySQL and mbstring extensions are here (deploy/setup.sh heldout
// installs them).
func PhpMyAdminInstalled() bool {
	if !exists(filepath.Join(phpmyadminDir, "index.php")) || !exists(filepath.Join(phpmyadminDir, "libraries", "vendor_config.php")) {
		return false
	}
	for _, bin := range []string{"php", "mariadbd", "mariadb", "mariadb-install-db"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `exit(extension_loaded("mysqli") && extension_loaded("mbstring") && extension_loaded("sodium") ? 0 : 1);`).Run() == nil
}

// StartPhpMyAdmin starts a private MariaDB server, turns its account checks on and seeds
// it (PhpMyAdminSeed and the account), lays out a folder that serves Debian's phpMyAdmin
// with a configuration of its own (the package's reads /etc/phpmyadmin, which is left
// alone) and serves it with php -S until the test ends. It skips the test when
// phpMyAdmin, MariaDB or PHP's extensions are missing.
func StartPhpMyAdmin(t testing.TB) *PhpMyAdmin {
	t.Helper()
	if !PhpMyAdminInstalled() {
		t.Skip("phpMyAdmin, MariaDB or PHP's MySQL driver is not installed: run `deploy/setup.sh heldout` (it installs Debian's phpmyadmin, mariadb-server, mariadb-client and php-mysql)")
	}
	db := StartWordPressDB(t)
	// The server runs without its grant tables, where any client is root and any password
	// passes; FLUSH PRIVILEGES loads them, so that phpMyAdmin's sign-in checks the
	// password. Root keeps no password, for the judges' CLI; the WordPress helper's empty
	// database goes, so that phpMyAdmin lists the shop alone beside the server's own.
	for _, stmt := range []string{
		"SET GLOBAL character_set_server = 'utf8mb4'",
		"SET GLOBAL collation_server = 'utf8mb4_general_ci'",
		"FLUSH PRIVILEGES",
		"CREATE USER " + sqlQuote(PhpMyAdminUser) + "@'localhost' IDENTIFIED BY " + sqlQuote(PhpMyAdminPassword),
		"GRANT ALL PRIVILEGES ON *.* TO " + sqlQuote(PhpMyAdminUser) + "@'localhost'",
		"DROP DATABASE wordpress",
		PhpMyAdminSeed,
	} {
		if out, err := db.client("", stmt); err != nil {
			t.Fatalf("seed phpmyadmin's server: %s: %v\n%s", stmt, err, out)
		}
	}
	root := t.TempDir()
	p := &PhpMyAdmin{User: PhpMyAdminUser, Password: PhpMyAdminPassword, Dir: filepath.Join(root, "www"), DB: db}
	tmp, sessions := filepath.Join(root, "tmp"), filepath.Join(root, "sessions")
	for _, d := range []string{tmp, sessions} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	phpmyadminLayout(t, p.Dir, tmp)
	write(t, filepath.Join(p.Dir, "config.inc.php"), phpmyadminConfig(db.Socket, tmp))
	port := FreePort(t)
	p.URL = "http://" + Addr(port) + "/index.php"
	// PHP's deprecation notices go to the server's log, not into the pages, as a
	// production PHP has it.
	cmd := exec.Command("php", "-S", Addr(port), "-t", p.Dir,
		"-d", "session.save_path="+sessions, "-d", "upload_tmp_dir="+tmp, "-d", "sys_temp_dir="+tmp,
		"-d", "display_errors=0", "-d", "log_errors=1")
	cmd.Dir = p.Dir
	// A few workers: the pages send their requests (the navigation tree, the page) at once.
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=3")
	proc := start(t, "phpmyadmin", cmd)
	waitHTTP(t, "phpmyadmin", p.URL, 30*time.Second, proc)
	return p
}

// phpmyadminEntryPoints are the package's scripts that find phpMyAdmin's root from their
// own folder: they are copied, not linked (PHP resolves a linked script's folder to the
// package's), so that the root is the served folder and its vendor_config.php is read.
var phpmyadminEntryPoints = map[string]bool{"index.php": true, "url.php": true, "show_config_errors.php": true, "js/messages.php": true}

// phpmyadminLayout lays out the served folder: everything of the package linked, but the
// entry points, copied, and libraries/vendor_config.php, written with the package's
// paths to the configuration file and the temporary folder pointing into the test's.
func phpmyadminLayout(t testing.TB, dir, tmp string) {
	t.Helper()
	var link func(sub string)
	link = func(sub string) {
		entries, err := os.ReadDir(filepath.Join(phpmyadminDir, sub))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			rel := filepath.Join(sub, e.Name())
			from, to := filepath.Join(phpmyadminDir, rel), filepath.Join(dir, rel)
			switch {
			case rel == "libraries" || rel == "js":
				link(rel)
			case rel == filepath.Join("libraries", "vendor_config.php"):
			case phpmyadminEntryPoints[filepath.ToSlash(rel)]:
				data, err := os.ReadFile(from)
				if err != nil {
					t.Fatal(err)
				}
				write(t, to, string(data))
			default:
				if err := os.Symlink(from, to); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	link("")
	vendor, err := os.ReadFile(filepath.Join(phpmyadminDir, "libraries", "vendor_config.php"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(vendor)
	for key, value := range map[string]string{"configFile": filepath.Join(dir, "config.inc.php"), "tempDir": tmp + "/"} {
		re := regexp.MustCompile(`'` + key + `'\s*=>\s*[^,\n]+,`)
		if !re.MatchString(text) {
			t.Fatalf("phpmyadmin's vendor_config.php has no %s", key)
		}
		text = re.ReplaceAllLiteralString(text, "'"+key+"' => "+phpmyadminPHPString(value)+",")
	}
	write(t, filepath.Join(dir, "libraries", "vendor_config.php"), text)
}

// phpmyadminConfig is the instance's config.inc.php: one server, the private MariaDB on
// its socket, signed in to through the login form (cookie authentication, a fixed
// secret for the cookie's encryption), no empty passwords, no requests to the internet
// (the version check, error reports), and no warning about the configuration storage,
// which a plain installation does not set up.
func phpmyadminConfig(socket, tmp string) string {
	return `<?php
$cfg['blowfish_secret'] = 'held-out-phpmyadmin-cookie-key32';
$cfg['Servers'][1]['auth_type'] = 'cookie';
$cfg['Servers'][1]['host'] = 'localhost';
$cfg['Servers'][1]['socket'] = ` + phpmyadminPHPString(socket) + `;
$cfg['Servers'][1]['AllowNoPassword'] = false;
$cfg['TempDir'] = ` + phpmyadminPHPString(tmp) + `;
$cfg['UploadDir'] = '';
$cfg['SaveDir'] = '';
$cfg['VersionCheck'] = false;
$cfg['SendErrorReports'] = 'never';
$cfg['PmaNoRelation_DisableWarning'] = true;
`
}

// phpmyadminPHPString is a single-quoted PHP string literal.
func phpmyadminPHPString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// phpmyadminSQLName is an identifier quoted for MariaDB.
func phpmyadminSQLName(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// Query reads the server with the mariadb CLI, as root, in database (none for "");
// one map per row, column → value as text ("NULL" for NULL).
func (p *PhpMyAdmin) Query(t testing.TB, database, query string) []map[string]string {
	t.Helper()
	return p.DB.QueryIn(t, database, query)
}

// Databases are the server's databases but its own (information_schema, mysql,
// performance_schema, sys), sorted.
func (p *PhpMyAdmin) Databases(t testing.TB) []string {
	t.Helper()
	quoted := make([]string, len(phpmyadminSystemDBs))
	for i, d := range phpmyadminSystemDBs {
		quoted[i] = sqlQuote(d)
	}
	var out []string
	for _, r := range p.Query(t, "", `SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME NOT IN (`+strings.Join(quoted, ", ")+`) ORDER BY SCHEMA_NAME`) {
		out = append(out, r["SCHEMA_NAME"])
	}
	return out
}

// Tables are a database's tables and views, sorted.
func (p *PhpMyAdmin) Tables(t testing.TB, database string) []string {
	t.Helper()
	var out []string
	for _, r := range p.Query(t, "", `SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = `+sqlQuote(database)+` ORDER BY TABLE_NAME`) {
		out = append(out, r["TABLE_NAME"])
	}
	return out
}

// Columns are a table's columns in order, each as "name type NULL" or "name type NOT
// NULL" (the type as MariaDB shows it: "int(11)", "varchar(60)").
func (p *PhpMyAdmin) Columns(t testing.TB, database, table string) []string {
	t.Helper()
	var out []string
	for _, r := range p.Query(t, "", `SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = `+
		sqlQuote(database)+` AND TABLE_NAME = `+sqlQuote(table)+` ORDER BY ORDINAL_POSITION`) {
		null := "NOT NULL"
		if r["IS_NULLABLE"] == "YES" {
			null = "NULL"
		}
		out = append(out, r["COLUMN_NAME"]+" "+r["COLUMN_TYPE"]+" "+null)
	}
	return out
}

// Rows are every row of a table, in the order the server returns them.
func (p *PhpMyAdmin) Rows(t testing.TB, database, table string) []map[string]string {
	t.Helper()
	return p.Query(t, "", `SELECT * FROM `+phpmyadminSQLName(database)+`.`+phpmyadminSQLName(table))
}
