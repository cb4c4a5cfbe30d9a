package testenv

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// SympaState is what the judges compare of a Sympa: for each kind of thing its pages
// change, its rows by key, each row's value one line.
//
//	config/LIST  a parameter of the list's config file → its value (a paragraph of several
//	             lines as "first; second; …", its keys sorted; a parameter met twice as
//	             "one | two"); the bookkeeping Sympa rewrites on every save (creation,
//	             update, serial) is left out
//	info         list → its description (the info file beside its config)
//	status       list → its status in the database's list_table (open, closed, pending…)
//	member       list>email → the member's name and reception mode (subscriber_table)
//	admin        list>role>email → the owner's or moderator's profile and name (admin_table)
//
// In a state the judges want, a value "*" takes any value, and a key "*" in a kind takes
// any rows besides those named.
type SympaState map[string]map[string]string

// sympaVolatile are the config file's paragraphs Sympa rewrites on every save.
var sympaVolatile = map[string]bool{"creation": true, "update": true, "serial": true}

// sympaQueries read the database's kinds: each row a key k and a value v.
var sympaQueries = map[string]string{
	"status": `SELECT name_list AS k, status_list AS v FROM list_table WHERE robot_list = '` + SympaDomain + `'`,
	"member": `SELECT list_subscriber || '>' || user_subscriber AS k,
		coalesce(comment_subscriber, '') || ' (' || coalesce(reception_subscriber, '') || ')' AS v FROM subscriber_table`,
	"admin": `SELECT list_admin || '>' || role_admin || '>' || user_admin AS k,
		coalesce(profile_admin, '') || ' ' || coalesce(comment_admin, '') AS v FROM admin_table`,
}

// Query reads Sympa's database read-only: one map per row.
func (w *Sympa) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return SQLiteRows(t, w.DB, query)
}

// State reads the lists' config and info files and the database now.
func (w *Sympa) State(t testing.TB) SympaState {
	t.Helper()
	s := SympaState{"info": {}}
	for kind, q := range sympaQueries {
		s[kind] = map[string]string{}
		for _, row := range w.Query(t, q) {
			s[kind][row["k"]] = strings.TrimSpace(row["v"])
		}
	}
	dirs, err := os.ReadDir(w.Lists)
	if err != nil {
		t.Fatalf("sympa: %v", err)
	}
	for _, d := range dirs {
		config := filepath.Join(w.Lists, d.Name(), "config")
		if !d.IsDir() || !exists(config) {
			continue
		}
		text, err := os.ReadFile(config)
		if err != nil {
			t.Fatalf("sympa: %v", err)
		}
		s["config/"+d.Name()] = SympaConfig(string(text))
		if info, err := os.ReadFile(filepath.Join(w.Lists, d.Name(), "info")); err == nil {
			s["info"][d.Name()] = strings.TrimSpace(string(info))
		}
	}
	return s
}

// SympaConfig reads a list's config file as Sympa writes it (paragraphs parted by blank
// lines, each "parameter value" or a parameter's name alone on its first line and its
// keys on the next ones): each parameter's value, but the bookkeeping of sympaVolatile.
func SympaConfig(text string) map[string]string {
	out := map[string]string{}
	for _, para := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		var lines []string
		for _, l := range strings.Split(para, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 {
			continue
		}
		key, value, _ := strings.Cut(lines[0], " ")
		if sympaVolatile[key] {
			continue
		}
		// Sympa writes a paragraph's keys in no fixed order: they are kept sorted.
		sub := slices.Clone(lines[1:])
		slices.Sort(sub)
		parts := append([]string{strings.TrimSpace(value)}, sub...)
		if parts[0] == "" {
			parts = parts[1:]
		}
		v := strings.Join(parts, "; ")
		if old, twice := out[key]; twice {
			v = old + " | " + v
		}
		out[key] = v
	}
	return out
}

// Seed is the state the instance started with (a copy the caller may change).
func (w *Sympa) Seed() SympaState { return w.seed.Clone() }

// Clone is a deep copy of the state.
func (s SympaState) Clone() SympaState {
	c := SympaState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each row missing, extra or
// different, by kind and key ("*" as want's value takes any value; a key "*" any extra
// rows of its kind).
func (s SympaState) Diff(want SympaState) string {
	var out []string
	kinds := map[string]bool{}
	for k := range s {
		kinds[k] = true
	}
	for k := range want {
		kinds[k] = true
	}
	for _, kind := range slices.Sorted(maps.Keys(kinds)) {
		got, w := s[kind], want[kind]
		_, anyRows := w["*"]
		for _, k := range slices.Sorted(maps.Keys(w)) {
			if _, ok := got[k]; !ok && k != "*" {
				out = append(out, fmt.Sprintf("%s %q is missing", kind, k))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(got)) {
			wv, ok := w[k]
			switch {
			case !ok && anyRows:
			case !ok:
				out = append(out, fmt.Sprintf("an extra %s %q (%s)", kind, k, got[k]))
			case wv != "*" && wv != got[k]:
				out = append(out, fmt.Sprintf("%s %q is %q, not %q", kind, k, got[k], wv))
			}
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the instance's storage differs from want ("" when it holds exactly
// that).
func (w *Sympa) Differs(t testing.TB, want SympaState) string {
	t.Helper()
	return w.State(t).Diff(want)
}

// Outbox is how many messages Sympa has handed its sendmail.
func (w *Sympa) Outbox(t testing.TB) int {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(w.Dir, "outbox"))
	if err != nil {
		t.Fatalf("sympa: %v", err)
	}
	return len(entries)
}
