package testenv

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// QBittorrent is a private qBittorrent — Debian's qbittorrent-nox 4.5.2, a BitTorrent
// client with no window whose Web UI (a MooTools page: a menu bar, a toolbar, the torrent
// list with its right-click menu, a sidebar of categories, dialogs in frames, an Options
// window) drives it through its Web API — run as the test's own process from a profile
// folder of its own (its qBittorrent.conf written before it starts: the legal notice
// accepted, the Web UI on a free loopback port behind its login, the admin's password as
// its PBKDF2 hash), cut off from the network: no DHT, peer exchange, local peer discovery
// or port forwarding, BitTorrent on loopback only, and torrents with no tracker. It is
// seeded through its own Web API with QBittorrentSeed (the files of the seeding torrents
// written into the download folder first) and QBittorrentCategories. What a run did is read
// back through the same API (api/v2/torrents/info, torrents/categories, app/preferences)
// and the download folder on disk.
type QBittorrent struct {
	URL       string // the Web UI, where a person starts: its login page, http://127.0.0.1:PORT/
	Dir       string // the profile folder (qBittorrent/config, qBittorrent/data)
	Downloads string // the default save path, where the seeding torrents' files are
	User      string // the Web UI's user the goals sign in as
	Password  string // its password
	seed      *QBittorrentState
	judge     *QBittorrentBrowser // the judge's own signed-in session
}

// QBittorrentSeedTorrent is one torrent every instance starts with: a single file of Size
// bytes named Name, in Category ("" for none). With Data its file is in the download
// folder before the torrent is added, so qBittorrent checks it and seeds it; without, the
// torrent waits for peers at 0%.
type QBittorrentSeedTorrent struct {
	Name, Category string
	Size           int
	Data           bool
}

// QBittorrentSeed are the torrents every instance starts with, in the order they are added:
// two seeding, three downloading (none waits queued: the queue is off, see qbtConfig).
var QBittorrentSeed = []QBittorrentSeedTorrent{
	{Name: "ubuntu-24.04-live-server-amd64.iso", Category: "Linux ISOs", Size: 96 << 10, Data: true},
	{Name: "archlinux-2024.06.01-x86_64.iso", Category: "Linux ISOs", Size: 64 << 10, Data: true},
	{Name: "big-buck-bunny-1080p.mp4", Category: "Movies", Size: 128 << 10},
	{Name: "sintel-2010-4k.mkv", Size: 80 << 10},
	{Name: "LibreOffice_24.2.4_Linux_x86-64_deb.tar.gz", Size: 112 << 10},
}

// QBittorrentCategories are the categories every instance starts with (no save path of
// their own: their torrents go to the default save path).
var QBittorrentCategories = []string{"Linux ISOs", "Movies"}

// QBittorrentUser is the Web UI's user, QBittorrentPassword its password (a worker grants
// it; no goal holds it), the same in every instance.
const (
	QBittorrentUser     = "admin"
	QBittorrentPassword = "Seedbox-Admin-2024!"
)

// QBittorrentInstalled says whether Debian's qbittorrent-nox is here (deploy/setup.sh
// heldout installs it).
func QBittorrentInstalled() bool {
	_, err := exec.LookPath("qbittorrent-nox")
	return err == nil
}

// StartQBittorrent writes a profile folder into a temporary folder, runs qbittorrent-nox
// from it until the test ends, waits until its login page answers, seeds it through its
// Web API and waits until the seeding torrents are checked, then reads back the state the
// judges compare with. It skips the test when qBittorrent is missing.
func StartQBittorrent(t testing.TB) *QBittorrent {
	t.Helper()
	if !QBittorrentInstalled() {
		t.Skip("qBittorrent is not installed: run `deploy/setup.sh heldout` (it installs Debian's qbittorrent-nox)")
	}
	root := t.TempDir()
	q := &QBittorrent{Dir: filepath.Join(root, "profile"), Downloads: filepath.Join(root, "Downloads"),
		User: QBittorrentUser, Password: QBittorrentPassword}
	conf := filepath.Join(q.Dir, "qBittorrent", "config", "qBittorrent.conf")
	for _, dir := range []string{filepath.Dir(conf), q.Downloads} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	torrents, err := qbtSeedFiles(q.Downloads)
	if err != nil {
		t.Fatalf("qbittorrent: the seed's files: %v", err)
	}
	webPort := FreePort(t)
	write(t, conf, qbtConfig(t, webPort, FreePort(t), q.Downloads))
	cmd := exec.Command("qbittorrent-nox", "--profile="+q.Dir)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+root, "TZ=UTC", "LANG=C.UTF-8", "QT_QPA_PLATFORM=offscreen")
	q.URL = "http://" + Addr(webPort) + "/"
	p := start(t, "qbittorrent-nox", cmd)
	waitHTTP(t, "qbittorrent-nox", q.URL, 30*time.Second, p)
	q.judge = q.Browser()
	q.judge.SignIn(t)
	q.seedWith(t, torrents)
	if why := Eventually(30*time.Second, q.settled); why != "" {
		t.Fatalf("qbittorrent: the seed did not settle: %s\n%s", why, p.out.String())
	}
	st, err := q.State()
	if err != nil {
		t.Fatalf("qbittorrent: reading the seed back: %v", err)
	}
	q.seed = st
	return q
}

// qbtConfig is the qBittorrent.conf an instance starts from: the legal notice accepted;
// BitTorrent on loopback with no DHT, peer exchange, local peer discovery or port
// forwarding, the queue off (every torrent runs, none waits queued) and the download
// folder as the default save path; the Web UI on webPort, loopback only, behind its login
// (no bypass for localhost), the user's password as qBittorrent's PBKDF2 hash.
func qbtConfig(t testing.TB, webPort, peerPort int, downloads string) string {
	t.Helper()
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		t.Fatal(err)
	}
	hash, err := pbkdf2.Key(sha512.New, QBittorrentPassword, salt, 100000, 64)
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{
		"[LegalNotice]", "Accepted=true", "",
		"[BitTorrent]",
		fmt.Sprintf(`Session\Port=%d`, peerPort),
		`Session\InterfaceAddress=127.0.0.1`,
		`Session\DHTEnabled=false`, `Session\PeXEnabled=false`, `Session\LSDEnabled=false`,
		`Session\QueueingSystemEnabled=false`, `Session\AddTorrentPaused=false`,
		`Session\DefaultSavePath=` + filepath.ToSlash(downloads), `Session\TempPathEnabled=false`, "",
		"[Network]", "PortForwardingEnabled=false", "",
		"[Application]", `FileLogger\Enabled=false`, "",
		"[Preferences]",
		`WebUI\Enabled=true`, `WebUI\Address=127.0.0.1`,
		fmt.Sprintf(`WebUI\Port=%d`, webPort),
		`WebUI\UseUPnP=false`, `WebUI\LocalHostAuth=true`,
		`WebUI\Username=` + QBittorrentUser,
		fmt.Sprintf(`WebUI\Password_PBKDF2="@ByteArray(%s:%s)"`, base64.StdEncoding.EncodeToString(salt), base64.StdEncoding.EncodeToString(hash)),
		`General\Locale=en`, "",
	}
	return strings.Join(lines, "\n")
}

// seedWith adds the categories and the seed's torrents through the Web API, as the
// sidebar's "Add category..." and the "Add Torrent File..." dialog do: each torrent to the
// download folder, in its category, started, managed by hand (no automatic management).
func (q *QBittorrent) seedWith(t testing.TB, torrents map[string][]byte) {
	t.Helper()
	for _, c := range QBittorrentCategories {
		q.judge.Post(t, "api/v2/torrents/createCategory", map[string]string{"category": c, "savePath": ""})
	}
	for _, s := range QBittorrentSeed {
		q.judge.Upload(t, "api/v2/torrents/add", map[string]string{
			"savepath": q.Downloads, "category": s.Category, "autoTMM": "false", "paused": "false",
		}, "torrents", s.Name+".torrent", torrents[s.Name])
	}
}

// settled says "" once every seed torrent is listed, the seeding ones checked (their files
// complete) and the others downloading.
func (q *QBittorrent) settled() string {
	got, err := q.State()
	if err != nil {
		return err.Error()
	}
	for _, s := range QBittorrentSeed {
		tor, ok := got.Torrents[QBittorrentSeedHash(s.Name)]
		if !ok {
			return s.Name + " is not listed yet"
		}
		if strings.HasPrefix(tor.State, "checking") || tor.State == "metaDL" || tor.State == "allocating" {
			return fmt.Sprintf("%s is %s", s.Name, tor.State)
		}
		if s.Data && tor.Progress < 1 {
			return fmt.Sprintf("%s is at %.0f%%", s.Name, tor.Progress*100)
		}
	}
	return ""
}

// Seed is the state read back once the instance was seeded (a copy the caller may change).
func (q *QBittorrent) Seed() *QBittorrentState { return q.seed.Clone() }

// State reads the instance's state as it is now, through the judge's own session.
func (q *QBittorrent) State() (*QBittorrentState, error) { return q.judge.state() }

// Differs says how the state differs from want ("" when it is exactly that).
func (q *QBittorrent) Differs(want *QBittorrentState) string {
	got, err := q.State()
	if err != nil {
		return err.Error()
	}
	return got.Diff(want)
}
