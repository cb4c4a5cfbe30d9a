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

// PhpLiteAdminState is what the judges compare of a phpLiteAdmin: the SQLite files of its
// database folder as they are, kind → key → value, each value one line.
//
//	file    a database's file name (library.sqlite) → ""
//	table   DB/TABLE → its columns in order, "name TYPE[ NOT NULL][ DEFAULT x][ PK n]" joined by ", "
//	row     DB/TABLE/ROWID → "column=value; column=value" in the columns' order (NULL as "")
//	schema  DB/TYPE/NAME → the CREATE statement of an index, a view or a trigger
//
// sqlite_ objects (SQLite's own: sqlite_sequence, automatic indexes) are left out.
type PhpLiteAdminState map[string]map[string]string

// Clone is a deep copy of the state.
func (s PhpLiteAdminState) Clone() PhpLiteAdminState {
	out := PhpLiteAdminState{}
	for kind, rows := range s {
		out[kind] = maps.Clone(rows)
	}
	return out
}

// State reads every SQLite file of the database folder now, read-only.
func (a *PhpLiteAdmin) State(t testing.TB) PhpLiteAdminState {
	t.Helper()
	s := PhpLiteAdminState{"file": {}, "table": {}, "row": {}, "schema": {}}
	entries, err := os.ReadDir(a.DBDir)
	if err != nil {
		t.Fatalf("phpliteadmin: read the database folder: %v", err)
	}
	for _, e := range entries {
		ext := strings.TrimPrefix(filepath.Ext(e.Name()), ".")
		if e.IsDir() || !slices.Contains([]string{"db", "db3", "sqlite", "sqlite3"}, ext) {
			continue
		}
		s["file"][e.Name()] = ""
		a.readDatabase(t, s, e.Name())
	}
	return s
}

// readDatabase adds one database's tables, rows and other objects to s.
func (a *PhpLiteAdmin) readDatabase(t testing.TB, s PhpLiteAdminState, name string) {
	t.Helper()
	path := filepath.Join(a.DBDir, name)
	objects := SQLiteRows(t, path, `SELECT type, name, coalesce(sql, '') AS sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	for _, o := range objects {
		if o["type"] != "table" {
			s["schema"][name+"/"+o["type"]+"/"+o["name"]] = strings.Join(strings.Fields(o["sql"]), " ")
			continue
		}
		table := o["name"]
		var cols, names []string
		for _, c := range SQLiteRows(t, path, fmt.Sprintf(`SELECT name, type, "notnull" AS nn, dflt_value AS dflt, pk FROM pragma_table_info(%s) ORDER BY cid`, sqliteQuote(table))) {
			def := c["name"] + " " + c["type"]
			if c["nn"] == "1" {
				def += " NOT NULL"
			}
			if _, ok := c["dflt"]; ok {
				def += " DEFAULT " + c["dflt"]
			}
			if c["pk"] != "0" {
				def += " PK " + c["pk"]
			}
			cols, names = append(cols, def), append(names, c["name"])
		}
		s["table"][name+"/"+table] = strings.Join(cols, ", ")
		for _, r := range SQLiteRows(t, path, fmt.Sprintf(`SELECT rowid AS "pla rowid", * FROM %s`, sqliteIdent(table))) {
			vals := make([]string, len(names))
			for i, n := range names {
				vals[i] = n + "=" + r[n]
			}
			s["row"][name+"/"+table+"/"+r["pla rowid"]] = strings.Join(vals, "; ")
		}
	}
}

// Diff says how s differs from want, kind by kind and key by key, "" when it does not.
func (s PhpLiteAdminState) Diff(want PhpLiteAdminState) string {
	var diff []string
	for _, kind := range slices.Sorted(maps.Keys(merged(keysOf(s), keysOf(want)))) {
		got, exp := s[kind], want[kind]
		for _, key := range slices.Sorted(maps.Keys(merged(got, exp))) {
			g, inGot := got[key]
			e, inWant := exp[key]
			switch {
			case !inWant:
				diff = append(diff, fmt.Sprintf("%s %q is there and should not be: %s", kind, key, g))
			case !inGot:
				diff = append(diff, fmt.Sprintf("%s %q is missing (%s)", kind, key, e))
			case g != e:
				diff = append(diff, fmt.Sprintf("%s %q is %q, not %q", kind, key, g, e))
			}
		}
	}
	return strings.Join(diff, "; ")
}

// RowsOf is the rows of one table in s (DB/TABLE), by rowid.
func (s PhpLiteAdminState) RowsOf(table string) map[string]string {
	rows := map[string]string{}
	for key, row := range s["row"] {
		if id, ok := strings.CutPrefix(key, table+"/"); ok && !strings.Contains(id, "/") {
			rows[id] = row
		}
	}
	return rows
}

// RenameTable moves the table DB/FROM of s to DB/TO: its columns and its rows.
func (s PhpLiteAdminState) RenameTable(from, to string) {
	db, _, _ := strings.Cut(from, "/")
	s["table"][db+"/"+to] = s["table"][from]
	delete(s["table"], from)
	for id, row := range s.RowsOf(from) {
		delete(s["row"], from+"/"+id)
		s["row"][db+"/"+to+"/"+id] = row
	}
}

// sqliteQuote is a string literal for SQLite.
func sqliteQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// sqliteIdent is a quoted identifier for SQLite.
func sqliteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
