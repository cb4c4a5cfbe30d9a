package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ZoneMinder is a private ZoneMinder — Debian's zoneminder 1.36: a video surveillance
// system whose PHP web console manages the cameras (monitors: their name, source and
// function), groups of monitors, the console's users and their permissions and the
// system's options, all kept in a MySQL database — with no capture daemon running. Each
// instance has a private MariaDB server (a WordPressDB, with the "zm" database the package's
// zm_create.sql makes), a copy of the package's web folder in a temporary folder pointed at
// a zm.conf of its own (its events, logs, temporary and cache folders in the instance's
// folder) and served by PHP's built-in server on a free loopback port. The console's calls
// to ZoneMinder's daemons (zmdc.pl, zmpkg.pl, …) go to stand-ins in the instance's folder
// that do nothing. Authentication is on and admin's password is set; the privacy notice and
// the donation reminder a first visit shows are answered, as an administrator who has
// used the console would have. The seed (ZoneMinderMonitors, ZoneMinderUsers, the group
// ZoneMinderGroup) is written through the console's own pages, signed in as admin. The
// judges read the database back with the mariadb CLI.
type ZoneMinder struct {
	URL      string // the console's root, e.g. http://127.0.0.1:PORT (its login page)
	User     string // admin
	Password string
	Dir      string // the instance's folder: the web folder's copy, zm.conf, events, logs
	DB       *WordPressDB
	seed     ZoneMinderState
}

// ZoneMinderPassword is admin's password in every instance: one grant on the worker serves
// each fresh instance of a test.
const ZoneMinderPassword = "Camera-Admin-2024!"

// ZoneMinderMonitor is a monitor of the seed: an FFmpeg camera at an address reserved for
// documentation (nothing ever connects to it), 640×480.
type ZoneMinderMonitor struct{ Name, Function, Path string }

// ZoneMinderUser is a user of the seed with its permissions (the user form's Stream,
// Events, Control, Monitors, Groups, System and Devices; those not named are None).
type ZoneMinderUser struct {
	Name, Password string
	Perms          map[string]string
}

// The seed every instance starts from, besides what ZoneMinder's schema holds (admin, the
// default filters and options).
var (
	ZoneMinderMonitors = []ZoneMinderMonitor{
		{"Front Door", "Monitor", "rtsp://192.0.2.11:554/stream1"},
		{"Front Gate", "Monitor", "rtsp://192.0.2.12:554/stream1"},
		{"Back Yard", "Modect", "rtsp://192.0.2.13:554/stream1"},
		{"Back Door", "Monitor", "rtsp://192.0.2.14:554/stream1"},
		{"Driveway", "None", "rtsp://192.0.2.15:554/stream1"},
	}
	ZoneMinderUsers = []ZoneMinderUser{
		{"guard", "Guard-Desk-2024", map[string]string{"Stream": "View", "Events": "View", "Monitors": "View"}},
		{"installer", "Install-Cams-2024", map[string]string{"Stream": "View", "Events": "Edit", "Control": "Edit", "Monitors": "Edit"}},
	}
	// ZoneMinderGroupMembers are the monitors of the group ZoneMinderGroup.
	ZoneMinderGroupMembers = []string{"Back Yard", "Driveway"}
)

const (
	ZoneMinderGroup = "Outdoor"
	zoneminderWeb   = "/usr/share/zoneminder/www"
	zoneminderSQL   = "/usr/share/zoneminder/db/zm_create.sql"
	zoneminderFonts = "/usr/share/fonts-glyphicons"
)

// zoneminderStandIns are the daemons and tools the console runs, replaced by scripts that
// do nothing: no capture, no analysis, no filter is ever run.
var zoneminderStandIns = []string{"zmdc.pl", "zmpkg.pl", "zmfilter.pl", "zmcontrol.pl", "zmu", "zmx10.pl", "zmvideo.pl", "zmaudit.pl", "zmonvif-probe.pl"}

// ZoneMinderInstalled says whether Debian's zoneminder, the MariaDB server and client, and
// PHP with the extensions the console needs are here (deploy/setup.sh heldout installs
// them).
func ZoneMinderInstalled() bool {
	if !exists(filepath.Join(zoneminderWeb, "index.php")) || !exists(zoneminderSQL) {
		return false
	}
	for _, bin := range []string{"php", "mariadbd", "mariadb", "mariadb-install-db"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `foreach (["pdo_mysql", "gd", "intl", "apcu"] as $e) if (!extension_loaded($e)) exit(1);`).Run() == nil
}

// StartZoneMinder starts a private MariaDB server, loads ZoneMinder's schema, copies the
// web folder into a temporary folder with a zm.conf of its own, serves it with php -S until
// the test ends and writes the seed through the console's pages. It skips the test when
// ZoneMinder, MariaDB or a PHP extension it needs is missing.
func StartZoneMinder(t testing.TB) *ZoneMinder {
	t.Helper()
	if !ZoneMinderInstalled() {
		t.Skip("ZoneMinder, MariaDB or a PHP extension it needs is not installed: run `deploy/setup.sh heldout` (it installs Debian's zoneminder, mariadb-server and mariadb-client)")
	}
	db := StartWordPressDB(t)
	root := t.TempDir()
	z := &ZoneMinder{User: "admin", Password: ZoneMinderPassword, Dir: root, DB: db}
	web := filepath.Join(root, "www")
	z.copyWeb(t, web)
	z.loadSchema(t)
	port := FreePort(t)
	z.URL = "http://" + Addr(port)
	cmd := exec.Command("php", "-S", Addr(port), "-d", "display_errors=0", "-d", "log_errors=1",
		"-d", "error_log="+filepath.Join(root, "logs", "php-errors.log"), "-d", "session.save_path="+filepath.Join(root, "sessions"),
		"-d", "date.timezone=UTC")
	cmd.Dir = web
	// Several workers: the console's pages ask for more as they load (the navigation bar's
	// status, the modal forms).
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=4", "TZ=UTC")
	p := start(t, "zoneminder", cmd)
	waitHTTP(t, "zoneminder", z.URL+"/graphics/favicon.ico", 30*time.Second, p)
	z.seedPages(t)
	return z
}

// copyWeb copies the package's web folder to web. Its relative links into other Debian
// packages (the Glyphicons fonts) are made absolute; its links into /etc/zm and
// /var/cache/zoneminder (the API's configuration and temporary folder) become a file and a
// folder of the copy's own. includes/config.php is pointed at the instance's zm.conf and
// folders, and the instance's zm.conf, folders and stand-in daemons are written.
func (z *ZoneMinder) copyWeb(t testing.TB, web string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", zoneminderWeb, web).CombinedOutput(); err != nil {
		t.Fatalf("copy zoneminder's web folder: %v\n%s", err, out)
	}
	fonts, _ := filepath.Glob(filepath.Join(web, "fonts", "glyphicons-halflings-regular.*"))
	for _, f := range fonts {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(zoneminderFonts, filepath.Base(f)), f); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"www/cache", "www/api/app/tmp", "events", "logs", "tmp", "sessions", "conf.d", "bin"} {
		path := filepath.Join(z.Dir, d)
		_ = os.Remove(path) // the package's link, where there is one
		if err := os.MkdirAll(path, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	core := filepath.Join(web, "api", "app", "Config", "core.php")
	text, err := os.ReadFile(filepath.Join(web, "api", "app", "Config", "core.php.default"))
	if err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(core)
	write(t, core, strings.NewReplacer("__ZM_API_SALT__", randomHex(t, 15), "__ZM_API_SEED__", "4815162342").Replace(string(text)))
	config := filepath.Join(web, "includes", "config.php")
	text, err = os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	write(t, config, strings.NewReplacer(
		"'/etc/zm/zm.conf'", phpString(filepath.Join(z.Dir, "zm.conf")),
		"'/etc/zm/conf.d'", phpString(filepath.Join(z.Dir, "conf.d")),
		"'/tmp/zm'", phpString(filepath.Join(z.Dir, "tmp")),
		"'/var/cache/zoneminder'", phpString(filepath.Join(web, "cache")),
	).Replace(string(text)))
	write(t, filepath.Join(z.Dir, "zm.conf"), z.zmConf(web))
	for _, s := range zoneminderStandIns {
		if err := os.WriteFile(filepath.Join(z.Dir, "bin", s), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// zmConf is the instance's zm.conf: the database through the private server's socket, the
// stand-in daemons, and the events, logs and temporary files in the instance's folder.
func (z *ZoneMinder) zmConf(web string) string {
	tmp := filepath.Join(z.Dir, "tmp")
	return fmt.Sprintf(`ZM_PATH_DATA=/usr/share/zoneminder
ZM_PATH_BIN=%s
ZM_PATH_LIB=/usr/lib/x86_64-linux-gnu
ZM_PATH_CONF=%s
ZM_PATH_WEB=%s
ZM_PATH_CGI=/usr/lib/zoneminder/cgi-bin
ZM_DB_TYPE=mysql
ZM_DB_HOST=localhost:%s
ZM_DB_NAME=zm
ZM_DB_USER=root
ZM_DB_PASS=
ZM_DIR_EVENTS=%s
ZM_DIR_SOUNDS=sounds
ZM_DIR_EXPORTS=%s
ZM_PATH_ZMS=/cgi-bin/zms
ZM_PATH_MAP=%s
ZM_PATH_SOCKS=%s
ZM_PATH_LOGS=%s
ZM_PATH_SWAP=%s
`, filepath.Join(z.Dir, "bin"), z.Dir, web, z.DB.Socket, filepath.Join(z.Dir, "events"), tmp, tmp, tmp,
		filepath.Join(z.Dir, "logs"), tmp)
}

// loadSchema loads the package's schema (it makes the "zm" database) and does what an
// administrator does on a new install: turns authentication on with a secret of the
// instance's own, sets admin's password, and answers the privacy notice and the donation
// reminder (telemetry off); the console logs to the instance's log folder and its
// database, not to the machine's syslog.
func (z *ZoneMinder) loadSchema(t testing.TB) {
	t.Helper()
	schema, err := os.Open(zoneminderSQL)
	if err != nil {
		t.Fatal(err)
	}
	defer schema.Close()
	load := exec.Command("mariadb", "--no-defaults", "--socket="+z.DB.Socket, "--user=root")
	load.Stdin = schema
	if out, err := load.CombinedOutput(); err != nil {
		t.Fatalf("load zoneminder's schema: %v\n%s", err, out)
	}
	z.Exec(t, "UPDATE Config SET Value = '1' WHERE Name = 'ZM_OPT_USE_AUTH'")
	z.Exec(t, "UPDATE Config SET Value = "+sqlQuote(randomHex(t, 16))+" WHERE Name = 'ZM_AUTH_HASH_SECRET'")
	z.Exec(t, "UPDATE Config SET Value = '0' WHERE Name IN ('ZM_SHOW_PRIVACY', 'ZM_DYN_SHOW_DONATE_REMINDER', 'ZM_TELEMETRY_DATA')")
	z.Exec(t, "UPDATE Config SET Value = '-5' WHERE Name = 'ZM_LOG_LEVEL_SYSLOG'") // the log file only, not the machine's syslog
	z.Exec(t, "UPDATE Users SET Password = "+sqlQuote(zoneminderHash(t, z.Password))+" WHERE Username = 'admin'")
}

// randomHex is n random bytes in hex.
func randomHex(t testing.TB, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// zoneminderHash is password as ZoneMinder keeps it (PHP's password_hash with bcrypt).
func zoneminderHash(t testing.TB, password string) string {
	t.Helper()
	out, err := exec.Command("php", "-r", `echo password_hash($argv[1], PASSWORD_BCRYPT);`, password).Output()
	if err != nil {
		t.Fatalf("zoneminder: hash a password: %v", err)
	}
	return string(out)
}

// seedPages signs in as admin and writes the seed through the console's pages: each
// monitor through Add (its name, function, source path and capture resolution), each user
// through Options' Users tab (Add New User), and the group through Groups (New); then keeps
// what the database holds as the fresh state.
func (z *ZoneMinder) seedPages(t testing.TB) {
	t.Helper()
	b := z.Browser()
	b.SignIn(t)
	for _, m := range ZoneMinderMonitors {
		b.AddMonitor(t, map[string]string{"Name": m.Name, "Function": m.Function, "Path": m.Path})
	}
	for _, u := range ZoneMinderUsers {
		fields := map[string]string{"Username": u.Name, "Password": u.Password}
		for k, v := range u.Perms {
			fields[k] = v
		}
		b.AddUser(t, fields)
	}
	b.SaveGroup(t, "", ZoneMinderGroup, ZoneMinderGroupMembers...)
	z.seed = z.State(t)
	if n := len(z.seed["Monitors"]); n != len(ZoneMinderMonitors) {
		t.Fatalf("zoneminder: the seed stored %d monitors, not %d: %v", n, len(ZoneMinderMonitors), z.seed["Monitors"])
	}
	if n := len(z.seed["Users"]); n != len(ZoneMinderUsers)+1 {
		t.Fatalf("zoneminder: the seed stored %d users, not %d: %v", n, len(ZoneMinderUsers)+1, z.seed["Users"])
	}
	if g := z.seed["Groups"][ZoneMinderGroup]; g == nil || g["monitors"] != strings.Join(ZoneMinderGroupMembers, ", ") {
		t.Fatalf("zoneminder: the seed's group %s is not as written: %v", ZoneMinderGroup, z.seed["Groups"])
	}
}
