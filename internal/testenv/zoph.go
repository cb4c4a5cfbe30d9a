package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Zoph is a private Zoph — Debian's zoph 1.0.1: a web photo organiser in PHP that keeps
// photos with their albums, categories, people, places, ratings and descriptions in a
// MySQL database. Zoph's PHP is copied into a temporary folder whose config.inc.php names
// a zoph.ini of the instance's own (the package's /etc/zoph.ini is left alone); its
// database is a private MariaDB server (a WordPressDB, with a "zoph" database loaded from
// the schema the package ships), served by PHP's built-in server on a free loopback port;
// its image folder is in the test's temporary folder. The seed's albums, categories,
// places and people are made and its photos (small JPEGs drawn here) imported by Zoph's
// own CLI, as a person with a shell does. The judges read the database back with the
// mariadb CLI.
type Zoph struct {
	URL      string // Zoph's root, e.g. http://127.0.0.1:PORT (its sign-in page is logon.php)
	User     string // admin
	Password string
	Dir      string // the instance's copy of Zoph's PHP
	Images   string // the image folder (the "Images directory" of its configuration)
	DB       *WordPressDB
	root     string
	seed     ZophState
}

// ZophPassword is admin's password in every instance: one grant on the worker serves each
// fresh instance of a test.
const ZophPassword = "Family-Photos-2024!"

const (
	zophSite   = "/usr/share/zoph/www/php"
	zophSchema = "/usr/share/dbconfig-common/data/zoph/install/mysql"
	zophCLI    = "/usr/bin/zoph"
	zophINIRef = `"/etc/zoph.ini"`
)

// ZophInstalled says whether Debian's zoph, the MariaDB server and client, and PHP with
// the extensions Zoph needs are here (deploy/setup.sh zoph installs them).
func ZophInstalled() bool {
	if !exists(filepath.Join(zophSite, "zoph.php")) || !exists(zophSchema) || !exists(zophCLI) {
		return false
	}
	for _, bin := range []string{"php", "mariadbd", "mariadb", "mariadb-install-db"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `foreach (["pdo_mysql", "gd", "exif", "fileinfo", "xml", "session"] as $e) if (!extension_loaded($e)) exit(1);`).Run() == nil
}

// StartZoph starts a private MariaDB server, loads Zoph's schema into a "zoph" database,
// copies Zoph into a temporary folder with a zoph.ini of its own, sets admin's password,
// the image folder and the CLI's user, serves Zoph with php -S until the test ends and
// writes the seed through Zoph's CLI. It skips the test when Zoph, MariaDB or a PHP
// extension is missing.
func StartZoph(t testing.TB) *Zoph {
	t.Helper()
	if !ZophInstalled() {
		t.Skip("Zoph, MariaDB or a PHP extension it needs is not installed: run `deploy/setup.sh zoph` (it installs Debian's zoph, mariadb-server and mariadb-client)")
	}
	db := StartWordPressDB(t)
	// Zoph takes an image folder only of letters, digits, "_", ".", "-" and "/"; a test's
	// own temporary folder is named after the test (spaces, commas).
	root, err := os.MkdirTemp("", "zoph")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	z := &Zoph{User: "admin", Password: ZophPassword, Dir: filepath.Join(root, "zoph"), Images: filepath.Join(root, "images"), DB: db, root: root}
	z.copySite(t)
	z.DB.Exec(t, "CREATE DATABASE zoph CHARACTER SET utf8mb4")
	z.load(t)
	hash, err := exec.Command("php", "-r", `echo password_hash($argv[1], PASSWORD_DEFAULT);`, z.Password).Output()
	if err != nil {
		t.Fatalf("zoph: hash admin's password: %v", err)
	}
	// As Zoph's own "change password" keeps a password (password_hash), and the settings a
	// person makes on the admin's configuration page: the image folder, the CLI's user.
	z.Exec(t, "UPDATE zoph_users SET password = "+sqlQuote(string(hash))+" WHERE user_name = 'admin';\n"+
		"INSERT INTO zoph_conf (conf_id, value) VALUES ('path.images', "+sqlQuote(z.Images)+"), ('interface.user.cli', '1')")
	port := FreePort(t)
	z.URL = "http://" + Addr(port)
	cmd := exec.Command("php", z.phpArgs("-S", Addr(port))...)
	cmd.Dir = z.Dir
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=4", "TZ=UTC")
	p := start(t, "zoph", cmd)
	waitHTTP(t, "zoph", z.URL+"/logon.php", 30*time.Second, p)
	z.seedAll(t)
	return z
}

// phpArgs are PHP's settings for the instance (the private server's socket, Zoph's own
// requirements for uploads and run time) followed by args.
func (z *Zoph) phpArgs(args ...string) []string {
	return append([]string{"-d", "display_errors=0", "-d", "log_errors=1",
		"-d", "error_log=" + filepath.Join(z.root, "php-errors.log"), "-d", "session.save_path=" + z.root,
		"-d", "pdo_mysql.default_socket=" + z.DB.Socket, "-d", "date.timezone=UTC",
		"-d", "post_max_size=32M", "-d", "upload_max_filesize=16M", "-d", "max_execution_time=60"}, args...)
}

// copySite copies Zoph's PHP to z.Dir with its config.inc.php, and a copy of the CLI,
// naming the instance's zoph.ini, and writes that zoph.ini: the private database (root
// through PHP's default socket) and the copy's folder as php_location, which is how Zoph
// tells its instance from the page's own folder.
func (z *Zoph) copySite(t testing.TB) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", zophSite, z.Dir).CombinedOutput(); err != nil {
		t.Fatalf("copy zoph: %v\n%s", err, out)
	}
	if err := os.MkdirAll(z.Images, 0o755); err != nil {
		t.Fatal(err)
	}
	ini := filepath.Join(z.root, "zoph.ini")
	write(t, ini, "[zoph]\ndb_host = \"localhost\"\ndb_name = \"zoph\"\ndb_user = \"root\"\ndb_pass = \"\"\n"+
		"db_prefix = \"zoph_\"\nphp_location = "+phpString(z.Dir)+"\n")
	for _, f := range []struct{ from, to string }{
		{filepath.Join(zophSite, "config.inc.php"), filepath.Join(z.Dir, "config.inc.php")},
		{zophCLI, filepath.Join(z.root, "zoph-cli.php")},
	} {
		text, err := os.ReadFile(f.from)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.ReplaceAll(string(text), zophINIRef, phpString(ini))
		if s == string(text) {
			t.Fatalf("zoph: %s names no /etc/zoph.ini", f.from)
		}
		os.Remove(f.to) // a copy may keep the package's read-only mode
		write(t, f.to, s)
	}
}

// load loads the schema the package ships (the one its database setup runs).
func (z *Zoph) load(t testing.TB) {
	t.Helper()
	schema, err := os.Open(zophSchema)
	if err != nil {
		t.Fatal(err)
	}
	defer schema.Close()
	load := exec.Command("mariadb", "--no-defaults", "--socket="+z.DB.Socket, "--user=root", "zoph")
	load.Stdin = schema
	if out, err := load.CombinedOutput(); err != nil {
		t.Fatalf("load zoph's schema: %v\n%s", err, out)
	}
}

// CLI runs Zoph's own command-line tool (the package's zoph, pointed at the instance's
// zoph.ini) with args, failing the test when it fails.
func (z *Zoph) CLI(t testing.TB, args ...string) {
	t.Helper()
	cmd := exec.Command("php", z.phpArgs(append([]string{filepath.Join(z.root, "zoph-cli.php")}, args...)...)...)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zoph %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
