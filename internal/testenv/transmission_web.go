package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"
	"sync"
	"testing"
)

// transmissionRPC calls a daemon's JSON RPC as its web interface does: each request a POST
// of {"method", "arguments"} carrying the session id the daemon gave; a 409 answer gives a
// new one, and the request is sent again with it.
type transmissionRPC struct {
	url   string
	mu    sync.Mutex
	token string
}

// call sends one request and decodes its answer's arguments into out (when not nil); an
// error says the daemon could not be reached or answered other than "success".
func (r *transmissionRPC) call(method string, args, out any) error {
	req := map[string]any{"method": method}
	if args != nil {
		req["arguments"] = args
	}
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	for range 3 {
		r.mu.Lock()
		token := r.token
		r.mu.Unlock()
		hr, err := http.NewRequest(http.MethodPost, r.url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		hr.Header.Set("Content-Type", "json")
		if token != "" {
			hr.Header.Set("X-Transmission-Session-Id", token)
		}
		resp, err := http.DefaultClient.Do(hr)
		if err != nil {
			return fmt.Errorf("%s: %v", method, err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusConflict {
			r.mu.Lock()
			r.token = resp.Header.Get("X-Transmission-Session-Id")
			r.mu.Unlock()
			continue
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s answered %d: %s", method, resp.StatusCode, strings.TrimSpace(string(data)))
		}
		var answer struct {
			Result    string          `json:"result"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal(data, &answer); err != nil {
			return fmt.Errorf("%s: %v: %s", method, err, data)
		}
		if answer.Result != "success" {
			return fmt.Errorf("%s: %s", method, answer.Result)
		}
		if out != nil && len(answer.Arguments) > 0 {
			if err := json.Unmarshal(answer.Arguments, out); err != nil {
				return fmt.Errorf("%s: %v: %s", method, err, answer.Arguments)
			}
		}
		return nil
	}
	return fmt.Errorf("%s: the daemon kept asking for a new session id", method)
}

// TransmissionBrowser uses a Transmission's web interface as a person's browser does: the
// page, then the RPC requests its buttons, dialogs and menus send (with the session id the
// daemon hands the page), each naming torrents by the ids the page's list holds. It is how
// the judge's own test makes each goal's effect without the agent.
type TransmissionBrowser struct {
	w   *Transmission
	rpc *transmissionRPC
}

// Browser is a browser that has not opened the page yet.
func (w *Transmission) Browser() *TransmissionBrowser {
	return &TransmissionBrowser{w: w, rpc: &transmissionRPC{url: w.RPC}}
}

// Open loads the web interface's page and asks for the settings and the list, as the page
// does when it loads.
func (b *TransmissionBrowser) Open(t testing.TB) {
	t.Helper()
	resp, err := http.Get(b.w.URL)
	if err != nil {
		t.Fatalf("transmission: GET %s: %v", b.w.URL, err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "<title>Transmission Web Interface</title>") {
		t.Fatalf("transmission: the web interface answered %d:\n%s", resp.StatusCode, page)
	}
	b.Call(t, "session-get", nil, nil)
	b.List(t)
}

// Call sends one RPC request as the page's scripts do and decodes its answer into out
// (when not nil); an answer other than "success" fails the test.
func (b *TransmissionBrowser) Call(t testing.TB, method string, args, out any) {
	t.Helper()
	if err := b.rpc.call(method, args, out); err != nil {
		t.Fatalf("transmission: %v", err)
	}
}

// List is the torrents the page lists.
func (b *TransmissionBrowser) List(t testing.TB) []TransmissionTorrent {
	t.Helper()
	var out struct {
		Torrents []TransmissionTorrent `json:"torrents"`
	}
	b.Call(t, "torrent-get", map[string]any{"fields": transmissionFields}, &out)
	return out.Torrents
}

// Shown is the names of the torrents the list shows with "Show" set to Paused (filter
// "paused") or All ("all"), and the Filter box holding text (matched in any case).
func (b *TransmissionBrowser) Shown(t testing.TB, filter, text string) []string {
	t.Helper()
	var names []string
	for _, tt := range b.List(t) {
		if (filter == "paused" && !tt.Stopped()) || !strings.Contains(strings.ToLower(tt.Name), strings.ToLower(text)) {
			continue
		}
		names = append(names, tt.Name)
	}
	return names
}

// IDs are the ids of the torrents named, as selecting their rows in the list gives them.
func (b *TransmissionBrowser) IDs(t testing.TB, names ...string) []int {
	t.Helper()
	list := b.List(t)
	var ids []int
	for _, name := range names {
		found := false
		for _, tt := range list {
			if tt.Name == name {
				ids, found = append(ids, tt.ID), true
			}
		}
		if !found {
			t.Fatalf("transmission: the list has no torrent %q", name)
		}
	}
	return ids
}

// Pause selects the torrents named and clicks Pause Selected Torrents.
func (b *TransmissionBrowser) Pause(t testing.TB, names ...string) {
	t.Helper()
	b.Call(t, "torrent-stop", map[string]any{"ids": b.IDs(t, names...)}, nil)
}

// Start selects the torrents named and clicks Start Selected Torrents.
func (b *TransmissionBrowser) Start(t testing.TB, names ...string) {
	t.Helper()
	b.Call(t, "torrent-start", map[string]any{"ids": b.IDs(t, names...)}, nil)
}

// StartAll clicks Start All Torrents.
func (b *TransmissionBrowser) StartAll(t testing.TB) {
	t.Helper()
	var ids []int
	for _, tt := range b.List(t) {
		ids = append(ids, tt.ID)
	}
	b.Call(t, "torrent-start", map[string]any{"ids": ids}, nil)
}

// Remove removes the torrent named and confirms: from the list alone (the toolbar's
// Remove, or "Remove From List…"), or with its data ("Trash Data and Remove From List…").
func (b *TransmissionBrowser) Remove(t testing.TB, name string, data bool) {
	t.Helper()
	args := map[string]any{"ids": b.IDs(t, name)}
	if data {
		args["delete-local-data"] = true
	}
	b.Call(t, "torrent-remove", args, nil)
}

// SavePrefs saves settings as the Preferences dialog does when a box is ticked or a field
// left: its controls' ids are the settings' names.
func (b *TransmissionBrowser) SavePrefs(t testing.TB, settings map[string]any) {
	t.Helper()
	b.Call(t, "session-set", settings, nil)
	b.Call(t, "session-get", nil, nil)
}

// AddURL fills the Open dialog's "Or enter a URL:" with url and its "Destination folder:"
// with dir, ticks or unticks "Start when added" and clicks Upload.
func (b *TransmissionBrowser) AddURL(t testing.TB, url, dir string, start bool) {
	t.Helper()
	b.Call(t, "free-space", map[string]any{"path": dir}, nil)
	b.Call(t, "torrent-add", map[string]any{"paused": !start, "download-dir": dir, "filename": url}, nil)
}

// SetWanted ticks or unticks the "Download file" box of a torrent's file (its name within
// the torrent's folder) in the inspector's Files tab.
func (b *TransmissionBrowser) SetWanted(t testing.TB, torrent, file string, want bool) {
	t.Helper()
	for _, tt := range b.List(t) {
		if tt.Name != torrent {
			continue
		}
		for i, f := range tt.Files {
			if f.Name == path.Join(torrent, file) {
				command := "files-unwanted"
				if want {
					command = "files-wanted"
				}
				b.Call(t, "torrent-set", map[string]any{"ids": []int{tt.ID}, command: []int{i}}, nil)
				return
			}
		}
		t.Fatalf("transmission: %q has no file %q: %+v", torrent, file, tt.Files)
	}
	t.Fatalf("transmission: the list has no torrent %q", torrent)
}
