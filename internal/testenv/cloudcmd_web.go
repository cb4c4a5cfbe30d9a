package testenv

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// CloudcmdBrowser sends what Cloud Commander's own page sends for a person's actions: its
// pages (the root page and a folder's, /fs/PATH, which list both panels), and the REST
// calls of its dialogs and editor, under /api/v1: PUT fs/PATH?dir (New directory), PUT
// fs/PATH with the content (New file, and the editor's save), DELETE fs/PATH (Delete),
// PUT rename, copy and move with a JSON body of paths and names (Rename, Copy, Move).
// Paths are as the app shows them: from its root, starting with a slash. There is no
// sign-in. It is how the harness's own test does each goal's effect without the agent.
type CloudcmdBrowser struct {
	w *Cloudcmd
	c *http.Client
}

// Browser is a browser on no page yet.
func (w *Cloudcmd) Browser() *CloudcmdBrowser {
	return &CloudcmdBrowser{w: w, c: &http.Client{}}
}

// Open fetches a page or an asset (a path from the app's root) and returns its body. An
// answer of 400 or more fails the test.
func (b *CloudcmdBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.send(t, http.MethodGet, path, "")
}

// MakeDir makes the folder dir, as the New directory dialog's OK does.
func (b *CloudcmdBrowser) MakeDir(t testing.TB, dir string) {
	t.Helper()
	b.send(t, http.MethodPut, "/api/v1/fs"+cloudcmdEscape(dir)+"?dir", "")
}

// WriteFile makes the file path with content, or replaces its content: the New file
// dialog's OK (an empty file) and the editor's save.
func (b *CloudcmdBrowser) WriteFile(t testing.TB, path, content string) {
	t.Helper()
	b.send(t, http.MethodPut, "/api/v1/fs"+cloudcmdEscape(path), content)
}

// ReadFile is a file's content as the viewer and the editor load it.
func (b *CloudcmdBrowser) ReadFile(t testing.TB, path string) string {
	t.Helper()
	return b.send(t, http.MethodGet, "/api/v1/fs"+cloudcmdEscape(path), "")
}

// Delete deletes the file or folder path, as the Delete dialog's OK does.
func (b *CloudcmdBrowser) Delete(t testing.TB, path string) {
	t.Helper()
	b.send(t, http.MethodDelete, "/api/v1/fs"+cloudcmdEscape(path), "")
}

// Rename renames (or moves) from to to, as the Rename dialog's OK does.
func (b *CloudcmdBrowser) Rename(t testing.TB, from, to string) {
	t.Helper()
	b.sendJSON(t, "/api/v1/rename", map[string]any{"from": from, "to": to})
}

// Copy copies the files names of the folder from into the folder to (both ending with a
// slash), as the Copy dialog's OK does.
func (b *CloudcmdBrowser) Copy(t testing.TB, from, to string, names ...string) {
	t.Helper()
	b.sendJSON(t, "/api/v1/copy", map[string]any{"from": from, "to": to, "names": names})
}

// Move moves the files names of the folder from into the folder to (both ending with a
// slash), as the Rename/Move dialog's OK does.
func (b *CloudcmdBrowser) Move(t testing.TB, from, to string, names ...string) {
	t.Helper()
	b.sendJSON(t, "/api/v1/move", map[string]any{"from": from, "to": to, "names": names})
}

// sendJSON sends body as JSON with PUT to path.
func (b *CloudcmdBrowser) sendJSON(t testing.TB, path string, body any) {
	t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	b.send(t, http.MethodPut, path, string(data))
}

// send sends method to path with body ("" for none) and returns the answer's body; an
// answer of 400 or more fails the test.
func (b *CloudcmdBrowser) send(t testing.TB, method, path, body string) string {
	t.Helper()
	var in io.Reader
	if body != "" || method == http.MethodPut {
		in = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, b.w.Base+path, in)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("cloudcmd: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("cloudcmd: %s %s answered %d: %s", method, path, resp.StatusCode, out)
	}
	return string(out)
}

// cloudcmdEscape escapes each name of a path (from the root, with slashes) for a URL.
func cloudcmdEscape(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
