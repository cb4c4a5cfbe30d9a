package testenv

import (
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Deluge is a private Deluge — Debian's deluged, a BitTorrent client's daemon that keeps
// its torrents and its preferences, driven through deluge-web, its web interface (ExtJS:
// a torrent grid, a filter sidebar, context menus, dialogs) — run as two processes of the
// test's own from a config folder of its own on free loopback ports, cut off from the
// network: no DHT, UPnP, NAT-PMP, local peer discovery or peer exchange, BitTorrent on
// 127.0.0.1 only, and torrents with no tracker. deluge-web is given its password (web.conf's
// pwd_sha1 and pwd_salt) and its daemon (hostlist.conf with the daemon's localclient
// account, web.conf's default_daemon), so a person lands on the torrent list once past its
// password dialog. What a run did is read back from the daemon's own state through the
// web interface's JSON-RPC API (/json: core.get_torrents_status, core.get_config) and the
// download folder on disk.
type Deluge struct {
	URL       string // the web interface, where a person starts: http://127.0.0.1:PORT/
	Password  string // the web interface's password
	Dir       string // the instance's folder (its HOME)
	Config    string // the config folder both processes run from: core.conf, web.conf, state
	Downloads string // the download folder, where the seeding torrents' files are
	// Seeded are the torrents by info hash, and seedConf the daemon's preferences, read back
	// right after seeding: what a judge compares what a goal must not touch with.
	Seeded   map[string]DelugeTorrent
	seedConf map[string]string
	judge    *DelugeBrowser // the judge's own signed-in session
}

// DelugePassword is the web interface's password in every instance: one grant on the
// worker serves each fresh instance of a test.
const (
	DelugePassword = "deluge-web-pass-73"
	delugeHostID   = "6e3f0b2a9c4d4f1e8a7b5c3d2e1f0a9b"
)

// DelugeInstalled says whether Debian's deluged and deluge-web are there (deploy/setup.sh
// heldout installs them).
func DelugeInstalled() bool {
	for _, bin := range []string{"deluged", "deluge-web"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return true
}

// StartDeluge writes a config folder into a temporary folder, runs deluged and deluge-web
// from it until the test ends, and seeds the daemon through its own API with DelugeSeed
// (the files of the seeding torrents written into the download folder first). It skips
// the test when Deluge is missing.
func StartDeluge(t testing.TB) *Deluge {
	t.Helper()
	if !DelugeInstalled() {
		t.Skip("Deluge is not installed: run `deploy/setup.sh heldout` (it installs Debian's deluged and deluge-web)")
	}
	root := t.TempDir()
	d := &Deluge{Password: DelugePassword, Dir: root, Config: filepath.Join(root, "config"), Downloads: filepath.Join(root, "Downloads")}
	for _, dir := range []string{d.Config, d.Downloads} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	torrents, err := delugeSeedFiles(d.Downloads)
	if err != nil {
		t.Fatalf("deluge: the seed's files: %v", err)
	}
	daemonPort, webPort := FreePort(t), FreePort(t)
	d.configure(t, daemonPort, FreePort(t))
	env := append(os.Environ(), "HOME="+root, "TZ=UTC", "LANG=C.UTF-8")
	daemon := exec.Command("deluged", "-d", "-q", "-c", d.Config, "-p", strconv.Itoa(daemonPort), "-u", "127.0.0.1", "-i", "127.0.0.1")
	daemon.Dir, daemon.Env = root, env
	p := start(t, "deluged", daemon)
	if !delugeListening(Addr(daemonPort), 30*time.Second, p) {
		t.Fatalf("deluged did not listen on %s in 30s:\n%s", Addr(daemonPort), p.out.String())
	}
	web := exec.Command("deluge-web", "-d", "-q", "-c", d.Config, "-p", strconv.Itoa(webPort), "-i", "127.0.0.1")
	web.Dir, web.Env = root, env
	d.URL = "http://" + Addr(webPort) + "/"
	waitHTTP(t, "deluge-web", d.URL, 30*time.Second, start(t, "deluge-web", web))
	d.judge = d.Browser()
	d.judge.SignIn(t)
	d.seed(t, torrents)
	return d
}

// delugeListening waits until addr takes a TCP connection (deluged's RPC port speaks TLS,
// not HTTP) or the process stops.
func delugeListening(addr string, limit time.Duration, p *process) bool {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		select {
		case <-p.done:
			return false
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return true
		}
	}
	return false
}

// delugeConfigFile writes a Deluge config file: its version object, then its values.
func delugeConfigFile(t testing.TB, path string, file int, values map[string]any) {
	t.Helper()
	body, err := json.MarshalIndent(values, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, fmt.Sprintf("{\n    \"file\": %d,\n    \"format\": 1\n}%s", file, body))
}

// configure writes the config folder both processes start from: the daemon's account for
// local clients (auth), its preferences (core.conf: the network off, the download folder),
// the web interface's (web.conf: its password, first-login prompt already seen, its
// daemon) and the daemon deluge-web connects to (hostlist.conf).
func (d *Deluge) configure(t testing.TB, daemonPort, peerPort int) {
	t.Helper()
	local := make([]byte, 20)
	salt := make([]byte, 20)
	if _, err := rand.Read(local); err != nil {
		t.Fatal(err)
	}
	if _, err := rand.Read(salt); err != nil {
		t.Fatal(err)
	}
	localPass, saltHex := hex.EncodeToString(local), hex.EncodeToString(salt)
	if err := os.WriteFile(filepath.Join(d.Config, "auth"), []byte("localclient:"+localPass+":10\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	delugeConfigFile(t, filepath.Join(d.Config, "core.conf"), 1, map[string]any{
		"daemon_port": daemonPort, "allow_remote": false, "listen_interface": "127.0.0.1",
		"random_port": false, "listen_ports": []int{peerPort, peerPort},
		"dht": false, "upnp": false, "natpmp": false, "lsd": false, "utpex": false,
		"new_release_check": false, "send_info": false,
		"download_location": d.Downloads, "move_completed_path": d.Downloads, "torrentfiles_location": d.Downloads,
	})
	sum := sha1.Sum([]byte(saltHex + d.Password))
	delugeConfigFile(t, filepath.Join(d.Config, "web.conf"), 2, map[string]any{
		"pwd_salt": saltHex, "pwd_sha1": hex.EncodeToString(sum[:]), "first_login": false,
		"default_daemon": delugeHostID, "interface": "127.0.0.1", "https": false,
	})
	delugeConfigFile(t, filepath.Join(d.Config, "hostlist.conf"), 3, map[string]any{
		"hosts": [][]any{{delugeHostID, "127.0.0.1", daemonPort, "localclient", localPass}},
	})
}

// seed adds the seed torrents through the daemon's API (core.add_torrent_file, as the Add
// dialog's upload ends), waits until Deluge has checked them (those with their data
// seeding, the others downloading or queued) and keeps what it then holds in Seeded and
// the preferences as the judges' baseline.
func (d *Deluge) seed(t testing.TB, torrents map[string][]byte) {
	t.Helper()
	for _, s := range DelugeSeed {
		var hash string
		d.judge.Into(t, &hash, "core.add_torrent_file", s.Name+".torrent", base64.StdEncoding.EncodeToString(torrents[s.Name]), map[string]any{})
		if hash != DelugeSeedHash(s.Name) {
			t.Fatalf("deluge: adding %s answered %q, not its info hash", s.Name, hash)
		}
	}
	why := Eventually(60*time.Second, func() string {
		got, err := d.Torrents()
		if err != nil {
			return err.Error()
		}
		if len(got) != len(DelugeSeed) {
			return fmt.Sprintf("%d torrents", len(got))
		}
		for _, s := range DelugeSeed {
			x, ok := got[DelugeSeedHash(s.Name)]
			switch {
			case !ok:
				return s.Name + " is missing"
			case s.Data && x.State != "Seeding", !s.Data && x.State != "Downloading" && x.State != "Queued":
				return fmt.Sprintf("%s is %s", s.Name, x.State)
			}
		}
		d.Seeded = got
		return ""
	})
	if why != "" {
		t.Fatalf("deluge: the seed did not settle in 60s: %s", why)
	}
	var err error
	if d.seedConf, err = d.Settings(); err != nil {
		t.Fatalf("deluge: %v", err)
	}
}
