package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// DirectusBrowser sends a Directus the requests its Data Studio's pages send: the Data
// Studio is a single-page app whose every page reads and writes through the REST API with
// JSON, signed in by the session cookie its sign-in form gets (POST /auth/login in session
// mode). It is how the seed is written and how the harness's own test does each goal's
// effect without the agent.
type DirectusBrowser struct {
	d *Directus
	c *http.Client
}

// Browser is a browser with no session yet: SignIn signs it in.
func (d *Directus) Browser() *DirectusBrowser {
	jar, _ := cookiejar.New(nil)
	return &DirectusBrowser{d: d, c: &http.Client{Jar: jar}}
}

// Directus is the instance the browser uses.
func (b *DirectusBrowser) Directus() *Directus { return b.d }

// SignIn signs in as the admin as the sign-in page does when Email and Password are filled
// in and Sign In is pressed: the session cookie comes back, and the signed-in user is the
// admin.
func (b *DirectusBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Call(t, http.MethodPost, "/auth/login", map[string]any{"email": b.d.Email, "password": b.d.Password, "mode": "session"})
	var me struct {
		Email string `json:"email"`
	}
	b.Get(t, "/users/me?fields=email", &me)
	if me.Email != b.d.Email {
		t.Fatalf("directus: signing in as %s did not: the session is %q's", b.d.Email, me.Email)
	}
}

// Call sends method to path (from the server's root) with body as JSON (nil for none) and
// returns the answer's data; an answer of 400 or more fails the test.
func (b *DirectusBrowser) Call(t testing.TB, method, path string, body any) json.RawMessage {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, b.d.Base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("directus: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("directus: %s %s answered %d: %s", method, path, resp.StatusCode, out)
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if len(bytes.TrimSpace(out)) > 0 && json.Unmarshal(out, &env) != nil {
		t.Fatalf("directus: %s %s answered no JSON: %s", method, path, out)
	}
	return env.Data
}

// Get reads path's data into v.
func (b *DirectusBrowser) Get(t testing.TB, path string, v any) {
	t.Helper()
	if err := json.Unmarshal(b.Call(t, http.MethodGet, path, nil), v); err != nil {
		t.Fatalf("directus: GET %s: %v", path, err)
	}
}

// ItemID is the id of the item of collection whose field is value, as the collection's
// page finds it ("" when there is none).
func (b *DirectusBrowser) ItemID(t testing.TB, collection, field, value string) string {
	t.Helper()
	var rows []map[string]any
	q := url.Values{"fields": {"id"}, "filter[" + field + "][_eq]": {value}, "limit": {"1"}}
	b.Get(t, "/items/"+collection+"?"+q.Encode(), &rows)
	if len(rows) == 0 {
		return ""
	}
	return fmt.Sprint(rows[0]["id"])
}

// RoleID is the id of the role named name, as the user page's Role list offers it.
func (b *DirectusBrowser) RoleID(t testing.TB, name string) string {
	t.Helper()
	var rows []map[string]any
	b.Get(t, "/roles?"+url.Values{"fields": {"id"}, "filter[name][_eq]": {name}}.Encode(), &rows)
	if len(rows) == 0 {
		t.Fatalf("directus: there is no role %q", name)
	}
	return fmt.Sprint(rows[0]["id"])
}

// CreateItem saves a new item of collection with fields, as its Create page's Save does.
func (b *DirectusBrowser) CreateItem(t testing.TB, collection string, fields map[string]any) {
	t.Helper()
	b.Call(t, http.MethodPost, "/items/"+collection, fields)
}

// UpdateItem saves the fields changed on the page of the item of collection whose field
// key is value, as the item page's Save does (it sends only what changed).
func (b *DirectusBrowser) UpdateItem(t testing.TB, collection, key, value string, fields map[string]any) {
	t.Helper()
	id := b.ItemID(t, collection, key, value)
	if id == "" {
		t.Fatalf("directus: %s has no item whose %s is %q", collection, key, value)
	}
	b.Call(t, http.MethodPatch, "/items/"+collection+"/"+id, fields)
}

// DeleteItem deletes the item of collection whose field key is value, as the item page's
// Delete button does once confirmed.
func (b *DirectusBrowser) DeleteItem(t testing.TB, collection, key, value string) {
	t.Helper()
	id := b.ItemID(t, collection, key, value)
	if id == "" {
		t.Fatalf("directus: %s has no item whose %s is %q", collection, key, value)
	}
	b.Call(t, http.MethodDelete, "/items/"+collection+"/"+id, nil)
}

// CreateInputField adds a text field named key to collection, as the data model's Create
// Field does when Input is chosen, Key filled in and Save pressed (a string column of the
// default length, shown with the Input interface).
func (b *DirectusBrowser) CreateInputField(t testing.TB, collection, key string) {
	t.Helper()
	b.Call(t, http.MethodPost, "/fields/"+collection, map[string]any{
		"type": "string", "meta": map[string]any{"interface": "input", "special": nil}, "field": key,
	})
}

// CreateUser saves a new user with a first and last name, an email and the role named
// role, as the User Directory's create page does when those are filled in and Save pressed.
func (b *DirectusBrowser) CreateUser(t testing.TB, first, last, email, role string) {
	t.Helper()
	b.Call(t, http.MethodPost, "/users", map[string]any{
		"first_name": first, "last_name": last, "email": email, "role": b.RoleID(t, role),
	})
}

// UpdateSettings saves the project's settings changed on the Settings page.
func (b *DirectusBrowser) UpdateSettings(t testing.TB, fields map[string]any) {
	t.Helper()
	b.Call(t, http.MethodPatch, "/settings", fields)
}

// directusEntry finds the Data Studio's entry script in its page.
var directusEntry = regexp.MustCompile(`src="([^"]*index[^"]*\.entry\.js)"`)

// AppText is the Data Studio's sign-in page and its entry script, where the app's English
// labels are ("Sign In", "Create Field", "Project Name", ...): what the pages the goals
// pass through can show.
func (b *DirectusBrowser) AppText(t testing.TB) string {
	t.Helper()
	page := b.fetch(t, b.d.URL)
	m := directusEntry.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("directus: the sign-in page names no entry script:\n%s", page)
	}
	src, err := url.Parse(b.d.URL)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := url.Parse(m[1])
	return page + b.fetch(t, src.ResolveReference(ref).String())
}

func (b *DirectusBrowser) fetch(t testing.TB, address string) string {
	t.Helper()
	resp, err := b.c.Get(address)
	if err != nil {
		t.Fatalf("directus: GET %s: %v", address, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("directus: GET %s answered %d", address, resp.StatusCode)
	}
	return string(out)
}

// DirectusLabel says whether the app's text holds the English label key: text, as its
// translations keep it (key:`text`).
func DirectusLabel(app, key, text string) bool {
	return strings.Contains(app, key+":`"+text+"`")
}
