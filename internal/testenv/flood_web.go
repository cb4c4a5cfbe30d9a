package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// FloodBrowser uses a Flood as a person's browser does: the page, then the REST requests
// its sign-in form, list, menus, dialogs and sidebar send, with the session cookie Flood
// sets when one signs in, each naming torrents by the hashes the page's list holds. It is
// how the judge's own test makes each goal's effect without the agent.
type FloodBrowser struct {
	w      *Flood
	client *http.Client
}

// Browser is a browser with no cookies, not signed in.
func (w *Flood) Browser() *FloodBrowser {
	jar, _ := cookiejar.New(nil)
	return &FloodBrowser{w: w, client: &http.Client{Jar: jar}}
}

// do sends one request (body as JSON when not nil) and returns the answer's status and
// body; a request that cannot be sent fails the test.
func (b *FloodBrowser) do(t testing.TB, method, path string, body any) (int, []byte) {
	t.Helper()
	var in io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		in = bytes.NewReader(data)
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
		t.Fatalf("flood: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// call sends one API request as the page's scripts do and decodes its answer into out
// (when not nil); an answer other than 200 fails the test.
func (b *FloodBrowser) call(t testing.TB, method, path string, body, out any) {
	t.Helper()
	status, data := b.do(t, method, path, body)
	if status != http.StatusOK {
		t.Fatalf("flood: %s %s answered %d: %s", method, path, status, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("flood: %s %s: %v: %s", method, path, err, data)
		}
	}
}

// Open loads a page or an asset and returns it; an answer other than 200 fails the test.
func (b *FloodBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	status, data := b.do(t, http.MethodGet, path, nil)
	if status != http.StatusOK {
		t.Fatalf("flood: GET %s answered %d: %s", path, status, data)
	}
	return string(data)
}

// Assets are the scripts and stylesheets the page loads, as its HTML names them.
func (b *FloodBrowser) Assets(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, m := range regexp.MustCompile(`(?:src|href)="\.?/?(assets/[^"]+\.(?:js|css))"`).FindAllStringSubmatch(b.Open(t, "/"), -1) {
		out = append(out, "/"+m[1])
	}
	return out
}

// SignIn loads the page, which asks whether it is signed in, and sends the Login form
// with admin's Username and Password ("Log In").
func (b *FloodBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, "/")
	if status, data := b.do(t, http.MethodGet, "/api/auth/verify", nil); status != http.StatusUnauthorized {
		t.Fatalf("flood: before signing in /api/auth/verify answered %d: %s", status, data)
	}
	var signed struct {
		Success bool `json:"success"`
	}
	b.call(t, http.MethodPost, "/api/auth/authenticate", map[string]string{"username": b.w.User, "password": b.w.Password}, &signed)
	if !signed.Success {
		t.Fatalf("flood: signing in as %s failed", b.w.User)
	}
	b.call(t, http.MethodGet, "/api/auth/verify", nil, nil)
}

// floodListed is one torrent of Flood's list (the fields the page's rows show).
type floodListed struct {
	Hash   string   `json:"hash"`
	Name   string   `json:"name"`
	Status []string `json:"status"`
	Tags   []string `json:"tags"`
}

// List is the torrents the page lists, by name.
func (b *FloodBrowser) List(t testing.TB) map[string]floodListed {
	t.Helper()
	var out struct {
		Torrents map[string]floodListed `json:"torrents"`
	}
	b.call(t, http.MethodGet, "/api/torrents", nil, &out)
	list := map[string]floodListed{}
	for _, tt := range out.Torrents {
		list[tt.Name] = tt
	}
	return list
}

// Shown is the names of the torrents the list shows with the sidebar's "Search torrents"
// box holding search: as Flood matches, each of its words (split at spaces and commas) a
// case-insensitive pattern the name holds. They are sorted.
func (b *FloodBrowser) Shown(t testing.TB, search string) []string {
	t.Helper()
	var names []string
	for name := range b.List(t) {
		matched := name == search
		if !matched {
			matched = true
			for _, word := range strings.Split(strings.ReplaceAll(search, ",", " "), " ") {
				if re, err := regexp.Compile("(?i)" + word); err == nil && !re.MatchString(name) {
					matched = false
				}
			}
		}
		if matched {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Tags is a listed torrent's tags, as its row shows them.
func (b *FloodBrowser) Tags(t testing.TB, name string) []string {
	t.Helper()
	tt, ok := b.List(t)[name]
	if !ok {
		t.Fatalf("flood: the list has no torrent %q", name)
	}
	return tt.Tags
}

// hashes are the hashes of the torrents named, as selecting their rows gives them.
func (b *FloodBrowser) hashes(t testing.TB, names ...string) []string {
	t.Helper()
	list := b.List(t)
	var out []string
	for _, name := range names {
		tt, ok := list[name]
		if !ok {
			t.Fatalf("flood: the list has no torrent %q", name)
		}
		out = append(out, tt.Hash)
	}
	return out
}

// Start selects the torrents named and clicks "Start Torrent" (or the rows' menu "Start").
func (b *FloodBrowser) Start(t testing.TB, names ...string) {
	t.Helper()
	b.call(t, http.MethodPost, "/api/torrents/start", map[string]any{"hashes": b.hashes(t, names...)}, nil)
}

// Stop selects the torrents named and clicks "Stop Torrent" (or the rows' menu "Stop").
func (b *FloodBrowser) Stop(t testing.TB, names ...string) {
	t.Helper()
	b.call(t, http.MethodPost, "/api/torrents/stop", map[string]any{"hashes": b.hashes(t, names...)}, nil)
}

// Remove selects the torrent named, clicks "Remove Torrent", leaves "Delete data" ticked
// (data) or unticks it, and clicks "Yes".
func (b *FloodBrowser) Remove(t testing.TB, name string, data bool) {
	t.Helper()
	b.call(t, http.MethodPost, "/api/torrents/delete", map[string]any{"hashes": b.hashes(t, name), "deleteData": data}, nil)
}

// SetTags opens the row's menu on the torrent named, clicks "Set Tags", leaves tags in the
// dialog's box and clicks its "Set Tags" button.
func (b *FloodBrowser) SetTags(t testing.TB, name string, tags ...string) {
	t.Helper()
	b.call(t, http.MethodPatch, "/api/torrents/tags", map[string]any{"hashes": b.hashes(t, name), "tags": tags}, nil)
}

// ClientSettings is what Settings' tabs show of the client's settings.
func (b *FloodBrowser) ClientSettings(t testing.TB) map[string]any {
	t.Helper()
	var out map[string]any
	b.call(t, http.MethodGet, "/api/client/settings", nil, &out)
	return out
}

// SaveSettings sends what Settings' "Save Settings" sends of the client's settings: each
// field changed, by its id, its value as the box holds it (text).
func (b *FloodBrowser) SaveSettings(t testing.TB, changed map[string]any) {
	t.Helper()
	b.call(t, http.MethodPatch, "/api/client/settings", changed, nil)
	b.ClientSettings(t)
}

// SpeedLimit picks a speed in the sidebar's "Speed Limits" menu, under DOWNLOAD
// ("download") or UPLOAD ("upload"), in bytes per second (0: Unlimited).
func (b *FloodBrowser) SpeedLimit(t testing.TB, direction string, bytes int) {
	t.Helper()
	key := map[string]string{"download": "throttleGlobalDownSpeed", "upload": "throttleGlobalUpSpeed"}[direction]
	if key == "" {
		t.Fatalf("flood: no speed limit %q", direction)
	}
	b.call(t, http.MethodPatch, "/api/client/settings", map[string]any{key: bytes}, nil)
}
