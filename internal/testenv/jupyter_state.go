package testenv

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// JupyterState is what the judges compare of a Jupyter: each entry of its folder by its path
// there (folders, text files and notebooks, hidden ones such as .ipynb_checkpoints left
// out), and the notebooks running as its REST API lists them.
type JupyterState struct {
	Entries map[string]JupyterEntry
	Running []string // the paths of the notebooks /api/sessions lists, sorted
	Down    string   // why /api/sessions could not be read ("" when it was)
}

// JupyterEntry is one entry of the folder: a folder, a file (its text) or a notebook (its
// cells).
type JupyterEntry struct {
	Kind  string // "folder", "file" or "notebook"
	Text  string
	Cells []JupyterCell
}

// String is the entry on one line, for a judge's message.
func (e JupyterEntry) String() string {
	switch e.Kind {
	case "file":
		return fmt.Sprintf("a file %q", e.Text)
	case "notebook":
		return fmt.Sprintf("a notebook %q", e.Cells)
	}
	return "a folder"
}

// State reads the folder and the server's sessions now.
func (j *Jupyter) State(t testing.TB) JupyterState {
	t.Helper()
	s := JupyterState{Entries: map[string]JupyterEntry{}}
	err := filepath.WalkDir(j.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(j.Dir, path)
		if rel == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			s.Entries[rel] = JupyterEntry{Kind: "folder"}
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(rel, ".ipynb") {
			s.Entries[rel] = jupyterNotebookEntry(b)
		} else {
			s.Entries[rel] = JupyterEntry{Kind: "file", Text: string(b)}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("jupyter: read %s: %v", j.Dir, err)
	}
	s.Running, s.Down = j.running(t)
	return s
}

// jupyterNotebookEntry is a notebook file's entry: its cells, or its text when it is not a
// notebook's JSON.
func jupyterNotebookEntry(b []byte) JupyterEntry {
	var nb struct {
		Cells []struct {
			Type   string          `json:"cell_type"`
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		return JupyterEntry{Kind: "file", Text: string(b)}
	}
	e := JupyterEntry{Kind: "notebook", Cells: []JupyterCell{}}
	for _, c := range nb.Cells {
		var one string
		var lines []string
		if json.Unmarshal(c.Source, &one) != nil {
			_ = json.Unmarshal(c.Source, &lines)
			one = strings.Join(lines, "")
		}
		e.Cells = append(e.Cells, JupyterCell{Type: c.Type, Source: one})
	}
	return e
}

// running lists the notebooks the server's sessions are of, through the judges' own signed
// in session; when the server does not answer, it says why instead.
func (j *Jupyter) running(t testing.TB) ([]string, string) {
	t.Helper()
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.api == nil {
		b := j.Browser()
		if why := b.signIn(); why != "" {
			return nil, why
		}
		j.api = b
	}
	var sessions []struct {
		Path string `json:"path"`
	}
	if status, body, err := j.api.call("GET", "/api/sessions", nil); err != nil || status != 200 {
		return nil, fmt.Sprintf("/api/sessions answered %d %v: %.200s", status, err, body)
	} else if err := json.Unmarshal(body, &sessions); err != nil {
		return nil, fmt.Sprintf("/api/sessions answered %.200s: %v", body, err)
	}
	var paths []string
	for _, s := range sessions {
		paths = append(paths, s.Path)
	}
	slices.Sort(paths)
	return paths, ""
}

// Seed is the state the instance started with (a copy the caller may change).
func (j *Jupyter) Seed() JupyterState { return j.seed.Clone() }

// Clone is a deep copy of the state.
func (s JupyterState) Clone() JupyterState {
	c := JupyterState{Entries: map[string]JupyterEntry{}, Running: slices.Clone(s.Running), Down: s.Down}
	for k, e := range s.Entries {
		e.Cells = slices.Clone(e.Cells)
		c.Entries[k] = e
	}
	return c
}

// Diff says how the folder in s differs from the folder in want ("" when it does not): each
// entry missing, extra or different. The notebooks running are compared by Stopped.
func (s JupyterState) Diff(want JupyterState) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(want.Entries)) {
		if _, ok := s.Entries[k]; !ok {
			out = append(out, fmt.Sprintf("%s is missing", k))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Entries)) {
		got := s.Entries[k]
		w, ok := want.Entries[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("an extra %s: %s", k, got))
		case got.String() != w.String():
			out = append(out, fmt.Sprintf("%s is %s, not %s", k, got, w))
		}
	}
	return strings.Join(out, "; ")
}

// Stopped says which of the notebooks want lists as running s does not list ("" when it
// lists them all, or why it could not tell). Notebooks s lists besides are no matter: the
// editor starts a notebook's kernel when it opens it.
func (s JupyterState) Stopped(want []string) string {
	if s.Down != "" {
		return "the server's sessions could not be read: " + s.Down
	}
	var out []string
	for _, p := range want {
		if !slices.Contains(s.Running, p) {
			out = append(out, p+" is not running")
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the instance differs from want ("" when its folder holds exactly want's
// and each notebook want lists as running still runs).
func (j *Jupyter) Differs(t testing.TB, want JupyterState) string {
	t.Helper()
	got := j.State(t)
	var out []string
	for _, why := range []string{got.Diff(want), got.Stopped(want.Running)} {
		if why != "" {
			out = append(out, why)
		}
	}
	return strings.Join(out, "; ")
}

// jupyterSeedIsWhole says what of the seed a fresh state lacks ("" when nothing).
func jupyterSeedIsWhole(s JupyterState) string {
	want := JupyterState{Entries: map[string]JupyterEntry{}, Running: JupyterSeedRunning}
	for _, d := range JupyterSeedFolders {
		want.Entries[d] = JupyterEntry{Kind: "folder"}
	}
	for p, text := range JupyterSeedFiles {
		want.Entries[p] = JupyterEntry{Kind: "file", Text: text}
	}
	for p, cells := range JupyterSeedNotebooks {
		want.Entries[p] = JupyterEntry{Kind: "notebook", Cells: cells}
	}
	if why := s.Diff(want) + s.Stopped(want.Running); why != "" {
		return why
	}
	if len(s.Running) != len(JupyterSeedRunning) {
		return fmt.Sprintf("running %v, not %v", s.Running, JupyterSeedRunning)
	}
	return ""
}
