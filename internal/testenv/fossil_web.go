package testenv

import (
	"bytes"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// FossilBrowser signs in to a Fossil server and posts its forms as a person's browser
// would (its cookie, the form's hidden fields, a Referer from the same origin): how the
// harness's own test does each goal's effect without the agent.
type FossilBrowser struct {
	f *Fossil
	c *http.Client
}

// SignIn posts the Login page's form with the administrator's password.
func (f *Fossil) SignIn(t testing.TB) *FossilBrowser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	b := &FossilBrowser{f: f, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	status, _, _ := b.Post(t, "/login", url.Values{"u": {f.User}, "p": {f.Password}, "in": {"Login"}})
	if status != http.StatusFound || len(jar.Cookies(mustURL(f.URL))) == 0 {
		t.Fatalf("fossil: signing in as %s answered %d with no cookie", f.User, status)
	}
	return b
}

func mustURL(s string) *url.URL { u, _ := url.Parse(s); return u }

// Get fetches a page and returns its body.
func (b *FossilBrowser) Get(t testing.TB, path string) string {
	t.Helper()
	resp, err := b.c.Get(b.f.URL + path)
	if err != nil {
		t.Fatalf("fossil: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)"`)

// Hidden is a page's hidden form fields (its CSRF token, a technote's new id, ...).
func (b *FossilBrowser) Hidden(t testing.TB, path string) url.Values {
	t.Helper()
	v := url.Values{}
	for _, m := range hiddenInput.FindAllStringSubmatch(b.Get(t, path), -1) {
		v.Set(m[1], html.UnescapeString(m[2]))
	}
	return v
}

// Submit fills the form on the page at path (its hidden fields, then fields) and posts it
// to action; it returns the status and where the server redirected.
func (b *FossilBrowser) Submit(t testing.TB, path, action string, fields url.Values) (int, string) {
	t.Helper()
	form := b.Hidden(t, path)
	for k, v := range fields {
		form[k] = v
	}
	status, loc, _ := b.Post(t, action, form)
	return status, loc
}

// Post posts a urlencoded form from the page itself.
func (b *FossilBrowser) Post(t testing.TB, path string, form url.Values) (int, string, string) {
	t.Helper()
	return b.send(t, path, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
}

// PostMultipart posts a multipart form, as the wiki editor's scripts do.
func (b *FossilBrowser) PostMultipart(t testing.TB, path string, fields map[string]string) (int, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	_ = w.Close()
	status, _, body := b.send(t, path, w.FormDataContentType(), &buf)
	return status, body
}

func (b *FossilBrowser) send(t testing.TB, path, ctype string, body io.Reader) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, b.f.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Referer", b.f.URL+path)
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("fossil: POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(out)
}
