package testenv

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Sympa is a private Sympa — Debian's sympa 6.2.70, the mailing list manager, through its
// web interface WWSympa — that keeps its lists' settings in a config file per list (and
// their description in an info file beside it), and the lists' status, members, owners
// and moderators in an SQL database, here one SQLite file. Each instance lives in a
// temporary folder of its own: a sympa.conf and a copy of the package's Sympa::Constants
// pointing every folder of Sympa's (its lists, spools, archives, configuration, PID
// files) into it, found first by Sympa's programs through SYMPALIB and SYMPA_CONFIG; its
// own SQLite database; a sendmail that only files each message it is given in an outbox
// folder; and Debian's lighttpd on a free loopback port, which runs wwsympa.fcgi as its
// FastCGI server and serves Sympa's static files. Sympa will not run as root, so as root
// the instance is nobody's. The seed's lists and their members are made with Sympa's own
// command line (sympa create, sympa add); the judges read the config and info files and
// the database back with the sqlite3 CLI.
type Sympa struct {
	URL      string // WWSympa's root, e.g. http://127.0.0.1:PORT/sympa (its home page)
	Email    string // the listmaster's email address, with which they sign in
	Password string
	Dir      string // the instance's folder
	Lists    string // the folder of the lists' config and info files
	DB       string // the SQLite database
	seed     SympaState
}

// SympaPassword is the listmaster's password in every instance: one grant on the worker
// serves each fresh instance of a test.
const SympaPassword = "Lists-Admin-2024!"

// SympaDomain is the instance's mail domain: its lists' addresses are LIST@SympaDomain.
const SympaDomain = "lists.example.org"

// SympaListmaster is the listmaster's email address, the one every goal signs in with.
const SympaListmaster = "admin@example.org"

// SympaList is a list of the seed: its name, subject, template, topic, description, and
// its members (email and name).
type SympaList struct {
	Name, Subject, Template, Topic, Info string
	Members                              [][2]string
}

// SympaSeedLists are the seed's lists, all owned by the listmaster: names and subjects
// alike enough for a near miss (two hiking lists, two choir lists, two garden lists), and
// members shared between them.
var SympaSeedLists = []SympaList{
	{"hiking-club", "Weekend hiking trips", "discussion_list", "leisure", "Plans and car pools for the club's weekend hikes.",
		[][2]string{{"anna.berg@example.org", "Anna Berg"}, {"tom.fischer@example.org", "Tom Fischer"}, {"mia.keller@example.org", "Mia Keller"}}},
	{"hiking-board", "Hiking club board", "private_working_group", "leisure", "The board of the hiking club: budget, insurance, trail permits.",
		[][2]string{{"anna.berg@example.org", "Anna Berg"}, {"jonas.weber@example.org", "Jonas Weber"}}},
	{"choir", "Chamber choir rehearsals", "discussion_list", "music", "Rehearsal times, scores and seating for the chamber choir.",
		[][2]string{{"tom.fischer@example.org", "Tom Fischer"}, {"tom.fisher@example.org", "Tom Fisher"}, {"sara.lindqvist@example.org", "Sara Lindqvist"}}},
	{"choir-news", "Choir news", "news-letter", "music", "Concert announcements of the chamber choir.",
		[][2]string{{"tom.fischer@example.org", "Tom Fischer"}, {"paul.martin@example.org", "Paul Martin"}}},
	{"garden-volunteers", "Allotment garden volunteers", "discussion_list", "community", "Work days and watering rota of the allotment garden.",
		[][2]string{{"mia.keller@example.org", "Mia Keller"}, {"jonas.weber@example.org", "Jonas Weber"}}},
	{"garden-club", "Garden club chat", "discussion_list", "community", "Tips, seeds and cuttings swapped between gardeners.",
		[][2]string{{"jonas.weber@example.org", "Jonas Weber"}}},
}

// sympaTopics is the instance's topics.conf: the audiences a list is filed under.
const sympaTopics = "community\ntitle Community\n\nleisure\ntitle Leisure and Sports\n\nmusic\ntitle Music\n"

const (
	sympaBin      = "/usr/lib/sympa/bin"
	sympaFCGI     = "/usr/lib/cgi-bin/sympa/wwsympa.fcgi"
	sympaLib      = "/usr/share/sympa/lib"
	sympaStatic   = "/usr/share/sympa/static_content"
	sympaLighttpd = "/usr/sbin/lighttpd"
	sympaMime     = "/usr/share/lighttpd/create-mime.conf.pl"
)

// SympaInstalled says whether Debian's sympa, lighttpd and the sqlite3 CLI are here
// (deploy/setup.sh heldout installs them).
func SympaInstalled() bool {
	for _, p := range []string{filepath.Join(sympaBin, "sympa"), filepath.Join(sympaBin, "sympa.pl"), sympaFCGI,
		filepath.Join(sympaLib, "Sympa", "Constants.pm"), sympaLighttpd, sympaMime} {
		if !exists(p) {
			return false
		}
	}
	_, err := exec.LookPath("sqlite3")
	return err == nil
}

// StartSympa makes a private Sympa in a temporary folder of its own, makes its database,
// the listmaster's account and the seed's lists and members, and serves WWSympa with
// lighttpd until the test ends. It skips the test when Sympa, lighttpd or sqlite3 is
// missing.
func StartSympa(t testing.TB) *Sympa {
	t.Helper()
	if !SympaInstalled() {
		t.Skip("Sympa is not installed: run `deploy/setup.sh heldout` (it installs Debian's sympa, lighttpd and sqlite3)")
	}
	// Not t.TempDir: as root the folder is nobody's, who must reach it.
	root, err := os.MkdirTemp("", "sympa")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(root) })
	w := &Sympa{Email: SympaListmaster, Password: SympaPassword, Dir: root, Lists: filepath.Join(root, "list_data"),
		DB: filepath.Join(root, "sympa.sqlite")}
	port := FreePort(t)
	w.URL = fmt.Sprintf("http://%s/sympa", Addr(port))
	w.writeFiles(t, port)
	w.seedOnce(t)
	w.serve(t, port)
	w.seed = w.State(t)
	if n := len(w.seed["status"]); n != len(SympaSeedLists) {
		t.Fatalf("sympa: the seed stored %d lists, not %d: %v", n, len(SympaSeedLists), w.seed["status"])
	}
	return w
}

// sympaAccount is who the instance runs as, by name: nobody and nogroup as root (Sympa
// refuses root), else the test's own user and group.
func sympaAccount(t testing.TB) (string, string) {
	t.Helper()
	if os.Getuid() == 0 {
		return "nobody", "nogroup"
	}
	u, err := user.Current()
	if err != nil {
		t.Fatalf("sympa: %v", err)
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil {
		t.Fatalf("sympa: %v", err)
	}
	return u.Username, g.Name
}

// writeFiles writes the instance's Sympa::Constants, sympa.conf, topics.conf, the
// sendmail stub and lighttpd.conf, and makes the folders Sympa keeps its data in.
func (w *Sympa) writeFiles(t testing.TB, port int) {
	t.Helper()
	d := w.Dir
	for _, sub := range []string{"lib/Sympa", "etc", "list_data", "spool", "arc", "bounce", "css", "pictures", "run", "www", "outbox"} {
		if err := os.MkdirAll(filepath.Join(d, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	constants, err := os.ReadFile(filepath.Join(sympaLib, "Sympa", "Constants.pm"))
	if err != nil {
		t.Fatal(err)
	}
	owner, group := sympaAccount(t)
	text := strings.NewReplacer(
		"USER    => 'sympa'", "USER    => '"+owner+"'", "GROUP   => 'sympa'", "GROUP   => '"+group+"'",
		"'/etc/sympa/sympa/sympa.conf'", "'"+d+"/etc/sympa.conf'", "'/etc/sympa/sympa/wwsympa.conf'", "'"+d+"/etc/wwsympa.conf'",
		"'/etc/mail/sympa/aliases'", "'"+d+"/etc/aliases'", "'/run/sympa'", "'"+d+"/run'",
		"'/var/lib/sympa/list_data'", "'"+d+"/list_data'", "'/var/spool/sympa'", "'"+d+"/spool'", "'/etc/sympa'", "'"+d+"/etc'",
		"'/var/lib/sympa/arc'", "'"+d+"/arc'", "'/var/lib/sympa/bounce'", "'"+d+"/bounce'",
		"'/var/lib/sympa/css'", "'"+d+"/css'", "'/var/lib/sympa/pictures'", "'"+d+"/pictures'",
	).Replace(string(constants))
	if strings.Contains(text, "'/var/") || strings.Contains(text, "'/etc/") || !strings.Contains(text, "'"+owner+"'") {
		t.Fatalf("sympa: the package's Sympa::Constants is not the one this harness knows:\n%s", text)
	}
	write(t, filepath.Join(d, "lib", "Sympa", "Constants.pm"), text)
	write(t, filepath.Join(d, "etc", "sympa.conf"), fmt.Sprintf(`domain	%s
listmaster	%s
lang	en_US
db_type	SQLite
db_name	%s
wwsympa_url	http://%s/sympa
static_content_path	%s
css_url	/css-sympa
pictures_url	/pictures-sympa
sendmail	%s
sendmail_aliases	none
password_hash	md5
password_case	sensitive
create_list	listmaster
log_level	0
`, SympaDomain, SympaListmaster, w.DB, Addr(port), sympaStatic, filepath.Join(d, "sendmail")))
	write(t, filepath.Join(d, "etc", "topics.conf"), sympaTopics)
	write(t, filepath.Join(d, "etc", "data_structure.version"), "6.2.70\n")
	write(t, filepath.Join(d, "sendmail"), "#!/bin/sh\n# Files the message in the outbox; nothing is sent.\ncat >\""+
		filepath.Join(d, "outbox")+"/$(date +%s%N).eml\"\n")
	if err := os.Chmod(filepath.Join(d, "sendmail"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(d, "lighttpd.conf"), fmt.Sprintf(`server.modules = ("mod_alias", "mod_fastcgi")
server.document-root = "%[1]s/www"
server.bind = "127.0.0.1"
server.port = %[2]d
server.errorlog = "%[1]s/lighttpd.log"
include_shell "%[3]s"
alias.url = ("/static-sympa/" => "%[4]s/", "/css-sympa/" => "%[1]s/css/", "/pictures-sympa/" => "%[1]s/pictures/")
fastcgi.server = ("/sympa" => ((
	"socket" => "%[1]s/run/wwsympa.sock",
	"bin-path" => "%[5]s",
	"bin-environment" => ("SYMPALIB" => "%[1]s/lib", "SYMPA_CONFIG" => "%[1]s/etc/sympa.conf"),
	"max-procs" => 2,
	"check-local" => "disable"
)))
`, d, port, sympaMime, sympaStatic, sympaFCGI))
	w.own(t)
}

// own makes the instance's folder nobody's when the test runs as root.
func (w *Sympa) own(t testing.TB) {
	t.Helper()
	if os.Getuid() != 0 {
		return
	}
	err := filepath.WalkDir(w.Dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, 65534, 65534)
	})
	if err != nil {
		t.Fatalf("sympa: %v", err)
	}
}

// sympaEnv is the environment Sympa's programs run in: the instance's Sympa::Constants
// first, its sympa.conf.
func (w *Sympa) sympaEnv() []string {
	return append(os.Environ(), "SYMPALIB="+filepath.Join(w.Dir, "lib"), "SYMPA_CONFIG="+filepath.Join(w.Dir, "etc", "sympa.conf"),
		"HOME="+w.Dir, "TZ=UTC")
}

// run runs one of Sympa's programs as the instance's user, with stdin (nil for none),
// and fails the test with its output when it fails.
func (w *Sympa) run(t testing.TB, stdin *strings.Reader, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = w.Dir, w.sympaEnv()
	cmd.SysProcAttr = davicalAsNobody(&syscall.SysProcAttr{})
	if stdin != nil {
		cmd.Stdin = stdin
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sympa: %s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, out)
	}
	return string(out)
}

// sympaSeeded is the seed as the first instance of the test binary made it: the files of
// its lists' folder and its database, by their paths in the instance's folder. The next
// instances start from a copy of their own (none of them holds a path or a port), which
// spares each the dozen runs of Sympa's command line the seed takes.
var sympaSeeded struct {
	sync.Mutex
	files map[string][]byte
}

// seedOnce makes the database and the seed with Sympa's own programs in the first instance
// and keeps its files; a later instance gets a copy of them.
func (w *Sympa) seedOnce(t testing.TB) {
	t.Helper()
	sympaSeeded.Lock()
	defer sympaSeeded.Unlock()
	if sympaSeeded.files != nil {
		for rel, data := range sympaSeeded.files {
			path := filepath.Join(w.Dir, rel)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		w.own(t)
		return
	}
	w.run(t, nil, filepath.Join(sympaBin, "sympa.pl"), "--health_check")
	w.seedLists(t)
	files := map[string][]byte{}
	for _, top := range []string{w.Lists, w.DB} {
		err := filepath.WalkDir(top, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			rel, _ := filepath.Rel(w.Dir, path)
			files[rel] = data
			return err
		})
		if err != nil {
			t.Fatalf("sympa: keep the seed: %v", err)
		}
	}
	sympaSeeded.files = files
}

// seedLists makes the seed's lists from their templates with `sympa create`, the
// listmaster their owner, adds their members with `sympa add` (quietly: no welcome
// message), and gives the listmaster a password.
func (w *Sympa) seedLists(t testing.TB) {
	t.Helper()
	for _, l := range SympaSeedLists {
		xml := fmt.Sprintf(`<?xml version="1.0" ?>
<list>
<listname>%s</listname>
<type>%s</type>
<subject>%s</subject>
<description>%s</description>
<status>open</status>
<topic>%s</topic>
<owner multiple="1"><email>%s</email><gecos>List Admin</gecos></owner>
</list>
`, l.Name, l.Template, xmlEscape(l.Subject), xmlEscape(l.Info), l.Topic, SympaListmaster)
		file := filepath.Join(w.Dir, "create-"+l.Name+".xml")
		write(t, file, xml)
		w.own(t)
		w.run(t, nil, filepath.Join(sympaBin, "sympa"), "create", "--input_file="+file, SympaDomain)
		var members strings.Builder
		for _, m := range l.Members {
			fmt.Fprintf(&members, "%s %s\n", m[0], m[1])
		}
		w.run(t, strings.NewReader(members.String()), filepath.Join(sympaBin, "sympa"), "add", "--quiet", l.Name+"@"+SympaDomain)
		_ = os.Remove(file)
	}
	w.sqlite(t, fmt.Sprintf("UPDATE user_table SET password_user = '%s', gecos_user = 'List Admin' WHERE email_user = '%s'",
		md5Hex(w.Password), SympaListmaster))
}

// sqlite runs a statement in the instance's database as its user (the seed's password).
func (w *Sympa) sqlite(t testing.TB, statement string) {
	t.Helper()
	w.run(t, nil, "sqlite3", "-cmd", ".timeout 5000", w.DB, statement)
}

// serve runs lighttpd (as the instance's user) on port until the test ends, and waits
// until WWSympa's home page answers.
func (w *Sympa) serve(t testing.TB, port int) {
	t.Helper()
	cmd := exec.Command(sympaLighttpd, "-D", "-f", filepath.Join(w.Dir, "lighttpd.conf"))
	cmd.Dir, cmd.Env = w.Dir, w.sympaEnv()
	p := &process{cmd: cmd, out: &syncBuffer{}, done: make(chan struct{})}
	cmd.SysProcAttr, cmd.Stdout, cmd.Stderr = davicalAsNobody(ownGroup()), p.out, p.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("sympa: start lighttpd: %v", err)
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(p.Kill)
	if !p.ready(w.URL+"/", 60*time.Second) {
		log, _ := os.ReadFile(filepath.Join(w.Dir, "lighttpd.log"))
		t.Fatalf("sympa: WWSympa did not answer in 60 s:\n%s\n%s", p.out.String(), log)
	}
}

// xmlEscape escapes text for an XML element.
func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
