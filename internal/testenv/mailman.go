package testenv

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Mailman is a private GNU Mailman 3 — Debian's mailman3 3.3.8 (the core: lists, members,
// bans, settings, kept in an SQLite database, managed through its REST API) with Debian's
// mailman3-web (the Django project of Postorius 1.3.8, the web UI that manages lists, and
// HyperKitty 1.3.7, the archives). Each instance has a folder of its own: the core's
// configuration and var folder (its SQLite database, queues, logs; no MTA: lists are made
// with the null MTA and nothing delivers the queued mail), its REST runner alone on a free
// loopback port, and the Django project's settings and SQLite database, served by Django's
// own server on another free loopback port. The seed is written through the core's REST
// API; the judges read the core's SQLite database back with the sqlite3 CLI.
type Mailman struct {
	URL      string // the web UI's root, e.g. http://127.0.0.1:PORT (it sends a visitor to the list index)
	API      string // the core's REST API, e.g. http://127.0.0.1:PORT/3.1
	User     string // admin: the site's administrator (a Django superuser)
	Password string
	Email    string // admin's address, the owner of every list of the seed
	Dir      string // the instance's folder
	DB       string // the core's SQLite database
	seed     MailmanState
}

// MailmanPassword is admin's password in every instance: one grant on the worker serves
// each fresh instance of a test.
const MailmanPassword = "Lists-Admin-2024!"

// mailmanAPIPassword is the REST API's password (its user is restadmin); only the
// instance's own web UI and the harness use it.
const mailmanAPIPassword = "core-rest-4f1c9b"

const (
	mailmanPython = "/usr/bin/python3" // Debian's, which has Django and Mailman's packages
	mailmanRunner = "/usr/lib/mailman3/bin/runner"
	mailmanManage = "/usr/share/mailman3-web/manage.py"
	mailmanWebDir = "/usr/share/mailman3-web" // the project's urls module
	mailmanPkgs   = "/usr/lib/python3/dist-packages"
)

// MailmanInstalled says whether Debian's mailman3 and mailman3-web (Postorius, HyperKitty)
// and the sqlite3 CLI are here (deploy/setup.sh heldout installs them).
func MailmanInstalled() bool {
	for _, f := range []string{mailmanPython, mailmanRunner, mailmanManage, filepath.Join(mailmanWebDir, "urls.py"),
		filepath.Join(mailmanPkgs, "postorius", "__init__.py"), filepath.Join(mailmanPkgs, "hyperkitty", "__init__.py"),
		filepath.Join(mailmanPkgs, "mailman", "mta", "null.py")} {
		if !exists(f) {
			return false
		}
	}
	_, err := exec.LookPath("sqlite3")
	return err == nil
}

// StartMailman starts a private Mailman core (its REST runner) and web UI, seeds the core
// with the seed's domains, lists, members, moderators and bans, signs admin in once (which
// links admin's address to a core user, as every sign-in after keeps it) and keeps the
// state it then has as the seed. It skips the test when Mailman is missing.
func StartMailman(t testing.TB) *Mailman {
	t.Helper()
	if !MailmanInstalled() {
		t.Skip("Mailman 3 is not installed: run `deploy/setup.sh heldout` (it installs Debian's mailman3, mailman3-web and sqlite3)")
	}
	root := t.TempDir()
	m := &Mailman{User: "admin", Password: MailmanPassword, Email: "admin@example.org", Dir: root,
		DB: filepath.Join(root, "core", "data", "mailman.db")}
	core := m.startCore(t)
	m.migrateWeb(t)
	m.waitCore(t, core)
	m.startWeb(t)
	m.seedCore(t)
	m.Browser().SignIn(t)
	m.seed = m.State(t)
	for _, l := range MailmanSeedLists {
		if m.seed["list"][l.ID()+"/display_name"] != l.DisplayName {
			t.Fatalf("mailman: the seed did not store the list %s", l.ID())
		}
	}
	if v, ok := m.seed["address"][m.Email]; !ok || !strings.Contains(v, "verified=1") {
		t.Fatalf("mailman: signing in did not leave admin's address verified: %v", m.seed["address"])
	}
	return m
}

// mailmanCoreConfig is the core's configuration: the instance's var folder, its SQLite
// database, the REST API on its port, the null MTA (no Postfix maps to write), delivery to
// a port nothing listens on (no runner delivers anyway) and no archivers.
const mailmanCoreConfig = `[mailman]
site_owner: admin@example.org
layout: instance

[paths.instance]
var_dir: %[1]s
bin_dir: /usr/lib/mailman3/bin
pid_file: %[1]s/master.pid

[database]
class: mailman.database.sqlite.SQLiteDatabase
url: sqlite:///%[1]s/data/mailman.db

[logging.root]
level: warning

[webservice]
hostname: 127.0.0.1
port: %[2]d
admin_user: restadmin
admin_pass: %[3]s
workers: 2

[mta]
incoming: mailman.mta.null.NullMTA
smtp_host: 127.0.0.1
smtp_port: 9
lmtp_host: 127.0.0.1
lmtp_port: %[4]d

[archiver.mhonarc]
enable: no

[archiver.mail_archive]
enable: no

[archiver.prototype]
enable: no
`

// startCore writes the core's configuration and starts its REST runner alone (no master,
// no other runner: the REST API is all the web UI asks of the core) until the test ends.
func (m *Mailman) startCore(t testing.TB) *process {
	t.Helper()
	port := FreePort(t)
	m.API = "http://" + Addr(port) + "/3.1"
	cfg := filepath.Join(m.Dir, "mailman.cfg")
	write(t, cfg, fmt.Sprintf(mailmanCoreConfig, filepath.Join(m.Dir, "core"), port, mailmanAPIPassword, FreePort(t)))
	cmd := exec.Command(mailmanRunner, "-C", cfg, "-r", "rest")
	cmd.Dir = m.Dir
	cmd.Env = append(os.Environ(), "TZ=UTC", "MAILMAN_CONFIG_FILE="+cfg)
	return start(t, "mailman core", cmd)
}

// waitCore waits until the core's REST API answers, signed in.
func (m *Mailman) waitCore(t testing.TB, p *process) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			t.Fatalf("mailman: the core stopped:\n%s", p.out.String())
		default:
		}
		req, _ := http.NewRequest(http.MethodGet, m.API+"/system/versions", nil)
		req.SetBasicAuth("restadmin", mailmanAPIPassword)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("mailman: the core's REST API did not answer in 60s:\n%s", p.out.String())
}

// webEnv is the environment the Django project runs in: its settings module (written into
// the instance's folder) first on the path, then the package's project folder.
func (m *Mailman) webEnv() []string {
	return append(os.Environ(), "TZ=UTC", "PYTHONPATH="+filepath.Join(m.Dir, "web")+":"+mailmanWebDir,
		"DJANGO_SETTINGS_MODULE=instance_settings", "MAILMAN_WEB_DIR="+filepath.Join(m.Dir, "web"),
		"MAILMAN_REST_URL="+strings.TrimSuffix(m.API, "/3.1"), "MAILMAN_REST_PASSWORD="+mailmanAPIPassword,
		"MAILMAN_ADMIN_PASSWORD="+m.Password, "PYTHONDONTWRITEBYTECODE=1")
}

// manage runs one of the Django project's management commands; its error says what it
// printed when it fails.
func (m *Mailman) manage(args ...string) error {
	cmd := exec.Command(mailmanPython, append([]string{mailmanManage}, args...)...)
	cmd.Dir, cmd.Env = filepath.Join(m.Dir, "web"), m.webEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("manage.py %s: %v\n%s", args[0], err, out)
	}
	return nil
}

// mailmanWebDB is the Django project's database as migrating it and making admin leave
// it, made once by the first instance of a test binary (Django's migrations take most of
// an instance's start on a busy machine) and copied into each instance's folder: it holds
// nothing of an instance's own (the lists, members and bans are the core's).
var mailmanWebDB struct {
	once sync.Once
	data []byte
	err  error
}

// migrateWeb writes the Django project's settings and its database: migrated, with admin
// (a superuser whose address is verified, as the sign-up's confirmation would have left
// it) and the site's name.
func (m *Mailman) migrateWeb(t testing.TB) {
	t.Helper()
	web := filepath.Join(m.Dir, "web")
	if err := os.MkdirAll(filepath.Join(web, "static"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(web, "instance_settings.py"), mailmanWebSettings)
	db := filepath.Join(web, "web.db")
	mailmanWebDB.once.Do(func() {
		if err := m.manage("migrate", "--no-input", "-v", "0"); err != nil {
			mailmanWebDB.err = err
			return
		}
		if err := m.manage("shell", "-c", fmt.Sprintf(mailmanWebSeed, m.User, m.Email)); err != nil {
			mailmanWebDB.err = err
			return
		}
		mailmanWebDB.data, mailmanWebDB.err = os.ReadFile(db)
	})
	if mailmanWebDB.err != nil {
		t.Fatalf("mailman: the web UI's database: %v", mailmanWebDB.err)
	}
	if err := os.WriteFile(db, mailmanWebDB.data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// mailmanWebSeed makes admin and names the site (Python, run by manage.py shell).
const mailmanWebSeed = `import os
from django.contrib.auth.models import User
from django.contrib.sites.models import Site
from allauth.account.models import EmailAddress
u = User.objects.create_superuser(%[1]q, %[2]q, os.environ['MAILMAN_ADMIN_PASSWORD'])
EmailAddress.objects.create(user=u, email=%[2]q, verified=True, primary=True)
Site.objects.filter(id=1).update(domain='lists.example.org', name='Example Org Lists')
`

// startWeb serves the Django project with Django's own server (static files too) on a free
// loopback port until the test ends.
func (m *Mailman) startWeb(t testing.TB) {
	t.Helper()
	port := FreePort(t)
	m.URL = "http://" + Addr(port)
	cmd := exec.Command(mailmanPython, mailmanManage, "runserver", "--insecure", "--noreload", Addr(port))
	cmd.Dir, cmd.Env = filepath.Join(m.Dir, "web"), m.webEnv()
	p := start(t, "mailman web", cmd)
	waitHTTP(t, "mailman web", m.URL+"/accounts/login/", 60*time.Second, p)
}
