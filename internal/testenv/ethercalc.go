package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// EthercalcVersion is the npm package deploy/setup.sh installs (ETHERCALC_VERSION there).
const EthercalcVersion = "0.20200127.0"

// Ethercalc is a private EtherCalc — npm's ethercalc 0.20200127.0, a multi-user web
// spreadsheet: each sheet has a page of its own at /NAME (a grid of lettered columns and
// numbered rows; a click picks a cell, typing and Enter set it, Delete clears it) with tabs
// above it: Edit (a toolbar of buttons titled "Undo", "Delete Cell Contents", "Align Left",
// "Insert Row Before", "Delete Row" and more), Format (the picked cell's settings, such as
// "Bold & Italics", saved with "Save to: A7" for the cell A7), Sort (the cells to sort, set
// from the picked range with "OK", a "Major Sort" column, Up or Down, and a button "Sort
// A2:C7" for that range) and others.
// Every edit is a SocialCalc command the page sends to the server, which applies it to the
// sheet it keeps and saves the sheet (a SocialCalc save) in Redis under snapshot-NAME.
// Each instance runs with Node.js on a free loopback port and a private redis-server
// (Debian's) on another, its folder in a temporary folder and nothing saved to disk;
// EtherCalc has no sign-in. The sheets of EthercalcSeed are put through its REST API
// (PUT /_/NAME with a SocialCalc save); the judges read each sheet back through that API
// (GET /_/NAME, the server's save of the sheet) and the list of sheets from Redis.
type Ethercalc struct {
	Base      string // the app, e.g. http://127.0.0.1:PORT (a sheet's page is Base/NAME)
	Dir       string // the temporary folder: redis/, data/
	RedisAddr string // the private Redis, 127.0.0.1:PORT
	Port      int
	proc      *process
	redis     *process
	seed      EthercalcState
}

// EthercalcSeedSheet is one sheet every instance starts with: its name (its page is /NAME)
// and its rows from row 1, each a list of cells from column A: "" for an empty cell, a
// number, a formula (starting with "="), or text; a text starting with "*" is bold (the
// star is left out).
type EthercalcSeedSheet struct {
	Name string
	Rows [][]string
}

// EthercalcSeed is a household's and a small firm's sheets: a monthly budget (with a typo,
// a note still to do and a total that leaves out its last row), the quarter's sales by
// representative, and a party's guest list, each with a bold header and a total.
var EthercalcSeed = []EthercalcSeedSheet{
	{Name: "household-budget", Rows: [][]string{
		{"*Category", "*Budget", "*Spent", "*Note"},
		{"Rent", "1200", "1200", ""},
		{"Groceries", "450", "512", "over"},
		{"Eletricity", "85", "79", ""},
		{"Internet", "40", "40", ""},
		{"Phone", "35", "35", "TBD"},
		{"Total", "=SUM(B2:B6)", "=SUM(C2:C5)", ""},
	}},
	{Name: "sales-q3", Rows: [][]string{
		{"*Rep", "*Region", "*Sales"},
		{"Ana Lima", "South", "18400"},
		{"Ben Ortiz", "North", "22950"},
		{"Chen Wei", "East", "15200"},
		{"Dana Kerr", "West", "27300"},
		{"Eli Moss", "North", "9800"},
		{"Fay Noor", "South", "20100"},
		{"", "", ""},
		{"Total", "", "=SUM(C2:C7)"},
	}},
	{Name: "party-guests", Rows: [][]string{
		{"*Name", "*Adults", "*Kids", "*Bringing"},
		{"Anna", "2", "1", "Salad"},
		{"Ben", "1", "0", "Drinks"},
		{"Chloe", "2", "2", "Cake"},
		{"David", "2", "0", "Bread"},
		{"Total", "=SUM(B2:B5)", "=SUM(C2:C5)", ""},
	}},
}

// EthercalcDir is where deploy/setup.sh installed EtherCalc (ETHERCALC_DIR there).
func EthercalcDir() string {
	if dir := os.Getenv("ETHERCALC_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "ethercalc-"+EthercalcVersion)
}

// ethercalcApp is the package's folder (app.js, its pages and its own node_modules).
func ethercalcApp() string { return filepath.Join(EthercalcDir(), "node_modules", "ethercalc") }

// EthercalcInstalled says whether EtherCalc, Node.js and Debian's redis-server are here
// (deploy/setup.sh heldout installs them).
func EthercalcInstalled() bool {
	_, errNode := exec.LookPath("node")
	_, errRedis := exec.LookPath("redis-server")
	return errNode == nil && errRedis == nil && exists(filepath.Join(ethercalcApp(), "app.js"))
}

// StartEthercalc starts a private Redis and EtherCalc before it, puts every sheet of
// EthercalcSeed through EtherCalc's REST API, opens each once (the server loads and
// recalculates it, and saves it back) and keeps what the sheets then hold as the seed the
// judges compare with. It skips the test when EtherCalc is missing.
func StartEthercalc(t testing.TB) *Ethercalc {
	t.Helper()
	if !EthercalcInstalled() {
		t.Skip("EtherCalc is not installed: run `deploy/setup.sh heldout` (it installs npm's ethercalc " + EthercalcVersion + " and Debian's redis-server)")
	}
	root := t.TempDir()
	redisPort, webPort := FreePort(t), FreePort(t)
	w := &Ethercalc{Base: "http://" + Addr(webPort), Dir: root, RedisAddr: Addr(redisPort), Port: webPort}
	w.redis = startRedis(t, filepath.Join(root, "redis"), redisPort)
	data := filepath.Join(root, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(ethercalcApp(), "app.js"), "--host", "127.0.0.1", "--port", strconv.Itoa(webPort))
	cmd.Dir = data
	// Only what it needs: its Redis is named by REDIS_HOST and REDIS_PORT, and the folder
	// it may write a file to by OPENSHIFT_DATA_DIR; PORT and the other variables it reads
	// must not change it.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "REDIS_HOST=127.0.0.1", "REDIS_PORT=" + strconv.Itoa(redisPort),
		"OPENSHIFT_DATA_DIR=" + data, "TZ=UTC", "LANG=C.UTF-8", "NODE_NO_WARNINGS=1"}
	w.proc = start(t, "ethercalc", cmd)
	waitHTTP(t, "ethercalc", w.Base+"/_start", 60*time.Second, w.proc)
	if why := Eventually(20*time.Second, func() string {
		if !strings.Contains(w.proc.out.String(), "Connected to Redis Server") {
			return "EtherCalc has not connected to its Redis yet"
		}
		return ""
	}); why != "" {
		t.Fatalf("ethercalc: %s:\n%s", why, w.proc.out.String())
	}
	w.putSeed(t)
	return w
}

// putSeed puts each seed sheet, waits until the server has loaded and saved it again (its
// save in Redis then holds the computed totals), and keeps the state as the seed.
func (w *Ethercalc) putSeed(t testing.TB) {
	t.Helper()
	b := w.Browser()
	for _, s := range EthercalcSeed {
		b.PutSave(t, s.Name, EthercalcSave(s.Rows))
		b.Save(t, s.Name)
	}
	if why := Eventually(20*time.Second, func() string {
		for _, s := range EthercalcSeed {
			if save := w.stored(t, s.Name); !strings.Contains(save, "part:edit") {
				return fmt.Sprintf("the sheet %s is not saved back by the server yet", s.Name)
			}
		}
		return ""
	}); why != "" {
		t.Fatalf("ethercalc: %s:\n%s", why, w.proc.out.String())
	}
	w.seed = w.State(t)
	for _, s := range EthercalcSeed {
		if got, want := w.seed[s.Name], ethercalcSeedSheet(s.Rows); got.Diff(want) != "" {
			t.Fatalf("ethercalc: the sheet %s is not the seed: %s", s.Name, got.Diff(want))
		}
	}
}

// stored is the sheet's save as Redis holds it ("" when there is none).
func (w *Ethercalc) stored(t testing.TB, name string) string {
	t.Helper()
	r, err := DialRedis(w.RedisAddr)
	if err != nil {
		t.Fatalf("ethercalc: its Redis: %v", err)
	}
	defer r.Close()
	v, err := r.Do("GET", "snapshot-"+name)
	if err != nil {
		t.Fatalf("ethercalc: reading snapshot-%s: %v", name, err)
	}
	s, _ := v.(string)
	return s
}

// Sheets are the names of the sheets Redis holds, sorted.
func (w *Ethercalc) Sheets(t testing.TB) []string {
	t.Helper()
	r, err := DialRedis(w.RedisAddr)
	if err != nil {
		t.Fatalf("ethercalc: its Redis: %v", err)
	}
	defer r.Close()
	keys, err := r.Strings("KEYS", "snapshot-*")
	if err != nil {
		t.Fatalf("ethercalc: listing the sheets: %v", err)
	}
	for i, k := range keys {
		keys[i] = strings.TrimPrefix(k, "snapshot-")
	}
	return sortedStrings(keys)
}

// URL is the page of the sheet name.
func (w *Ethercalc) URL(name string) string { return w.Base + "/" + name }

// Log is what EtherCalc printed so far.
func (w *Ethercalc) Log() string { return w.proc.out.String() }
