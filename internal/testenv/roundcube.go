package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// RoundcubeVersion is the Debian package deploy/setup.sh installs (ROUNDCUBE_VERSION there).
const RoundcubeVersion = "1.6.5"

// Where Debian puts Roundcube: the code, and the defaults the configuration extends.
const (
	roundcubeDir    = "/usr/share/roundcube"
	roundcubeEtcDir = "/etc/roundcube"
)

// Roundcube is a private Roundcube Webmail — Debian's roundcube-core, a real application
// nobody here wrote — served by php -S from a temporary folder, in front of a private
// Dovecot holding one user's mail in a Maildir, sending through an SMTP sink. Contacts,
// identities and preferences are in Roundcube's own SQLite file; the mail is in the
// Maildir: both are what the judges read.
type Roundcube struct {
	URL      string // the login page, e.g. http://127.0.0.1:PORT/
	User     string // the mailbox's login, what the login form's Username takes
	Password string
	DB       string // Roundcube's SQLite file
	IMAP     *Dovecot
	SMTP     *SMTPSink
}

// RoundcubePassword is the mailbox's password in every instance: one grant on the worker
// serves each fresh instance of a test.
const RoundcubePassword = "roundcube-mail-pass"

// The seed every instance starts from: the user's identity, and six messages in INBOX,
// all read but the last.
const (
	RoundcubeUser         = "alice@example.org"
	RoundcubeIdentityName = "Alice Example"
	RoundcubeBudget       = "Quarterly budget review"
	RoundcubeLunch        = "Lunch on Friday?"
	RoundcubeLunchID      = "<lunch-1@example.org>"
	RoundcubeReceipt      = "Your order receipt"
	RoundcubeDeals        = "Weekly deals"
	RoundcubeKickoff      = "Project kickoff notes"
	RoundcubePhoto        = "Team photo"
)

// RoundcubeSeed are the messages INBOX starts with.
var RoundcubeSeed = []MailSeed{
	{From: "Bob Stone <bob@example.org>", Subject: RoundcubeBudget, Body: "Please review the numbers before Monday.", MessageID: "<budget-1@example.org>", Seen: true},
	{From: "Carol Diaz <carol@example.org>", Subject: RoundcubeLunch, Body: "Shall we have lunch on Friday at noon?", MessageID: RoundcubeLunchID, Seen: true},
	{From: "Paper Shop <orders@shop.example>", Subject: RoundcubeReceipt, Body: "Thank you for your order of 2 notebooks.", MessageID: "<receipt-1@shop.example>", Seen: true},
	{From: "Deals Weekly <news@deals.example>", Subject: RoundcubeDeals, Body: "This week: 20% off everything.", MessageID: "<deals-1@deals.example>", Seen: true},
	{From: "Dan Berg <dan@example.org>", Subject: RoundcubeKickoff, Body: "Notes from Tuesday's kickoff are attached below.", MessageID: "<kickoff-1@example.org>", Seen: true},
	{From: "Eve Park <eve@example.org>", Subject: RoundcubePhoto, Body: "Here is the team photo from the offsite.", MessageID: "<photo-1@example.org>"},
}

// RoundcubeInstalled says whether Roundcube, Dovecot, PHP with the extensions Roundcube
// needs and the sqlite3 CLI are there.
func RoundcubeInstalled() bool {
	_, err1 := exec.LookPath("php")
	_, err2 := exec.LookPath("sqlite3")
	return err1 == nil && err2 == nil && exists(filepath.Join(roundcubeDir, "index.php")) &&
		exists(filepath.Join(roundcubeDir, "SQL/sqlite.initial.sql")) && exists(dovecotBin) &&
		exec.Command("php", "-r", `exit(extension_loaded("pdo_sqlite") && extension_loaded("mbstring") && extension_loaded("intl") ? 0 : 1);`).Run() == nil
}

// StartRoundcube starts a Dovecot with the seeded mail, an SMTP sink, and a copy of
// Roundcube's layout (links to Debian's code, a configuration and a SQLite database of
// its own) served by php -S on a free port; it signs in once through the login form, as
// a first visit does (Roundcube makes the user and their identity then), names the
// identity RoundcubeIdentityName, and is stopped when the test ends. It skips the test
// when something is missing: `deploy/setup.sh heldout` installs it all.
func StartRoundcube(t testing.TB) *Roundcube {
	t.Helper()
	if !RoundcubeInstalled() {
		t.Skip("Roundcube, Dovecot, PHP's SQLite driver or the sqlite3 CLI is not installed: run `deploy/setup.sh heldout`")
	}
	root := t.TempDir()
	rc := &Roundcube{User: RoundcubeUser, Password: RoundcubePassword}
	rc.IMAP = startDovecot(t, filepath.Join(root, "imap"), rc.User, rc.Password, RoundcubeSeed)
	rc.SMTP = startSMTPSink(t)
	app := filepath.Join(root, "roundcube")
	rc.DB = filepath.Join(app, "db", "roundcube.db")
	roundcubeLayout(t, app)
	if out, err := exec.Command("sqlite3", rc.DB, ".read "+filepath.Join(roundcubeDir, "SQL/sqlite.initial.sql")).CombinedOutput(); err != nil {
		t.Fatalf("roundcube's schema: %v\n%s", err, out)
	}
	port := FreePort(t)
	rc.URL = "http://" + Addr(port) + "/"
	write(t, filepath.Join(app, "config", "config.inc.php"), roundcubeConfig(app, rc.IMAP.Addr, rc.SMTP.Addr))
	tmp := filepath.Join(app, "temp")
	cmd := exec.Command("php", "-S", Addr(port), "-t", filepath.Join(app, "public_html"),
		"-d", "upload_tmp_dir="+tmp, "-d", "sys_temp_dir="+tmp, "-d", "display_errors=0", "-d", "log_errors=1")
	cmd.Dir = app
	p := start(t, "roundcube", cmd)
	waitHTTP(t, "roundcube", rc.URL, 30*time.Second, p)
	rc.SignIn(t)
	rc.exec(t, fmt.Sprintf(`UPDATE identities SET name = %s`, quote(RoundcubeIdentityName)))
	return rc
}

// roundcubeLayout lays out an installation in app as Debian's /var/lib/roundcube does —
// the code linked, the configuration, database, logs and temporary files its own — with
// public_html, the folder served, holding the entry point and the static files.
func roundcubeLayout(t testing.TB, app string) {
	t.Helper()
	for _, d := range []string{"config", "db", "logs", "temp", "public_html/program"} {
		if err := os.MkdirAll(filepath.Join(app, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"index.php":                     filepath.Join(roundcubeDir, "index.php"),
		"program":                       filepath.Join(roundcubeDir, "program"),
		"skins":                         filepath.Join(roundcubeDir, "skins"),
		"plugins":                       filepath.Join(roundcubeDir, "plugins"),
		"SQL":                           filepath.Join(roundcubeDir, "SQL"),
		"config/defaults.inc.php":       filepath.Join(roundcubeEtcDir, "defaults.inc.php"),
		"config/mimetypes.php":          filepath.Join(roundcubeEtcDir, "mimetypes.php"),
		"public_html/skins":             "../skins",
		"public_html/plugins":           "../plugins",
		"public_html/program/js":        "../../program/js",
		"public_html/program/resources": "../../program/resources",
	}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(app, name)); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(app, "public_html", "index.php"),
		fmt.Sprintf("<?php\ndefine('INSTALL_PATH', %q);\ninclude INSTALL_PATH . 'index.php';\n", app+"/"))
}

// roundcubeConfig is the instance's config.inc.php: its database, its IMAP and SMTP
// servers (no authentication to the sink), its folders, and files kept under app.
func roundcubeConfig(app, imap, smtp string) string {
	return fmt.Sprintf(`<?php
$config = [];
$config['db_dsnw'] = 'sqlite:///%[1]s/db/roundcube.db?mode=0600';
$config['imap_host'] = '%[2]s';
$config['smtp_host'] = '%[3]s';
$config['smtp_user'] = '';
$config['smtp_pass'] = '';
$config['temp_dir'] = '%[1]s/temp/';
$config['log_dir'] = '%[1]s/logs/';
$config['des_key'] = 'webagent-heldout-des-key';
$config['plugins'] = [];
$config['skin'] = 'elastic';
$config['enable_spellcheck'] = false;
$config['enable_installer'] = false;
$config['product_name'] = 'Roundcube Webmail';
$config['support_url'] = '';
$config['drafts_mbox'] = 'Drafts';
$config['sent_mbox'] = 'Sent';
$config['trash_mbox'] = 'Trash';
$config['junk_mbox'] = 'Junk';
$config['session_lifetime'] = 30;
`, app, imap, smtp)
}

// Query reads Roundcube's database with the sqlite3 CLI (read-only), one map per row,
// each value as text ("" for NULL).
func (rc *Roundcube) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return SQLiteRows(t, rc.DB, query)
}

func (rc *Roundcube) exec(t testing.TB, stmt string) {
	t.Helper()
	if out, err := exec.Command("sqlite3", "-cmd", ".timeout 5000", rc.DB, stmt).CombinedOutput(); err != nil {
		t.Fatalf("sqlite3 %s: %v\n%s", stmt, err, out)
	}
}

// RoundcubeContact is an address book entry as Roundcube keeps it.
type RoundcubeContact struct{ Name, FirstName, Surname, Email string }

// Contacts are the user's contacts that are not deleted.
func (rc *Roundcube) Contacts(t testing.TB) []RoundcubeContact {
	t.Helper()
	var out []RoundcubeContact
	for _, r := range rc.Query(t, `SELECT name, firstname, surname, email FROM contacts WHERE del = 0 ORDER BY contact_id`) {
		out = append(out, RoundcubeContact{Name: r["name"], FirstName: r["firstname"], Surname: r["surname"], Email: r["email"]})
	}
	return out
}

// RoundcubeIdentity is a sender identity: its id, display name and address.
type RoundcubeIdentity struct{ ID, Name, Email, Organization string }

// Identities are the user's identities that are not deleted.
func (rc *Roundcube) Identities(t testing.TB) []RoundcubeIdentity {
	t.Helper()
	var out []RoundcubeIdentity
	for _, r := range rc.Query(t, `SELECT identity_id, name, email, organization FROM identities WHERE del = 0 ORDER BY identity_id`) {
		out = append(out, RoundcubeIdentity{ID: r["identity_id"], Name: r["name"], Email: r["email"], Organization: r["organization"]})
	}
	return out
}
