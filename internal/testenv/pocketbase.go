package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// PocketBaseVersion is the Go module version deploy/setup.sh builds (POCKETBASE_VERSION there).
const PocketBaseVersion = "v0.36.8"

// Every PocketBase a test starts has this superuser, so that one worker can grant the
// password for them all.
const (
	PocketBaseEmail    = "admin@example.com"
	PocketBasePassword = "pb-admin-pass-2718"
)

// PocketBase is a private PocketBase: a backend whose admin dashboard (/_/) edits
// collections, records and settings kept in one SQLite file, data.db; a real application
// written by nobody here. What a run did is read back from that file.
type PocketBase struct {
	URL      string // the server's root, e.g. http://127.0.0.1:PORT; the dashboard is URL+"/_/"
	Email    string // the superuser's
	Password string
	Dir      string // the data folder: data.db, auxiliary.db
	token    string // a superuser's API token, for the judge test's direct changes
}

// Book is one of the seeded records of the "books" collection.
type Book struct {
	Title, Author string
	Year          int
}

// PocketBaseBooks are the records the "books" collection starts with, in the order they
// were added: the dashboard lists the newest first, 40 at a time, so The Great Gatsby,
// added first, is not among the books it shows before a search finds it. Its year is
// wrong on purpose: a goal finds it and corrects it.
var PocketBaseBooks = append(append([]Book{
	{"The Great Gatsby", "F. Scott Fitzgerald", 1952},
}, notebooks(45)...),
	Book{"The Hobbit", "J. R. R. Tolkien", 1937},
	Book{"Moby Dick", "Herman Melville", 1851},
	Book{"Pride and Prejudice", "Jane Austen", 1813},
	Book{"Nineteen Eighty-Four", "George Orwell", 1949},
	Book{"Frankenstein", "Mary Shelley", 1818},
	Book{"Dracula", "Bram Stoker", 1897},
	Book{"Brave New World", "Aldous Huxley", 1932},
)

// notebooks are n volumes of a diary, the bulk of a real shelf.
func notebooks(n int) []Book {
	var b []Book
	for i := 1; i <= n; i++ {
		b = append(b, Book{Title: fmt.Sprintf("Travel Diary, volume %d", i), Author: "Anna Berg", Year: 1970 + i})
	}
	return b
}

// PocketBaseBin is the pocketbase binary where deploy/setup.sh built it, "" if it did not.
func PocketBaseBin() string {
	dir := os.Getenv("POCKETBASE_DIR")
	if dir == "" {
		dir = filepath.Join(config.ToolsDir(), "pocketbase-"+PocketBaseVersion)
	}
	bin := filepath.Join(dir, "pocketbase")
	if !exists(bin) {
		return ""
	}
	return bin
}

// StartPocketBase gives PocketBase a fresh data folder in a temporary folder, a superuser
// (made with its own CLI), serves it on a free port, and seeds through its own API a
// "books" collection (title, author, year) holding PocketBaseBooks. It skips the test when
// PocketBase or sqlite3 is missing: `deploy/setup.sh heldout` installs them.
func StartPocketBase(t testing.TB) *PocketBase {
	t.Helper()
	bin := PocketBaseBin()
	if _, err := exec.LookPath("sqlite3"); err != nil || bin == "" {
		t.Skip("PocketBase or sqlite3 is not installed: run deploy/setup.sh heldout (it builds PocketBase " + PocketBaseVersion + " and installs Debian's sqlite3)")
	}
	root := t.TempDir()
	pb := &PocketBase{Email: PocketBaseEmail, Password: PocketBasePassword, Dir: filepath.Join(root, "pb_data")}
	flags := []string{"--dir", pb.Dir, "--dev=false"}
	cmd := exec.Command(bin, append([]string{"superuser", "upsert", pb.Email, pb.Password}, flags...)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pocketbase superuser upsert: %v\n%s", err, out)
	}
	port := FreePort(t)
	pb.URL = "http://" + Addr(port)
	cmd = exec.Command(bin, append([]string{"serve", "--http", Addr(port)}, flags...)...)
	cmd.Dir = root // its public and migrations folders are beside the data folder
	p := start(t, "pocketbase", cmd)
	waitHTTP(t, "pocketbase", pb.URL+"/api/health", 30*time.Second, p)
	var auth struct{ Token string }
	pb.API(t, "POST", "/api/collections/_superusers/auth-with-password", map[string]any{"identity": pb.Email, "password": pb.Password}, &auth)
	pb.token = auth.Token
	pb.API(t, "POST", "/api/collections", map[string]any{"name": "books", "type": "base", "fields": []map[string]any{
		{"name": "title", "type": "text", "required": true},
		{"name": "author", "type": "text"},
		{"name": "year", "type": "number"},
		{"name": "created", "type": "autodate", "onCreate": true},
		{"name": "updated", "type": "autodate", "onCreate": true, "onUpdate": true},
	}}, nil)
	for _, b := range PocketBaseBooks {
		pb.API(t, "POST", "/api/collections/books/records", map[string]any{"title": b.Title, "author": b.Author, "year": b.Year}, nil)
	}
	return pb
}

// API calls PocketBase's own REST API as the superuser (as its dashboard does) and decodes
// the answer into out when out is not nil; an answer other than 2xx fails the test.
func (pb *PocketBase) API(t testing.TB, method, path string, body, out any) {
	t.Helper()
	header := map[string]string{}
	if pb.token != "" {
		header["Authorization"] = pb.token
	}
	status, b := callJSON(t, method, pb.URL+path, body, header)
	if status/100 != 2 {
		t.Fatalf("%s %s: %d: %s", method, path, status, b)
	}
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, b)
		}
	}
}

// Query runs a read-only SQL query on data.db with the sqlite3 CLI and returns its rows;
// an error (a missing table is one) returns nil and the error.
func (pb *PocketBase) Query(sql string) ([]map[string]any, error) {
	cmd := exec.Command("sqlite3", "-json", "-cmd", ".timeout 5000", filepath.Join(pb.Dir, "data.db"), sql)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("sqlite3: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var rows []map[string]any
	if len(bytes.TrimSpace(out)) == 0 {
		return rows, nil
	}
	if err := json.Unmarshal(out, &rows); err != nil {
		return nil, fmt.Errorf("sqlite3 output: %v", err)
	}
	return rows, nil
}

// Records reads every saved record of a collection (its table in data.db), oldest first.
func (pb *PocketBase) Records(collection string) ([]map[string]any, error) {
	return pb.Query(`SELECT * FROM "` + strings.ReplaceAll(collection, `"`, `""`) + `" ORDER BY rowid`)
}

// Field is one field of a collection as saved: its name and type ("text", "number", ...).
type Field struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	System bool   `json:"system"`
}

// Fields reads a collection's saved fields; ok is false when there is no such collection.
func (pb *PocketBase) Fields(collection string) (fields []Field, ok bool, err error) {
	rows, err := pb.Query(`SELECT fields FROM _collections WHERE name = '` + strings.ReplaceAll(collection, `'`, `''`) + `'`)
	if err != nil || len(rows) == 0 {
		return nil, false, err
	}
	s, _ := rows[0]["fields"].(string)
	if err := json.Unmarshal([]byte(s), &fields); err != nil {
		return nil, true, err
	}
	return fields, true, nil
}

// Collections reads the names of the collections nobody marked as the system's own
// ("users", "books" and what a goal added).
func (pb *PocketBase) Collections() ([]string, error) {
	rows, err := pb.Query(`SELECT name FROM _collections WHERE system = 0 ORDER BY name`)
	var names []string
	for _, r := range rows {
		n, _ := r["name"].(string)
		names = append(names, n)
	}
	return names, err
}

// AppName reads the application's name from its saved settings.
func (pb *PocketBase) AppName() (string, error) {
	rows, err := pb.Query(`SELECT json_extract(value, '$.meta.appName') AS name FROM _params WHERE id = 'settings'`)
	if err != nil || len(rows) == 0 {
		return "", err
	}
	n, _ := rows[0]["name"].(string)
	return n, nil
}

// Eventually waits up to limit for why to say nothing (the goal's effect is saved) and
// returns its last word.
func (pb *PocketBase) Eventually(limit time.Duration, why func(*PocketBase) string) string {
	deadline := time.Now().Add(limit)
	for {
		w := why(pb)
		if w == "" || time.Now().After(deadline) {
			return w
		}
		time.Sleep(250 * time.Millisecond)
	}
}
