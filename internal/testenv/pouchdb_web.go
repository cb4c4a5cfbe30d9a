package testenv

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// PouchdbBrowser sends what Fauxton's pages send for a person's actions, to the server's
// CouchDB HTTP API: PUT /DB with {"id": DB, "name": DB} (Create Database's Create), DELETE
// /DB (Delete Database's Delete, once the name is typed), PUT /DB/ID with the editor's
// JSON (New Doc's Create Document), PUT /DB/ID?conflicts=true with it and its "_rev" (Save
// Changes), DELETE /DB/ID?rev=REV (Delete, then Delete Document), PUT
// /_node/node1@127.0.0.1/_config/SECTION/OPTION with the value as a JSON string (the
// Configuration page's save button beside a value it edits); and the pages and
// scripts of /_utils. There is no sign-in. It is how the harness's own test does each
// goal's effect without the agent.
type PouchdbBrowser struct {
	w *Pouchdb
	c *http.Client
}

// Browser is a browser on no page yet.
func (w *Pouchdb) Browser() *PouchdbBrowser {
	return &PouchdbBrowser{w: w, c: &http.Client{}}
}

// Open fetches a page, an asset or an API answer (a path from the server's root) and
// returns its body. An answer of 400 or more fails the test.
func (b *PouchdbBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.send(t, http.MethodGet, path, nil)
}

// CreateDB creates the database db, as Create Database's Create does.
func (b *PouchdbBrowser) CreateDB(t testing.TB, db string) {
	t.Helper()
	b.send(t, http.MethodPut, "/"+url.PathEscape(db), map[string]any{"id": db, "name": db})
}

// DeleteDB deletes the database db, as the Delete Database dialog's Delete does.
func (b *PouchdbBrowser) DeleteDB(t testing.TB, db string) {
	t.Helper()
	b.send(t, http.MethodDelete, "/"+url.PathEscape(db), nil)
}

// Doc is the document id of db as the editor loads it (with "_id" and "_rev").
func (b *PouchdbBrowser) Doc(t testing.TB, db, id string) map[string]any {
	t.Helper()
	var doc map[string]any
	b.Get(t, pouchdbDocPath(db, id), &doc)
	return doc
}

// CreateDoc creates the document id in db with fields, as New Doc's Create Document does.
func (b *PouchdbBrowser) CreateDoc(t testing.TB, db, id string, fields map[string]any) {
	t.Helper()
	doc := map[string]any{"_id": id}
	for k, v := range fields {
		doc[k] = v
	}
	b.send(t, http.MethodPut, pouchdbDocPath(db, id), doc)
}

// EditDoc loads the document id of db, lets edit change its fields, and saves it, as the
// editor's Save Changes does.
func (b *PouchdbBrowser) EditDoc(t testing.TB, db, id string, edit func(doc map[string]any)) {
	t.Helper()
	doc := b.Doc(t, db, id)
	edit(doc)
	b.send(t, http.MethodPut, pouchdbDocPath(db, id)+"?conflicts=true", doc)
}

// DeleteDoc deletes the document id of db at its current revision, as Delete and then
// Delete Document do.
func (b *PouchdbBrowser) DeleteDoc(t testing.TB, db, id string) {
	t.Helper()
	rev, _ := b.Doc(t, db, id)["_rev"].(string)
	b.send(t, http.MethodDelete, pouchdbDocPath(db, id)+"?rev="+url.QueryEscape(rev), nil)
}

// SetConfig sets the option of section to value, as the Configuration page's save button
// does after its value is edited.
func (b *PouchdbBrowser) SetConfig(t testing.TB, section, option, value string) {
	t.Helper()
	b.send(t, http.MethodPut, "/_node/node1@127.0.0.1/_config/"+url.PathEscape(section)+"/"+url.PathEscape(option), value)
}

// Get fetches path and decodes its JSON answer into v.
func (b *PouchdbBrowser) Get(t testing.TB, path string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(b.send(t, http.MethodGet, path, nil)), v); err != nil {
		t.Fatalf("pouchdb-server: GET %s: %v", path, err)
	}
}

// send sends method to path with body as JSON (nil for none) and returns the answer's
// body; an answer of 400 or more fails the test.
func (b *PouchdbBrowser) send(t testing.TB, method, path string, body any) string {
	t.Helper()
	var in io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		in = strings.NewReader(string(data))
	}
	req, err := http.NewRequest(method, b.w.Base+path, in)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		// Without it the server stores none of the body's fields.
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("pouchdb-server: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("pouchdb-server: %s %s answered %d: %s", method, path, resp.StatusCode, out)
	}
	return string(out)
}

// pouchdbDocPath is the API path of the document id of db.
func pouchdbDocPath(db, id string) string {
	return "/" + url.PathEscape(db) + "/" + url.PathEscape(id)
}
