package testenv

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Calibre is a private calibre content server — Debian's calibre 6.13, an e-book library
// manager — serving one library of its own: its web interface browses and searches the
// library's books, edits their metadata (title, authors, tags, series, rating, publisher…)
// and deletes them, and the library keeps all of that in its SQLite file, metadata.db.
// Each instance has a folder of its own with the library (seeded through calibre's own
// library code, run by calibre-debug, before the server opens it), its configuration,
// cache and temporary folders, and a calibre-server on a free loopback port that lets
// connections from 127.0.0.1 change the library with no sign-in (calibre's own sign-in is
// HTTP auth, a browser prompt rather than a page, so it is off). The judges read
// metadata.db back with the sqlite3 CLI.
type Calibre struct {
	URL     string // the web interface, e.g. http://127.0.0.1:PORT (its home lists the library)
	Dir     string // the instance's folder
	Library string // the library's folder, whose metadata.db the judges read
	seed    CalibreState
}

// CalibreLibrary is the library's name as the web interface shows it (its folder's name),
// and CalibreLibraryID the id its requests name it by.
const (
	CalibreLibrary   = "Calibre Library"
	CalibreLibraryID = "Calibre_Library"
)

// CalibreBook is a book of the seed: no e-book file, only its metadata. Rating is calibre's
// own scale, twice the stars (8 is four stars); 0 is unrated.
type CalibreBook struct {
	Title       string   `json:"title"`
	Authors     []string `json:"authors"`
	Tags        []string `json:"tags"`
	Series      string   `json:"series,omitempty"`
	SeriesIndex float64  `json:"series_index,omitempty"`
	Publisher   string   `json:"publisher"`
	Rating      int      `json:"rating,omitempty"`
	Comments    string   `json:"comments,omitempty"`
}

// CalibreSeedBooks are the books every instance starts with, their ids 1 to 9 in this
// order: three novels by one author (two of a series), two histories by another, two
// gardening books, two mysteries, each next to a near twin.
var CalibreSeedBooks = []CalibreBook{
	{"The Quiet Harbour", []string{"Mara Lindqvist"}, []string{"Fiction", "Sea"}, "Harbour Trilogy", 1, "Northlight Press", 8,
		"<p>A lighthouse keeper's last winter on the northern coast.</p>"},
	{"The Harbour Lights", []string{"Mara Lindqvist"}, []string{"Fiction", "Sea"}, "Harbour Trilogy", 2, "Northlight Press", 6, ""},
	{"Winter Crossing", []string{"Mara Lindqvist"}, []string{"Fiction"}, "", 0, "Northlight Press", 0, ""},
	{"A Short History of Bridges", []string{"Daniel Okafor"}, []string{"Engineering", "Non-Fiction"}, "", 0, "Riverside Books", 10,
		"<p>From rope spans to suspension bridges.</p>"},
	{"A Short History of Tunnels", []string{"Daniel Okafor"}, []string{"Engineering", "Non-Fiction"}, "", 0, "Riverside Books", 0, ""},
	{"Gardening for Small Spaces", []string{"Priya Raman"}, []string{"Gardening", "Home"}, "", 0, "Greenleaf Publishing", 6, ""},
	{"Gardening Through the Seasons", []string{"Priya Raman"}, []string{"Gardening", "Home"}, "", 0, "Greenleaf Publishing", 0, ""},
	{"The Clockmaker's Daughter", []string{"Elena Voss"}, []string{"Fiction", "Mystery"}, "", 0, "Ashford & Lane", 8, ""},
	{"The Clockmaker's Apprentice", []string{"Elena Voss"}, []string{"Fiction", "Mystery"}, "", 0, "Ashford & Lane", 0, ""},
}

// calibreSeedScript adds the books of a JSON file to a new library with calibre's own
// library code (as calibredb add --empty does, with the publisher, rating and comments
// set in the same step), all in English.
const calibreSeedScript = `import json, sys
from calibre.library import db as open_library
from calibre.ebooks.metadata.book.base import Metadata
library = open_library(sys.argv[1]).new_api
with open(sys.argv[2]) as f:
    books = json.load(f)
for b in books:
    mi = Metadata(b['title'], b['authors'])
    mi.tags = b['tags']
    if b.get('series'):
        mi.series, mi.series_index = b['series'], b['series_index']
    mi.publisher = b['publisher']
    if b.get('rating'):
        mi.rating = b['rating']
    if b.get('comments'):
        mi.comments = b['comments']
    mi.languages = ['eng']
    library.create_book_entry(mi)
library.close()
`

// CalibreInstalled says whether Debian's calibre (its content server and calibre-debug)
// and the sqlite3 CLI are here (deploy/setup.sh heldout installs them).
func CalibreInstalled() bool {
	for _, bin := range []string{"calibre-server", "calibre-debug", "sqlite3"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exists("/usr/share/calibre/content-server/index-generated.html")
}

// StartCalibre makes a library with the seed's books in a temporary folder and serves it
// with calibre-server on a free loopback port until the test ends. It skips the test when
// calibre is missing.
func StartCalibre(t testing.TB) *Calibre {
	t.Helper()
	if !CalibreInstalled() {
		t.Skip("calibre is not installed: run `deploy/setup.sh heldout` (it installs Debian's calibre and sqlite3)")
	}
	root := t.TempDir()
	c := &Calibre{Dir: root, Library: filepath.Join(root, CalibreLibrary)}
	c.makeLibrary(t)
	port := FreePort(t)
	c.URL = "http://" + Addr(port)
	cmd := exec.Command("calibre-server", "--listen-on", "127.0.0.1", "--port", fmt.Sprint(port),
		"--enable-local-write", "--disable-use-bonjour", "--disable-auth", c.Library)
	cmd.Dir = root
	cmd.Env = c.env()
	p := start(t, "calibre", cmd)
	waitHTTP(t, "calibre", c.URL+"/favicon.png", 60*time.Second, p)
	c.seed = c.State(t)
	if n := len(c.seed["book"]); n != len(CalibreSeedBooks) {
		t.Fatalf("calibre: the library holds %d books, not %d: %v", n, len(CalibreSeedBooks), c.seed["book"])
	}
	return c
}

// env is the environment calibre's programs run in: configuration, cache and temporary
// folders of the instance's own, Qt with no display, and calibre's one-program-per-user
// guard off (it guards a library two programs share, and each instance has its own).
func (c *Calibre) env() []string {
	return append(os.Environ(), "CALIBRE_CONFIG_DIRECTORY="+filepath.Join(c.Dir, "config"),
		"CALIBRE_CACHE_DIRECTORY="+filepath.Join(c.Dir, "cache"), "CALIBRE_TEMP_DIR="+filepath.Join(c.Dir, "tmp"),
		"XDG_RUNTIME_DIR="+filepath.Join(c.Dir, "run"), "QT_QPA_PLATFORM=offscreen", "CALIBRE_NO_SI_DANGER_DANGER=1", "TZ=UTC")
}

// makeLibrary writes the seed's books and the script that adds them to the instance's
// folder and runs it with calibre-debug, which makes the library's folder and metadata.db.
func (c *Calibre) makeLibrary(t testing.TB) {
	t.Helper()
	for _, dir := range []string{c.Library, filepath.Join(c.Dir, "config"), filepath.Join(c.Dir, "cache"), filepath.Join(c.Dir, "tmp")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(c.Dir, "run"), 0o700); err != nil {
		t.Fatal(err)
	}
	books, err := json.Marshal(CalibreSeedBooks)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "seed.json"), string(books))
	write(t, filepath.Join(c.Dir, "seed.py"), calibreSeedScript)
	cmd := exec.Command("calibre-debug", "-e", filepath.Join(c.Dir, "seed.py"), "--", c.Library, filepath.Join(c.Dir, "seed.json"))
	cmd.Dir, cmd.Env = c.Dir, c.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("calibre: seed the library: %v\n%s", err, out)
	}
	if !exists(filepath.Join(c.Library, "metadata.db")) {
		t.Fatalf("calibre: seeding made no %s", filepath.Join(c.Library, "metadata.db"))
	}
}
