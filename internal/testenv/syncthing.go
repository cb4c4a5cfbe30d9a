package testenv

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Syncthing is a private Syncthing — Debian's syncthing 1.19: a file-sync daemon whose web
// GUI (an admin panel) adds, edits, pauses, shares and removes folders and remote devices
// and keeps every setting in its config.xml — run from a fresh home folder on a free
// loopback port, cut off from the network: no global or local discovery, relays, NAT,
// STUN, usage reporting, crash reporting or upgrades, and its sync port on loopback.
//
// Syncthing 1.19 has no login page (its GUI asks for HTTP basic auth when a user is set),
// so the GUI runs without authentication, as Syncthing does by default on 127.0.0.1.
// What a run did is read back from config.xml and the folders on disk.
type Syncthing struct {
	URL      string // the GUI's root, e.g. http://127.0.0.1:PORT/
	Root     string // the instance's HOME ("~" in the GUI's paths): the folders live here
	Home     string // the configuration folder: config.xml, keys, database
	DeviceID string // this device's ID
	apiKey   string
}

// The seed every instance starts from: this device's name, two folders with a file each,
// and one remote device the folders are not yet shared with.
const (
	SyncthingDeviceName  = "Office Laptop"
	SyncthingDocsID      = "docs"
	SyncthingDocsLabel   = "Documents"
	SyncthingMusicID     = "music"
	SyncthingMusicLabel  = "Music"
	SyncthingNASID       = "TAONU65-64HJTJX-6DMVR4N-IBNPHBF-ZIQ7MZH-AZVWITF-XXKZMCW-MY5G5Q3"
	SyncthingNASName     = "Home NAS"
	SyncthingDocsFile    = "notes.txt"
	SyncthingDocsText    = "Agenda: budget and hiring.\n"
	SyncthingMusicFile   = "playlist.m3u"
	SyncthingMusicText   = "song-one.mp3\nsong-two.mp3\n"
	syncthingAPIKeyValue = "heldout-syncthing-api-key"
)

// SyncthingInstalled says whether the syncthing binary is there.
func SyncthingInstalled() bool {
	_, err := exec.LookPath("syncthing")
	return err == nil
}

// syncthingOptions are config.xml's options every instance is given before it starts:
// nothing reaches the network and no first-run dialog (usage reporting, the notice to set
// a GUI password) covers the page.
var syncthingOptions = map[string]string{
	"globalAnnounceEnabled": "false", "localAnnounceEnabled": "false", "relaysEnabled": "false",
	"natEnabled": "false", "startBrowser": "false", "urAccepted": "-1", "urSeen": "3",
	"autoUpgradeIntervalH": "0", "crashReportingEnabled": "false", "stunKeepaliveStartS": "0",
	"unackedNotificationID": "",
}

// StartSyncthing generates a fresh configuration in a temporary folder (its own HOME, so
// no Syncthing state of the machine is touched), turns the network off in it, serves it
// until the test ends, and seeds it through the GUI's own REST API: this device's name,
// the folders Documents and Music (each with a file) and the remote device Home NAS. It
// skips the test when syncthing is missing.
func StartSyncthing(t testing.TB) *Syncthing {
	t.Helper()
	if !SyncthingInstalled() {
		t.Skip("Syncthing is not installed: run `deploy/setup.sh heldout` (it installs Debian's syncthing)")
	}
	root := t.TempDir()
	s := &Syncthing{Root: root, Home: filepath.Join(root, ".config", "syncthing"), apiKey: syncthingAPIKeyValue}
	// STMONITORED: run as the one process, without the monitor that would otherwise start
	// the daemon as a child in a process group of its own, which the test's kill would miss.
	env := append(os.Environ(), "HOME="+root, "STNOUPGRADE=1", "STNORESTART=1", "STNODEFAULTFOLDER=1", "STMONITORED=yes", "TZ=UTC")
	gen := exec.Command("syncthing", "generate", "--home="+s.Home, "--no-default-folder", "--skip-port-probing")
	gen.Env = env
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("syncthing generate: %v\n%s", err, out)
	}
	s.configure(t, FreePort(t))
	port := FreePort(t)
	s.URL = "http://" + Addr(port) + "/"
	cmd := exec.Command("syncthing", "serve", "--home="+s.Home, "--no-browser", "--no-restart",
		"--gui-address="+Addr(port), "--gui-apikey="+s.apiKey)
	cmd.Dir, cmd.Env = root, env
	p := start(t, "syncthing", cmd)
	waitHTTP(t, "syncthing", s.URL, 60*time.Second, p)
	s.seed(t)
	return s
}

// configure sets the generated config.xml's options and its sync port.
func (s *Syncthing) configure(t testing.TB, syncPort int) {
	t.Helper()
	path := filepath.Join(s.Home, "config.xml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("syncthing's config: %v", err)
	}
	text := string(data)
	opts := map[string]string{"listenAddress": "tcp://" + Addr(syncPort)}
	for k, v := range syncthingOptions {
		opts[k] = v
	}
	for tag, value := range opts {
		re := regexp.MustCompile(`<` + tag + `>[^<]*</` + tag + `>`)
		if !re.MatchString(text) {
			t.Fatalf("syncthing's generated config has no <%s>", tag)
		}
		text = re.ReplaceAllString(text, "<"+tag+">"+value+"</"+tag+">")
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatalf("syncthing's config: %v", err)
	}
}

// seed names this device and adds the seed folders and device as the GUI's dialogs post
// them, then clears the startup notices (e.g. the one for running as root) so no notice
// panel sits above the folders.
func (s *Syncthing) seed(t testing.TB) {
	t.Helper()
	var status struct {
		MyID string `json:"myID"`
	}
	if err := json.Unmarshal([]byte(s.MustAPI(t, "GET", "rest/system/status", nil)), &status); err != nil || status.MyID == "" {
		t.Fatalf("syncthing's status: %v", err)
	}
	s.DeviceID = status.MyID
	for dir, file := range map[string][2]string{SyncthingDocsLabel: {SyncthingDocsFile, SyncthingDocsText}, SyncthingMusicLabel: {SyncthingMusicFile, SyncthingMusicText}} {
		if err := os.MkdirAll(filepath.Join(s.Root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s.Root, dir, file[0]), []byte(file[1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s.MustAPI(t, "PATCH", "rest/config/devices/"+s.DeviceID, map[string]any{"name": SyncthingDeviceName})
	s.MustAPI(t, "POST", "rest/config/devices", map[string]any{"deviceID": SyncthingNASID, "name": SyncthingNASName})
	s.MustAPI(t, "POST", "rest/config/folders", map[string]any{"id": SyncthingDocsID, "label": SyncthingDocsLabel, "path": filepath.Join(s.Root, SyncthingDocsLabel)})
	s.MustAPI(t, "POST", "rest/config/folders", map[string]any{"id": SyncthingMusicID, "label": SyncthingMusicLabel, "path": filepath.Join(s.Root, SyncthingMusicLabel)})
	why := Eventually(15*time.Second, func() string {
		c := s.Config(t)
		if len(c.Folders) != 2 || len(c.Devices) != 2 || !s.Marked(filepath.Join(s.Root, SyncthingMusicLabel)) || !s.Marked(filepath.Join(s.Root, SyncthingDocsLabel)) {
			return fmt.Sprintf("the seed is not saved yet: %+v", c)
		}
		return ""
	})
	if why != "" {
		t.Fatalf("syncthing: %s", why)
	}
	s.MustAPI(t, "POST", "rest/system/error/clear", nil)
}

// API calls the GUI's REST API with the instance's API key (as the GUI's own calls are
// authorised by its CSRF token) and returns the status and the body.
func (s *Syncthing) API(t testing.TB, method, path string, body any) (int, string) {
	t.Helper()
	status, out := callJSON(t, method, s.URL+path, body, map[string]string{"X-API-Key": s.apiKey})
	return status, string(out)
}

// MustAPI is API failing the test on any status but 200.
func (s *Syncthing) MustAPI(t testing.TB, method, path string, body any) string {
	t.Helper()
	status, out := s.API(t, method, path, body)
	if status != http.StatusOK {
		t.Fatalf("syncthing %s %s answered %d: %s", method, path, status, out)
	}
	return out
}

// SyncthingConfig is what the judges read of config.xml: its folders, devices and options.
type SyncthingConfig struct {
	Folders []SyncthingFolder `xml:"folder"`
	Devices []SyncthingDevice `xml:"device"`
	Options struct {
		URAccepted     int  `xml:"urAccepted"`
		GlobalAnnounce bool `xml:"globalAnnounceEnabled"`
		Relays         bool `xml:"relaysEnabled"`
	} `xml:"options"`
}

// SyncthingFolder is a folder as config.xml keeps it; Devices are the IDs it is shared
// with (this device's own among them).
type SyncthingFolder struct {
	ID      string `xml:"id,attr"`
	Label   string `xml:"label,attr"`
	Path    string `xml:"path,attr"`
	Type    string `xml:"type,attr"`
	Paused  bool   `xml:"paused"`
	Devices []struct {
		ID string `xml:"id,attr"`
	} `xml:"device"`
}

// SharedWith are the folder's device IDs.
func (f SyncthingFolder) SharedWith() []string {
	var ids []string
	for _, d := range f.Devices {
		ids = append(ids, d.ID)
	}
	return ids
}

// SyncthingDevice is a device as config.xml keeps it.
type SyncthingDevice struct {
	ID     string `xml:"id,attr"`
	Name   string `xml:"name,attr"`
	Paused bool   `xml:"paused"`
}

// Config reads config.xml as it is saved now.
func (s *Syncthing) Config(t testing.TB) SyncthingConfig {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.Home, "config.xml"))
	if err != nil {
		t.Fatalf("syncthing's config: %v", err)
	}
	var c SyncthingConfig
	if err := xml.Unmarshal(data, &c); err != nil {
		t.Fatalf("syncthing's config: %v", err)
	}
	return c
}

// Folder is the folder with this ID in config.xml.
func (c SyncthingConfig) Folder(id string) (SyncthingFolder, bool) {
	for _, f := range c.Folders {
		if f.ID == id {
			return f, true
		}
	}
	return SyncthingFolder{}, false
}

// Device is the device with this ID in config.xml.
func (c SyncthingConfig) Device(id string) (SyncthingDevice, bool) {
	for _, d := range c.Devices {
		if d.ID == id {
			return d, true
		}
	}
	return SyncthingDevice{}, false
}

// Resolve is a folder path as Syncthing reads it: "~" is the instance's HOME.
func (s *Syncthing) Resolve(path string) string {
	if path == "~" || strings.HasPrefix(path, "~/") {
		path = filepath.Join(s.Root, path[1:])
	}
	return filepath.Clean(path)
}

// Marked says whether dir exists with the .stfolder marker Syncthing puts in each folder
// it runs.
func (s *Syncthing) Marked(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, ".stfolder"))
	return err == nil && info.IsDir()
}

// FileText is a file's text under the instance's HOME, and whether it is there.
func (s *Syncthing) FileText(rel string) (string, bool) {
	data, err := os.ReadFile(filepath.Join(s.Root, rel))
	return string(data), err == nil
}
