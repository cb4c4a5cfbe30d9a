package testenv

import (
	"bufio"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// IcingaWebState is what the judges compare of an Icinga Web 2: for each kind of thing its
// pages change, its rows by key, each row's value its settings as one line.
//
//	user        username → active=1|0 (and its password hash, so that a changed password shows)
//	group       group name → parent=…
//	member      group>username → ""
//	preference  username/section/name → value
//	FILE.ini    section → key=value; key=value (sorted by key): every ini file of the
//	            configuration folder, by its path there (roles.ini, announcements.ini,
//	            navigation/menu.ini, dashboards/admin/dashboard.ini, preferences/admin/menu.ini…)
type IcingaWebState map[string]map[string]string

// icingawebQueries are the queries the database's kinds are read with: each row a key and
// a value.
var icingawebQueries = map[string]string{
	"user":  `SELECT name, format('active=%s hash=%s', active, md5(password_hash)) FROM icingaweb_user`,
	"group": `SELECT g.name, 'parent=' || coalesce(p.name, '') FROM icingaweb_group g LEFT JOIN icingaweb_group p ON p.id = g.parent`,
	"member": `SELECT g.name || '>' || m.username, '' FROM icingaweb_group_membership m
		JOIN icingaweb_group g ON g.id = m.group_id`,
	"preference": `SELECT username || '/' || section || '/' || name, value FROM icingaweb_user_preference`,
}

// psql runs one query in the database db as the cluster's superuser and returns its rows,
// each a line of tab-separated fields.
func (w *IcingaWeb) psql(db, query string) ([]string, error) {
	return psqlRows(w.Socket, w.Port, db, query)
}

// Query runs a query in Icinga Web 2's database and returns its rows (tab-separated
// fields), failing the test when psql does.
func (w *IcingaWeb) Query(t testing.TB, query string) []string {
	t.Helper()
	rows, err := w.psql("icingaweb", query)
	if err != nil {
		t.Fatalf("icingaweb: %s: %v", query, err)
	}
	return rows
}

// State reads the database and the configuration folder's ini files now.
func (w *IcingaWeb) State(t testing.TB) IcingaWebState {
	t.Helper()
	s := IcingaWebState{}
	for kind, q := range icingawebQueries {
		s[kind] = map[string]string{}
		for _, row := range w.Query(t, q) {
			k, v, _ := strings.Cut(row, "\t")
			s[kind][k] = v
		}
	}
	err := filepath.WalkDir(w.Config, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".ini") {
			return err
		}
		rel, _ := filepath.Rel(w.Config, path)
		sections, err := readINI(path)
		s[filepath.ToSlash(rel)] = sections
		return err
	})
	if err != nil {
		t.Fatalf("icingaweb: read the configuration: %v", err)
	}
	return s
}

// readINI reads an ini file as Icinga Web 2 writes it (`[section]`, `key = "value"`):
// each section's keys and values as one line, "key=value; key=value" sorted by key.
func readINI(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sections := map[string]map[string]string{}
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, ";") || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.TrimSpace(line[1 : len(line)-1])
			if sections[section] == nil {
				sections[section] = map[string]string{}
			}
		default:
			k, v, _ := strings.Cut(line, "=")
			v = strings.TrimSpace(v)
			if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
				v = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(v[1 : len(v)-1])
			}
			if sections[section] == nil {
				sections[section] = map[string]string{}
			}
			sections[section][strings.TrimSpace(k)] = v
		}
	}
	out := map[string]string{}
	for name, keys := range sections {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			parts = append(parts, k+"="+keys[k])
		}
		out[name] = strings.Join(parts, "; ")
	}
	return out, sc.Err()
}

// Seed is the state the instance started with (a copy the caller may change).
func (w *IcingaWeb) Seed() IcingaWebState { return w.seed.Clone() }

// Clone is a deep copy of the state.
func (s IcingaWebState) Clone() IcingaWebState {
	c := IcingaWebState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each row missing, extra or
// different, by kind and key.
func (s IcingaWebState) Diff(want IcingaWebState) string {
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
		for _, k := range slices.Sorted(maps.Keys(w)) {
			if _, ok := got[k]; !ok {
				out = append(out, fmt.Sprintf("%s %q is missing", kind, k))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(got)) {
			wv, ok := w[k]
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("an extra %s %q (%s)", kind, k, got[k]))
			case wv != got[k]:
				out = append(out, fmt.Sprintf("%s %q is %q, not %q", kind, k, got[k], wv))
			}
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the instance's storage differs from want ("" when it holds exactly
// that).
func (w *IcingaWeb) Differs(t testing.TB, want IcingaWebState) string {
	t.Helper()
	return w.State(t).Diff(want)
}

// PasswordIs says whether username's stored password hash is password's, as PHP's
// password_verify (which Icinga Web 2 checks a password with) says.
func (w *IcingaWeb) PasswordIs(t testing.TB, username, password string) bool {
	t.Helper()
	rows := w.Query(t, "SELECT convert_from(password_hash, 'UTF8') FROM icingaweb_user WHERE name = "+pgQuote(username))
	if len(rows) == 0 {
		return false
	}
	return exec.Command("php", "-r", `exit(password_verify($argv[1], $argv[2]) ? 0 : 1);`, "--", password, rows[0]).Run() == nil
}

// md5Hex is the hexadecimal MD5 of s.
func md5Hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}
