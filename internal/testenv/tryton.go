package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Tryton is a private Tryton — Debian's trytond 6.0, the server of the Tryton business
// suite, with its web client sao — with the party and product modules activated (and what
// they depend on: country, currency, company). Each instance has a folder of its own with
// its own trytond.conf, an SQLite database there made by trytond-admin (its admin's
// password read from a file, as TRYTONPASSFILE has it) and the server on a free loopback
// port serving sao's files from the package's folder and sao's JSON-RPC requests. The seed
// is written through that JSON-RPC, as sao writes it. The judges read the database back
// with sqlite3.
type Tryton struct {
	URL      string // the web client's page, e.g. http://127.0.0.1:PORT/ (it opens with its Login dialog)
	User     string // admin
	Password string
	Dir      string // the instance's folder: trytond.conf, the database's folder, the admin's password file
	Database string // the database's name (its file is Dir/db/NAME.sqlite)
	DB       string // the database's file
	seed     TrytonState
}

// TrytonPassword is admin's password in every instance: one grant on the worker serves
// each fresh instance of a test.
const TrytonPassword = "Ledger-Admin-2024!"

// TrytonSeedPassword is the password of the seed's other users.
const TrytonSeedPassword = "Violet-Kayak-3582"

// TrytonAdminName is admin's name in the seed (trytond-admin's own), the name its
// Preferences show.
const TrytonAdminName = "Administrator"

// TrytonParty is a party of the seed: its name, whether it is active, its addresses
// (street, postal code, city), its categories and its contact mechanisms (type:value).
type TrytonParty struct {
	Name       string
	Active     bool
	Addresses  [][3]string
	Categories []string
	Contacts   []string
}

// TrytonProduct is a product of the seed: its name, its list price (as the form shows it,
// two decimals) and whether it is a service rather than goods.
type TrytonProduct struct {
	Name      string
	ListPrice string
	Service   bool
}

// TrytonUser is a user of the seed: login, name, email and the groups it is in.
type TrytonUser struct {
	Login, Name, Email string
	Groups             []string
}

// The seed every instance starts from: four party categories, eight parties (pairs of
// similar names, so that a near miss is possible), six products and two users besides
// admin.
var (
	TrytonSeedCategories = []string{"Customer", "Supplier", "Wholesale", "Retail"}
	TrytonSeedParties    = []TrytonParty{
		{"Anderson Logistics", true, [][3]string{{"14 Harbor Road", "97201", "Portland"}}, []string{"Supplier"}, []string{"email:ops@anderson-logistics.example", "phone:+1 503 555 0142"}},
		{"Andersen Logistics", true, [][3]string{{"880 Blake Street", "80202", "Denver"}}, []string{"Supplier"}, []string{"email:info@andersen-logistics.example"}},
		{"Baker & Sons Catering", true, [][3]string{{"3 Mill Lane", "02108", "Boston"}}, []string{"Customer"}, []string{"phone:+1 617 555 0190"}},
		{"Baker Street Bakery", true, [][3]string{{"221 Baker Street", "10001", "New York"}}, []string{"Customer", "Retail"}, []string{"email:hello@bakerstreetbakery.example"}},
		{"Carter Office Supplies", true, [][3]string{{"57 Elm Avenue", "60601", "Chicago"}}, []string{"Supplier"}, []string{"email:sales@carter-office.example"}},
		{"Cartwright Office Supplies", true, [][3]string{{"12 Oak Court", "53202", "Milwaukee"}}, []string{"Supplier"}, []string{"email:orders@cartwright-office.example"}},
		{"Delgado Farms", true, [][3]string{{"Route 9", "93901", "Salinas"}}, []string{"Supplier", "Wholesale"}, []string{"phone:+1 831 555 0107"}},
		{"Evergreen Hotels", true, [][3]string{{"400 Pine Street", "98101", "Seattle"}}, []string{"Customer", "Wholesale"}, []string{"email:purchasing@evergreen-hotels.example"}},
	}
	TrytonSeedProducts = []TrytonProduct{
		{"Oak Desk", "420.00", false},
		{"Oak Desk Lamp", "65.00", false},
		{"Walnut Desk", "540.00", false},
		{"Office Chair", "189.00", false},
		{"Filing Cabinet", "230.00", false},
		{"Desk Assembly", "80.00", true},
	}
	TrytonSeedUsers = []TrytonUser{
		{"maria", "Maria Lopez", "maria@example.com", []string{"Party Administration"}},
		{"tom", "Tom Becker", "tom@example.com", []string{"Product Administration"}},
	}
)

// trytonModules are the modules each instance activates (with their dependencies).
var trytonModules = []string{"party", "product"}

const (
	trytonSao    = "/usr/share/tryton-sao/www"
	trytonModDir = "/usr/lib/python3/dist-packages/trytond/modules"
)

// TrytonInstalled says whether Debian's trytond with the party and product modules, sao's
// files and the sqlite3 CLI are here (deploy/setup.sh heldout installs them).
func TrytonInstalled() bool {
	if !exists(filepath.Join(trytonSao, "index.html")) || !exists(filepath.Join(trytonSao, "dist", "tryton-sao.min.js")) {
		return false
	}
	for _, m := range append([]string{"company", "currency", "country"}, trytonModules...) {
		if !exists(filepath.Join(trytonModDir, m, "tryton.cfg")) {
			return false
		}
	}
	for _, bin := range []string{"trytond", "trytond-admin", "sqlite3"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return true
}

// StartTryton makes a fresh database in a folder of its own (trytond-admin: the base
// modules, then party and product with their dependencies, admin's password from a file),
// serves it and sao with trytond on a free loopback port until the test ends and writes
// the seed through the JSON-RPC sao uses: the configuration wizard's steps marked done (as
// after a first sign-in), the party categories, the parties with their addresses and
// contact mechanisms, the products and the users. It skips the test when Tryton is
// missing.
func StartTryton(t testing.TB) *Tryton {
	t.Helper()
	if !TrytonInstalled() {
		t.Skip("Tryton is not installed: run `deploy/setup.sh heldout` (it installs Debian's tryton-server, tryton-sao and its party and product modules)")
	}
	root := t.TempDir()
	w := &Tryton{User: "admin", Password: TrytonPassword, Dir: root, Database: "tryton"}
	w.DB = filepath.Join(root, "db", w.Database+".sqlite")
	port := FreePort(t)
	w.URL = "http://" + Addr(port) + "/"
	w.writeConfig(t, port)
	w.initDatabase(t)
	cmd := exec.Command("trytond", "-c", filepath.Join(root, "trytond.conf"))
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "TZ=UTC")
	p := start(t, "tryton", cmd)
	waitHTTP(t, "tryton", w.URL+"dist/tryton-sao.min.js", 60*time.Second, p)
	b := w.Browser()
	b.SignIn(t)
	w.writeSeed(t, b)
	w.seed = w.State(t)
	if n := len(w.seed["party"]); n != len(TrytonSeedParties) {
		t.Fatalf("tryton: the seed stored %d parties, not %d: %v", n, len(TrytonSeedParties), w.seed["party"])
	}
	if n := len(w.seed["user"]); n != len(TrytonSeedUsers)+1 {
		t.Fatalf("tryton: the seed stored %d users, not %d: %v", n, len(TrytonSeedUsers)+1, w.seed["user"])
	}
	return w
}

// writeConfig writes the instance's trytond.conf: the SQLite database in its db folder,
// the web server on its port with sao's files as its root, and no e-mail sent.
func (w *Tryton) writeConfig(t testing.TB, port int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(w.Dir, "db"), 0o755); err != nil {
		t.Fatal(err)
	}
	conf := fmt.Sprintf(`[database]
uri = sqlite://
path = %s
list = True

[web]
listen = %s
root = %s

[email]
uri = smtp://127.0.0.1:9
from = tryton@example.com
`, filepath.Join(w.Dir, "db"), Addr(port), trytonSao)
	write(t, filepath.Join(w.Dir, "trytond.conf"), conf)
	write(t, filepath.Join(w.Dir, "admin-password"), w.Password+"\n")
	// trytond opens an SQLite database that is there: an empty file is a new database.
	write(t, w.DB, "")
}

// initDatabase makes the database with trytond-admin in one run: the base modules (with
// admin's password, read from a file, and e-mail), then the goals' modules and their
// dependencies.
func (w *Tryton) initDatabase(t testing.TB) {
	t.Helper()
	args := append([]string{"-c", filepath.Join(w.Dir, "trytond.conf"), "-d", w.Database, "--all",
		"--email", "admin@example.com", "--activate-dependencies", "-u"}, trytonModules...)
	cmd := exec.Command("trytond-admin", args...)
	cmd.Dir = w.Dir
	cmd.Env = append(os.Environ(), "TZ=UTC", "TRYTONPASSFILE="+filepath.Join(w.Dir, "admin-password"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tryton: trytond-admin %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
