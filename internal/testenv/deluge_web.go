package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// DelugeBrowser sends the requests deluge-web's own pages send: JSON-RPC calls to /json
// (auth.login from the password dialog, then web.* and core.* calls from the grid, the
// menus and the dialogs), with the session cookie the login sets. It is how the harness
// seeds and reads an instance, and how its own test does each goal's effect without the
// agent.
type DelugeBrowser struct {
	d  *Deluge
	c  *http.Client
	id int
}

// Browser is a browser with no session yet: SignIn signs it in through the password dialog.
func (d *Deluge) Browser() *DelugeBrowser {
	jar, _ := cookiejar.New(nil)
	return &DelugeBrowser{d: d, c: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// SignIn sends the password dialog's login (auth.login), then waits, as the page does, until
// the web interface says it is connected to its daemon and knows the daemon's methods (it
// asks for them once connected, and answers "Unknown method" to a core call until then).
func (b *DelugeBrowser) SignIn(t testing.TB) {
	t.Helper()
	var ok bool
	b.Into(t, &ok, "auth.login", b.d.Password)
	if !ok {
		t.Fatalf("deluge: the password dialog's login was refused")
	}
	why := Eventually(30*time.Second, func() string {
		var connected bool
		if err := b.call(&connected, "web.connected"); err != nil {
			return err.Error()
		}
		if !connected {
			return "deluge-web is not connected to its daemon"
		}
		var ids []string
		if err := b.call(&ids, "core.get_session_state"); err != nil {
			return err.Error()
		}
		return ""
	})
	if why != "" {
		t.Fatalf("deluge: %s", why)
	}
}

// Call sends one JSON-RPC call and fails the test when it cannot be sent or answers an
// error.
func (b *DelugeBrowser) Call(t testing.TB, method string, params ...any) {
	t.Helper()
	b.Into(t, nil, method, params...)
}

// Into is Call that decodes the call's result into out (nil: not decoded).
func (b *DelugeBrowser) Into(t testing.TB, out any, method string, params ...any) {
	t.Helper()
	if err := b.call(out, method, params...); err != nil {
		t.Fatalf("deluge: %v", err)
	}
}

// call sends method(params...) to /json and decodes its result into out.
func (b *DelugeBrowser) call(out any, method string, params ...any) error {
	if params == nil {
		params = []any{}
	}
	b.id++
	body, err := json.Marshal(map[string]any{"method": method, "params": params, "id": b.id})
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, b.d.URL+"json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.c.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var answer struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return fmt.Errorf("%s answered %d: %s", method, resp.StatusCode, raw)
	}
	if answer.Error != nil {
		return fmt.Errorf("%s: %s", method, answer.Error.Message)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(answer.Result, out); err != nil {
		return fmt.Errorf("%s: %v: %s", method, err, answer.Result)
	}
	return nil
}

// DelugeTorrent is one torrent as the daemon holds it: the status keys a goal may change.
// State is Deluge's: Downloading, Seeding, Queued (waiting for a place in the queue),
// Paused (paused by a person), Checking, Error.
type DelugeTorrent struct {
	Hash                string  `json:"hash"`
	Name                string  `json:"name"`
	State               string  `json:"state"`
	Queue               float64 `json:"queue"` // 0 is the top; -1 for a finished torrent
	TotalSize           float64 `json:"total_size"`
	DownloadLocation    string  `json:"download_location"`
	MaxDownloadSpeed    float64 `json:"max_download_speed"` // KiB/s, -1 unlimited
	MaxUploadSpeed      float64 `json:"max_upload_speed"`
	MaxConnections      float64 `json:"max_connections"`
	MaxUploadSlots      float64 `json:"max_upload_slots"`
	AutoManaged         bool    `json:"auto_managed"`
	StopAtRatio         bool    `json:"stop_at_ratio"`
	StopRatio           float64 `json:"stop_ratio"`
	RemoveAtRatio       bool    `json:"remove_at_ratio"`
	MoveCompleted       bool    `json:"move_completed"`
	MoveCompletedPath   string  `json:"move_completed_path"`
	PrioritizeFirstLast bool    `json:"prioritize_first_last"`
	SequentialDownload  bool    `json:"sequential_download"`
	SuperSeeding        bool    `json:"super_seeding"`
	Tracker             string  `json:"tracker_host"`
}

// delugeTorrentKeys are the status keys DelugeTorrent reads.
var delugeTorrentKeys = []string{"hash", "name", "state", "queue", "total_size", "download_location",
	"max_download_speed", "max_upload_speed", "max_connections", "max_upload_slots", "auto_managed",
	"stop_at_ratio", "stop_ratio", "remove_at_ratio", "move_completed", "move_completed_path",
	"prioritize_first_last", "sequential_download", "super_seeding", "tracker_host"}

// Paused says whether a person paused the torrent (a torrent waiting in the queue is not).
func (x DelugeTorrent) Paused() bool { return x.State == "Paused" }

// Same says whether two torrents are alike in all but their state, save whether each is
// paused (a torrent moves between Downloading and Queued by itself).
func (x DelugeTorrent) Same(y DelugeTorrent) bool {
	px, py := x.Paused(), y.Paused()
	x.State, y.State = "", ""
	return px == py && x == y
}

// String is the torrent for a judge's answer.
func (x DelugeTorrent) String() string {
	return fmt.Sprintf("%q (%s, queue %v, down %v, up %v KiB/s, connections %v, slots %v, in %s)", x.Name, x.State,
		x.Queue, x.MaxDownloadSpeed, x.MaxUploadSpeed, x.MaxConnections, x.MaxUploadSlots, x.DownloadLocation)
}

// Torrents are the daemon's torrents by info hash (core.get_torrents_status), read through
// the judge's own session. An error says they could not be read.
func (d *Deluge) Torrents() (map[string]DelugeTorrent, error) {
	out := map[string]DelugeTorrent{}
	if err := d.judge.call(&out, "core.get_torrents_status", map[string]any{}, delugeTorrentKeys); err != nil {
		return nil, err
	}
	return out, nil
}

// DelugeFind is the torrent of ts named name.
func DelugeFind(ts map[string]DelugeTorrent, name string) (DelugeTorrent, bool) {
	for _, x := range ts {
		if x.Name == name {
			return x, true
		}
	}
	return DelugeTorrent{}, false
}

// Settings are the daemon's preferences (core.get_config), flattened: "max_download_speed"
// → "-1.0", "proxy.type" → "0", lists as JSON writes them.
func (d *Deluge) Settings() (map[string]string, error) {
	var conf map[string]any
	if err := d.judge.call(&conf, "core.get_config"); err != nil {
		return nil, err
	}
	out := map[string]string{}
	flatten("", conf, out)
	return out, nil
}

// SettingsChanged says which preferences differ from the fresh instance's (besides those
// named in except), "" when none do.
func (d *Deluge) SettingsChanged(except ...string) string {
	now, err := d.Settings()
	if err != nil {
		return err.Error()
	}
	var diff []string
	for k := range merged(now, d.seedConf) {
		if !slices.Contains(except, k) && !delugeSameValue(now[k], d.seedConf[k]) {
			diff = append(diff, fmt.Sprintf("%s is %s, was %s", k, orNone(now[k]), orNone(d.seedConf[k])))
		}
	}
	sort.Strings(diff)
	return strings.Join(diff, "; ")
}

// delugeSameValue says whether two flattened values are the same: numbers by value (the
// web interface's spinners send 5 where the daemon wrote 5.0).
func delugeSameValue(a, b string) bool {
	if a == b {
		return true
	}
	var x, y float64
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && x == y
}

// HasData says whether the file a seed torrent downloads is in the download folder.
func (d *Deluge) HasData(name string) bool { return exists(filepath.Join(d.Downloads, name)) }

// DataChanged says which seed torrents' files are missing from the download folder (besides
// those named in except), "" when none are.
func (d *Deluge) DataChanged(except ...string) string {
	var missing []string
	for _, s := range DelugeSeed {
		if s.Data && !slices.Contains(except, s.Name) && !d.HasData(s.Name) {
			missing = append(missing, s.Name)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return "the download folder lacks " + strings.Join(missing, ", ")
}
