package testenv

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// PostfixAdmin is a private Postfix Admin — Debian's postfixadmin: a web admin in PHP for a
// mail server's virtual domains, mailboxes, aliases and their admins, kept in an SQL
// database — copied into a temporary folder and served by PHP's built-in server on a free
// loopback port, over an SQLite database of its own. The package's configuration
// (/etc/postfixadmin/config.inc.php) is copied beside the code with a dbconfig.inc.php and
// a config.local.php of the instance's own: its database file, a setup password, mailbox
// quotas shown, no DNS look-ups of a domain, no default aliases, and none of the pages that
// need a mail server (sending mail, fetchmail, vacation). The welcome mail a new mailbox is
// sent goes to a sink of the test's own, never to a mail server. Each instance's tables
// are made, and its superadmin created, through the setup page (setup.php, signed in with
// the setup password); the seed (PostfixAdminDomains, PostfixAdminMailboxes,
// PostfixAdminAliases) is written through the app's own forms. The judges read the
// database back with the sqlite3 CLI.
type PostfixAdmin struct {
	URL      string // the pages' root, e.g. http://127.0.0.1:PORT (login.php, list-virtual.php)
	User     string // the superadmin
	Password string
	Dir      string // the instance's folder: the code in www, the database, the sessions
	DB       string // the SQLite database
	app      string
	seed     PostfixAdminState
}

// The superadmin, the setup password and the seed mailboxes' password are the same in every
// instance: one grant on the worker serves each fresh instance of a test.
const (
	PostfixAdminUser            = "admin@example.org"
	PostfixAdminPassword        = "Mail-admin-pass-47"
	PostfixAdminMailboxPassword = "Inbox-seed-pass-93"
	postfixadminSetupPassword   = "setup-pass-postfix-58"
	postfixadminDir             = "/usr/share/postfixadmin"
	postfixadminConf            = "/etc/postfixadmin/config.inc.php"
	// PostfixAdminQuotaUnit is how many bytes a quota of 1 MB is stored as (the package's
	// quota_multiplier).
	PostfixAdminQuotaUnit = 1024000
)

// PostfixAdminDomain is a domain of the seed, as its "New Domain" form takes it.
type PostfixAdminDomain struct {
	Domain, Description string
	Aliases, Mailboxes  int
	MaxQuota, Quota     int // MB
}

// PostfixAdminMailbox is a mailbox of the seed, as the "Add Mailbox" form takes it.
type PostfixAdminMailbox struct {
	Local, Domain, Name string
	Quota               int // MB
}

// PostfixAdminAlias is an alias of the seed, as the "Add Alias" form takes it.
type PostfixAdminAlias struct{ Local, Domain, To string }

// The seed every instance starts from, besides its superadmin.
var (
	PostfixAdminDomains = []PostfixAdminDomain{
		{Domain: "example.org", Description: "Head office", Aliases: 20, Mailboxes: 20, MaxQuota: 1000, Quota: 5000},
		{Domain: "example.net", Description: "Web shop", Aliases: 10, Mailboxes: 10, MaxQuota: 500, Quota: 2048},
	}
	PostfixAdminMailboxes = []PostfixAdminMailbox{
		{Local: "alice", Domain: "example.org", Name: "Alice Martin", Quota: 500},
		{Local: "bob", Domain: "example.org", Name: "Bob Jones", Quota: 500},
		{Local: "carol", Domain: "example.org", Name: "Carol White", Quota: 250},
		{Local: "orders", Domain: "example.net", Name: "Order Desk", Quota: 200},
	}
	PostfixAdminAliases = []PostfixAdminAlias{
		{Local: "info", Domain: "example.org", To: "alice@example.org"},
		{Local: "sales", Domain: "example.org", To: "bob@example.org"},
		{Local: "support", Domain: "example.net", To: "orders@example.net"},
	}
)

// postfixadminCode is what of the package's folder the copy holds (its config files are
// links into /etc and its template cache one into /var/cache: the copy has its own).
var postfixadminCode = []string{"common.php", "functions.inc.php", "configs", "languages", "lib", "model", "public", "scripts", "templates"}

// PostfixAdminInstalled says whether Debian's postfixadmin, PHP's command line with the
// SQLite, mbstring and IMAP extensions it needs, and the sqlite3 CLI are here (deploy/setup.sh
// heldout installs them).
func PostfixAdminInstalled() bool {
	if _, err := exec.LookPath("php"); err != nil || !exists(filepath.Join(postfixadminDir, "public", "setup.php")) || !exists(postfixadminConf) {
		return false
	}
	if _, err := exec.LookPath("sqlite3"); err != nil {
		return false
	}
	return exec.Command("php", "-r", `exit(extension_loaded("pdo_sqlite") && extension_loaded("mbstring") && extension_loaded("imap") ? 0 : 1);`).Run() == nil
}

// StartPostfixAdmin copies Postfix Admin's code into a temporary folder with a configuration
// of its own, serves it with php -S until the test ends, makes its tables and superadmin
// through the setup page, signs in and writes the seed through the app's own forms. It
// skips the test when Postfix Admin, PHP or sqlite3 is missing.
func StartPostfixAdmin(t testing.TB) *PostfixAdmin {
	t.Helper()
	if !PostfixAdminInstalled() {
		t.Skip("Postfix Admin is not installed: run `deploy/setup.sh heldout` (it installs Debian's postfixadmin, PHP's SQLite driver and sqlite3)")
	}
	root := t.TempDir()
	w := &PostfixAdmin{User: PostfixAdminUser, Password: PostfixAdminPassword, Dir: root,
		DB: filepath.Join(root, "postfixadmin.db"), app: filepath.Join(root, "www")}
	sessions := filepath.Join(root, "sessions")
	for _, d := range []string{w.app, filepath.Join(w.app, "templates_c"), sessions} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var src []string
	for _, name := range postfixadminCode {
		src = append(src, filepath.Join(postfixadminDir, name))
	}
	if out, err := exec.Command("cp", append(append([]string{"-a"}, src...), postfixadminConf, w.app)...).CombinedOutput(); err != nil {
		t.Fatalf("postfixadmin: copy the code: %v\n%s", err, out)
	}
	sink := startSMTPSink(t)
	w.configure(t, sink.Addr)
	port := FreePort(t)
	w.URL = "http://" + Addr(port)
	cmd := exec.Command("php", "-S", Addr(port), "-t", filepath.Join(w.app, "public"), "-d", "session.save_path="+sessions,
		"-d", "display_errors=0", "-d", "log_errors=1")
	cmd.Dir = filepath.Join(w.app, "public")
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=4", "TZ=UTC")
	p := start(t, "postfixadmin", cmd)
	waitHTTP(t, "postfixadmin", w.URL+"/css/bootstrap.css", 30*time.Second, p)
	w.setup(t)
	w.seedForms(t)
	return w
}

// configure writes the copy's dbconfig.inc.php (which the package's config.inc.php reads)
// and config.local.php (read last, so it has the last word), and the empty database file
// the setup page fills.
func (w *PostfixAdmin) configure(t testing.TB, smtp string) {
	t.Helper()
	out, err := exec.Command("php", "-r", `echo password_hash($argv[1], PASSWORD_DEFAULT);`, postfixadminSetupPassword).Output()
	if err != nil {
		t.Fatalf("postfixadmin: hash the setup password: %v", err)
	}
	host, port, _ := strings.Cut(smtp, ":")
	write(t, filepath.Join(w.app, "dbconfig.inc.php"), fmt.Sprintf("<?php\n$dbtype = 'sqlite';\n$dbserver = '';\n$dbport = '';\n$dbuser = '';\n$dbpass = '';\n$dbname = %s;\n", phpString(w.DB)))
	write(t, filepath.Join(w.app, "config.local.php"), fmt.Sprintf(`<?php
$CONF['configured'] = true;
$CONF['setup_password'] = %s;
$CONF['database_type'] = 'sqlite';
$CONF['database_name'] = %s;
$CONF['default_language'] = 'en';
$CONF['admin_email'] = 'postmaster@example.org';
$CONF['smtp_server'] = %s;
$CONF['smtp_port'] = %s;
$CONF['emailcheck_resolve_domain'] = 'NO';
$CONF['quota'] = 'YES';
$CONF['default_aliases'] = array();
$CONF['sendmail'] = 'NO';
$CONF['fetchmail'] = 'NO';
$CONF['vacation'] = 'NO';
$CONF['create_mailbox_subdirs'] = array();
$CONF['forgotten_user_password_reset'] = false;
$CONF['show_footer_text'] = 'NO';
$CONF['show_custom_domains'] = array();
$CONF['show_custom_colors'] = array();
`, phpString(strings.TrimSpace(string(out))), phpString(w.DB), phpString(host), phpString(port)))
	write(t, w.DB, "")
}

// phpString is s as a PHP single-quoted string.
func phpString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// setup signs in to the setup page with the setup password ("Login with setup_password"),
// which makes the tables, then sends the "Add Superadmin Account" form the answer shows
// (it asks for the setup password again) with the superadmin.
func (w *PostfixAdmin) setup(t testing.TB) {
	t.Helper()
	b := w.Browser()
	status, _, body := b.Submit(t, "/setup.php", `name="authenticate"`, url.Values{"setup_password": {postfixadminSetupPassword}}, "submit")
	if status != http.StatusOK || !strings.Contains(body, "You are logged in with the setup_password") || !strings.Contains(body, `name="create_admin"`) {
		t.Fatalf("postfixadmin: the setup page answered %d:\n%s", status, body)
	}
	status, _, body = b.Do(t, http.MethodPost, "/setup.php", url.Values{"setup_password": {postfixadminSetupPassword},
		"username": {w.User}, "password": {w.Password}, "password2": {w.Password}, "submit": {"createadmin"}})
	if status != http.StatusOK || !strings.Contains(body, "You are done with your basic setup") {
		t.Fatalf("postfixadmin: adding the superadmin answered %d:\n%s", status, body)
	}
}

// seedForms signs in and adds the seed through the New Domain, Add Mailbox and Add Alias
// forms (no welcome mail), then keeps what the database holds as the fresh state.
func (w *PostfixAdmin) seedForms(t testing.TB) {
	t.Helper()
	b := w.Browser()
	b.SignIn(t)
	for _, d := range PostfixAdminDomains {
		b.Save(t, "/edit.php?table=domain", `name="edit_domain"`, url.Values{"value[domain]": {d.Domain}, "value[description]": {d.Description},
			"value[aliases]": {fmt.Sprint(d.Aliases)}, "value[mailboxes]": {fmt.Sprint(d.Mailboxes)},
			"value[maxquota]": {fmt.Sprint(d.MaxQuota)}, "value[quota]": {fmt.Sprint(d.Quota)}})
	}
	for _, m := range PostfixAdminMailboxes {
		b.Save(t, "/edit.php?table=mailbox", `name="edit_mailbox"`, url.Values{"value[local_part]": {m.Local}, "value[domain]": {m.Domain},
			"value[password]": {PostfixAdminMailboxPassword}, "value[password2]": {PostfixAdminMailboxPassword},
			"value[name]": {m.Name}, "value[quota]": {fmt.Sprint(m.Quota)}, "value[welcome_mail]": nil})
	}
	for _, a := range PostfixAdminAliases {
		b.Save(t, "/edit.php?table=alias", `name="edit_alias"`, url.Values{"value[localpart]": {a.Local}, "value[domain]": {a.Domain}, "value[goto]": {a.To}})
	}
	w.seed = w.State(t)
	if n := len(w.seed["mailbox"]); n != len(PostfixAdminMailboxes) {
		t.Fatalf("postfixadmin: the seed stored %d mailboxes, not %d", n, len(PostfixAdminMailboxes))
	}
	if n := len(w.seed["alias"]); n != len(PostfixAdminMailboxes)+len(PostfixAdminAliases) {
		t.Fatalf("postfixadmin: the seed stored %d aliases, not %d: %v", n, len(PostfixAdminMailboxes)+len(PostfixAdminAliases), w.seed["alias"])
	}
}
