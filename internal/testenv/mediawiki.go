package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// MediaWikiPage is a page a fresh wiki starts with: its title as a reader sees it ("Talk:"
// before a discussion page's) and its wikitext.
type MediaWikiPage struct{ Title, Text string }

// MediaWikiSeed are the pages every fresh wiki holds besides its Main Page: a lunch menu
// with a discussion page, a recipe, a meeting page and an old draft.
var MediaWikiSeed = []MediaWikiPage{
	{"Lunch menu", "Soup on Monday, salad on Tuesday."},
	{"Talk:Lunch menu", "== Fridays ==\nFish on Fridays, please. --Bob"},
	{"Pancakes", "Flour, eggs and milk."},
	{"Team meeting", "We meet on Mondays at ten."},
	{"Old draft", "This draft is no longer needed."},
}

// MediaWiki is a private wiki installed from Debian's MediaWiki into a temporary folder:
// its SQLite database, settings and caches are its own, its code is the package's, served
// by PHP's built-in server. A real application, written by nobody here; what a run did is
// read back from the wiki's own database.
type MediaWiki struct {
	URL      string // the wiki's root, e.g. http://127.0.0.1:PORT; pages are URL/index.php/Title
	User     string // the administrator (a sysop and bureaucrat)
	Password string
	Dir      string // settings, data (the SQLite files), cache
	DB       string // the wiki's database file
	php      string
	conf     string
	seeded   map[string]string // title → latest revision, as seeded
}

// The administrator every fresh wiki has: a sysop and bureaucrat, who signs in with the
// password a worker grants to runs.
const (
	MediaWikiUser     = "Admin"
	MediaWikiPassword = "Wiki-admin-pass-7"
)

// mediawikiDir is where Debian installs MediaWiki's code.
const mediawikiDir = "/usr/share/mediawiki"

// MediaWikiInstalled says whether Debian's MediaWiki, PHP with its SQLite driver and the
// sqlite3 CLI are here (deploy/setup.sh heldout installs them).
func MediaWikiInstalled() bool {
	if !exists(filepath.Join(mediawikiDir, "maintenance", "install.php")) {
		return false
	}
	for _, bin := range []string{"php", "sqlite3"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `exit(extension_loaded("pdo_sqlite") && extension_loaded("mbstring") && extension_loaded("intl") ? 0 : 1);`).Run() == nil
}

// StartMediaWiki installs a fresh wiki into a temporary folder (install.php with SQLite,
// an administrator, the legacy Vector skin, no extensions), lets only signed-in users
// edit, saves MediaWikiSeed into it and serves it with php -S on a free port. Nothing of
// the machine's is written: the settings file is passed in MW_CONFIG_FILE. It skips the
// test when MediaWiki, PHP's SQLite driver or sqlite3 is missing.
func StartMediaWiki(t testing.TB) *MediaWiki {
	t.Helper()
	if !MediaWikiInstalled() {
		t.Skip("MediaWiki, PHP's SQLite driver or sqlite3 is not installed: run `deploy/setup.sh heldout` (it installs Debian's mediawiki, php-sqlite3 and sqlite3)")
	}
	php, _ := exec.LookPath("php")
	dir := t.TempDir()
	w := &MediaWiki{User: MediaWikiUser, Password: MediaWikiPassword, Dir: dir, php: php,
		conf: filepath.Join(dir, "LocalSettings.php"), DB: filepath.Join(dir, "data", "wiki.sqlite")}
	for _, d := range []string{"data", "cache", "images", "tmp", "seed"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	port := FreePort(t)
	w.URL = "http://" + Addr(port)
	w.maintenance(t, "install.php", "--dbtype", "sqlite", "--dbpath", filepath.Join(dir, "data"), "--dbname", "wiki",
		"--confpath", dir, "--server", w.URL, "--scriptpath", "", "--lang", "en", "--skins", "Vector",
		"--pass", w.Password, "Test Wiki", w.User)
	settings, err := os.ReadFile(w.conf)
	if err != nil {
		t.Fatalf("read the installed settings: %v", err)
	}
	write(t, w.conf, string(settings)+fmt.Sprintf(`
# The test's own: writable folders in the temporary one, no mail, and only signed-in users edit.
$wgCacheDirectory = %q;
$wgUploadDirectory = %q;
$wgTmpDirectory = %q;
$wgEnableEmail = false;
$wgGroupPermissions['*']['edit'] = false;
$wgGroupPermissions['*']['createaccount'] = false;
`, filepath.Join(dir, "cache"), filepath.Join(dir, "images"), filepath.Join(dir, "tmp")))
	w.seed(t)
	cmd := exec.Command(php, "-S", Addr(port), "-t", mediawikiDir)
	cmd.Dir = mediawikiDir
	cmd.Env = append(os.Environ(), "MW_CONFIG_FILE="+w.conf)
	p := start(t, "mediawiki", cmd)
	waitHTTP(t, "mediawiki", w.URL+"/index.php/Main_Page", 30*time.Second, p)
	return w
}

// seed saves MediaWikiSeed with the wiki's own import script, in the recent changes, and
// remembers each page's latest revision.
func (w *MediaWiki) seed(t testing.TB) {
	t.Helper()
	args := []string{"--user", w.User, "--summary", "Seed", "--rc"}
	for i, p := range MediaWikiSeed {
		// The script takes a page's title from its file's name; a folder per page keeps
		// the names apart.
		path := filepath.Join(w.Dir, "seed", strconv.Itoa(i), p.Title+".txt")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, path, p.Text)
		args = append(args, path)
	}
	w.maintenance(t, "importTextFiles.php", args...)
	w.seeded = w.Pages(t)
	if len(w.seeded) != len(MediaWikiSeed)+1 {
		t.Fatalf("the seeded wiki holds %v", w.seeded)
	}
}

// maintenance runs one of MediaWiki's maintenance scripts on this wiki.
func (w *MediaWiki) maintenance(t testing.TB, script string, args ...string) {
	t.Helper()
	cmd := exec.Command(w.php, append([]string{filepath.Join(mediawikiDir, "maintenance", script)}, args...)...)
	cmd.Dir = mediawikiDir
	cmd.Env = append(os.Environ(), "MW_CONFIG_FILE="+w.conf)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

// ChangedPages lists, sorted, the pages created, deleted or edited (a new latest revision)
// since the wiki was seeded: what a goal changed, to be compared with what it should have.
func (w *MediaWiki) ChangedPages(t testing.TB) []string {
	t.Helper()
	now := w.Pages(t)
	var out []string
	for title, rev := range now {
		if w.seeded[title] != rev {
			out = append(out, title)
		}
	}
	for title := range w.seeded {
		if _, ok := now[title]; !ok {
			out = append(out, title)
		}
	}
	sort.Strings(out)
	return out
}

// mwNamespaces are the namespaces the goals touch, by number, as titles write them.
var mwNamespaces = map[int]string{0: "", 1: "Talk:", 2: "User:", 3: "User talk:", 4: "Test Wiki:", 14: "Category:"}

// titleOf is a page's title as a reader sees it, from its namespace and database key.
func titleOf(ns int, key string) string {
	prefix, ok := mwNamespaces[ns]
	if !ok {
		prefix = fmt.Sprintf("ns%d:", ns)
	}
	return prefix + strings.ReplaceAll(key, "_", " ")
}

// keyOf is the namespace and database key of a title as a reader writes it.
func keyOf(title string) (int, string) {
	ns := 0
	for n, prefix := range mwNamespaces {
		if prefix != "" && strings.HasPrefix(title, prefix) {
			ns, title = n, strings.TrimPrefix(title, prefix)
		}
	}
	return ns, strings.ReplaceAll(strings.TrimSpace(title), " ", "_")
}
