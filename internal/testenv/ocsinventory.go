package testenv

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// OCSInventory is a private OCS Inventory NG console — Debian's ocsinventory-reports 2.8.1:
// the web console in PHP of an IT inventory, for the computers its agents report (their
// hardware, software and administrative data such as the TAG), the static and dynamic
// groups of computers, the console's users and their profiles, and the server's settings,
// all kept in a MySQL database. The console is copied into a temporary folder with a
// dbconfig.inc.php of its own (the package's is a link into /etc/ocsinventory, left alone)
// and its var.php pointed at folders of the copy's own; its database is a private MariaDB
// server (a WordPressDB, with an "ocsweb" database loaded from the schema the package
// ships and brought to the console's version by the console's own update page, as a first
// visit after an install does); it is served by PHP's built-in server on a free loopback
// port. No communication server runs: the seed's computers are written into the tables an
// agent's inventory fills, the groups, their members and the second user through the
// console's own forms. The judges read the database back with the mariadb CLI.
type OCSInventory struct {
	URL      string // the console's root, e.g. http://127.0.0.1:PORT (its sign-in page)
	User     string // admin
	Password string
	Dir      string // the instance's copy of the console, its config and log
	DB       *WordPressDB
	seed     OCSInventoryState
}

// OCSInventoryPassword is admin's password in every instance: one grant on the worker
// serves each fresh instance of a test.
const OCSInventoryPassword = "Inventory-Admin-2024!"

// OCSComputer is a computer of the seed, as its agent's inventory would report it.
type OCSComputer struct {
	Name, Domain, User, OS, OSVersion, IP, Tag, Maker, Model, Serial string
	Memory                                                           int
	Software                                                         []string // names of the seed's software (OCSSoftware)
}

// OCSSoftware is a program of the seed: its publisher and version.
type OCSSoftware struct{ Name, Publisher, Version string }

// The seed every instance starts from, besides what the console's schema holds (admin,
// the TAG field, the settings' defaults).
var (
	OCSComputers = []OCSComputer{
		{"LAB-PC-01", "LAB", "jdoe", "Microsoft Windows 10 Pro", "10.0.19045", "192.0.2.11", "LAB", "Dell Inc.", "OptiPlex 7070", "5CG7K01", 8192,
			[]string{"Mozilla Firefox", "7-Zip", "LibreOffice"}},
		{"LAB-PC-02", "LAB", "asmith", "Microsoft Windows 10 Pro", "10.0.19045", "192.0.2.12", "LAB", "Dell Inc.", "OptiPlex 7070", "5CG7K02", 8192,
			[]string{"Mozilla Firefox", "7-Zip"}},
		{"LAB-PC-10", "LAB", "lchen", "Microsoft Windows 11 Pro", "10.0.22631", "192.0.2.20", "LAB", "Dell Inc.", "OptiPlex 7090", "5CG7K10", 16384,
			[]string{"Mozilla Firefox", "LibreOffice"}},
		{"OFFICE-PC-01", "OFFICE", "mgarcia", "Ubuntu 22.04.4 LTS", "5.15.0-105-generic", "198.51.100.31", "OFFICE", "LENOVO", "ThinkCentre M720q", "PC1ABC01", 16384,
			[]string{"Mozilla Firefox", "LibreOffice", "Thunderbird"}},
		{"OFFICE-PC-02", "OFFICE", "pdubois", "Ubuntu 22.04.4 LTS", "5.15.0-105-generic", "198.51.100.32", "OFFICE", "LENOVO", "ThinkCentre M720q", "PC1ABC02", 8192,
			[]string{"Mozilla Firefox", "Thunderbird"}},
	}
	OCSSoftwareList = []OCSSoftware{
		{"Mozilla Firefox", "Mozilla", "125.0.2"},
		{"7-Zip", "Igor Pavlov", "23.01"},
		{"LibreOffice", "The Document Foundation", "7.6.4.1"},
		{"Thunderbird", "Mozilla", "115.10.1"},
	}
	// OCSGroups are the seed's static groups, with their description and members.
	OCSGroups = []struct {
		Name, Description string
		Members           []string
	}{
		{"Lab Machines", "Computers of the training lab", []string{"LAB-PC-01", "LAB-PC-02"}},
		{"Office Machines", "Desktops of the front office", []string{"OFFICE-PC-01"}},
	}
)

const (
	// OCSOperator is a second console user, with its profile (a Local administrator).
	OCSOperator         = "tmartin"
	OCSOperatorFirst    = "Thomas"
	OCSOperatorLast     = "Martin"
	OCSOperatorPassword = "Operator-Pass-2024"
	ocsSite             = "/usr/share/ocsinventory-reports"
	ocsSchema           = ocsSite + "/files/ocsbase.sql"
	ocsJavaScript       = "/usr/share/javascript"
	// ocsMailer is the PHPMailer Debian ships (the package's composer folder is not shipped).
	ocsMailer = "/usr/share/php/libphp-phpmailer/autoload.php"
)

// OCSInventoryInstalled says whether Debian's ocsinventory-reports, the MariaDB server and
// client, and PHP with the extensions the console needs are here (deploy/setup.sh heldout
// installs them).
func OCSInventoryInstalled() bool {
	if !exists(filepath.Join(ocsSite, "index.php")) || !exists(ocsSchema) || !exists(ocsMailer) ||
		!exists(filepath.Join(ocsJavaScript, "jquery-datatables", "jquery.dataTables.min.js")) {
		return false
	}
	for _, bin := range []string{"php", "mariadbd", "mariadb", "mariadb-install-db"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `foreach (["mysqli", "gd", "mbstring", "xml", "simplexml", "zip", "soap", "session"] as $e) if (!extension_loaded($e)) exit(1);`).Run() == nil
}

// StartOCSInventory starts a private MariaDB server, loads the console's schema into an
// "ocsweb" database, copies the console into a temporary folder with a configuration of
// its own, serves it with php -S until the test ends, runs the console's update page
// (which brings the schema to the console's version), sets admin's password and writes
// the seed. It skips the test when the console, MariaDB or a PHP extension is missing.
func StartOCSInventory(t testing.TB) *OCSInventory {
	t.Helper()
	if !OCSInventoryInstalled() {
		t.Skip("OCS Inventory's console, MariaDB or a PHP extension it needs is not installed: run `deploy/setup.sh heldout` (it installs Debian's ocsinventory-reports, mariadb-server and mariadb-client)")
	}
	db := StartWordPressDB(t)
	root := t.TempDir()
	o := &OCSInventory{User: "admin", Password: OCSInventoryPassword, Dir: filepath.Join(root, "console"), DB: db}
	copyOCSInventory(t, o.Dir, filepath.Join(root, "var"))
	o.loadSchema(t)
	port := FreePort(t)
	o.URL = "http://" + Addr(port)
	cmd := exec.Command("php", "-S", Addr(port), "-d", "display_errors=0", "-d", "log_errors=1",
		"-d", "error_log="+filepath.Join(root, "php-errors.log"), "-d", "session.save_path="+root,
		"-d", "mysqli.default_socket="+db.Socket, "-d", "post_max_size=101M", "-d", "upload_max_filesize=100M")
	cmd.Dir = o.Dir
	// Several workers: the lists load their rows with a request of their own.
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=4", "TZ=UTC")
	p := start(t, "ocsinventory", cmd)
	waitHTTP(t, "ocsinventory", o.URL+"/css/ocsreports.css", 30*time.Second, p)
	o.update(t)
	// As the console itself writes a password: its hash, with the version it is kept in.
	o.Exec(t, "UPDATE operators SET PASSWD = "+sqlQuote(ocsHash(o.Password))+
		", PASSWORD_VERSION = (SELECT IVALUE FROM config WHERE NAME = 'PASSWORD_VERSION') WHERE ID = 'admin'")
	o.seedTables(t)
	o.seedForms(t)
	return o
}

// copyOCSInventory copies the console to dir with a dbconfig.inc.php of its own (the
// private server through PHP's default socket, as root), a var.php whose library and log
// folders are under varDir, a vendor/autoload.php that loads Debian's PHPMailer (the
// package ships no composer folder), and no install.php (as the console asks once it is
// installed). The pages load jQuery, Bootstrap and DataTables from /javascript, which
// Debian's web server configuration maps to /usr/share/javascript: the copy links it.
func copyOCSInventory(t testing.TB, dir, varDir string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", ocsSite, dir).CombinedOutput(); err != nil {
		t.Fatalf("copy the ocsinventory console: %v\n%s", err, out)
	}
	for _, d := range []string{"download", "ipd", "snmp", "logs", "scripts", "log/logs", "log/scripts"} {
		if err := os.MkdirAll(filepath.Join(varDir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(ocsJavaScript, filepath.Join(dir, "javascript")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "dbconfig.inc.php")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "install.php")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "dbconfig.inc.php"), `<?php
define("DB_NAME", "ocsweb");
define("SERVER_READ", "localhost");
define("SERVER_WRITE", "localhost");
define("SERVER_PORT", "3306");
define("COMPTE_BASE", "root");
define("PSWD_BASE", "");
define("ENABLE_SSL", "0");
define("SSL_MODE", "");
define("SSL_KEY", "");
define("SSL_CERT", "");
define("CA_CERT", "");
?>`)
	if err := os.MkdirAll(filepath.Join(dir, "vendor"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "vendor", "autoload.php"), "<?php\nrequire_once "+phpString(ocsMailer)+";\n")
	varPHP := filepath.Join(dir, "var.php")
	text, err := os.ReadFile(varPHP)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(text), `"/var/lib/ocsinventory-reports"`, phpString(varDir), 1)
	s = strings.Replace(s, `"/var/log/ocsinventory-reports"`, phpString(filepath.Join(varDir, "log")), 1)
	if s == string(text) {
		t.Fatalf("ocsinventory: var.php names none of the package's folders")
	}
	if err := os.Remove(varPHP); err != nil { // a copy may keep the package's read-only mode
		t.Fatal(err)
	}
	write(t, varPHP, s)
}

// loadSchema creates the "ocsweb" database (utf8, as the console's installer makes it)
// and loads the schema the package ships into it; the console's folders for packages and
// logs are the copy's own.
func (o *OCSInventory) loadSchema(t testing.TB) {
	t.Helper()
	o.DB.Exec(t, "CREATE DATABASE ocsweb CHARACTER SET utf8 COLLATE utf8_bin")
	schema, err := os.Open(ocsSchema)
	if err != nil {
		t.Fatal(err)
	}
	defer schema.Close()
	load := exec.Command("mariadb", "--no-defaults", "--socket="+o.DB.Socket, "--user=root", "ocsweb")
	load.Stdin = schema
	if out, err := load.CombinedOutput(); err != nil {
		t.Fatalf("load ocsinventory's schema: %v\n%s", err, out)
	}
}

// update does what the first visit after an install asks for: the console shows its
// update page (the schema is older than the console) and "Perform the update" brings it
// to the console's version.
func (o *OCSInventory) update(t testing.TB) {
	t.Helper()
	b := o.Browser()
	if page := b.Open(t, "/index.php"); !strings.Contains(page, "name='update'") {
		t.Fatalf("ocsinventory: the first visit shows no update page:\n%s", OCSText(page))
	}
	if page := b.Post(t, "/index.php", map[string][]string{"update": {"Perform the update"}}); !strings.Contains(page, "Update done") {
		t.Fatalf("ocsinventory: the update did not finish:\n%s", OCSText(page))
	}
	if v := o.Query(t, "SELECT TVALUE FROM config WHERE NAME = 'GUI_VERSION'"); len(v) != 1 || v[0]["TVALUE"] != "7069" {
		t.Fatalf("ocsinventory: after the update the schema's version is %v", v)
	}
}

// ocsHash is password as the console keeps it (var.php's PASSWORD_CRYPT, sha256, in hex).
func ocsHash(password string) string {
	sum := sha256.Sum256([]byte(password))
	return hex.EncodeToString(sum[:])
}

// OCSPasswordIs says whether hash (operators' PASSWD column) is password's.
func OCSPasswordIs(hash, password string) bool { return hash != "" && hash == ocsHash(password) }

// seedTables writes the seed's computers where an agent's inventory puts them: hardware,
// bios, accountinfo (the TAG) and the software tables.
func (o *OCSInventory) seedTables(t testing.TB) {
	t.Helper()
	var stmts []string
	for i, s := range OCSSoftwareList {
		stmts = append(stmts,
			fmt.Sprintf("INSERT INTO software_name (ID, NAME) VALUES (%d, %s)", 100+i, sqlQuote(s.Name)),
			fmt.Sprintf("INSERT IGNORE INTO software_publisher (PUBLISHER) VALUES (%s)", sqlQuote(s.Publisher)),
			fmt.Sprintf("INSERT INTO software_version (ID, VERSION) VALUES (%d, %s)", 100+i, sqlQuote(s.Version)))
	}
	for i, c := range OCSComputers {
		id := i + 1
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO hardware (ID, DEVICEID, NAME, WORKGROUP, USERDOMAIN, OSNAME, OSVERSION,
			PROCESSORT, PROCESSORS, PROCESSORN, MEMORY, SWAP, IPADDR, LASTDATE, LASTCOME, USERID, USERAGENT, UUID, ARCH, FIDELITY)
			VALUES (%d, %s, %s, %s, %s, %s, %s, 'Intel(R) Core(TM) i5-9500 CPU @ 3.00GHz', 3000, 6, %d, 2048, %s,
			NOW() - INTERVAL %d HOUR, NOW() - INTERVAL %d HOUR, %s, 'OCS-NG_unified_unix_agent_v2.10.0', %s, 'x86_64', 12)`,
			id, sqlQuote(c.Name+"-2024-03-04-09-00-0"+fmt.Sprint(id)), sqlQuote(c.Name), sqlQuote(c.Domain), sqlQuote(c.Domain),
			sqlQuote(c.OS), sqlQuote(c.OSVersion), c.Memory, sqlQuote(c.IP), id, id, sqlQuote(c.User),
			sqlQuote(fmt.Sprintf("4C4C4544-0000-1000-8000-%012d", id))),
			fmt.Sprintf("INSERT INTO bios (HARDWARE_ID, SMANUFACTURER, SMODEL, SSN, TYPE, BMANUFACTURER, BVERSION, BDATE) VALUES (%d, %s, %s, %s, 'Desktop', %s, '1.21.0', '03/12/2023')",
				id, sqlQuote(c.Maker), sqlQuote(c.Model), sqlQuote(c.Serial), sqlQuote(c.Maker)),
			fmt.Sprintf("INSERT INTO accountinfo (HARDWARE_ID, TAG) VALUES (%d, %s)", id, sqlQuote(c.Tag)))
		for _, name := range c.Software {
			for j, s := range OCSSoftwareList {
				if s.Name == name {
					stmts = append(stmts, fmt.Sprintf(`INSERT INTO software (HARDWARE_ID, NAME_ID, PUBLISHER_ID, VERSION_ID)
						SELECT %d, %d, ID, %d FROM software_publisher WHERE PUBLISHER = %s`, id, 100+j, 100+j, sqlQuote(s.Publisher)))
				}
			}
		}
	}
	o.Exec(t, strings.Join(stmts, ";\n"))
}
