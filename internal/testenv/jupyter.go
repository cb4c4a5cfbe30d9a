package testenv

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Jupyter is a private Jupyter Notebook — Debian's jupyter-notebook 6.4.12, the classic
// notebook server: its pages are a file browser over one folder (new folders and files,
// rename, move, duplicate, delete), an editor of notebooks (cells of code, Markdown or raw
// text), an editor of text files and a Running tab of the notebooks whose kernels run, all
// kept as files in that folder. Each instance runs `jupyter notebook` as an ordinary process
// on a free loopback port over a temporary folder, with its configuration, data and runtime
// folders and a home of its own beside it, and a password (its hash in the instance's
// configuration) that its login page asks for. Debian's IPython kernel runs the notebooks
// opened. The seed (JupyterSeedFolders, JupyterSeedFiles, JupyterSeedNotebooks) is written
// as files before the server starts; the notebooks of JupyterSeedRunning are then opened
// through the server's REST API, as the editor does, so that their kernels run. The judges
// read the folder's files (each notebook's cells from its JSON) and the server's REST API
// (/api/sessions: the notebooks running).
type Jupyter struct {
	URL      string // the start page: the login page, e.g. http://127.0.0.1:PORT/login
	Base     string // the server's root, e.g. http://127.0.0.1:PORT
	Password string
	Dir      string // the folder the file browser shows
	root     string // the instance's folder: Dir, configuration, data, runtime and home
	seed     JupyterState
	mu       sync.Mutex
	api      *JupyterBrowser // the judges' own session, signed in on first use
}

// JupyterPassword is the login page's password in every instance: one grant on the worker
// serves each fresh instance of a test.
const JupyterPassword = "Notebook-Keeper-2024!"

// JupyterCell is a notebook's cell as the judges compare it: its type ("code", "markdown"
// or "raw") and its source. Outputs, execution counts, ids and metadata are left out.
type JupyterCell struct{ Type, Source string }

// The seed every instance starts from: two folders, a few text files and six notebooks,
// two of them running.
var (
	JupyterSeedFolders = []string{"archive", "data"}
	JupyterSeedFiles   = map[string]string{
		"data/sales.csv":           "region,quarter,amount\nNorth,Q3,1200\nSouth,Q3,950\nEast,Q3,1430\n",
		"archive/2023-summary.txt": "Summary of 2023: sales grew in every region but the South.\n",
		"todo.txt":                 "Buy printer paper\nCall the plumber\nSend the Q3 report to Maria\n",
		"shopping.txt":             "Milk\nBread\nCoffee beans\n",
		"old-notes.txt":            "Notes from the March kickoff meeting (superseded by the Q3 plan).\n",
	}
	JupyterSeedNotebooks = map[string][]JupyterCell{
		"analysis.ipynb": {{"markdown", "# Sales analysis"},
			{"code", "import csv\nrows = list(csv.DictReader(open('data/sales.csv')))"}, {"code", "len(rows)"}},
		"scratch.ipynb": {{"code", "x = 1 + 1"}, {"code", "print(x)"}},
		"budget.ipynb": {{"markdown", "# Monthly budget"}, {"code", "rent = 1200"}, {"code", "food = 450"},
			{"code", "travel = 300"}},
		"report.ipynb": {{"markdown", "# Q3 report"}, {"code", "import statistics"},
			{"code", "## Findings\nSales rose in every region."}, {"code", "statistics.mean([1200, 950, 1430])"}},
		"Untitled.ipynb":  {{"code", "import math\nmath.sqrt(2)"}},
		"Untitled1.ipynb": {{"code", "print('hello')"}},
	}
	// JupyterSeedRunning are the seed's notebooks whose kernels run (the Running tab's).
	JupyterSeedRunning = []string{"analysis.ipynb", "scratch.ipynb"}
)

const jupyterBin = "/usr/bin/jupyter-notebook"

// JupyterInstalled says whether Debian's jupyter-notebook and its IPython kernel are here
// (deploy/setup.sh heldout installs them).
func JupyterInstalled() bool {
	if !exists(jupyterBin) || !exists("/usr/bin/python3") {
		return false
	}
	return exec.Command("/usr/bin/python3", "-c", "import notebook, ipykernel, nbformat").Run() == nil
}

// StartJupyter writes the seed into a fresh folder, starts a notebook server over it until
// the test ends and opens the seed's running notebooks. It skips the test when Jupyter
// Notebook or its kernel is missing.
func StartJupyter(t testing.TB) *Jupyter {
	t.Helper()
	if !JupyterInstalled() {
		t.Skip("Jupyter Notebook is not installed: run `deploy/setup.sh heldout` (it installs Debian's jupyter-notebook and python3-ipykernel)")
	}
	root := t.TempDir()
	j := &Jupyter{Password: JupyterPassword, Dir: filepath.Join(root, "notebooks"), root: root}
	for _, d := range []string{"config", "data", "runtime", "home", "notebooks"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	j.writeSeed(t)
	j.writeConfig(t)
	port := FreePort(t)
	j.Base = "http://" + Addr(port)
	j.URL = j.Base + "/login"
	cmd := exec.Command(jupyterBin, "--no-browser", "--ip", "127.0.0.1", "--port", fmt.Sprint(port),
		"--notebook-dir", j.Dir, "--allow-root")
	cmd.Dir = j.Dir
	cmd.Env = j.env()
	// The kernels a server starts run in sessions of their own, out of the server's process
	// group: they are ended after it (cleanups run last first), found by their connection
	// files in the instance's runtime folder.
	t.Cleanup(func() { jupyterKillKernels(filepath.Join(root, "runtime")) })
	p := start(t, "jupyter", cmd)
	waitHTTP(t, "jupyter", j.URL, 60*time.Second, p)
	b := j.Browser()
	b.SignIn(t)
	for _, nb := range JupyterSeedRunning {
		b.OpenNotebook(t, nb)
	}
	j.seed = j.State(t)
	if why := jupyterSeedIsWhole(j.seed); why != "" {
		t.Fatalf("jupyter: the seed did not take: %s", why)
	}
	return j
}

// env is the server's environment: the caller's, but for Jupyter's and Python's own
// settings, with the instance's folders as its configuration, data, runtime and home.
func (j *Jupyter) env() []string {
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "JUPYTER") || strings.HasPrefix(name, "PYTHON") || strings.HasPrefix(name, "XDG_") ||
			name == "HOME" || name == "IPYTHONDIR" || name == "VIRTUAL_ENV" {
			continue
		}
		out = append(out, kv)
	}
	home := filepath.Join(j.root, "home")
	return append(out, "HOME="+home, "IPYTHONDIR="+filepath.Join(home, ".ipython"),
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "XDG_RUNTIME_DIR="+filepath.Join(j.root, "runtime"),
		"JUPYTER_CONFIG_DIR="+filepath.Join(j.root, "config"), "JUPYTER_DATA_DIR="+filepath.Join(j.root, "data"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(j.root, "runtime"), "PYTHONDONTWRITEBYTECODE=1", "TZ=UTC")
}

// writeConfig writes the instance's jupyter_notebook_config.json: the password's salted
// SHA-1 hash (a form the server checks passwords against), deletes that remove files
// rather than send them to a trash folder, and no kernel culled for being idle.
func (j *Jupyter) writeConfig(t testing.TB) {
	t.Helper()
	salt := hex.EncodeToString([]byte(filepath.Base(j.root) + "jupyter"))[:12]
	sum := sha1.Sum([]byte(j.Password + salt))
	conf := map[string]any{
		"NotebookApp":          map[string]any{"password": "sha1:" + salt + ":" + hex.EncodeToString(sum[:]), "open_browser": false},
		"FileContentsManager":  map[string]any{"delete_to_trash": false},
		"MappingKernelManager": map[string]any{"cull_idle_timeout": 0},
	}
	b, err := json.MarshalIndent(conf, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(j.root, "config", "jupyter_notebook_config.json"), string(b))
}

// writeSeed writes the seed's folders, text files and notebooks into the instance's folder.
func (j *Jupyter) writeSeed(t testing.TB) {
	t.Helper()
	for _, d := range JupyterSeedFolders {
		if err := os.MkdirAll(filepath.Join(j.Dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, text := range JupyterSeedFiles {
		write(t, filepath.Join(j.Dir, path), text)
	}
	for path, cells := range JupyterSeedNotebooks {
		write(t, filepath.Join(j.Dir, path), JupyterNotebookJSON(path, cells))
	}
}

// JupyterNotebookJSON is a notebook of cells as Jupyter writes it (nbformat 4.5: each cell
// with an id, its source as lines), its kernel Python 3.
func JupyterNotebookJSON(name string, cells []JupyterCell) string {
	var list []any
	for i, c := range cells {
		sum := sha1.Sum(fmt.Appendf(nil, "%s#%d", name, i))
		list = append(list, JupyterNewCell(c.Type, c.Source, hex.EncodeToString(sum[:4])))
	}
	nb := map[string]any{
		"cells": list,
		"metadata": map[string]any{
			"kernelspec":    map[string]any{"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
			"language_info": map[string]any{"name": "python"},
		},
		"nbformat": 4, "nbformat_minor": 5,
	}
	b, _ := json.MarshalIndent(nb, "", " ")
	return string(b) + "\n"
}

// JupyterNewCell is a fresh cell of type kind with source and id, as the notebook editor
// makes one: a code cell with no outputs and no execution count, its source as lines.
func JupyterNewCell(kind, source, id string) map[string]any {
	cell := map[string]any{"cell_type": kind, "id": id, "metadata": map[string]any{}, "source": jupyterLines(source)}
	if kind == "code" {
		cell["outputs"], cell["execution_count"] = []any{}, nil
	}
	return cell
}

// jupyterLines splits a source into lines as nbformat keeps it: each line but the last
// with its newline.
func jupyterLines(source string) []string {
	lines := strings.SplitAfter(source, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if lines == nil {
		lines = []string{}
	}
	return lines
}

// jupyterKillKernels ends each process whose command line names a file in the runtime
// folder: the kernels of an instance whose server is gone.
func jupyterKillKernels(runtime string) {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil || !strings.Contains(string(b), runtime+string(filepath.Separator)) {
			continue
		}
		var pid int
		if _, err := fmt.Sscanf(filepath.Base(dir), "%d", &pid); err == nil && pid != os.Getpid() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
