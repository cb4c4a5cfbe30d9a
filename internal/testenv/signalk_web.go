package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// SignalKBrowser sends a Signal K server the requests its admin UI sends: the UI is a
// single-page app whose every page reads and writes through the REST API under /skServer
// with JSON, signed in by the session cookie its Login form gets (POST
// /signalk/v1/auth/login). It is how the harness's own test does each goal's effect
// without the agent.
type SignalKBrowser struct {
	w      *SignalK
	client *http.Client
}

// Browser is a browser with no session yet: SignIn signs it in.
func (w *SignalK) Browser() *SignalKBrowser {
	jar, _ := cookiejar.New(nil)
	return &SignalKBrowser{w: w, client: &http.Client{Jar: jar}}
}

// SignalK is the instance the browser uses.
func (b *SignalKBrowser) SignalK() *SignalK { return b.w }

// SignIn signs in as admin as the Login form does when Username and Password are filled
// in and Login is pressed, and checks that the session holds an admin's rights.
func (b *SignalKBrowser) SignIn(t testing.TB) {
	t.Helper()
	var tok struct {
		Token string `json:"token"`
	}
	b.call(t, http.MethodPost, "/signalk/v1/auth/login", map[string]any{"username": b.w.User, "password": b.w.Password}, &tok)
	if tok.Token == "" {
		t.Fatalf("signalk: signing in as %s gave no token", b.w.User)
	}
	var status struct {
		Status    string `json:"status"`
		UserLevel string `json:"userLevel"`
	}
	b.Get(t, "/skServer/loginStatus", &status)
	if status.Status != "loggedIn" || status.UserLevel != "admin" {
		t.Fatalf("signalk: signing in as %s did not: the login status is %+v", b.w.User, status)
	}
}

// call sends method to path with body as JSON (nil for none) and reads a JSON answer into
// out (nil to drop it); an answer of 400 or more fails the test. It returns the answer.
func (b *SignalKBrowser) call(t testing.TB, method, path string, body, out any) string {
	t.Helper()
	var in io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		in = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, b.w.Base+path, in)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.client.Do(req)
	if err != nil {
		t.Fatalf("signalk: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("signalk: %s %s answered %d: %s", method, path, resp.StatusCode, raw)
	}
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("signalk: %s %s answered no JSON: %v: %s", method, path, err, raw)
		}
	}
	return string(raw)
}

// Get reads the API's path into out, as a page that shows it does.
func (b *SignalKBrowser) Get(t testing.TB, path string, out any) {
	t.Helper()
	b.call(t, http.MethodGet, path, nil, out)
}

// fetch fetches a path of the server and says whether it answered 200.
func (b *SignalKBrowser) fetch(path string) (string, bool) {
	resp, err := b.client.Get(b.w.Base + path)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return string(raw), resp.StatusCode == http.StatusOK
}

// Open fetches a path of the server (the admin UI's pages, scripts and images) and
// returns the body; an answer other than 200 fails the test.
func (b *SignalKBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	text, ok := b.fetch(path)
	if !ok {
		t.Fatalf("signalk: GET %s did not answer 200: %.300s", path, text)
	}
	return text
}

var signalkScript = regexp.MustCompile(`(?:assets|\.)/([A-Za-z0-9_.-]+\.js)`)

// Scripts is the text of every script the admin UI's start page loads, and of every
// script those load in turn (its pages are in a lazy chunk): where the labels the pages
// show are.
func (b *SignalKBrowser) Scripts(t testing.TB) string {
	t.Helper()
	var all strings.Builder
	seen := map[string]bool{}
	var queue []string
	for _, m := range signalkScript.FindAllStringSubmatch(b.Open(t, "/admin/"), -1) {
		queue = append(queue, m[1])
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		text, ok := b.fetch("/admin/assets/" + name)
		if !ok {
			continue // a name in a script that is no asset of the UI
		}
		all.WriteString(text)
		for _, m := range signalkScript.FindAllStringSubmatch(text, -1) {
			queue = append(queue, m[1])
		}
	}
	return all.String()
}

// AddUser saves a new user as the Users page's Add, its User ID, Password, Confirm
// Password and Permissions (readonly, readwrite or admin) filled in, and Apply do.
func (b *SignalKBrowser) AddUser(t testing.TB, userID, password, permissions string) {
	t.Helper()
	b.call(t, http.MethodPost, "/skServer/security/users/"+url.PathEscape(userID),
		map[string]any{"password": password, "type": permissions}, nil)
}

// EditUser saves a user as clicking its row, changing its Password and Confirm Password
// (an empty password keeps it) or its Permissions, and pressing Apply do.
func (b *SignalKBrowser) EditUser(t testing.TB, userID, password, permissions string) {
	t.Helper()
	body := map[string]any{"type": permissions}
	if password != "" {
		body["password"] = password
	}
	b.call(t, http.MethodPut, "/skServer/security/users/"+url.PathEscape(userID), body, nil)
}

// DeleteUser deletes a user as clicking its row and pressing Delete do (at once, with no
// question).
func (b *SignalKBrowser) DeleteUser(t testing.TB, userID string) {
	t.Helper()
	b.call(t, http.MethodDelete, "/skServer/security/users/"+url.PathEscape(userID), nil, nil)
}

// SaveVessel saves the Vessel Base Data form (Server > Settings) as its Save does, its
// fields (name, mmsi, callsignVhf, length, aisShipType…) as the page loaded them but for
// changes.
func (b *SignalKBrowser) SaveVessel(t testing.TB, changes map[string]any) {
	t.Helper()
	form := map[string]any{}
	b.Get(t, "/skServer/vessel", &form)
	form["hasData"] = true
	for k, v := range changes {
		form[k] = v
	}
	b.call(t, http.MethodPut, "/skServer/vessel", form, nil)
}

// SaveServerSettings saves the Server Settings form (Server > Settings) as its Save does:
// the whole form as the page loaded it, changed by change first.
func (b *SignalKBrowser) SaveServerSettings(t testing.TB, change func(form map[string]any)) {
	t.Helper()
	form := map[string]any{}
	b.Get(t, "/skServer/settings", &form)
	form["hasData"] = true
	change(form)
	b.call(t, http.MethodPut, "/skServer/settings", form, nil)
}

// AddConnection saves a new data connection as the Data Connections page's Add, its form
// filled in (Data Type kind, ID id, the source's fields as options) and Apply do: enabled,
// with no data logging.
func (b *SignalKBrowser) AddConnection(t testing.TB, id, kind string, options map[string]any) {
	t.Helper()
	b.call(t, http.MethodPost, "/skServer/providers", map[string]any{"type": kind, "logging": false, "isNew": true, "id": id,
		"enabled": true, "options": options, "editable": true}, nil)
}

// SavePlugin saves a plugin's configuration as its form's Save Configuration does (the
// whole plugin-config-data file: configuration, enabled…).
func (b *SignalKBrowser) SavePlugin(t testing.TB, id string, data map[string]any) {
	t.Helper()
	b.call(t, http.MethodPost, "/skServer/plugins/"+url.PathEscape(id)+"/config", data, nil)
}

// SaveSecurity saves the Security > Settings form as its Save does: its five fields as
// the page loaded them, changed by change first, and the UI's own origin.
func (b *SignalKBrowser) SaveSecurity(t testing.TB, change func(form map[string]any)) {
	t.Helper()
	loaded := map[string]any{}
	b.Get(t, "/skServer/security/config", &loaded)
	form := map[string]any{"adminUIOrigin": b.w.Base}
	for _, k := range []string{"allow_readonly", "expiration", "allowNewUserRegistration", "allowDeviceAccessRequests", "allowedCorsOrigins"} {
		form[k] = loaded[k]
	}
	change(form)
	b.call(t, http.MethodPut, "/skServer/security/config", form, nil)
}
