package testenv

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// DecapBrowser sends the requests Decap CMS's admin page sends: the page itself and its
// files from the admin server, and its calls to decap-server's API (a JSON body with an
// action and its params, on the repository's branch main), which is how every change the
// page makes reaches the repository.
type DecapBrowser struct{ w *Decap }

// DecapEntry is one entry as decap-server lists it: its file's path and content.
type DecapEntry struct {
	Path, Raw string
}

// Browser is a new client of the instance.
func (w *Decap) Browser() *DecapBrowser { return &DecapBrowser{w: w} }

// Open fetches a file of the admin server (path from its root, e.g. /admin/config.yml)
// and returns its body; an answer other than 200 fails the test.
func (b *DecapBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	url := strings.TrimSuffix(b.w.URL, "/admin/") + path
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("decap: GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("decap: GET %s: %s", url, resp.Status)
	}
	return string(body)
}

// call sends one action with its params (branch main added) and decodes the answer into
// out (when not nil); an answer other than 200 fails the test.
func (b *DecapBrowser) call(t testing.TB, action string, params map[string]any, out any) {
	t.Helper()
	body := map[string]any{"action": action}
	if params != nil {
		params["branch"] = "main"
		body["branch"], body["params"] = "main", params
	}
	status, answer := callJSON(t, http.MethodPost, b.w.APIURL, body, nil)
	if status != http.StatusOK {
		t.Fatalf("decap: %s: %d %s\n%s", action, status, answer, b.w.Output())
	}
	if out != nil {
		if err := json.Unmarshal(answer, out); err != nil {
			t.Fatalf("decap: %s: %v: %s", action, err, answer)
		}
	}
}

// Login is what the page's Login button does with the local backend: it asks
// decap-server what it serves, and fails the test unless it is the git repository.
func (b *DecapBrowser) Login(t testing.TB) {
	t.Helper()
	var info struct {
		Type  string   `json:"type"`
		Modes []string `json:"publish_modes"`
	}
	b.call(t, "info", nil, &info)
	if info.Type != "local_git" {
		t.Fatalf("decap: decap-server serves %q, not a local git repository", info.Type)
	}
}

// Entries lists a folder collection's entries as its page does (folder content/posts,
// extension md).
func (b *DecapBrowser) Entries(t testing.TB, folder, extension string) []DecapEntry {
	t.Helper()
	var list []struct {
		Data string `json:"data"`
		File struct {
			Path string `json:"path"`
		} `json:"file"`
	}
	b.call(t, "entriesByFolder", map[string]any{"folder": folder, "extension": extension, "depth": 1}, &list)
	entries := make([]DecapEntry, len(list))
	for i, e := range list {
		entries[i] = DecapEntry{Path: e.File.Path, Raw: e.Data}
	}
	return entries
}

// Find is the entry of a folder collection whose field (e.g. title) is value, as the
// list shows it; none fails the test.
func (b *DecapBrowser) Find(t testing.TB, folder, extension, field, value string) DecapEntry {
	t.Helper()
	for _, e := range b.Entries(t, folder, extension) {
		fields, err := DecapFields(e.Path, e.Raw)
		if err == nil && fields[field] == value {
			return e
		}
	}
	t.Fatalf("decap: no entry of %s has %s %q", folder, field, value)
	return DecapEntry{}
}

// Entry reads one file's entry as the editor does when it opens it.
func (b *DecapBrowser) Entry(t testing.TB, path string) DecapEntry {
	t.Helper()
	var e struct {
		Data string `json:"data"`
		File struct {
			Path string `json:"path"`
		} `json:"file"`
	}
	b.call(t, "getEntry", map[string]any{"path": path}, &e)
	return DecapEntry{Path: e.File.Path, Raw: e.Data}
}

// Publish is the editor's "Publish now": it writes the entry's file (raw, at path, its
// slug slug) and decap-server commits it, with the message the page writes ("Create Post
// “slug”" for a new entry, "Update … " for an existing one). collection is the
// collection's name, label its singular label.
func (b *DecapBrowser) Publish(t testing.TB, collection, label, slug, path, raw string, newEntry bool) {
	t.Helper()
	verb := "Update"
	if newEntry {
		verb = "Create"
	}
	b.call(t, "persistEntry", map[string]any{
		"dataFiles": []map[string]any{{"path": path, "slug": slug, "raw": raw}},
		"assets":    []any{},
		"options": map[string]any{"newEntry": newEntry, "commitMessage": fmt.Sprintf("%s %s “%s”", verb, label, slug),
			"collectionName": collection, "useWorkflow": false, "hasSubfolders": true, "unpublished": false, "status": "draft"},
	}, nil)
}

// Delete is the editor's "Delete entry", confirmed: decap-server removes the entry's file
// and commits it with the page's message ("Delete Post “slug”").
func (b *DecapBrowser) Delete(t testing.TB, label, slug, path string) {
	t.Helper()
	b.call(t, "deleteFiles", map[string]any{"paths": []string{path},
		"options": map[string]any{"commitMessage": fmt.Sprintf("Delete %s “%s”", label, slug)}}, nil)
}

// probe says "" once decap-server answers as the local git backend and lists the seed's
// posts, else what it lacks; it never fails the test.
func (b *DecapBrowser) probe() string {
	body := map[string]any{"action": "entriesByFolder", "branch": "main",
		"params": map[string]any{"branch": "main", "folder": "content/posts", "extension": "md", "depth": 1}}
	data, _ := json.Marshal(body)
	resp, err := http.Post(b.w.APIURL, "application/json", strings.NewReader(string(data)))
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	var list []json.RawMessage
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || json.Unmarshal(answer, &list) != nil {
		return fmt.Sprintf("entriesByFolder: %s %s", resp.Status, answer)
	}
	if len(list) != len(DecapSeedPosts) {
		return fmt.Sprintf("decap-server lists %d posts, not %d", len(list), len(DecapSeedPosts))
	}
	return ""
}
