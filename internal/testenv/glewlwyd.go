package testenv

import (
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Glewlwyd is a private Glewlwyd — Debian's glewlwyd 2.7.5, a single sign-on server
// (OAuth2, OpenID Connect) — used through its administration web app for what it keeps
// itself: users, clients and scopes, all in a database. Each instance runs glewlwyd in
// the foreground with a configuration file of its own in a temporary folder: a SQLite
// database there made from the schema the package ships, a free loopback port, the
// package's user, client and scheme modules, and a private copy of the package's web app
// folder (its config.json the instance's own) served by glewlwyd itself. The judges read
// the database back with sqlite3, read-only.
type Glewlwyd struct {
	URL      string // the admin web app, e.g. http://127.0.0.1:PORT/
	User     string // admin
	Password string
	Dir      string // the instance's folder: configuration, database, web app, log
	DB       string // the SQLite database
	seed     GlewlwydState
}

// GlewlwydPassword is admin's password in every instance: one grant on the worker serves
// each fresh instance of a test.
const GlewlwydPassword = "Sso-Admin-7731!"

// GlewlwydUserPassword is the password a goal gives a new user: granted on the worker as
// a second secret, so that it appears in no goal either.
const GlewlwydUserPassword = "Welcome-Daniel-4620"

// GlewlwydSeedPassword is the password of the seed's other users.
const GlewlwydSeedPassword = "Seed-User-2024"

// GlewlwydSeedUser is a user of the seed.
type GlewlwydSeedUser struct {
	Username, Name, Email string
	Scopes                []string
	Enabled               bool
}

// GlewlwydSeedClient is a client of the seed.
type GlewlwydSeedClient struct {
	ClientID, Name, RedirectURI string
	Scopes                      []string
}

// The seed every instance starts from, next to what the package's schema makes (admin,
// with the scopes g_admin and g_profile, and the scopes g_admin, g_profile and openid):
// three more scopes, five users (four with names alike) and three clients (two wikis).
var (
	GlewlwydSeedScopes = [][3]string{
		{"mail", "E-mail", "Read and send e-mail"},
		{"calendar", "Calendar", "Shared calendars"},
		{"files", "Files", "File storage"},
	}
	GlewlwydSeedUsers = []GlewlwydSeedUser{
		{"dave", "Dave Brown", "dave@example.org", []string{"g_profile", "mail"}, true},
		{"davina", "Davina Clark", "davina@example.org", []string{"g_profile", "mail", "calendar"}, true},
		{"david", "David Evans", "david@example.org", []string{"g_profile", "files"}, true},
		{"davey", "Davey Jones", "davey@example.org", []string{"g_profile"}, true},
		{"erik", "Erik Lund", "erik@example.org", []string{"g_profile", "mail"}, false},
	}
	GlewlwydSeedClients = []GlewlwydSeedClient{
		{"wiki", "Team Wiki", "https://wiki.example.org/callback", []string{"openid", "mail"}},
		{"wiki-staging", "Staging Wiki", "https://wiki-staging.example.org/callback", []string{"openid"}},
		{"webmail", "Webmail", "https://mail.example.org/oauth/callback", []string{"openid", "mail"}},
	}
)

const (
	glewlwydWebapp  = "/usr/share/glewlwyd/webapp"
	glewlwydSchema  = "/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz"
	glewlwydAppConf = "/usr/share/glewlwyd/templates/config.json"
	glewlwydModules = "/usr/lib/glewlwyd"
)

// GlewlwydInstalled says whether Debian's glewlwyd, its web app, its SQLite schema and
// modules and the sqlite3 CLI are here (deploy/setup.sh heldout installs them).
func GlewlwydInstalled() bool {
	for _, f := range []string{filepath.Join(glewlwydWebapp, "index.html"), glewlwydSchema, glewlwydAppConf,
		filepath.Join(glewlwydModules, "user", "libusermoddatabase.so"), filepath.Join(glewlwydModules, "client", "libclientmoddatabase.so")} {
		if !exists(f) {
			return false
		}
	}
	for _, bin := range []string{"glewlwyd", "sqlite3"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return true
}

// StartGlewlwyd makes a fresh Glewlwyd in a temporary folder (its database from the
// package's schema, its configuration file, its copy of the web app), runs it until the
// test ends, sets admin's password through the profile API (the package's default,
// "password", is not left in place) and adds the seed's scopes, users and clients through
// the administration API, as the web app does. It skips the test when Glewlwyd or sqlite3
// is missing.
func StartGlewlwyd(t testing.TB) *Glewlwyd {
	t.Helper()
	if !GlewlwydInstalled() {
		t.Skip("Glewlwyd is not installed: run `deploy/setup.sh heldout` (it installs Debian's glewlwyd and sqlite3)")
	}
	root := t.TempDir()
	port := FreePort(t)
	g := &Glewlwyd{URL: fmt.Sprintf("http://%s/", Addr(port)), User: "admin", Password: GlewlwydPassword, Dir: root,
		DB: filepath.Join(root, "glewlwyd.db")}
	g.makeDatabase(t)
	g.copyWebapp(t)
	conf := filepath.Join(root, "glewlwyd.conf")
	write(t, conf, g.config(port))
	cmd := exec.Command("glewlwyd", "--config-file="+conf)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "TZ=UTC")
	p := start(t, "glewlwyd", cmd)
	waitHTTP(t, "glewlwyd", g.URL+"config.json", 30*time.Second, p)
	g.seedData(t)
	g.seed = g.State(t)
	if n := len(g.seed["user"]); n != len(GlewlwydSeedUsers)+1 {
		t.Fatalf("glewlwyd: the seed stored %d users, not %d: %v", n, len(GlewlwydSeedUsers)+1, g.seed["user"])
	}
	return g
}

// makeDatabase loads the package's SQLite schema (which adds admin and the built-in
// scopes) into the instance's database.
func (g *Glewlwyd) makeDatabase(t testing.TB) {
	t.Helper()
	f, err := os.Open(glewlwydSchema)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("glewlwyd: %s: %v", glewlwydSchema, err)
	}
	cmd := exec.Command("sqlite3", "-bail", g.DB)
	cmd.Stdin = zr
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("glewlwyd: load the schema: %v\n%s", err, out)
	}
}

// copyWebapp copies the package's web app folder into the instance's (glewlwyd's file
// server follows no symbolic link, and the package's folder holds some), with the
// instance's own config.json: the package's template, whose API address is the page's own.
func (g *Glewlwyd) copyWebapp(t testing.TB) {
	t.Helper()
	dst := filepath.Join(g.Dir, "webapp")
	err := filepath.WalkDir(glewlwydWebapp, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(glewlwydWebapp, path)
		if rel == "config.json" {
			return nil // a link to a folder of /etc; the instance has a config.json of its own
		}
		info, err := os.Stat(path) // through the link, if it is one
		if err != nil {
			return err
		}
		if info.IsDir() {
			if e.Type()&fs.ModeSymlink != 0 {
				return fmt.Errorf("%s links to a folder", path)
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
	if err == nil {
		err = copyFile(glewlwydAppConf, filepath.Join(dst, "config.json"))
	}
	if err != nil {
		t.Fatalf("glewlwyd: copy the web app: %v", err)
	}
}

// copyFile copies the file src (through a link) to dst.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// glewlwydMime are the static files' types glewlwyd serves the web app with.
var glewlwydMime = [][3]string{
	{".html", "text/html", "1"}, {".css", "text/css", "1"}, {".js", "application/javascript", "1"},
	{".json", "application/json", "1"}, {".map", "application/octet-stream", "0"}, {".png", "image/png", "0"},
	{".jpg", "image/jpeg", "0"}, {".svg", "image/svg+xml", "1"}, {".ico", "image/x-icon", "0"},
	{".ttf", "font/ttf", "0"}, {".woff", "font/woff", "0"}, {".woff2", "font/woff2", "0"},
	{".eot", "application/vnd.ms-fontobject", "0"},
}

// config is the instance's glewlwyd.conf: the package's sample's settings, on the
// loopback address and port, its cookie for plain HTTP, its log and database in the
// instance's folder, its web app the instance's copy.
func (g *Glewlwyd) config(port int) string {
	var mime []string
	for _, m := range glewlwydMime {
		mime = append(mime, fmt.Sprintf("  { extension = %q\n    mime_type = %q\n    compress = %s }", m[0], m[1], m[2]))
	}
	return fmt.Sprintf(`port=%d
bind_address="127.0.0.1"
external_url="http://%s"
login_url="login.html"
api_prefix="api"
static_files_path="%s/"
allow_origin="*"
log_mode="file"
log_level="INFO"
log_file="%s"
cookie_secure=0
session_expiration=2419200
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
add_x_frame_option_header_deny=true
max_post_size=16778240
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="%[5]s/user"
user_middleware_module_path="%[5]s/user_middleware"
client_module_path="%[5]s/client"
user_auth_scheme_module_path="%[5]s/scheme"
plugin_module_path="%[5]s/plugin"
use_secure_connection=false
secure_connection_key_file=""
secure_connection_pem_file=""
hash_algorithm="SHA512"
database =
{
  type = "sqlite3"
  path = "%[6]s"
};
static_files_mime_types =
(
%[7]s
)
`, port, Addr(port), filepath.Join(g.Dir, "webapp"), filepath.Join(g.Dir, "glewlwyd.log"), glewlwydModules, g.DB,
		strings.Join(mime, ",\n"))
}
