package testenv

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// TiddlyWikiVersion is the npm package deploy/setup.sh installs (TIDDLYWIKI_VERSION there).
const TiddlyWikiVersion = "5.4.1"

// TiddlyWiki is a private TiddlyWiki, served by its own Node.js server from a folder of
// .tid files: a real application, written by nobody here. What a run did is read back from
// the files the server saved.
type TiddlyWiki struct {
	URL      string // the wiki's root, e.g. http://127.0.0.1:PORT
	Tiddlers string // the folder of the wiki's .tid files
}

// Tiddler is one tiddler as saved on disk: its title, its tags (as TiddlyWiki writes them,
// e.g. `done [[to buy]]`), its body and any other fields.
type Tiddler struct {
	Title  string
	Tags   string
	Text   string
	Fields map[string]string
}

// TagList is the tiddler's tags, one by one.
func (td Tiddler) TagList() []string { return splitTitleList(td.Tags) }

// HasTag says whether the tiddler has the tag.
func (td Tiddler) HasTag(tag string) bool {
	for _, t := range td.TagList() {
		if t == tag {
			return true
		}
	}
	return false
}

// splitTitleList reads TiddlyWiki's title list: words, or [[titles with spaces]].
func splitTitleList(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if strings.HasPrefix(s, "[[") {
			end := strings.Index(s, "]]")
			if end < 0 {
				return append(out, s[2:])
			}
			out = append(out, s[2:end])
			s = s[end+2:]
			continue
		}
		f := strings.Fields(s)[0]
		out = append(out, f)
		s = s[len(f):]
	}
	return out
}

func quoteTitle(s string) string {
	if strings.ContainsAny(s, " \t") {
		return "[[" + s + "]]"
	}
	return s
}

// Tags is a title list of the given tags, as a .tid file writes it.
func Tags(tags ...string) string {
	q := make([]string, len(tags))
	for i, t := range tags {
		q[i] = quoteTitle(t)
	}
	return strings.Join(q, " ")
}

// All reads every tiddler the server has saved, by title.
func (w *TiddlyWiki) All() map[string]Tiddler {
	out := map[string]Tiddler{}
	_ = filepath.Walk(w.Tiddlers, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".tid") {
			return nil
		}
		if td, ok := readTid(path); ok {
			out[td.Title] = td
		}
		return nil
	})
	return out
}

// Tiddler reads one saved tiddler; false when there is no such tiddler on disk.
func (w *TiddlyWiki) Tiddler(title string) (Tiddler, bool) {
	td, ok := w.All()[title]
	return td, ok
}

// Titles is the titles of the saved tiddlers that are not system tiddlers ($:/...), sorted.
func (w *TiddlyWiki) Titles() []string {
	var out []string
	for title := range w.All() {
		if !strings.HasPrefix(title, "$:/") {
			out = append(out, title)
		}
	}
	sort.Strings(out)
	return out
}

func readTid(path string) (Tiddler, bool) {
	f, err := os.Open(path)
	if err != nil {
		return Tiddler{}, false
	}
	defer f.Close()
	td := Tiddler{Fields: map[string]string{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var body []string
	header := true
	for sc.Scan() {
		line := sc.Text()
		if header {
			if line == "" {
				header = false
				continue
			}
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			switch k {
			case "title":
				td.Title = v
			case "tags":
				td.Tags = v
			default:
				td.Fields[k] = v
			}
			continue
		}
		body = append(body, line)
	}
	td.Text = strings.Join(body, "\n")
	return td, td.Title != ""
}

// tidFile is a tiddler as a .tid file.
func tidFile(td Tiddler) string {
	var b strings.Builder
	b.WriteString("title: " + td.Title + "\n")
	if td.Tags != "" {
		b.WriteString("tags: " + td.Tags + "\n")
	}
	keys := make([]string, 0, len(td.Fields))
	for k := range td.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b.WriteString(k + ": " + td.Fields[k] + "\n")
	}
	if _, ok := td.Fields["type"]; !ok {
		b.WriteString("type: text/vnd.tiddlywiki\n")
	}
	b.WriteString("\n" + td.Text + "\n")
	return b.String()
}

// Eventually waits up to limit for ok to hold on the saved tiddlers (the browser saves a
// change to the server a moment after it is made) and says whether it did.
func (w *TiddlyWiki) Eventually(limit time.Duration, ok func(map[string]Tiddler) bool) bool {
	deadline := time.Now().Add(limit)
	for {
		if ok(w.All()) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TiddlyWikiDir is where deploy/setup.sh installed TiddlyWiki's npm package, "" if not.
func TiddlyWikiDir() string {
	dir := os.Getenv("TIDDLYWIKI_DIR")
	if dir == "" {
		dir = filepath.Join(config.ToolsDir(), "tiddlywiki-"+TiddlyWikiVersion)
	}
	main := filepath.Join(dir, "node_modules", "tiddlywiki", "tiddlywiki.js")
	if !exists(main) {
		return ""
	}
	return main
}

// StartTiddlyWiki makes a new wiki from TiddlyWiki's client-server edition in a temporary
// folder, saves the seed tiddlers into it, and serves it with TiddlyWiki's own server on a
// free port. It skips the test when TiddlyWiki or Node.js is missing: `make setup`
// (deploy/setup.sh) installs them.
func StartTiddlyWiki(t testing.TB, seed ...Tiddler) *TiddlyWiki {
	t.Helper()
	node, err := exec.LookPath("node")
	main := TiddlyWikiDir()
	if err != nil || main == "" {
		t.Skip("TiddlyWiki or Node.js is not installed: run deploy/setup.sh (it installs npm's tiddlywiki " + TiddlyWikiVersion + ")")
	}
	dir := filepath.Join(t.TempDir(), "wiki")
	if out, err := exec.Command(node, main, dir, "--init", "server").CombinedOutput(); err != nil {
		t.Fatalf("make the wiki: %v\n%s", err, out)
	}
	w := &TiddlyWiki{Tiddlers: filepath.Join(dir, "tiddlers")}
	if err := os.MkdirAll(w.Tiddlers, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, td := range seed {
		write(t, filepath.Join(w.Tiddlers, "seed-"+strconv.Itoa(i)+".tid"), tidFile(td))
	}
	port := FreePort(t)
	w.URL = "http://" + Addr(port)
	cmd := exec.Command(node, main, dir, "--listen", "host=127.0.0.1", "port="+strconv.Itoa(port))
	cmd.Dir = dir
	p := start(t, "tiddlywiki", cmd)
	waitHTTP(t, "tiddlywiki", w.URL+"/status", 30*time.Second, p)
	return w
}
