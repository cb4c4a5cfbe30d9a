package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Gitit is a private Gitit — Debian's gitit 0.15, a wiki written in Haskell whose pages
// (and uploaded files) live in a git repository, one commit per change, with its accounts
// in a users file of its own. Each instance has a folder of its own with its own
// configuration file (gitit --print-default-config with this instance's paths, a free
// loopback port, editing only after signing in, no access question, no reCAPTCHA, no
// mail), its own repository, static, templates and cache folders and its own users file.
// Its accounts are made through its own register form, and its pages, their revisions and
// an upload through its own edit and upload forms. The judges read the repository back
// with git and the users file as Gitit writes it.
type Gitit struct {
	URL      string // the wiki's root, e.g. http://127.0.0.1:PORT (its Front Page)
	User     string // nora, who signs in
	Password string
	Dir      string // the instance's folder: the configuration file, the log, the folders below
	Repo     string // the wiki's git repository (its working tree)
	Users    string // the users file
	seed     GititState
}

// GititPassword is nora's password in every instance: one grant on the worker serves each
// fresh instance of a test.
const GititPassword = "Wiki-Editor-2024!"

// GititSeedPassword is the password of the seed's other user, ben.
const GititSeedPassword = "Ben-Wiki-Pass-9"

// GititSeedUsers are the accounts every instance starts with: name, email, password.
var GititSeedUsers = [][3]string{
	{"nora", "nora@example.org", GititPassword},
	{"ben", "ben@example.org", GititSeedPassword},
}

// GititEdit is one change the seed makes through the edit form: the page, who saves it,
// its whole text and its description of changes.
type GititEdit struct{ Page, Author, Text, Summary string }

// GititSeedEdits are the seed's changes in order, after which the Front Page links every
// page (and the wanted page Visitor Wi-Fi, which does not exist yet). Coffee Machine has
// three revisions, the last of which wiped its instructions out.
var GititSeedEdits = []GititEdit{
	{"Holiday Schedule 2024", "ben", "---\ncategories: HR\n...\n\nThe office is closed on these days in 2024:\n\n* 1 January\n* 29 March\n* 25 December\n", "Holidays for 2024"},
	{"Holiday Schedule 2025", "ben", "---\ncategories: HR\n...\n\nThe office is closed on these days in 2025:\n\n* 1 January\n* 18 April\n* 25 December\n", "Holidays for 2025"},
	{"Onboarding Checklist", "nora", "Before a new colleague's first day:\n\n1. Order a laptop\n2. Create the accounts\n3. Book a desk\n", "Checklist for new colleagues"},
	{"Old Onboarding Checklist", "ben", "This checklist is out of date.\n\n1. Order a desktop computer\n2. Print the handbook\n", "Old checklist"},
	{"Travel Policy", "nora", "---\ncategories: HR\n...\n\nBook trains where you can and flights only for trips over 600 km.\n", "Travel rules"},
	{"Travel Expenses", "nora", "---\ncategories: Finance\n...\n\nHand in receipts within 30 days of your trip.\n", "How to claim expenses"},
	{"Coffee Machine", "ben", "Descale the coffee machine every Friday.\n", "Cleaning instructions"},
	{"Coffee Machine", "nora", "Descale the coffee machine every Friday.\n\nEmpty the drip tray every evening.\n", "Drip tray"},
	{"Coffee Machine", "ben", "Nobody needs to clean the coffee machine.\n", "Shortened the page"},
	{"Building Access", "nora", "Visitors sign in at the front desk.\n\nThe badge reader at the side entrance opens with the door code 4711.\n", "Side entrance"},
	{"Server Room", "ben", "Only IT staff may enter the server room. Its door code is 4711.\n", "Server room rules"},
	{"Visitor Parking", "nora", "Visitors park in the spaces marked V behind the building.\n", "Parking for visitors"},
	{"Front Page", "nora", gititFrontPage, "Links to the team's pages"},
}

// GititSeedUpload is the file the seed uploads (as ben): its name on the wiki, its text and
// its description.
var GititSeedUpload = [3]string{"holiday-calendar-2025.csv", "date,holiday\n2025-01-01,New Year\n2025-04-18,Good Friday\n2025-12-25,Christmas\n", "Holiday calendar"}

const gititFrontPage = `Welcome to the team wiki. Our pages:

* [Holiday Schedule 2024]()
* [Holiday Schedule 2025]()
* [Onboarding Checklist]()
* [Old Onboarding Checklist]()
* [Travel Policy]()
* [Travel Expenses]()
* [Coffee Machine]()
* [Building Access]()
* [Server Room]()
* [Visitor Parking]()
* [Visitor Wi-Fi]()
`

// GititInstalled says whether Debian's gitit and git are here (deploy/setup.sh heldout
// installs them).
func GititInstalled() bool {
	for _, bin := range []string{"gitit", "git"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return true
}

// gititSettings are the default configuration's settings this instance changes: the key
// (at the start of its line), its value.
func (w *Gitit) gititSettings(port string) map[string]string {
	return map[string]string{
		"address":                 "127.0.0.1",
		"port":                    port,
		"wiki-title":              "Team Wiki",
		"repository-type":         "Git",
		"repository-path":         w.Repo,
		"require-authentication":  "modify",
		"authentication-method":   "form",
		"user-file":               w.Users,
		"static-dir":              filepath.Join(w.Dir, "static"),
		"templates-dir":           filepath.Join(w.Dir, "templates"),
		"log-file":                filepath.Join(w.Dir, "gitit.log"),
		"cache-dir":               filepath.Join(w.Dir, "cache"),
		"math":                    "raw",
		"use-recaptcha":           "no",
		"access-question":         "",
		"access-question-answers": "",
		"disable-registration":    "no",
		"mail-command":            "true %s",
		"use-feed":                "no",
		"max-upload-size":         "1M",
	}
}

var gititSetting = regexp.MustCompile(`^([a-z-]+):`)

// writeConfig writes the instance's configuration file: Gitit's default configuration with
// gititSettings in place of its values.
func (w *Gitit) writeConfig(t testing.TB, port string) string {
	t.Helper()
	out, err := exec.Command("gitit", "--print-default-config").Output()
	if err != nil {
		t.Fatalf("gitit: print the default configuration: %v", err)
	}
	settings := w.gititSettings(port)
	seen := map[string]bool{}
	var lines []string
	for _, line := range strings.Split(string(out), "\n") {
		if m := gititSetting.FindStringSubmatch(line); m != nil {
			if v, ok := settings[m[1]]; ok {
				line, seen[m[1]] = m[1]+": "+v, true
			}
		}
		lines = append(lines, line)
	}
	for k := range settings {
		if !seen[k] {
			t.Fatalf("gitit: the default configuration has no setting %s", k)
		}
	}
	path := filepath.Join(w.Dir, "gitit.conf")
	write(t, path, strings.Join(lines, "\n"))
	return path
}

// StartGitit writes a fresh instance's configuration, starts Gitit on a free loopback port
// until the test ends (it makes its repository with its Front Page and Help on the way),
// registers the seed's accounts through its register form and makes the seed's pages,
// revisions and upload through its edit and upload forms. It skips the test when Gitit or
// git is missing.
func StartGitit(t testing.TB) *Gitit {
	t.Helper()
	if !GititInstalled() {
		t.Skip("Gitit is not installed: run `deploy/setup.sh heldout` (it installs Debian's gitit)")
	}
	root := t.TempDir()
	w := &Gitit{User: GititSeedUsers[0][0], Password: GititPassword, Dir: root,
		Repo: filepath.Join(root, "wikidata"), Users: filepath.Join(root, "gitit-users")}
	port := FreePort(t)
	w.URL = "http://" + Addr(port)
	conf := w.writeConfig(t, fmt.Sprint(port))
	// Gitit commits with each change's author; the committer is the instance's own.
	write(t, filepath.Join(root, "gitconfig"), "[user]\n\tname = Gitit\n\temail = gitit@localhost\n")
	cmd := exec.Command("gitit", "-f", conf)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+root, "TZ=UTC", "LANG=C.UTF-8",
		"GIT_CONFIG_GLOBAL="+filepath.Join(root, "gitconfig"), "GIT_CONFIG_NOSYSTEM=1")
	p := start(t, "gitit", cmd)
	waitHTTP(t, "gitit", w.URL+"/css/custom.css", 60*time.Second, p)
	w.seedWiki(t)
	w.seed = w.State(t)
	if n := len(w.seed["user"]); n != len(GititSeedUsers) {
		t.Fatalf("gitit: the seed stored %d accounts, not %d: %v", n, len(GititSeedUsers), w.seed["user"])
	}
	return w
}

// seedWiki registers the seed's accounts and makes its changes, each as its author signed
// in through the login form.
func (w *Gitit) seedWiki(t testing.TB) {
	t.Helper()
	browsers := map[string]*GititBrowser{}
	for _, u := range GititSeedUsers {
		b := w.Browser()
		b.Register(t, u[0], u[1], u[2])
		b = w.Browser()
		b.SignInAs(t, u[0], u[2])
		browsers[u[0]] = b
	}
	for _, e := range GititSeedEdits {
		browsers[e.Author].SavePage(t, e.Page, e.Text, e.Summary)
	}
	u := GititSeedUpload
	browsers["ben"].Upload(t, u[0], u[1], u[2])
}
