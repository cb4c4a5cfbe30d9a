package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Ejabberd is a private ejabberd — Debian's ejabberd 23.01, an XMPP server written in
// Erlang — used through its web admin (/admin: virtual hosts, their users, each user's
// password, roster and offline messages, shared roster groups), run as the test's own
// Erlang node: a node name and cookie of its own, its configuration, Mnesia database
// (its spool) and log in a temporary folder, client-to-server XMPP and the HTTP listener
// with /admin on free loopback ports, and Erlang distribution on a port of its own with no
// epmd (nothing is shared with another instance or with Debian's service, which is never
// used). The web admin asks for HTTP basic auth (a browser prompt, not a page); a small
// front on another free port passes every request on to it signed in as the
// administrator (the prompt answered), so there is no sign-in. What a run did is read
// back with ejabberdctl's commands, run against the node by ejabberd's own ctl client.
type Ejabberd struct {
	URL     string // the web admin's start page through the front: http://127.0.0.1:PORT/admin/
	Backend string // ejabberd's own HTTP listener: http://127.0.0.1:PORT
	Node    string // the node's name, e.g. heldout-1a2b3c4d@localhost
	C2S     int    // the client-to-server XMPP port, on 127.0.0.1
	Dir     string // the instance's folder: ejabberd.yml, spool (Mnesia), logs
	cookie  string
	dist    int // the node's Erlang distribution port
	seed    EjabberdState
}

// EjabberdAdmin and EjabberdPassword are the administrator every instance has (the front
// signs in as it); EjabberdSeedPassword is every other seed user's password.
const (
	EjabberdAdmin        = "admin@example.org"
	EjabberdPassword     = "Xmpp-Admin-2024!"
	EjabberdSeedPassword = "Seed-Chat-77"
)

// EjabberdHosts are the instance's virtual hosts.
var EjabberdHosts = []string{"example.org", "lab.example.org"}

// EjabberdContact is a roster item of the seed, made on both sides (subscription both).
type EjabberdContact struct {
	A, B, Group string // two JIDs and the group each files the other under
}

// EjabberdGroup is a shared roster group of the seed.
type EjabberdGroup struct {
	Host, Name, Label, Description string
	Members                        []string // JIDs
}

// EjabberdMessage is a chat message of the seed, sent while its recipient is offline, so
// it waits in the recipient's offline queue.
type EjabberdMessage struct {
	From, To, Body string
}

// The seed every instance starts from.
var (
	// EjabberdSeedUsers are the registered users, as JIDs (admin first).
	EjabberdSeedUsers = []string{"admin@example.org", "anna@example.org", "annika@example.org", "tom@example.org",
		"lisa@example.org", "omar@example.org", "anna@lab.example.org", "omar@lab.example.org", "ben@lab.example.org"}
	// EjabberdSeedContacts are the rosters' items.
	EjabberdSeedContacts = []EjabberdContact{
		{"anna@example.org", "tom@example.org", "Friends"},
		{"anna@example.org", "lisa@example.org", "Colleagues"},
		{"annika@example.org", "lisa@example.org", "Colleagues"},
		{"anna@lab.example.org", "ben@lab.example.org", "Testers"},
		{"ben@lab.example.org", "omar@lab.example.org", "Testers"},
	}
	// EjabberdSeedGroups are the shared roster groups, each displayed to its own members.
	EjabberdSeedGroups = []EjabberdGroup{
		{"example.org", "support", "Support Team", "Help desk staff", []string{"anna@example.org", "tom@example.org"}},
		{"example.org", "devs", "Developers", "Software team", []string{"annika@example.org", "omar@example.org"}},
		{"lab.example.org", "testers", "Testers", "Release testing", []string{"anna@lab.example.org", "ben@lab.example.org"}},
	}
	// EjabberdSeedMessages are the offline messages.
	EjabberdSeedMessages = []EjabberdMessage{
		{"tom@example.org", "anna@example.org", "The printer on floor 2 is broken again"},
		{"lisa@example.org", "anna@example.org", "Lunch at noon?"},
		{"omar@example.org", "annika@example.org", "The nightly build is green"},
		{"admin@example.org", "tom@example.org", "Server maintenance tonight at 22:00"},
		{"ben@lab.example.org", "anna@lab.example.org", "The test run finished"},
	}
)

const (
	ejabberdErl   = "/usr/bin/erl"
	ejabberdCtl   = "/usr/sbin/ejabberdctl"
	ejabberdBeams = "/usr/lib/*/ejabberd-*/ebin/ejabberd.beam"
)

// EjabberdInstalled says whether Debian's ejabberd and the Erlang runtime are here
// (deploy/setup.sh heldout installs them).
func EjabberdInstalled() bool {
	return exists(ejabberdErl) && exists(ejabberdCtl) && ejabberdLibs() != ""
}

// ejabberdLibs is the folder holding ejabberd's Erlang applications (ERL_LIBS, as
// ejabberdctl sets it), "" when there is none.
func ejabberdLibs() string {
	found, _ := filepath.Glob(ejabberdBeams)
	if len(found) == 0 {
		return ""
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(found[0])))
}

// StartEjabberd writes a configuration into a temporary folder, runs a node from it until
// the test ends, seeds it with ejabberdctl's commands (EjabberdSeedUsers, their rosters,
// shared roster groups and offline messages), starts the front and reads the seed back.
// It skips the test when ejabberd is missing.
func StartEjabberd(t testing.TB) *Ejabberd {
	t.Helper()
	if !EjabberdInstalled() {
		t.Skip("ejabberd is not installed: run `deploy/setup.sh heldout` (it installs Debian's ejabberd)")
	}
	root := t.TempDir()
	tag := make([]byte, 8)
	if _, err := rand.Read(tag); err != nil {
		t.Fatal(err)
	}
	w := &Ejabberd{Node: "heldout-" + hex.EncodeToString(tag[:4]) + "@localhost", C2S: FreePort(t), Dir: root,
		cookie: hex.EncodeToString(tag), dist: FreePort(t)}
	web := FreePort(t)
	w.Backend = "http://" + Addr(web)
	for _, d := range []string{"spool", "logs"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(root, "ejabberd.yml"), ejabberdConfig(w.C2S, web))
	p := start(t, "ejabberd", w.command())
	deadline := time.Now().Add(60 * time.Second)
	for {
		if out, err := w.Ctl([]string{"status"}); err == nil && out[0].Code == 0 {
			break
		}
		select {
		case <-p.done:
			t.Fatalf("ejabberd stopped:\n%s", p.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("ejabberd did not start in 60s:\n%s", p.out.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
	w.seedNode(t)
	w.URL = w.serveFront(t) + "/admin/"
	waitHTTP(t, "ejabberd", w.URL, 30*time.Second, p)
	w.seed = w.State(t)
	if n := len(w.seed["user"]); n != len(EjabberdSeedUsers) {
		t.Fatalf("ejabberd: the seed holds %d users, not %d: %v", n, len(EjabberdSeedUsers), w.seed["user"])
	}
	return w
}

// command is the node as ejabberdctl's foreground starts it, with the instance's paths,
// name, cookie and distribution port (no epmd), distribution on loopback alone, and
// schedulers that do not spin (an idle node's CPU stays low beside the browser).
func (w *Ejabberd) command() *exec.Cmd {
	cmd := exec.Command(ejabberdErl, "-sname", w.Node, "-setcookie", w.cookie,
		"-erl_epmd_port", fmt.Sprint(w.dist), "-start_epmd", "false", "-kernel", "inet_dist_use_interface", "{127,0,0,1}",
		"-noinput", "+K", "true", "+P", "250000", "+sbwt", "none", "+sbwtdcpu", "none", "+sbwtdio", "none",
		"-mnesia", "dir", fmt.Sprintf("%q", filepath.Join(w.Dir, "spool")), "-s", "ejabberd")
	cmd.Dir = w.Dir
	cmd.Env = append(os.Environ(), w.env()...)
	cmd.Env = append(cmd.Env, "EJABBERD_CONFIG_PATH="+filepath.Join(w.Dir, "ejabberd.yml"),
		"EJABBERD_LOG_PATH="+filepath.Join(w.Dir, "logs", "ejabberd.log"), "CONTRIB_MODULES_PATH="+filepath.Join(w.Dir, "modules"),
		"ERL_CRASH_DUMP="+filepath.Join(w.Dir, "logs", "erl_crash.dump"), "ERL_CRASH_DUMP_BYTES=0", "ERL_MAX_PORTS=32000")
	return cmd
}

// env is what the node and its ctl clients share: the instance's folder as HOME (no
// ~/.erlang.cookie elsewhere is read or written), ejabberd's applications, UTC.
func (w *Ejabberd) env() []string {
	return []string{"HOME=" + w.Dir, "ERL_LIBS=" + ejabberdLibs(), "TZ=UTC", "LANG=C.UTF-8"}
}

// ejabberdConfig is the node's ejabberd.yml: the two virtual hosts, XMPP and the web admin
// on loopback without TLS (no certificate, no ACME), SCRAM passwords, admin@example.org
// allowed to configure, ejabberdctl's commands open to the ctl client alone, and the
// modules whose web admin pages the goals use (mod_roster, mod_offline, mod_shared_roster,
// mod_last) and whose commands the judges and the seed use (mod_admin_extra).
func ejabberdConfig(c2s, web int) string {
	return fmt.Sprintf(`loglevel: warning
log_rotate_count: 0
hosts:
  - "example.org"
  - "lab.example.org"
certfiles: []
acme:
  auto: false
listen:
  -
    port: %d
    ip: "127.0.0.1"
    module: ejabberd_c2s
    access: c2s
    shaper: c2s_shaper
  -
    port: %d
    ip: "127.0.0.1"
    module: ejabberd_http
    request_handlers:
      /admin: ejabberd_web_admin
auth_password_format: scram
acl:
  admin:
    user:
      - "%s"
  local:
    user_regexp: ""
access_rules:
  local:
    allow: local
  c2s:
    deny: blocked
    allow: all
  configure:
    allow: admin
api_permissions:
  "console commands":
    from:
      - ejabberd_ctl
    who: all
    what: "*"
shaper:
  normal:
    rate: 3000
    burst_size: 20000
shaper_rules:
  max_user_sessions: 10
  max_user_offline_messages:
    5000: admin
    100: all
  c2s_shaper:
    none: admin
    normal: all
modules:
  mod_admin_extra: {}
  mod_blocking: {}
  mod_caps: {}
  mod_disco: {}
  mod_last: {}
  mod_offline:
    access_max_user_messages: max_user_offline_messages
  mod_ping: {}
  mod_privacy: {}
  mod_private: {}
  mod_roster:
    versioning: true
  mod_shared_roster: {}
  mod_vcard:
    search: false
  mod_version: {}
`, c2s, web, EjabberdAdmin)
}

// seedNode makes the seed with ejabberdctl's commands, in one ctl client: the users, both
// sides of each roster item, the shared roster groups and their members, then the
// offline messages.
func (w *Ejabberd) seedNode(t testing.TB) {
	t.Helper()
	var cmds [][]string
	for i, jid := range EjabberdSeedUsers {
		user, host, _ := strings.Cut(jid, "@")
		password := EjabberdSeedPassword
		if i == 0 {
			password = EjabberdPassword
		}
		cmds = append(cmds, []string{"register", user, host, password})
	}
	for _, c := range EjabberdSeedContacts {
		for _, pair := range [][2]string{{c.A, c.B}, {c.B, c.A}} {
			u, h, _ := strings.Cut(pair[0], "@")
			cu, ch, _ := strings.Cut(pair[1], "@")
			cmds = append(cmds, []string{"add_rosteritem", u, h, cu, ch, ejabberdNick(cu), c.Group, "both"})
		}
	}
	for _, g := range EjabberdSeedGroups {
		cmds = append(cmds, []string{"srg_create", g.Name, g.Host, g.Label, g.Description, g.Name})
		for _, m := range g.Members {
			u, h, _ := strings.Cut(m, "@")
			cmds = append(cmds, []string{"srg_user_add", u, h, g.Name, g.Host})
		}
	}
	for _, m := range EjabberdSeedMessages {
		cmds = append(cmds, []string{"send_message", "chat", m.From, m.To, "", m.Body})
	}
	out, err := w.Ctl(cmds...)
	if err != nil {
		t.Fatalf("ejabberd: the seed: %v", err)
	}
	for i, o := range out {
		if o.Code != 0 {
			t.Fatalf("ejabberd: the seed's %v answered %d: %s", cmds[i], o.Code, o.Text)
		}
	}
}

// ejabberdNick is the nickname a roster item of the seed gives user: "anna" → "Anna".
func ejabberdNick(user string) string { return strings.ToUpper(user[:1]) + user[1:] }

// serveFront serves, on a free loopback port until the test ends, a front that passes
// every request on to the web admin with the administrator's basic auth added (unless
// the request brings its own), as a browser does once its prompt is answered. It returns
// the front's root, http://127.0.0.1:PORT.
func (w *Ejabberd) serveFront(t testing.TB) string {
	t.Helper()
	backend, _ := url.Parse(w.Backend)
	proxy := httputil.NewSingleHostReverseProxy(backend)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("ejabberd: the front: %v", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			r.SetBasicAuth(EjabberdAdmin, EjabberdPassword)
		}
		proxy.ServeHTTP(rw, r)
	}), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + l.Addr().String()
}
