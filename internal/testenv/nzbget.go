package testenv

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// NZBGet is a private NZBGet — Debian's nzbget 21.0: a Usenet downloader whose web control
// panel lists, edits, reorders and deletes the queued downloads (NZB files), sets the speed
// limit and edits every setting of its configuration file (news servers, categories,
// paths, limits) — run in the foreground as the test's own process (server mode, -s) with
// a configuration file of its own written before it starts: every folder it writes (main,
// destination, intermediate, NZB, queue, temporary, log) in the instance's folder, its web
// control panel and JSON-RPC on a free loopback port behind the panel's own sign-in form
// (FormAuth), the package's web files, and two news servers on loopback ports nothing
// listens on, so nothing is ever downloaded. The seed's NZB files are written here and
// added paused through JSON-RPC's append, as the panel's Add dialog adds a file. What a run
// did is read back from the configuration file itself and through read-only JSON-RPC calls
// (listgroups, history, status) with the instance's credentials.
type NZBGet struct {
	URL      string // the web control panel, e.g. http://127.0.0.1:PORT/
	User     string // nzbget
	Password string
	Dir      string // the instance's folder
	ConfFile string // the configuration file the daemon reads and the Settings page saves
	Main     string // MainDir: the queue, the NZB folder, the log
	rpc      string // the JSON-RPC endpoint the panel calls
	seed     NZBGetState
}

// NZBGetPassword is the control password of every instance (ControlUsername is nzbget):
// one grant on the worker serves each fresh instance of a test.
const NZBGetPassword = "Usenet-Queue-2024!"

// NZBGetSeedItem is one download every instance starts with: its name (the NZB file's,
// without .nzb), its category and how many files its NZB lists.
type NZBGetSeedItem struct {
	Name     string
	Category string
	Files    int
}

// The seed every instance starts from: seven queued downloads with similar names, all
// paused (and the download queue paused too), three categories and two news servers.
var (
	NZBGetSeedItems = []NZBGetSeedItem{
		{"Debian.Install.Guide", "Ebooks", 2},
		{"Debian.Admin.Handbook", "Ebooks", 3},
		{"Debian.Admin.Handbook.Errata", "Ebooks", 1},
		{"Ubuntu.Server.Guide", "Ebooks", 2},
		{"LibreOffice.Portable.7.6", "Software", 4},
		{"Big.Buck.Bunny.1080p", "Movies", 5},
		{"Sintel.2010.720p", "Movies", 3},
	}
	// NZBGetSeedCategories are the seed's categories, Category1 to Category3.
	NZBGetSeedCategories = []string{"Movies", "Software", "Ebooks"}
	// NZBGetSeedServers are the seed's news servers, Server1 and Server2: name, level,
	// connections.
	NZBGetSeedServers = []struct {
		Name               string
		Level, Connections int
	}{{"Primary News", 0, 8}, {"Backup News", 1, 4}}
)

const (
	nzbgetWeb      = "/usr/share/nzbget/webui"
	nzbgetTemplate = nzbgetWeb + "/nzbget.conf"
)

// NZBGetInstalled says whether Debian's nzbget and its web files (with the configuration
// template the Settings page is built from) are here (deploy/setup.sh heldout installs
// them).
func NZBGetInstalled() bool {
	if _, err := exec.LookPath("nzbget"); err != nil {
		return false
	}
	return exists(filepath.Join(nzbgetWeb, "index.html")) && exists(nzbgetTemplate)
}

// StartNZBGet writes a configuration file of the instance's own from the package's
// template, runs nzbget in server mode in the foreground until the test ends and seeds it
// through JSON-RPC: the download queue paused, then NZBGetSeedItems added, each paused. It
// skips the test when NZBGet is missing.
func StartNZBGet(t testing.TB) *NZBGet {
	t.Helper()
	if !NZBGetInstalled() {
		t.Skip("NZBGet is not installed: run `deploy/setup.sh heldout` (it installs Debian's nzbget)")
	}
	root := t.TempDir()
	w := &NZBGet{User: "nzbget", Password: NZBGetPassword, Dir: root, ConfFile: filepath.Join(root, "nzbget.conf"), Main: filepath.Join(root, "main")}
	if err := os.MkdirAll(w.Main, 0o755); err != nil {
		t.Fatal(err)
	}
	port := FreePort(t)
	w.URL = "http://" + Addr(port) + "/"
	w.rpc = w.URL + "jsonrpc"
	w.writeConf(t, port)
	cmd := exec.Command("nzbget", "-s", "-c", w.ConfFile)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+root, "TZ=UTC")
	p := start(t, "nzbget", cmd)
	waitHTTP(t, "nzbget", w.URL+"index.html", 30*time.Second, p)
	w.seedQueue(t)
	return w
}

// writeConf writes the configuration file: the package's template (every option with its
// comments, as the Settings page saves it back) with the instance's folders, port,
// credentials and sign-in form, no update check and a plain log on the console; the
// template's example news server and categories give way to the seed's.
func (w *NZBGet) writeConf(t testing.TB, port int) {
	t.Helper()
	set := map[string]string{
		"MainDir": w.Main, "DestDir": filepath.Join(w.Main, "dst"), "InterDir": filepath.Join(w.Main, "inter"),
		"NzbDir": filepath.Join(w.Main, "nzb"), "QueueDir": filepath.Join(w.Main, "queue"), "TempDir": filepath.Join(w.Main, "tmp"),
		"WebDir": nzbgetWeb + "/", "ScriptDir": filepath.Join(w.Main, "scripts"), "LockFile": filepath.Join(w.Main, "nzbget.lock"),
		"LogFile": filepath.Join(w.Main, "nzbget.log"), "ConfigTemplate": nzbgetTemplate,
		"ControlIP": "127.0.0.1", "ControlPort": fmt.Sprint(port), "ControlUsername": w.User, "ControlPassword": w.Password,
		"FormAuth": "yes", "UpdateCheck": "none", "OutputMode": "loggable",
	}
	f, err := os.Open(nzbgetTemplate)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	example := regexp.MustCompile(`^(Server1|Category[0-9]+)\.`)
	for sc.Scan() {
		line := sc.Text()
		name, _, isOption := strings.Cut(line, "=")
		switch {
		case isOption && example.MatchString(name):
			continue
		case isOption && set[name] != "":
			line = name + "=" + set[name]
		}
		b.WriteString(line + "\n")
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	b.WriteString(w.seedConf(t))
	write(t, w.ConfFile, b.String())
}

// seedConf is the seed's news servers (on loopback ports nothing listens on) and
// categories, each option as the template lists it.
func (w *NZBGet) seedConf(t testing.TB) string {
	var b strings.Builder
	b.WriteString("\n")
	for i, s := range NZBGetSeedServers {
		n := i + 1
		for _, kv := range [][2]string{{"Active", "yes"}, {"Name", s.Name}, {"Level", fmt.Sprint(s.Level)}, {"Optional", "no"},
			{"Group", "0"}, {"Host", "127.0.0.1"}, {"Port", fmt.Sprint(FreePort(t))}, {"Username", "reader"},
			{"Password", "news-reader"}, {"JoinGroup", "no"}, {"Encryption", "no"}, {"Cipher", ""},
			{"Connections", fmt.Sprint(s.Connections)}, {"Retention", "0"}, {"IpVersion", "auto"}, {"Notes", ""}} {
			fmt.Fprintf(&b, "Server%d.%s=%s\n", n, kv[0], kv[1])
		}
	}
	for i, c := range NZBGetSeedCategories {
		fmt.Fprintf(&b, "Category%d.Name=%s\nCategory%d.DestDir=\nCategory%d.Unpack=yes\nCategory%d.Extensions=\nCategory%d.Aliases=\n",
			i+1, c, i+1, i+1, i+1, i+1)
	}
	return b.String()
}

// seedQueue pauses the download queue, adds the seed's NZB files, each paused, and waits
// until the queue holds them all; then keeps the state the judges compare with.
func (w *NZBGet) seedQueue(t testing.TB) {
	t.Helper()
	if err := w.Call("pausedownload", nil, nil); err != nil {
		t.Fatalf("nzbget: pause the download queue: %v", err)
	}
	for _, it := range NZBGetSeedItems {
		var id int
		content := base64.StdEncoding.EncodeToString([]byte(nzbgetNZB(it)))
		// append: file name, content, category, priority, add to top, add paused, dupe key,
		// dupe score, dupe mode, post-processing parameters.
		err := w.Call("append", []any{it.Name + ".nzb", content, it.Category, 0, false, true, "", 0, "SCORE", []any{}}, &id)
		if err != nil || id <= 0 {
			t.Fatalf("nzbget: adding %s: %v (id %d)", it.Name, err, id)
		}
	}
	why := Eventually(20*time.Second, func() string {
		groups, err := w.Groups()
		if err != nil {
			return err.Error()
		}
		if len(groups) != len(NZBGetSeedItems) {
			return fmt.Sprintf("%d downloads in the queue", len(groups))
		}
		for _, g := range groups {
			if g.Status != "PAUSED" {
				return fmt.Sprintf("%s is %s", g.NZBName, g.Status)
			}
		}
		return ""
	})
	if why != "" {
		t.Fatalf("nzbget: the seed: %s", why)
	}
	w.seed = w.State(t)
}

// nzbgetNZB is an NZB file for it: Files files of two articles each, posted to one group,
// with message ids no server has.
func nzbgetNZB(it NZBGetSeedItem) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<!DOCTYPE nzb PUBLIC "-//newzBin//DTD NZB 1.1//EN" "http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd">` + "\n")
	b.WriteString(`<nzb xmlns="http://www.newzbin.com/DTD/2003/nzb">` + "\n")
	b.WriteString(`<head><meta type="title">` + it.Name + "</meta></head>\n")
	exts := []string{"pdf", "epub", "mkv", "zip", "nfo"}
	for i := range it.Files {
		file := fmt.Sprintf("%s.part%02d.%s", it.Name, i+1, exts[i%len(exts)])
		fmt.Fprintf(&b, `<file poster="Uploader &lt;uploader@example.org&gt;" date="1700000000" subject="%s [%d/%d] - &quot;%s&quot; yEnc (1/2)">`+"\n",
			it.Name, i+1, it.Files, file)
		b.WriteString("<groups><group>alt.binaries.misc</group></groups>\n<segments>\n")
		for s := 1; s <= 2; s++ {
			fmt.Fprintf(&b, `<segment bytes="%d" number="%d">%s.%d.%d@news.example.org</segment>`+"\n", 384000+i*1000, s, strings.ToLower(it.Name), i+1, s)
		}
		b.WriteString("</segments>\n</file>\n")
	}
	b.WriteString("</nzb>\n")
	return b.String()
}
