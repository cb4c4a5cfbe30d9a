package testenv

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// Transmission is a private Transmission — Debian's transmission-daemon 3.00: a BitTorrent
// client whose web interface lists, adds, pauses, resumes and removes torrents and edits its
// preferences and each torrent's files, all through the daemon's JSON RPC — run in the
// foreground as the test's own process with a configuration folder of its own (settings.json
// written before it starts), its RPC and its web interface on a free loopback port with no
// authentication and only 127.0.0.1 let in, and cut off from the network: no DHT, LPD, PEX,
// uTP or port forwarding, a free peer port on loopback, no blocklist, no trackers in the
// seed's torrents. The seed's torrents are made with transmission-create from small files
// written here. What a run did is read back through the daemon's own RPC (session-get,
// torrent-get), which is what the daemon keeps, and from the download folder on disk.
type Transmission struct {
	URL       string // the web interface, e.g. http://127.0.0.1:PORT/transmission/web/
	RPC       string // the RPC endpoint the web interface calls
	Dir       string // the instance's folder
	Config    string // the daemon's configuration folder (settings.json, torrents, resume)
	Downloads string // the download folder the seed's data is in
	Media     string // a second, empty folder the goals may name
	rpc       *transmissionRPC
	seed      []TransmissionTorrent
	seedConf  map[string]string
}

// TransmissionSeedTorrent is one torrent every instance starts with: its name (a folder
// holding Files, or one file when Files is nil), whether its data is in the download folder
// (complete) and whether it is paused; the others are seeding.
type TransmissionSeedTorrent struct {
	Name   string
	Files  []string
	Data   bool
	Paused bool
}

// TransmissionSeed is the list every instance starts with, in the order it is added.
var TransmissionSeed = []TransmissionSeedTorrent{
	{Name: "holiday-photos-2023", Files: []string{"beach.jpg", "harbour.jpg", "old-town.jpg"}, Data: true},
	{Name: "family-recipes", Files: []string{"bread.txt", "soups.txt", "desserts.txt"}, Data: true},
	{Name: "open-data-census.csv", Data: true},
	{Name: "podcast-episode-42.mp3", Data: true, Paused: true},
	{Name: "conference-talks", Files: []string{"keynote.mp4", "workshop.mp4", "slides.pdf"}, Paused: true},
	{Name: "city-budget-2024.pdf", Paused: true},
}

// TransmissionTorrent is one torrent as torrent-get answers (the fields the judges read).
type TransmissionTorrent struct {
	ID                  int     `json:"id"`
	Name                string  `json:"name"`
	Hash                string  `json:"hashString"`
	Status              int     `json:"status"` // 0 stopped, 1-2 checking, 3-4 downloading, 5-6 seeding
	DownloadDir         string  `json:"downloadDir"`
	PercentDone         float64 `json:"percentDone"`
	Files               []TransmissionFile
	Wanted              []int `json:"wanted"`
	Priorities          []int `json:"priorities"`
	BandwidthPriority   int   `json:"bandwidthPriority"`
	DownloadLimited     bool  `json:"downloadLimited"`
	DownloadLimit       int   `json:"downloadLimit"`
	UploadLimited       bool  `json:"uploadLimited"`
	UploadLimit         int   `json:"uploadLimit"`
	HonorsSessionLimits bool  `json:"honorsSessionLimits"`
	SeedRatioMode       int   `json:"seedRatioMode"`
	SeedIdleMode        int   `json:"seedIdleMode"`
	PeerLimit           int   `json:"peer-limit"`
}

// TransmissionFile is one file of a torrent, its name from the download folder.
type TransmissionFile struct {
	Name   string `json:"name"`
	Length int64  `json:"length"`
}

// Stopped says whether the torrent is paused (the list shows "Paused").
func (tt TransmissionTorrent) Stopped() bool { return tt.Status == 0 }

// transmissionFields are the fields torrent-get is asked for.
var transmissionFields = []string{"id", "name", "hashString", "status", "downloadDir", "percentDone", "files", "wanted",
	"priorities", "bandwidthPriority", "downloadLimited", "downloadLimit", "uploadLimited", "uploadLimit",
	"honorsSessionLimits", "seedRatioMode", "seedIdleMode", "peer-limit"}

// transmissionVolatile are session-get's keys that are no setting: they change on their own.
var transmissionVolatile = []string{"blocklist-size", "config-dir", "download-dir-free-space", "rpc-version",
	"rpc-version-minimum", "session-id", "units", "version"}

const (
	transmissionWeb = "/usr/share/transmission/web/index.html"
	// transmissionFileSize is the size of each file of the seed (a few pieces).
	transmissionFileSize = 96 * 1024
)

// TransmissionInstalled says whether Debian's transmission-daemon, its web interface and
// transmission-create are here (deploy/setup.sh heldout installs them).
func TransmissionInstalled() bool {
	for _, bin := range []string{"transmission-daemon", "transmission-create"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exists(transmissionWeb)
}

// StartTransmission writes the seed's files and makes their torrents with
// transmission-create, writes settings.json into a fresh configuration folder, runs the
// daemon in the foreground until the test ends and seeds it through its RPC, as the web
// interface's Open dialog adds a torrent file: TransmissionSeed, each added paused, its
// data checked, then those that seed started. It skips the test when Transmission is
// missing.
func StartTransmission(t testing.TB) *Transmission {
	t.Helper()
	if !TransmissionInstalled() {
		t.Skip("Transmission is not installed: run `deploy/setup.sh heldout` (it installs Debian's transmission-daemon and transmission-cli)")
	}
	root := t.TempDir()
	w := &Transmission{Dir: root, Config: filepath.Join(root, "config"), Downloads: filepath.Join(root, "downloads"), Media: filepath.Join(root, "media")}
	made, incomplete := filepath.Join(root, "made"), filepath.Join(root, "incomplete")
	for _, d := range []string{w.Config, w.Downloads, w.Media, made, incomplete} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := w.makeTorrents(t, made)
	port := FreePort(t)
	w.URL = "http://" + Addr(port) + "/transmission/web/"
	w.RPC = "http://" + Addr(port) + "/transmission/rpc"
	w.rpc = &transmissionRPC{url: w.RPC}
	settings := map[string]any{
		"download-dir": w.Downloads, "incomplete-dir": incomplete, "incomplete-dir-enabled": false,
		"watch-dir-enabled": false, "start-added-torrents": true, "trash-original-torrent-files": false,
		"rpc-enabled": true, "rpc-bind-address": "127.0.0.1", "rpc-port": port, "rpc-authentication-required": false,
		"rpc-whitelist-enabled": true, "rpc-whitelist": "127.0.0.1",
		"dht-enabled": false, "lpd-enabled": false, "pex-enabled": false, "utp-enabled": false, "port-forwarding-enabled": false,
		"peer-port": FreePort(t), "peer-port-random-on-start": false, "bind-address-ipv4": "127.0.0.1", "bind-address-ipv6": "::1",
		"blocklist-enabled": false, "script-torrent-done-enabled": false, "message-level": 1, "umask": 18,
	}
	b, _ := json.MarshalIndent(settings, "", "\t")
	write(t, filepath.Join(w.Config, "settings.json"), string(b))
	cmd := exec.Command("transmission-daemon", "--foreground", "--config-dir", w.Config, "--log-error")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+root, "TZ=UTC")
	p := start(t, "transmission", cmd)
	waitHTTP(t, "transmission", w.URL, 30*time.Second, p)
	w.seedTorrents(t, files)
	return w
}

// makeTorrents writes each seed torrent's files (into the download folder when its data is
// to be there, else into made, where only its torrent stays) and makes its torrent with
// transmission-create; it returns the torrent files in TransmissionSeed's order.
func (w *Transmission) makeTorrents(t testing.TB, made string) []string {
	t.Helper()
	var out []string
	for i, s := range TransmissionSeed {
		at := filepath.Join(made, "data")
		if s.Data {
			at = w.Downloads
		}
		paths := []string{s.Name}
		if s.Files != nil {
			paths = nil
			for _, f := range s.Files {
				paths = append(paths, filepath.Join(s.Name, f))
			}
		}
		for j, p := range paths {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(at, p)), 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(at, p), transmissionContent(p, transmissionFileSize+(i*7+j)*1000))
		}
		torrent := filepath.Join(made, s.Name+".torrent")
		if b, err := exec.Command("transmission-create", "-o", torrent, "-s", "32", filepath.Join(at, s.Name)).CombinedOutput(); err != nil {
			t.Fatalf("transmission-create %s: %v\n%s", s.Name, err, b)
		}
		out = append(out, torrent)
	}
	if err := os.RemoveAll(filepath.Join(made, "data")); err != nil {
		t.Fatal(err)
	}
	return out
}

// transmissionContent is a file's text: its name and numbered lines, size bytes long.
func transmissionContent(name string, size int) string {
	var b strings.Builder
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(&b, "%s, line %d\n", name, i)
	}
	return b.String()[:size]
}

// seedTorrents adds the seed's torrent files paused, waits for the daemon to check their
// data, starts those that seed and waits until they do, then keeps what the seed is (the
// torrents and the settings) for the judges to compare with.
func (w *Transmission) seedTorrents(t testing.TB, files []string) {
	t.Helper()
	for i, f := range files {
		meta, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var added struct {
			Added struct {
				Hash string `json:"hashString"`
			} `json:"torrent-added"`
		}
		if err := w.rpc.call("torrent-add", map[string]any{"metainfo": base64.StdEncoding.EncodeToString(meta),
			"paused": true, "download-dir": w.Downloads}, &added); err != nil || added.Added.Hash == "" {
			t.Fatalf("transmission: adding %s: %v %+v", TransmissionSeed[i].Name, err, added)
		}
	}
	w.waitSeed(t, func(s TransmissionSeedTorrent, tt TransmissionTorrent) bool {
		return tt.Status == 0 && (tt.PercentDone == 1) == s.Data
	})
	var start []int
	for _, tt := range w.mustTorrents(t) {
		if s, _ := transmissionSeedOf(tt.Name); !s.Paused {
			start = append(start, tt.ID)
		}
	}
	if err := w.rpc.call("torrent-start", map[string]any{"ids": start}, nil); err != nil {
		t.Fatalf("transmission: starting the seed: %v", err)
	}
	w.waitSeed(t, func(s TransmissionSeedTorrent, tt TransmissionTorrent) bool {
		return (s.Paused && tt.Status == 0) || (!s.Paused && tt.Status == 6)
	})
	w.seed = w.mustTorrents(t)
	var err error
	if w.seedConf, err = w.Session(); err != nil {
		t.Fatalf("transmission: %v", err)
	}
}

// waitSeed waits until the daemon holds exactly the seed's torrents and each is as ready
// says, for up to 30 s.
func (w *Transmission) waitSeed(t testing.TB, ready func(TransmissionSeedTorrent, TransmissionTorrent) bool) {
	t.Helper()
	var got []TransmissionTorrent
	why := Eventually(30*time.Second, func() string {
		got = w.mustTorrents(t)
		if len(got) != len(TransmissionSeed) {
			return fmt.Sprintf("%d torrents", len(got))
		}
		for _, tt := range got {
			if s, ok := transmissionSeedOf(tt.Name); !ok || !ready(s, tt) {
				return fmt.Sprintf("%q is not ready (status %d, %.0f%% done)", tt.Name, tt.Status, tt.PercentDone*100)
			}
		}
		return ""
	})
	if why != "" {
		t.Fatalf("transmission: the seed: %s: %+v", why, got)
	}
}

func transmissionSeedOf(name string) (TransmissionSeedTorrent, bool) {
	for _, s := range TransmissionSeed {
		if s.Name == name {
			return s, true
		}
	}
	return TransmissionSeedTorrent{}, false
}

func (w *Transmission) mustTorrents(t testing.TB) []TransmissionTorrent {
	t.Helper()
	got, err := w.Torrents()
	if err != nil {
		t.Fatalf("transmission: %v", err)
	}
	return got
}

// Torrents are the torrents the daemon holds (torrent-get), in the order it answers.
func (w *Transmission) Torrents() ([]TransmissionTorrent, error) {
	var out struct {
		Torrents []TransmissionTorrent `json:"torrents"`
	}
	if err := w.rpc.call("torrent-get", map[string]any{"fields": transmissionFields}, &out); err != nil {
		return nil, err
	}
	return out.Torrents, nil
}

// Seeded is the torrents as the fresh instance held them, by name.
func (w *Transmission) Seeded() map[string]TransmissionTorrent {
	out := map[string]TransmissionTorrent{}
	for _, tt := range w.seed {
		out[tt.Name] = tt
	}
	return out
}

// Session is the daemon's settings (session-get), flattened ("download-dir" → its path as
// JSON writes it), without the keys that change on their own.
func (w *Transmission) Session() (map[string]string, error) {
	var conf map[string]any
	if err := w.rpc.call("session-get", nil, &conf); err != nil {
		return nil, err
	}
	for _, k := range transmissionVolatile {
		delete(conf, k)
	}
	out := map[string]string{}
	flatten("", conf, out)
	return out, nil
}

// SessionChanged says which settings differ from the fresh instance's (besides those
// named in except), "" when none do.
func (w *Transmission) SessionChanged(except ...string) string {
	now, err := w.Session()
	if err != nil {
		return err.Error()
	}
	var diff []string
	for k := range merged(now, w.seedConf) {
		if !slices.Contains(except, k) && now[k] != w.seedConf[k] {
			diff = append(diff, fmt.Sprintf("%s is %s, was %s", k, orNone(now[k]), orNone(w.seedConf[k])))
		}
	}
	sort.Strings(diff)
	return strings.Join(diff, "; ")
}

// DataOnDisk is which of a seed torrent's files are in the download folder (as named in
// the fresh instance's torrent).
func (w *Transmission) DataOnDisk(name string) []string {
	var out []string
	for _, f := range w.Seeded()[name].Files {
		if exists(filepath.Join(w.Downloads, f.Name)) {
			out = append(out, f.Name)
		}
	}
	return out
}
