package testenv

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Zabbix is a private Zabbix frontend — Debian's zabbix-frontend-php 6.0.14: the web panel
// of a monitoring system, for its hosts, host groups, templates, users, maintenance periods
// and settings, all kept in a MySQL database — copied into a temporary folder with a
// zabbix.conf.php of its own, kept in a private MariaDB server (a WordPressDB, with a
// "zabbix" database of its own, loaded from the schema, images and data Debian's
// zabbix-server-mysql ships) and served by PHP's built-in server on a free loopback port.
// No Zabbix server runs: the frontend works on the database alone (its dashboard says the
// server is not running), and the server address it is given is a closed loopback port. As
// Debian's own install does, Admin's password is set in the users table. The seed (the
// host groups ZabbixWebServers, ZabbixStaging and ZabbixTest, the hosts ZabbixHosts) is
// written through the frontend's own JSON-RPC API, signed in as Admin. No host is ever
// contacted: their addresses are in a block reserved for documentation. The judges read
// the database back with the mariadb CLI.
type Zabbix struct {
	URL      string // the frontend's root, e.g. http://127.0.0.1:PORT (its sign-in page)
	User     string // Admin
	Password string
	Dir      string // the instance's copy of the frontend's folder, its conf/zabbix.conf.php
	DB       *WordPressDB
	seed     ZabbixState
}

// ZabbixPassword is Admin's password in every instance: one grant on the worker serves each
// fresh instance of a test.
const ZabbixPassword = "Monitor-Admin-2024!"

// ZabbixHost is a host of the seed: its name, its one host group and the address of its
// Zabbix agent interface.
type ZabbixHost struct{ Name, Group, IP string }

// The seed every instance starts from, besides what Zabbix's data holds (the host Zabbix
// server, the host groups Linux servers, Zabbix servers, Hypervisors, Virtual machines and
// the others, the user groups and roles, the templates).
const (
	ZabbixAdmin        = "Admin"
	ZabbixWebServers   = "Web servers"
	ZabbixLinuxServers = "Linux servers"
	// ZabbixStaging and ZabbixTest are empty host groups of the seed.
	ZabbixStaging = "Staging servers"
	ZabbixTest    = "Test servers"
	zabbixSite    = "/usr/share/zabbix"
	zabbixSQL     = "/usr/share/zabbix-server-mysql"
)

var ZabbixHosts = []ZabbixHost{
	{"web-01", ZabbixWebServers, "192.0.2.11"},
	{"web-02", ZabbixWebServers, "192.0.2.12"},
	{"db-01", ZabbixLinuxServers, "192.0.2.21"},
}

// ZabbixInstalled says whether Debian's Zabbix frontend, the SQL of its server for MySQL,
// the MariaDB server and client, and PHP with the extensions the frontend needs are here
// (deploy/setup.sh heldout installs them).
func ZabbixInstalled() bool {
	if !exists(filepath.Join(zabbixSite, "index.php")) || !exists(filepath.Join(zabbixSQL, "data.sql.gz")) {
		return false
	}
	for _, bin := range []string{"php", "mariadbd", "mariadb", "mariadb-install-db"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `foreach (["mysqli", "bcmath", "gd", "mbstring", "xml", "xmlreader", "xmlwriter", "ctype", "session", "sockets"] as $e) if (!extension_loaded($e)) exit(1);`).Run() == nil
}

// StartZabbix starts a private MariaDB server, loads Zabbix's schema, images and data into
// a "zabbix" database, copies the frontend's folder into a temporary folder with a
// zabbix.conf.php of its own, serves it with php -S until the test ends and writes the
// seed through the API. It skips the test when the frontend, MariaDB or a PHP extension it
// needs is missing.
func StartZabbix(t testing.TB) *Zabbix {
	t.Helper()
	if !ZabbixInstalled() {
		t.Skip("the Zabbix frontend, MariaDB or a PHP extension it needs is not installed: run `deploy/setup.sh heldout` (it installs Debian's zabbix-frontend-php, zabbix-server-mysql, mariadb-server and mariadb-client)")
	}
	db := StartWordPressDB(t)
	root := t.TempDir()
	z := &Zabbix{User: ZabbixAdmin, Password: ZabbixPassword, Dir: filepath.Join(root, "ui"), DB: db}
	copyZabbix(t, z.Dir)
	conf := filepath.Join(z.Dir, "conf", "zabbix.conf.php")
	write(t, conf, zabbixConfig())
	z.loadSchema(t)
	port := FreePort(t)
	z.URL = "http://" + Addr(port)
	cmd := exec.Command("php", "-S", Addr(port), "-d", "display_errors=0", "-d", "log_errors=1",
		"-d", "error_log="+filepath.Join(root, "php-errors.log"), "-d", "mysqli.default_socket="+db.Socket,
		"-d", "date.timezone=UTC", "-d", "memory_limit=512M", "-d", "post_max_size=16M")
	cmd.Dir = z.Dir
	// Several workers: the pages ask for more as they load (the menu's counts, a popup).
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=4", "TZ=UTC")
	p := start(t, "zabbix", cmd)
	waitHTTP(t, "zabbix", z.URL+"/index.php", 30*time.Second, p)
	z.seedAPI(t)
	return z
}

// copyZabbix copies the package's frontend folder to dir, its relative symbolic links into
// other Debian packages (the font, the licence) made absolute, and points the copy's
// CConfigFile at the copy's own conf/zabbix.conf.php: Debian's frontend reads its
// configuration from /etc/zabbix, which is left alone.
func copyZabbix(t testing.TB, dir string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", zabbixSite, dir).CombinedOutput(); err != nil {
		t.Fatalf("copy the zabbix frontend: %v\n%s", err, out)
	}
	err := filepath.WalkDir(zabbixSite, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return err
		}
		target, err := os.Readlink(path)
		if err != nil || filepath.IsAbs(target) {
			return err
		}
		rel, _ := filepath.Rel(zabbixSite, path)
		copied := filepath.Join(dir, rel)
		if err := os.Remove(copied); err != nil {
			return err
		}
		return os.Symlink(filepath.Join(filepath.Dir(path), target), copied)
	})
	if err != nil {
		t.Fatalf("copy the zabbix frontend's links: %v", err)
	}
	class := filepath.Join(dir, "include", "classes", "core", "CConfigFile.php")
	src, err := os.ReadFile(class)
	if err != nil {
		t.Fatal(err)
	}
	const debian = `const CONFIG_FILE_PATH = '/etc/zabbix/zabbix.conf.php';`
	if !strings.Contains(string(src), debian) {
		t.Fatalf("zabbix: %s does not name /etc/zabbix/zabbix.conf.php as Debian's does", class)
	}
	own := `const CONFIG_FILE_PATH = ` + phpString(filepath.Join(dir, "conf", "zabbix.conf.php")) + `;`
	write(t, class, strings.Replace(string(src), debian, own, 1))
}

// zabbixConfig is the copy's conf/zabbix.conf.php (what the setup wizard writes): the
// database through the private server's socket (PHP's mysqli.default_socket, as "localhost"
// means the socket), and a Zabbix server on a closed loopback port, never answered.
func zabbixConfig() string {
	return `<?php
$DB['TYPE']            = 'MYSQL';
$DB['SERVER']          = 'localhost';
$DB['PORT']            = '0';
$DB['DATABASE']        = 'zabbix';
$DB['USER']            = 'root';
$DB['PASSWORD']        = '';
$DB['SCHEMA']          = '';
$DB['ENCRYPTION']      = false;
$DB['KEY_FILE']        = '';
$DB['CERT_FILE']       = '';
$DB['CA_FILE']         = '';
$DB['VERIFY_HOST']     = false;
$DB['CIPHER_LIST']     = '';
$DB['VAULT_URL']       = '';
$DB['VAULT_DB_PATH']   = '';
$DB['VAULT_TOKEN']     = '';
$DB['DOUBLE_IEEE754']  = true;
$ZBX_SERVER            = '127.0.0.1';
$ZBX_SERVER_PORT       = '1';
$ZBX_SERVER_NAME       = 'Zabbix';
$IMAGE_FORMAT_DEFAULT  = IMAGE_FORMAT_PNG;
`
}

// loadSchema creates the "zabbix" database (utf8mb4_bin, as Zabbix asks), loads the
// package's schema.sql, images.sql and data.sql into it and does what an install then
// does: sets Admin's password. The frontend's default language becomes en_GB, whose
// catalogue is empty (the same English): en_US, the data's default, needs a system locale
// of that name, and without one every page shows an error saying so.
func (z *Zabbix) loadSchema(t testing.TB) {
	t.Helper()
	// The data is a hundred thousand inserts: the log is not flushed at each.
	z.DB.Exec(t, "SET GLOBAL innodb_flush_log_at_trx_commit = 0")
	z.DB.Exec(t, "CREATE DATABASE zabbix CHARACTER SET utf8mb4 COLLATE utf8mb4_bin")
	load := exec.Command("mariadb", "--no-defaults", "--socket="+z.DB.Socket, "--user=root", "zabbix")
	in, err := load.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	load.Stdout, load.Stderr = &out, &out
	if err := load.Start(); err != nil {
		t.Fatal(err)
	}
	werr := zabbixSQLFiles(in, "schema.sql.gz", "images.sql.gz", "data.sql.gz")
	in.Close()
	if err := load.Wait(); err != nil || werr != nil {
		t.Fatalf("load zabbix's schema and data: %v %v\n%s", werr, err, out.String())
	}
	z.Exec(t, "UPDATE users SET passwd = "+sqlQuote(cactiHash(t, z.Password))+" WHERE username = "+sqlQuote(ZabbixAdmin))
	z.Exec(t, "UPDATE config SET default_lang = 'en_GB'")
}

// zabbixInsert is one line of the package's SQL: an INSERT of one row.
var zabbixInsert = regexp.MustCompile(`^(INSERT INTO \S+ \([^)]*\) values )(\(.*\));\s*$`)

// zabbixSQLFiles writes the package's gzipped SQL files to w, one after the other, with
// each run of one-row INSERTs into a table made one INSERT of many rows (up to 500): the
// same rows, loaded several times faster.
func zabbixSQLFiles(w io.Writer, names ...string) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	prefix, rows := "", []string{}
	flush := func() {
		if len(rows) > 0 {
			fmt.Fprintf(bw, "%s%s;\n", prefix, strings.Join(rows, ","))
		}
		prefix, rows = "", rows[:0]
	}
	for _, name := range names {
		f, err := os.Open(filepath.Join(zabbixSQL, name))
		if err != nil {
			return err
		}
		gz, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return err
		}
		sc := bufio.NewScanner(gz)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			m := zabbixInsert.FindStringSubmatch(sc.Text())
			switch {
			case m == nil:
				flush()
				fmt.Fprintln(bw, sc.Text())
				continue
			case m[1] != prefix || len(rows) >= 500:
				flush()
				prefix = m[1]
			}
			rows = append(rows, m[2])
		}
		flush()
		f.Close()
		if err := sc.Err(); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	}
	return bw.Flush()
}
