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

	"gopkg.in/yaml.v3"
)

// DecapState is what the judges compare of a Decap CMS site: every file of its repository
// (but git's own), by its path there, as its fields:
//
//	content/posts/SLUG.md      the front matter's fields (title, date, tags as "a, b",
//	                           draft) and body (the Markdown after it, trimmed)
//	content/authors/SLUG.yml   the YAML's fields (name, email, bio)
//	data/settings.yml          the YAML's fields (site_title, tagline, description)
//	other files                content: the file as it is
//	(git)                      uncommitted: git status --porcelain (decap-server commits
//	                           each change it makes, so this is empty)
//
// Fields are compared by their values, not by how YAML spells them.
type DecapState map[string]map[string]string

// decapGitKey is the state's entry for git's status.
const decapGitKey = "(git)"

// Clone is a deep copy of the state.
func (s DecapState) Clone() DecapState {
	c := DecapState{}
	for path, fields := range s {
		c[path] = maps.Clone(fields)
	}
	return c
}

// State reads the repository's files and git's status now.
func (w *Decap) State(t testing.TB) DecapState {
	t.Helper()
	s, err := w.state()
	if err != nil {
		t.Fatalf("decap: read the repository: %v", err)
	}
	return s
}

// state reads the repository's files and git's status.
func (w *Decap) state() (DecapState, error) {
	s := DecapState{}
	err := filepath.WalkDir(w.Repo, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if e.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(w.Repo, path)
		rel = filepath.ToSlash(rel)
		fields, err := DecapFields(rel, string(data))
		if err != nil {
			return fmt.Errorf("%s: %v", rel, err)
		}
		s[rel] = fields
		return nil
	})
	if err != nil {
		return nil, err
	}
	status, err := decapGitOutput(w.Repo, "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		return nil, fmt.Errorf("git status: %v: %s", err, status)
	}
	s[decapGitKey] = map[string]string{"uncommitted": strings.TrimSpace(status)}
	return s, nil
}

// DecapFields reads one file of the repository as its fields: a Markdown file's front
// matter and body, a YAML file's keys, any other file's content.
func DecapFields(path, text string) (map[string]string, error) {
	switch {
	case strings.HasSuffix(path, ".md") && strings.HasPrefix(text, "---\n"):
		front, body, ok := strings.Cut(text[4:], "\n---")
		if !ok {
			return map[string]string{"content": text}, nil
		}
		fields, err := decapYAMLFields(front)
		if err != nil {
			return nil, err
		}
		body = strings.TrimPrefix(body, "\n")
		fields["body"] = strings.TrimSpace(body)
		return fields, nil
	case strings.HasSuffix(path, ".yml") || strings.HasSuffix(path, ".yaml"):
		return decapYAMLFields(text)
	}
	return map[string]string{"content": text}, nil
}

// decapYAMLFields reads a YAML mapping's keys as fields: a scalar as its value, a list as
// its items joined by ", ", a mapping as "key=value; …", null as "".
func decapYAMLFields(text string) (map[string]string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, err
	}
	fields := map[string]string{}
	if len(doc.Content) == 0 {
		return fields, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("not a mapping")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		fields[root.Content[i].Value] = decapYAMLValue(root.Content[i+1])
	}
	return fields, nil
}

// decapYAMLValue is one YAML value as a field's string.
func decapYAMLValue(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		items := make([]string, len(n.Content))
		for i, c := range n.Content {
			items[i] = decapYAMLValue(c)
		}
		return strings.Join(items, ", ")
	case yaml.MappingNode:
		var pairs []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			pairs = append(pairs, n.Content[i].Value+"="+decapYAMLValue(n.Content[i+1]))
		}
		return strings.Join(pairs, "; ")
	case yaml.AliasNode:
		return decapYAMLValue(n.Alias)
	}
	if n.Tag == "!!null" {
		return ""
	}
	return n.Value
}

// Seed is what the repository held once the instance started (a copy the caller may
// change).
func (w *Decap) Seed() DecapState { return w.seed.Clone() }

// Differs says how the repository differs from want ("" when it holds exactly that): the
// files added, removed and changed, each changed file with its fields that differ.
func (w *Decap) Differs(t testing.TB, want DecapState) string {
	t.Helper()
	got, err := w.state()
	if err != nil {
		return "the repository cannot be read: " + err.Error()
	}
	return DecapDiff(got, want)
}

// DecapDiff says how got differs from want ("" when not at all).
func DecapDiff(got, want DecapState) string {
	var out []string
	paths := slices.Sorted(maps.Keys(got))
	for p := range want {
		if _, ok := got[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		g, inGot := got[p]
		wnt, inWant := want[p]
		switch {
		case !inWant:
			out = append(out, fmt.Sprintf("%s is there and should not be (%s)", p, decapShow(g)))
		case !inGot:
			out = append(out, fmt.Sprintf("%s is missing", p))
		default:
			for _, k := range decapKeys(g, wnt) {
				if g[k] != wnt[k] {
					out = append(out, fmt.Sprintf("%s: %s is %q, not %q", p, k, g[k], wnt[k]))
				}
			}
		}
	}
	return strings.Join(out, "; ")
}

// decapKeys are the keys of both maps, sorted.
func decapKeys(a, b map[string]string) []string {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// decapShow writes a file's fields on one line, sorted by key.
func decapShow(fields map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		parts = append(parts, fmt.Sprintf("%s=%q", k, fields[k]))
	}
	return strings.Join(parts, " ")
}

// Commits are the repository's commit subjects, newest first.
func (w *Decap) Commits(t testing.TB) []string {
	t.Helper()
	return strings.Split(strings.TrimSpace(decapGit(t, w.Repo, "log", "--format=%s")), "\n")
}
