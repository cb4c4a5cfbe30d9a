package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// EtherpadVersion is the npm package deploy/setup.sh installs (ETHERPAD_VERSION there).
const EtherpadVersion = "1.8.14"

// Etherpad is a private Etherpad — npm's ep_etherpad-lite 1.8.14, a collaborative text
// editor: pads opened by name from its home page, written in a rich-text editor whose
// authors' colours mark who wrote what, each with a chat, a user list where a visitor sets
// the name the others see, and a toolbar (lists, "Clear Authorship Colors", "Save
// Revision"…). It keeps all of it in a key-value database, here ueberDB's "dirty" file (a
// JSON record a line). Each instance runs Etherpad's server.js with a settings.json of its
// own in a temporary folder (a free loopback port, the database file there, minification
// off, an admin user for /admin, which asks for it by HTTP basic auth) and is seeded
// through the pads' own pages by two authors. The pads need no sign-in. The judges read
// the database file back.
type Etherpad struct {
	URL      string // the home page, e.g. http://127.0.0.1:PORT/
	Base     string // the server's root, e.g. http://127.0.0.1:PORT
	Dir      string // the instance's folder: settings.json, the database file, its keys
	DB       string // the database file
	Admin    string // the admin user's name
	Password string // the admin user's password
	proc     *process
	seed     EtherpadState
}

// EtherpadAdminPassword is the admin user's password in every instance.
const EtherpadAdminPassword = "Pad-Admin-2024!"

// EtherpadSeedPad is a pad of the seed: its text, written line by line by the seed's
// authors (each edit's author's key in EtherpadSeedAuthors, and what it types), and its
// chat messages (an author's key, the text), in order.
type EtherpadSeedPad struct {
	ID    string
	Edits [][2]string
	Chat  [][2]string
}

// The seed every instance starts from: two authors who named themselves, and five pads
// they wrote, two of them with chat messages.
var (
	// EtherpadSeedAuthors are the seed's authors: a key (their token's) → their name.
	EtherpadSeedAuthors = map[string]string{"maria": "Maria Lopez", "jonas": "Jonas Berg"}
	// EtherpadSeedPads are the seed's pads.
	EtherpadSeedPads = []EtherpadSeedPad{
		{"team-meeting",
			[][2]string{{"maria", "Team meeting agenda\nBudget review\nHiring plan\nOffice move\n"}, {"jonas", "Any other business\n"}},
			[][2]string{{"maria", "The agenda for Thursday is up"}, {"jonas", "Thanks, I will bring the budget numbers"}}},
		{"team-meeting-archive",
			[][2]string{{"jonas", "Team meeting agenda (April)\nBudget review\nHiring plan\nOffice move\n"}},
			[][2]string{{"jonas", "The April minutes are final"}}},
		{"release-checklist",
			[][2]string{{"jonas", "Release 2.4 checklist\nRun the test suite\nUpdate the changelog\n"}, {"maria", "Tag the release\n"}}, nil},
		{"release-notes",
			[][2]string{{"maria", "Release 2.4 notes\nFaster search\nDark mode\n"}, {"jonas", "Fixed the login timeout\n"}}, nil},
		{"recipes",
			[][2]string{{"maria", "Lentil soup\nBanana bread\nApple crumble\n"}}, nil},
	}
)

// EtherpadDir is where deploy/setup.sh installed Etherpad (ETHERPAD_DIR there), laid out as
// its source tree is: its server's package in src/, the modules it depends on in
// src/node_modules.
func EtherpadDir() string {
	if dir := os.Getenv("ETHERPAD_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "etherpad-"+EtherpadVersion)
}

// etherpadServer is Etherpad's server script.
func etherpadServer() string { return filepath.Join(EtherpadDir(), "src", "node", "server.js") }

// EtherpadInstalled says whether Etherpad and Node.js are here (deploy/setup.sh heldout
// installs them).
func EtherpadInstalled() bool {
	_, err := exec.LookPath("node")
	return err == nil && exists(etherpadServer()) && exists(filepath.Join(EtherpadDir(), "src", "node_modules", "ueberdb2"))
}

// StartEtherpad writes a settings.json of its own in a temporary folder, runs Etherpad with
// it until the test ends, and writes the seed through the pads' pages. It skips the test
// when Etherpad is missing.
func StartEtherpad(t testing.TB) *Etherpad {
	t.Helper()
	if !EtherpadInstalled() {
		t.Skip("Etherpad is not installed: run `deploy/setup.sh heldout` (it installs npm's ep_etherpad-lite " + EtherpadVersion + " and Node.js)")
	}
	root := t.TempDir()
	port := FreePort(t)
	e := &Etherpad{Base: "http://" + Addr(port), Dir: root, DB: filepath.Join(root, "etherpad.db"),
		Admin: "admin", Password: EtherpadAdminPassword}
	e.URL = e.Base + "/"
	e.writeSettings(t, port)
	file := func(name string) string { return filepath.Join(root, name) }
	cmd := exec.Command("node", etherpadServer(), "--settings", file("settings.json"), "--credentials", file("credentials.json"),
		"--sessionkey", file("SESSIONKEY.txt"), "--apikey", file("APIKEY.txt"))
	cmd.Dir = root
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "TZ=UTC", "LANG=C.UTF-8", "NODE_ENV=production"}
	e.proc = start(t, "etherpad", cmd)
	waitHTTP(t, "etherpad", e.Base+"/", 60*time.Second, e.proc)
	e.seedPads(t)
	return e
}

// writeSettings writes the instance's settings.json and its API key (Etherpad would
// otherwise write one into its installed folder).
func (e *Etherpad) writeSettings(t testing.TB, port int) {
	t.Helper()
	settings := map[string]any{
		"title": "Etherpad", "skinName": "colibris", "ip": "127.0.0.1", "port": port,
		"dbType": "dirty", "dbSettings": map[string]any{"filename": e.DB},
		"defaultPadText": "", "suppressErrorsInPadText": true, "minify": false, "loglevel": "WARN", "exposeVersion": false,
		"socketTransportProtocols": []string{"websocket", "polling"},
		"requireAuthentication":    false, "showSettingsInAdminPage": true,
		"users":              map[string]any{e.Admin: map[string]any{"password": e.Password, "is_admin": true}},
		"commitRateLimiting": map[string]any{"duration": 1, "points": 100},
	}
	data, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(e.Dir, "settings.json"), string(data)+"\n")
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	write(t, filepath.Join(e.Dir, "APIKEY.txt"), hex.EncodeToString(key))
}

// Settings is the instance's settings.json as the admin's settings page would save it.
func (e *Etherpad) Settings(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.Dir, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// seedPads writes the seed through the pads' pages, each author a visitor with a token of
// its own who names itself in the first pad it opens, and waits until the database holds
// all of it.
func (e *Etherpad) seedPads(t testing.TB) {
	t.Helper()
	named := map[string]bool{}
	for _, sp := range EtherpadSeedPads {
		open := map[string]*EtherpadPad{}
		pad := func(author string) *EtherpadPad {
			if open[author] == nil {
				open[author] = e.browserAs("t.seed-"+author).Open(t, sp.ID)
				if !named[author] {
					open[author].SetName(t, EtherpadSeedAuthors[author])
					named[author] = true
				}
			}
			return open[author]
		}
		for _, edit := range sp.Edits {
			p := pad(edit[0])
			p.SetText(t, strings.TrimPrefix(p.Text()+edit[1], "\n"))
		}
		for _, c := range sp.Chat {
			pad(c[0]).Chat(t, c[1])
		}
		for _, p := range open {
			p.Close()
		}
	}
	want := EtherpadSeedState()
	if why := Eventually(15*time.Second, func() string { return e.State(t).Diff(want) }); why != "" {
		t.Fatalf("etherpad: the seed is not in the database: %s", why)
	}
	e.seed = e.State(t)
}

// EtherpadSeedState is the state the seed makes.
func EtherpadSeedState() EtherpadState {
	s := EtherpadState{"pad": {}, "authorship": {}, "chat": {}, "author": {}, "saved": {}}
	for _, name := range EtherpadSeedAuthors {
		s["author"][name] = "1"
	}
	for _, sp := range EtherpadSeedPads {
		var text strings.Builder
		authors := map[string]bool{}
		for _, edit := range sp.Edits {
			text.WriteString(edit[1])
			authors[EtherpadSeedAuthors[edit[0]]] = true
		}
		s["pad"][sp.ID] = strings.TrimSuffix(text.String(), "\n")
		var names []string
		for name := range authors {
			names = append(names, name)
		}
		s["authorship"][sp.ID] = strings.Join(slices.Sorted(slices.Values(names)), ", ")
		s["saved"][sp.ID] = "0"
		for i, c := range sp.Chat {
			s["chat"][sp.ID+" #"+strconv.Itoa(i)] = c[1]
		}
	}
	return s
}
