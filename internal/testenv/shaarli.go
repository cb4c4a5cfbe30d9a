package testenv

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// Shaarli is a private Shaarli — Debian's shaarli: a personal bookmarks manager in PHP that
// keeps its bookmarks and its settings in flat files, no database — copied into a temporary
// folder and served by PHP's built-in server on a free loopback port. Debian's build writes
// where Shaarli keeps its data (/var/lib/shaarli/data), its caches (/var/cache/shaarli) and
// its code (/usr/share/shaarli) into three of its files; the copy names its own folders
// there instead, so each instance has a data folder of its own and the system's is never
// touched. Each instance is installed through Shaarli's own first-run form (one user) and
// seeded through its own pages. What a run did is read back from the data folder: the
// bookmarks from datastore.php (decoded by the php CLI with Shaarli's own classes), the
// settings from config.json.php.
type Shaarli struct {
	URL      string // the front page, e.g. http://127.0.0.1:PORT
	User     string // the one user
	Password string
	Dir      string // the instance's folder: the code in www, the data in data
	Data     string // the data folder: config.json.php, datastore.php, history.php
	app      string // the copy of the code
	seedConf map[string]string
}

// ShaarliPassword is the user's password in every instance: one grant on the worker serves
// each fresh instance of a test.
const (
	ShaarliUser     = "admin"
	ShaarliPassword = "shaarli-admin-pass-5"
	ShaarliTitle    = "Team Links"
	shaarliDir      = "/usr/share/shaarli"
)

// ShaarliBookmark is one bookmark as Shaarli stores it (a Bookmark object in datastore.php).
type ShaarliBookmark struct {
	ID          int      `json:"id"`
	ShortURL    string   `json:"shorturl"`
	URL         string   `json:"url"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	Private     bool     `json:"private"`
	Sticky      bool     `json:"sticky"`
	Created     string   `json:"created"`
	Updated     string   `json:"updated"`
}

// ShaarliSeed is the bookmarks every instance starts from, in the order the front page lists
// them (the newest first). Shaarli's own welcome bookmarks, which it writes at a new user's
// first page, are deleted first, as a user starting a collection of their own does.
var ShaarliSeed = []ShaarliBookmark{
	{URL: "https://go.dev/doc/", Title: "Go documentation", Description: "Tutorials, the language spec and the standard library.", Tags: []string{"go", "docs"}},
	{URL: "https://www.postgresql.org/docs/current/", Title: "PostgreSQL manual", Description: "Reference for SQL commands, functions and server settings.", Tags: []string{"databases", "docs"}},
	{URL: "https://bread.example.org/sourdough-starter", Title: "Sourdough starter guide", Description: "Feed the starter twice a day with equal parts flour and water.", Tags: []string{"baking", "recipes"}},
	{URL: "https://bread.example.org/pizza-dough", Title: "Pizza dough ratios", Description: "Flour, water, salt and yeast for a thin crust.", Tags: []string{"baking"}},
	{URL: "https://wiki.example.com/old", Title: "Old team wiki", Description: "Moved to the new wiki in March.", Tags: []string{"work", "archive"}},
	{URL: "https://trails.example.org/grenoble", Title: "Hiking trails near Grenoble", Description: "Day hikes under four hours.", Tags: []string{"outdoors", "travel"}},
	{URL: "https://payroll.example.com/", Title: "Payroll portal", Description: "Payslips and expense claims.", Tags: []string{"work"}, Private: true},
}

// shaarliCode is what of the package's folder the copy holds; its documentation, which the
// pages link to, is linked rather than copied.
var shaarliCode = []string{".htaccess", "application", "assets", "inc", "plugins", "tpl", "autoload.php", "index.php", "init.php", "shaarli_version.php"}

// ShaarliInstalled says whether Debian's Shaarli, PHP's command line and the PHP extensions
// Shaarli needs are here (deploy/setup.sh heldout installs them).
func ShaarliInstalled() bool {
	if _, err := exec.LookPath("php"); err != nil || !exists(filepath.Join(shaarliDir, "index.php")) {
		return false
	}
	return exec.Command("php", "-r", `exit(extension_loaded("mbstring") && extension_loaded("intl") && extension_loaded("gd") && extension_loaded("curl") ? 0 : 1);`).Run() == nil
}

// StartShaarli copies Shaarli's code into a temporary folder with its own data, cache and
// session folders, serves it with php -S until the test ends, installs it through its
// first-run form (the user, the title "Team Links", no update checks), signs in, deletes
// the welcome bookmarks, turns thumbnails and the retrieval of a new link's description and
// tags off on its Configure page (both would be fetched from the linked site while a run
// types) and shaares ShaarliSeed through its own form. It skips the test when Shaarli or
// PHP is missing.
func StartShaarli(t testing.TB) *Shaarli {
	t.Helper()
	if !ShaarliInstalled() {
		t.Skip("Shaarli is not installed: run `deploy/setup.sh heldout` (it installs Debian's shaarli and the PHP extensions it needs)")
	}
	root := t.TempDir()
	s := &Shaarli{User: ShaarliUser, Password: ShaarliPassword, Dir: root, Data: filepath.Join(root, "data"), app: filepath.Join(root, "www")}
	cache, sessions := filepath.Join(root, "cache"), filepath.Join(root, "sessions")
	for _, d := range []string{s.app, s.Data, filepath.Join(cache, "tmp"), filepath.Join(cache, "cache"), filepath.Join(cache, "pagecache"), sessions} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var src []string
	for _, name := range shaarliCode {
		src = append(src, filepath.Join(shaarliDir, name))
	}
	if out, err := exec.Command("cp", append(append([]string{"-a"}, src...), s.app)...).CombinedOutput(); err != nil {
		t.Fatalf("shaarli: copy the code: %v\n%s", err, out)
	}
	if err := os.Symlink(filepath.Join(shaarliDir, "doc"), filepath.Join(s.app, "doc")); err != nil {
		t.Fatal(err)
	}
	shaarliRelocate(t, s.app, map[string]string{"/var/lib/shaarli/data": s.Data, "/var/cache/shaarli": cache, shaarliDir: s.app})
	port := FreePort(t)
	s.URL = "http://" + Addr(port)
	cmd := exec.Command("php", "-S", Addr(port), "-t", s.app, "-d", "session.save_path="+sessions,
		"-d", "display_errors=0", "-d", "log_errors=1")
	cmd.Dir = s.app
	// Several workers: a page's scripts ask for a new link's title while the page loads.
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=4", "TZ=UTC")
	p := start(t, "shaarli", cmd)
	waitHTTP(t, "shaarli", s.URL+"/shaarli_version.php", 30*time.Second, p)
	s.seed(t)
	return s
}

// shaarliRelocate points the copy at its own folders: each of Debian's paths (from) in the
// copy's PHP files is replaced by the copy's (to); no file may still name one.
func shaarliRelocate(t testing.TB, app string, paths map[string]string) {
	t.Helper()
	var pairs []string
	for from, to := range paths {
		pairs = append(pairs, from, to)
	}
	r := strings.NewReplacer(pairs...)
	for _, name := range []string{"index.php", "init.php", filepath.Join("application", "config", "ConfigManager.php")} {
		p := filepath.Join(app, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		write(t, p, r.Replace(string(b)))
	}
	filepath.WalkDir(app, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".php") {
			return nil
		}
		b, _ := os.ReadFile(p)
		for from := range paths {
			if strings.Contains(string(b), from) {
				t.Fatalf("shaarli: %s still names %s", p, from)
			}
		}
		return nil
	})
}

var shaarliItemID = regexp.MustCompile(`class="linklist-item[^"]*" data-id="(\d+)"`)

// seed installs the instance and writes its seed through Shaarli's own pages, then checks
// that the datastore holds exactly ShaarliSeed.
func (s *Shaarli) seed(t testing.TB) {
	t.Helper()
	b := s.Browser()
	// The first-run form: /install checks that sessions work (a round trip through
	// /install/session-test) before it shows the form.
	b.Get(t, "/install")
	if status, _, body := b.Submit(t, "/install", `id="installform"`, url.Values{"setlogin": {s.User}, "setpassword": {s.Password},
		"title": {ShaarliTitle}, "language": {"en"}, "continent": {"UTC"}, "city": {"UTC"}, "updateCheck": nil, "enableApi": nil}, "Save"); status != http.StatusFound {
		t.Fatalf("shaarli: the install form answered %d:\n%s", status, body)
	}
	b.SignIn(t)
	// Shaarli writes its welcome bookmarks at the first page a signed-in user opens.
	front := b.Get(t, "/")
	var ids []string
	for _, m := range shaarliItemID.FindAllStringSubmatch(front, -1) {
		ids = append(ids, m[1])
	}
	if len(ids) == 0 {
		t.Fatalf("shaarli: no welcome bookmarks on the front page:\n%s", front)
	}
	b.Get(t, "/admin/shaare/delete?"+url.Values{"id": {strings.Join(ids, " ")}, "token": {PageToken(front)}}.Encode())
	if status, _, body := b.Submit(t, "/admin/configure", `name="configform"`, url.Values{"enableThumbnails": {"none"}, "retrieveDescription": nil}, "save"); status != http.StatusFound {
		t.Fatalf("shaarli: the Configure form answered %d:\n%s", status, body)
	}
	for i := len(ShaarliSeed) - 1; i >= 0; i-- {
		bm := ShaarliSeed[i]
		fields := url.Values{"lf_title": {bm.Title}, "lf_description": {bm.Description}, "lf_tags": {strings.Join(bm.Tags, " ")}}
		if bm.Private {
			fields.Set("lf_private", "on")
		}
		if status, _, body := b.Submit(t, "/admin/shaare?"+url.Values{"post": {bm.URL}}.Encode(), `name="linkform"`, fields, "save_edit"); status != http.StatusFound {
			t.Fatalf("shaarli: saving %q answered %d:\n%s", bm.Title, status, body)
		}
	}
	got, err := s.Bookmarks()
	if err != nil {
		t.Fatalf("shaarli: %v", err)
	}
	if len(got) != len(ShaarliSeed) {
		t.Fatalf("shaarli: the seed stored %d bookmarks, not %d: %+v", len(got), len(ShaarliSeed), got)
	}
	for _, want := range ShaarliSeed {
		if bm, ok := ShaarliFind(got, want.URL); !ok || bm.Title != want.Title || bm.Description != want.Description ||
			!SameTags(bm.Tags, want.Tags) || bm.Private != want.Private {
			t.Fatalf("shaarli: the seed stored %+v for %+v", bm, want)
		}
	}
	if s.seedConf, err = s.Settings(); err != nil {
		t.Fatalf("shaarli: %v", err)
	}
}

// shaarliRead prints the datastore's bookmarks as JSON: argv is the copy of the code (whose
// classes the objects are) and the datastore. It reads the file as Shaarli's BookmarkIO
// does: a PHP comment around base64 of deflated, serialized Bookmark objects.
const shaarliRead = `[, $app, $store] = $argv;
require $app . '/autoload.php';
$data = file_get_contents($store);
$links = unserialize(gzinflate(base64_decode(substr($data, strlen('<?php /* '), -strlen(' */ ?>')))));
if (!$links instanceof Shaarli\Bookmark\BookmarkArray) { fwrite(STDERR, "not a datastore\n"); exit(1); }
$out = [];
foreach ($links as $b) {
	$out[] = ['id' => $b->getId(), 'shorturl' => $b->getShortUrl(), 'url' => $b->getUrl(), 'title' => $b->getTitle(),
		'description' => $b->getDescription(), 'tags' => $b->getTags(), 'private' => $b->isPrivate(), 'sticky' => $b->isSticky(),
		'created' => $b->getCreated() ? $b->getCreated()->format(DATE_ATOM) : '', 'updated' => $b->getUpdated() ? $b->getUpdated()->format(DATE_ATOM) : ''];
}
echo json_encode($out, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);`

// Bookmarks are the bookmarks datastore.php holds, as Shaarli keeps them (the newest
// first). An error says the file could not be read or decoded (it may be being written).
func (s *Shaarli) Bookmarks() ([]ShaarliBookmark, error) {
	out, err := exec.Command("php", "-r", shaarliRead, s.app, filepath.Join(s.Data, "datastore.php")).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("reading the datastore: %v: %s", err, strings.TrimSpace(string(out)))
	}
	var bms []ShaarliBookmark
	if err := json.Unmarshal(out, &bms); err != nil {
		return nil, fmt.Errorf("the datastore: %v: %s", err, out)
	}
	return bms, nil
}

// ShaarliFind is the bookmark of bms whose URL is u.
func ShaarliFind(bms []ShaarliBookmark, u string) (ShaarliBookmark, bool) {
	for _, bm := range bms {
		if bm.URL == u {
			return bm, true
		}
	}
	return ShaarliBookmark{}, false
}

// SameTags says whether two lists hold the same tags, in any order.
func SameTags(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// Settings are config.json.php's settings, flattened: "general.title" → "Team Links", lists
// and numbers as JSON writes them. Shaarli keeps the JSON inside a PHP comment.
func (s *Shaarli) Settings() (map[string]string, error) {
	b, err := os.ReadFile(filepath.Join(s.Data, "config.json.php"))
	if err != nil {
		return nil, err
	}
	text := strings.TrimSpace(string(b))
	text = strings.TrimSuffix(strings.TrimPrefix(text, "<?php /*"), "*/ ?>")
	var conf map[string]any
	if err := json.Unmarshal([]byte(text), &conf); err != nil {
		return nil, fmt.Errorf("config.json.php: %v", err)
	}
	out := map[string]string{}
	flatten("", conf, out)
	return out, nil
}

func flatten(prefix string, v any, out map[string]string) {
	if m, ok := v.(map[string]any); ok && (len(m) > 0 || prefix == "") {
		for k, x := range m {
			if prefix != "" {
				k = prefix + "." + k
			}
			flatten(k, x, out)
		}
		return
	}
	b, _ := json.Marshal(v)
	out[prefix] = string(b)
}

// SettingsChanged says which settings differ from the fresh instance's (besides those
// named in except), "" when none do.
func (s *Shaarli) SettingsChanged(except ...string) string {
	now, err := s.Settings()
	if err != nil {
		return err.Error()
	}
	var diff []string
	for k := range merged(now, s.seedConf) {
		if !slices.Contains(except, k) && now[k] != s.seedConf[k] {
			diff = append(diff, fmt.Sprintf("%s is %s, was %s", k, orNone(now[k]), orNone(s.seedConf[k])))
		}
	}
	sort.Strings(diff)
	return strings.Join(diff, "; ")
}

// pidStateDiff says how a state of processes got differs from want, key by key, "" when
// it holds exactly that; a want of newPid asks for a pid other than the seed's (a process
// restarted). Supervisor's and Monit's judges.
func pidStateDiff(got, want, seed map[string]string, newPid string) string {
	var diff []string
	for k := range merged(got, want) {
		g, inGot := got[k]
		v, inWant := want[k]
		switch {
		case !inGot:
			diff = append(diff, k+" is missing")
		case !inWant:
			diff = append(diff, fmt.Sprintf("%s is there (%s), unwanted", k, orNone(g)))
		case v == newPid && (g == "" || g == seed[k]):
			diff = append(diff, fmt.Sprintf("%s is %s, want a new one (the seed's was %s)", k, orNone(g), orNone(seed[k])))
		case v != newPid && g != v:
			diff = append(diff, fmt.Sprintf("%s is %q, want %q", k, g, v))
		}
	}
	sort.Strings(diff)
	return strings.Join(diff, "; ")
}

func merged(a, b map[string]string) map[string]bool {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return keys
}

func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}
