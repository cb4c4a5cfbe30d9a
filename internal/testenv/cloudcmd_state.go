package testenv

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// CloudcmdState is what the judges compare of a Cloud Commander: every file and folder
// under its root, by its path there with slashes ("notes/todo.txt"); a folder's path ends
// with a slash and its value is "", a file's value is its content.
type CloudcmdState map[string]string

// State reads the root folder now, without the app.
func (w *Cloudcmd) State(t testing.TB) CloudcmdState {
	t.Helper()
	s := CloudcmdState{}
	err := filepath.WalkDir(w.Root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(w.Root, path)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			s[rel+"/"] = ""
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		s[rel] = string(data)
		return nil
	})
	if err != nil {
		t.Fatalf("cloudcmd: reading the root %s: %v", w.Root, err)
	}
	return s
}

// Seed is the state the instance started with (a copy: a judge may change it into the
// state it wants).
func (w *Cloudcmd) Seed() CloudcmdState { return maps.Clone(w.seed) }

// Diff says how s differs from want ("" when it does not): each file or folder missing,
// extra or with another content, by path.
func (s CloudcmdState) Diff(want CloudcmdState) string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(want)) {
		if _, ok := s[p]; !ok {
			out = append(out, fmt.Sprintf("%s %q is missing", cloudcmdKind(p), p))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(s)) {
		wv, ok := want[p]
		switch {
		case !ok && strings.HasSuffix(p, "/"):
			out = append(out, fmt.Sprintf("an extra folder %q", p))
		case !ok:
			out = append(out, fmt.Sprintf("an extra file %q (%s)", p, cloudcmdShort(s[p])))
		case wv != s[p]:
			out = append(out, fmt.Sprintf("the file %q holds %s, not %s", p, cloudcmdShort(s[p]), cloudcmdShort(wv)))
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the root now differs from want ("" when it does not).
func (w *Cloudcmd) Differs(t testing.TB, want CloudcmdState) string {
	t.Helper()
	return w.State(t).Diff(want)
}

// CloudcmdLines is the lines of a file's content that are not blank, each trimmed of the
// spaces around it: how a judge reads a text file a person edited (an editor may add or
// drop a blank line or a final newline).
func CloudcmdLines(content string) []string {
	var lines []string
	for _, l := range strings.Split(content, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// cloudcmdKind names what a path is: a folder (ending with a slash) or a file.
func cloudcmdKind(path string) string {
	if strings.HasSuffix(path, "/") {
		return "the folder"
	}
	return "the file"
}

// cloudcmdShort is a file's content quoted, cut to 80 bytes.
func cloudcmdShort(content string) string {
	if len(content) > 80 {
		return fmt.Sprintf("%q…", content[:80])
	}
	return fmt.Sprintf("%q", content)
}
