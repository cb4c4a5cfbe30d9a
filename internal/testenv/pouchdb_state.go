package testenv

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// PouchdbDoc is a document as the judges compare it: its fields as JSON decodes them
// (numbers are float64), without "_id" (its key) and "_rev" (which every save changes).
type PouchdbDoc map[string]any

// PouchdbState is what the judges compare of a PouchDB Server: every database, by name,
// and every document in it (design documents too), by id.
type PouchdbState map[string]map[string]PouchdbDoc

// State reads every database and document now, through the server's own HTTP API
// (/_all_dbs, then /DB/_all_docs?include_docs=true), which reads its storage.
func (w *Pouchdb) State(t testing.TB) PouchdbState {
	t.Helper()
	b := w.Browser()
	var dbs []string
	b.Get(t, "/_all_dbs", &dbs)
	s := PouchdbState{}
	for _, db := range dbs {
		var all struct {
			Rows []struct {
				ID  string         `json:"id"`
				Doc map[string]any `json:"doc"`
			} `json:"rows"`
		}
		b.Get(t, "/"+url.PathEscape(db)+"/_all_docs?include_docs=true", &all)
		docs := map[string]PouchdbDoc{}
		for _, r := range all.Rows {
			delete(r.Doc, "_id")
			delete(r.Doc, "_rev")
			docs[r.ID] = r.Doc
		}
		s[db] = docs
	}
	return s
}

// Seed is the state the instance started with (a deep copy: a judge may change it into
// the state it wants).
func (w *Pouchdb) Seed() PouchdbState { return w.seed.clone() }

// clone is a deep copy of s, its values as JSON decodes them.
func (s PouchdbState) clone() PouchdbState {
	data, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	var c PouchdbState
	if err := json.Unmarshal(data, &c); err != nil {
		panic(err)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each database missing or
// extra, and in each database each document missing, extra or with other fields, by id.
func (s PouchdbState) Diff(want PouchdbState) string {
	var out []string
	for _, db := range slices.Sorted(maps.Keys(want)) {
		if _, ok := s[db]; !ok {
			out = append(out, fmt.Sprintf("the database %q is missing", db))
		}
	}
	for _, db := range slices.Sorted(maps.Keys(s)) {
		wdocs, ok := want[db]
		if !ok {
			out = append(out, fmt.Sprintf("an extra database %q (%d documents)", db, len(s[db])))
			continue
		}
		out = append(out, pouchdbDocsDiff(db, s[db], wdocs)...)
	}
	return strings.Join(out, "; ")
}

// pouchdbDocsDiff says how the documents of the database db differ from want's.
func pouchdbDocsDiff(db string, got, want map[string]PouchdbDoc) []string {
	var out []string
	for _, id := range slices.Sorted(maps.Keys(want)) {
		if _, ok := got[id]; !ok {
			out = append(out, fmt.Sprintf("the document %q of %q is missing", id, db))
		}
	}
	for _, id := range slices.Sorted(maps.Keys(got)) {
		wdoc, ok := want[id]
		if !ok {
			out = append(out, fmt.Sprintf("an extra document %q in %q: %s", id, db, pouchdbJSON(got[id])))
			continue
		}
		if why := pouchdbDocDiff(got[id], wdoc); why != "" {
			out = append(out, fmt.Sprintf("the document %q of %q %s", id, db, why))
		}
	}
	return out
}

// pouchdbDocDiff says how a document's fields differ from want's ("" when they do not):
// each field missing, extra or with another value (or type: "10.5" is not 10.5).
func pouchdbDocDiff(got, want PouchdbDoc) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if _, ok := got[k]; !ok {
			out = append(out, fmt.Sprintf("has no field %q (want %s)", k, pouchdbJSON(want[k])))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		wv, ok := want[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("has an extra field %q: %s", k, pouchdbJSON(got[k])))
		case !pouchdbEqual(got[k], wv):
			out = append(out, fmt.Sprintf("has %q: %s, not %s", k, pouchdbJSON(got[k]), pouchdbJSON(wv)))
		}
	}
	return strings.Join(out, ", ")
}

// pouchdbEqual says whether a and b are the same JSON value.
func pouchdbEqual(a, b any) bool {
	da, ea := json.Marshal(a)
	db, eb := json.Marshal(b)
	return ea == nil && eb == nil && string(da) == string(db)
}

// pouchdbJSON is v as JSON (maps with their keys sorted), cut to 120 bytes.
func pouchdbJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	if len(data) > 120 {
		return string(data[:120]) + "…"
	}
	return string(data)
}
