package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"
)

// QBittorrentBrowser sends the requests the Web UI's own pages send: the login page's
// api/v2/auth/login, then the GETs that fill the torrent list, the sidebar and the Options
// window and the POSTs its menus and dialogs make (torrents/pause, torrents/setCategory,
// torrents/rename, torrents/delete, torrents/createCategory, app/setPreferences, and the
// "Add Torrent Link..." dialog's form to torrents/add), with the session cookie (SID) the
// login sets and the Referer and Origin a browser adds (the Web UI refuses a POST
// without them: its CSRF protection). It is how the harness seeds and reads an instance,
// and how its own test does each goal's effect without the agent.
type QBittorrentBrowser struct {
	q *QBittorrent
	c *http.Client
}

// Browser is a browser with no session yet: SignIn signs it in through the login page.
func (q *QBittorrent) Browser() *QBittorrentBrowser {
	jar, _ := cookiejar.New(nil)
	return &QBittorrentBrowser{q: q, c: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// SignIn opens the login page and sends what its form sends once Username and Password
// are typed and Login is pressed; the Web UI answers "Ok." and sets the session cookie.
func (b *QBittorrentBrowser) SignIn(t testing.TB) {
	t.Helper()
	if page := b.Open(t, ""); !strings.Contains(page, `id="loginform"`) {
		t.Fatalf("qbittorrent: the login page has no login form:\n%s", page)
	}
	if answer := b.Post(t, "api/v2/auth/login", map[string]string{"username": b.q.User, "password": b.q.Password}); answer != "Ok." {
		t.Fatalf("qbittorrent: signing in as %s answered %q", b.q.User, answer)
	}
}

// Open fetches a page or a dialog's page (a path from the root) and returns it; an answer
// other than 200 fails the test.
func (b *QBittorrentBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	status, body := b.send(t, http.MethodGet, path, "", nil)
	if status != http.StatusOK {
		t.Fatalf("qbittorrent: GET %s answered %d: %s", path, status, body)
	}
	return body
}

// Post sends fields url-encoded to an API path, as the Web UI's scripts do, and returns
// the answer; an answer other than 200 fails the test.
func (b *QBittorrentBrowser) Post(t testing.TB, path string, fields map[string]string) string {
	t.Helper()
	form := url.Values{}
	for k, v := range fields {
		form.Set(k, v)
	}
	status, body := b.send(t, http.MethodPost, path, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if status != http.StatusOK {
		t.Fatalf("qbittorrent: POST %s %v answered %d: %s", path, fields, status, body)
	}
	return body
}

// SetPreferences sends preferences as the Options window's Save does (app/setPreferences,
// its json field).
func (b *QBittorrentBrowser) SetPreferences(t testing.TB, prefs map[string]any) {
	t.Helper()
	raw, err := json.Marshal(prefs)
	if err != nil {
		t.Fatal(err)
	}
	b.Post(t, "api/v2/app/setPreferences", map[string]string{"json": string(raw)})
}

// Upload sends fields and one file (field file, named filename) as multipart/form-data, as
// the "Add Torrent File..." dialog's form does, and fails the test unless it is taken.
func (b *QBittorrentBrowser) Upload(t testing.TB, path string, fields map[string]string, file, filename string, data []byte) {
	t.Helper()
	form := url.Values{}
	for k, v := range fields {
		form.Set(k, v)
	}
	b.SendMultipart(t, path, form, file, filename, data)
}

// SendMultipart sends a form's fields (and, with a file field, one file) as
// multipart/form-data, as a form with that encoding does when it is submitted; an answer
// other than "Ok." fails the test.
func (b *QBittorrentBrowser) SendMultipart(t testing.TB, path string, fields url.Values, file, filename string, data []byte) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, vs := range fields {
		for _, v := range vs {
			if err := w.WriteField(k, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	if file != "" {
		part, err := w.CreateFormFile(file, filename)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = part.Write(data)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	status, answer := b.send(t, http.MethodPost, path, w.FormDataContentType(), &body)
	if status != http.StatusOK || answer != "Ok." {
		t.Fatalf("qbittorrent: POST %s answered %d: %s", path, status, answer)
	}
}

// send sends one request with the session cookie and a browser's Referer and Origin.
func (b *QBittorrentBrowser) send(t testing.TB, method, path, contentType string, body io.Reader) (int, string) {
	t.Helper()
	status, out, err := b.do(method, path, contentType, body)
	if err != nil {
		t.Fatalf("qbittorrent: %v", err)
	}
	return status, out
}

func (b *QBittorrentBrowser) do(method, path, contentType string, body io.Reader) (int, string, error) {
	req, err := http.NewRequest(method, b.q.URL+strings.TrimPrefix(path, "/"), body)
	if err != nil {
		return 0, "", err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Referer", b.q.URL)
	req.Header.Set("Origin", strings.TrimSuffix(b.q.URL, "/"))
	resp, err := b.c.Do(req)
	if err != nil {
		return 0, "", fmt.Errorf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out), nil
}

// get fetches an API path's JSON into out.
func (b *QBittorrentBrowser) get(path string, out any) error {
	status, body, err := b.do(http.MethodGet, path, "", nil)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("GET %s answered %d: %s", path, status, body)
	}
	if err := json.Unmarshal([]byte(body), out); err != nil {
		return fmt.Errorf("GET %s: %v: %s", path, err, body)
	}
	return nil
}

// Into fetches an API path's JSON into out, as the Web UI's scripts do to fill a list or a
// dialog; a failure fails the test.
func (b *QBittorrentBrowser) Into(t testing.TB, path string, out any) {
	t.Helper()
	if err := b.get(path, out); err != nil {
		t.Fatalf("qbittorrent: %v", err)
	}
}
