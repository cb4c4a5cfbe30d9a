package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// HomebridgeBrowser sends a Homebridge UI the requests its pages send: the UI is a
// single-page app whose every page reads and writes through the REST API under /api with
// JSON, signed in by the bearer token its sign-in form gets (POST /api/auth/login). It is
// how the harness's own test does each goal's effect without the agent.
type HomebridgeBrowser struct {
	w     *Homebridge
	token string
}

// Browser is a browser with no session yet: SignIn signs it in.
func (w *Homebridge) Browser() *HomebridgeBrowser { return &HomebridgeBrowser{w: w} }

// Homebridge is the instance the browser uses.
func (b *HomebridgeBrowser) Homebridge() *Homebridge { return b.w }

// SignIn signs in as admin as the sign-in page does when Username and Password are filled
// in and Continue is pressed, and checks that the session holds and may list the users,
// as only an admin's may.
func (b *HomebridgeBrowser) SignIn(t testing.TB) {
	t.Helper()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	b.call(t, http.MethodPost, "/auth/login", map[string]any{"username": b.w.User, "password": b.w.Password}, &tok)
	if tok.AccessToken == "" {
		t.Fatalf("homebridge: signing in as %s gave no token", b.w.User)
	}
	b.token = tok.AccessToken
	var check struct {
		Status string `json:"status"`
	}
	b.call(t, http.MethodGet, "/auth/check", nil, &check)
	if check.Status != "OK" {
		t.Fatalf("homebridge: signing in as %s did not: the session check says %q", b.w.User, check.Status)
	}
	// Only an admin may list the users.
	b.user(t, b.w.User)
}

// call sends method to the API's path (under /api) with body as JSON (nil for none) and
// reads the answer into out (nil to drop it); an answer of 400 or more fails the test. A
// request with no body has no Content-Type, as the UI's own has none (the API refuses an
// empty JSON body).
func (b *HomebridgeBrowser) call(t testing.TB, method, path string, body, out any) {
	t.Helper()
	var in io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		in = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, b.w.Base+"/api"+path, in)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if b.token != "" {
		req.Header.Set("Authorization", "Bearer "+b.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("homebridge: %s /api%s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("homebridge: %s /api%s answered %d: %s", method, path, resp.StatusCode, raw)
	}
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("homebridge: %s /api%s answered no JSON: %v: %s", method, path, err, raw)
		}
	}
}

// Get reads the API's path into out, as a page that shows it does.
func (b *HomebridgeBrowser) Get(t testing.TB, path string, out any) {
	t.Helper()
	b.call(t, http.MethodGet, path, nil, out)
}

// Open fetches a path of the UI (its pages, scripts and images) and returns the body; an
// answer other than 200 fails the test.
func (b *HomebridgeBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	status, raw := callJSON(t, http.MethodGet, b.w.Base+path, nil, nil)
	if status != http.StatusOK {
		t.Fatalf("homebridge: GET %s answered %d", path, status)
	}
	return string(raw)
}

var homebridgeScript = regexp.MustCompile(`(?:chunk|main|polyfills)-[A-Z0-9]+\.js`)

// Scripts is the text of every script the UI's start page loads, and of every script those
// load in turn (the pages and the translations are lazy chunks): where the labels the pages
// show are.
func (b *HomebridgeBrowser) Scripts(t testing.TB) string {
	t.Helper()
	var all strings.Builder
	seen := map[string]bool{}
	queue := homebridgeScript.FindAllString(b.Open(t, "/"), -1)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		text := b.Open(t, "/"+name)
		all.WriteString(text)
		queue = append(queue, homebridgeScript.FindAllString(text, -1)...)
	}
	return all.String()
}

// homebridgeListed is a user as the Users page lists it.
type homebridgeListed struct {
	ID       int    `json:"id"`
	Username string `json:"username"`
	Name     string `json:"name"`
	Admin    bool   `json:"admin"`
}

// user is the user the Users page shows with username.
func (b *HomebridgeBrowser) user(t testing.TB, username string) homebridgeListed {
	t.Helper()
	var users []homebridgeListed
	b.Get(t, "/users", &users)
	for _, u := range users {
		if u.Username == username {
			return u
		}
	}
	t.Fatalf("homebridge: the Users page shows no %q: %v", username, users)
	return homebridgeListed{}
}

// AddUser saves a new user as the Add User dialog's Save does with Username, Full Name,
// Password, Confirm Password and Admin User? filled in.
func (b *HomebridgeBrowser) AddUser(t testing.TB, username, name, password string, admin bool) {
	t.Helper()
	b.call(t, http.MethodPost, "/users", map[string]any{"username": username, "name": name,
		"password": password, "passwordConfirm": password, "admin": admin}, nil)
}

// UserEdit is what the Edit User dialog changes: nil fields keep the user's value, and an
// empty Password keeps the password.
type UserEdit struct {
	Username, Name *string
	Password       string
	Admin          *bool
}

// EditUser opens the Edit User dialog of username, changes it as edit says and presses
// Save, sending the whole form as the dialog does.
func (b *HomebridgeBrowser) EditUser(t testing.TB, username string, edit UserEdit) {
	t.Helper()
	u := b.user(t, username)
	body := map[string]any{"username": u.Username, "name": u.Name, "password": edit.Password,
		"passwordConfirm": edit.Password, "admin": u.Admin}
	if edit.Username != nil {
		body["username"] = *edit.Username
	}
	if edit.Name != nil {
		body["name"] = *edit.Name
	}
	if edit.Admin != nil {
		body["admin"] = *edit.Admin
	}
	b.call(t, http.MethodPatch, fmt.Sprintf("/users/%d", u.ID), body, nil)
}

// DeleteUser deletes username as the Delete button on its card does (at once, with no
// question).
func (b *HomebridgeBrowser) DeleteUser(t testing.TB, username string) {
	t.Helper()
	b.call(t, http.MethodDelete, fmt.Sprintf("/users/%d", b.user(t, username).ID), nil, nil)
}

// SetName saves the bridge's name as the Settings page's Homebridge Name field does once
// typing stops.
func (b *HomebridgeBrowser) SetName(t testing.TB, name string) {
	t.Helper()
	b.call(t, http.MethodPut, "/server/name", map[string]any{"name": name}, nil)
}

// SetPort saves the bridge's port as the Settings page's Homebridge Port field does.
func (b *HomebridgeBrowser) SetPort(t testing.TB, port int) {
	t.Helper()
	b.call(t, http.MethodPut, "/server/port", map[string]any{"port": port}, nil)
}

// SetPortRange saves the Settings page's Start Port and End Port (0 for an empty field)
// as either field does.
func (b *HomebridgeBrowser) SetPortRange(t testing.TB, start, end int) {
	t.Helper()
	body := map[string]any{"start": nil, "end": nil}
	if start != 0 {
		body["start"] = start
	}
	if end != 0 {
		body["end"] = end
	}
	b.call(t, http.MethodPut, "/server/ports", body, nil)
}

// SetUISetting saves one of the UI's own settings (key as the "config" platform block
// has it: theme, tempUnits, lightingMode, sessionTimeout…) as the Settings page's field
// for it does.
func (b *HomebridgeBrowser) SetUISetting(t testing.TB, key string, value any) {
	t.Helper()
	b.call(t, http.MethodPut, "/config-editor/ui", map[string]any{"key": key, "value": value}, nil)
}
