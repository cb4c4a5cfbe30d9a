package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// NocoDBBrowser sends a NocoDB the requests its web UI's pages send: the UI is a
// single-page app whose every page reads and writes through the REST API (/api/v1/...,
// /api/v2/...) with JSON, signed in by the token its sign-in page gets (POST
// /api/v1/auth/user/signin), sent back in the xc-auth header. The seed's browser sends
// the owner's API token (xc-token) instead. It is how the seed is written and how the
// harness's own test does each goal's effect without the agent.
type NocoDBBrowser struct {
	n      *NocoDB
	c      *http.Client
	header string // xc-auth (signed in) or xc-token (an API token)
	token  string
}

// Browser is a browser with no session yet: SignIn signs it in.
func (n *NocoDB) Browser() *NocoDBBrowser {
	return &NocoDBBrowser{n: n, c: &http.Client{}}
}

// tokenBrowser is a browser that sends the owner's API token.
func (n *NocoDB) tokenBrowser() *NocoDBBrowser {
	return &NocoDBBrowser{n: n, c: &http.Client{}, header: "xc-token", token: n.Token}
}

// SignIn signs in as the owner as the sign-in page does when E-mail and Password are
// filled in and SIGN IN is pressed, and checks that the session is the owner's.
func (b *NocoDBBrowser) SignIn(t testing.TB) {
	t.Helper()
	var out struct {
		Token string `json:"token"`
	}
	b.Do(t, http.MethodPost, "/api/v1/auth/user/signin", map[string]any{"email": b.n.Email, "password": b.n.Password}, &out)
	b.header, b.token = "xc-auth", out.Token
	var me struct {
		Email string `json:"email"`
	}
	b.Do(t, http.MethodGet, "/api/v1/auth/user/me", nil, &me)
	if me.Email != b.n.Email {
		t.Fatalf("nocodb: signing in as %s did not: the session is %q's", b.n.Email, me.Email)
	}
}

// Do sends method to path with body as JSON (nil for none) and reads the answer into out
// (nil to drop it); an answer of 400 or more fails the test.
func (b *NocoDBBrowser) Do(t testing.TB, method, path string, body, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, b.n.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if b.token != "" {
		req.Header.Set(b.header, b.token)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("nocodb: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("nocodb: %s %s answered %d: %s", method, path, resp.StatusCode, raw)
	}
	if out != nil && json.Unmarshal(raw, out) != nil {
		t.Fatalf("nocodb: %s %s answered no JSON: %s", method, path, raw)
	}
}

// NocoDBTable is a table as the base's table list answers it, with its fields once the
// table is opened.
type NocoDBTable struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Columns []struct {
		ID     string `json:"id"`
		Title  string `json:"title"`
		PV     any    `json:"pv"`
		System any    `json:"system"`
	} `json:"columns"`
	Views []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	} `json:"views"`
}

// Table is the table titled title in the base, opened (its fields and views read), as
// the UI opens it when it is clicked in the menu on the left.
func (b *NocoDBBrowser) Table(t testing.TB, title string) NocoDBTable {
	t.Helper()
	var list struct {
		List []NocoDBTable `json:"list"`
	}
	b.Do(t, http.MethodGet, "/api/v2/meta/bases/"+b.n.BaseID+"/tables", nil, &list)
	for _, tb := range list.List {
		if tb.Title == title {
			var full NocoDBTable
			b.Do(t, http.MethodGet, "/api/v2/meta/tables/"+tb.ID, nil, &full)
			var views struct {
				List []struct{ ID, Title string } `json:"list"`
			}
			b.Do(t, http.MethodGet, "/api/v2/meta/tables/"+tb.ID+"/views", nil, &views)
			for _, v := range views.List {
				full.Views = append(full.Views, struct {
					ID    string `json:"id"`
					Title string `json:"title"`
				}{v.ID, v.Title})
			}
			return full
		}
	}
	t.Fatalf("nocodb: the base has no table %q", title)
	return NocoDBTable{}
}

// ColumnID is the id of the table's field titled title.
func (tb NocoDBTable) ColumnID(t testing.TB, title string) string {
	t.Helper()
	for _, c := range tb.Columns {
		if c.Title == title {
			return c.ID
		}
	}
	t.Fatalf("nocodb: the table %s has no field %q", tb.Title, title)
	return ""
}

// primary is the title of the table's display field (its first, in bold in the grid).
func (tb NocoDBTable) primary(t testing.TB) string {
	t.Helper()
	for _, c := range tb.Columns {
		if c.PV == true || c.PV == float64(1) {
			return c.Title
		}
	}
	t.Fatalf("nocodb: the table %s has no display field", tb.Title)
	return ""
}

// RecordID is the id of the table's one record whose display field is value, as the
// grid's search box (Search In <field>) finds it.
func (b *NocoDBBrowser) RecordID(t testing.TB, tb NocoDBTable, value string) int {
	t.Helper()
	var out struct {
		List []map[string]any `json:"list"`
	}
	where := "(" + tb.primary(t) + ",eq," + value + ")"
	b.Do(t, http.MethodGet, "/api/v2/tables/"+tb.ID+"/records?where="+url.QueryEscape(where), nil, &out)
	if len(out.List) != 1 {
		t.Fatalf("nocodb: %d records of %s are %q, not one", len(out.List), tb.Title, value)
	}
	id, _ := out.List[0]["Id"].(float64)
	return int(id)
}

// NocoDBUIText is the text of the web UI's scripts as installed (where its English labels
// are: "New record", "Rename table", "Create View", "Add filter"…): what the pages the
// goals pass through can show.
func NocoDBUIText(t testing.TB) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(NocoDBDir(), "node_modules", "nc-lib-gui", "lib", "dist", "_nuxt", "*.js"))
	if err != nil || len(files) == 0 {
		t.Fatalf("nocodb: the web UI's scripts are missing: %v", err)
	}
	var text strings.Builder
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text.Write(raw)
	}
	return text.String()
}

// Page fetches a page of the app (a path from its root) as a browser does and returns it
// with its status.
func (b *NocoDBBrowser) Page(t testing.TB, path string) (int, string) {
	t.Helper()
	resp, err := b.c.Get(b.n.URL + path)
	if err != nil {
		t.Fatalf("nocodb: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}
