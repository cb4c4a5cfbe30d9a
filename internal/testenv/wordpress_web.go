package testenv

import (
	"bytes"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// WordPressBrowser signs in to a WordPress site and uses its pages as a person's browser
// does (its cookies, a form's fields as the page fills them, the links it shows, the
// block editor's REST requests with their nonce): how the harness's own test does each
// goal's effect without the agent.
type WordPressBrowser struct {
	w *WordPress
	c *http.Client
}

// SignIn opens /wp-login.php (which sets its test cookie) and posts its form with the
// administrator's password.
func (w *WordPress) SignIn(t testing.TB) *WordPressBrowser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	b := &WordPressBrowser{w: w, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	b.Get(t, "/wp-login.php")
	status, loc, _ := b.Post(t, "/wp-login.php", url.Values{"log": {w.User}, "pwd": {w.Password}, "wp-submit": {"Log In"},
		"redirect_to": {w.URL + "/wp-admin/"}, "testcookie": {"1"}})
	if status != http.StatusFound || !strings.Contains(loc, "/wp-admin/") {
		t.Fatalf("wordpress: signing in as %s answered %d (to %q)", w.User, status, loc)
	}
	return b
}

// Get fetches a page (path from the site's root, or a whole URL) and returns its body.
func (b *WordPressBrowser) Get(t testing.TB, path string) string {
	t.Helper()
	status, _, body := b.do(t, http.MethodGet, path, "", nil, nil)
	if status >= 400 {
		t.Fatalf("wordpress: GET %s answered %d", path, status)
	}
	return body
}

// Post posts a urlencoded form and returns the status, the redirect and the body.
func (b *WordPressBrowser) Post(t testing.TB, path string, form url.Values) (int, string, string) {
	t.Helper()
	return b.do(t, http.MethodPost, path, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), nil)
}

// REST sends a JSON request to WordPress's REST API as the block editor does: its route
// (e.g. /wp/v2/posts) through ?rest_route=, with the nonce the dashboard gives scripts.
// It returns the status and the answer's body.
func (b *WordPressBrowser) REST(t testing.TB, method, route string, body any) (int, string) {
	t.Helper()
	nonce := strings.TrimSpace(b.Get(t, "/wp-admin/admin-ajax.php?action=rest-nonce"))
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	status, _, out := b.do(t, method, "/?rest_route="+url.QueryEscape(route), "application/json", bytes.NewReader(data),
		map[string]string{"X-WP-Nonce": nonce})
	return status, out
}

func (b *WordPressBrowser) do(t testing.TB, method, path, ctype string, body io.Reader, header map[string]string) (int, string, string) {
	t.Helper()
	target := path
	if !strings.HasPrefix(path, "http") {
		target = b.w.URL + path
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Referer", target)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("wordpress: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(out)
}

var (
	wpControl  = regexp.MustCompile(`(?s)<input\b[^>]*>|<select\b[^>]*>.*?</select>|<textarea\b[^>]*>.*?</textarea>`)
	wpAttr     = regexp.MustCompile(`([a-zA-Z_:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?`)
	wpOption   = regexp.MustCompile(`(?s)<option\b([^>]*)>`)
	wpTextarea = regexp.MustCompile(`(?s)<textarea\b[^>]*>(.*?)</textarea>`)
)

// Form reads the form on the page at path whose opening tag contains marker (e.g.
// `id="addtag"`): its fields as the page fills them — text and hidden fields with their
// values, the checked boxes and radio buttons, each list's selected option (or its first),
// text areas — and no buttons.
func (b *WordPressBrowser) Form(t testing.TB, path, marker string) url.Values {
	t.Helper()
	page := b.Get(t, path)
	re := regexp.MustCompile(`(?s)<form\b[^>]*` + regexp.QuoteMeta(marker) + `[^>]*>(.*?)</form>`)
	m := re.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("wordpress: no form %s on %s", marker, path)
	}
	form := url.Values{}
	for _, c := range wpControl.FindAllString(m[1], -1) {
		attrs := tagAttrs(c[:strings.IndexByte(c, '>')+1])
		name := attrs["name"]
		if name == "" {
			continue
		}
		switch {
		case strings.HasPrefix(c, "<select"):
			opts := wpOption.FindAllStringSubmatch(c, -1)
			for i, o := range opts {
				oa := tagAttrs(o[1])
				if _, sel := oa["selected"]; sel || (i == 0 && !strings.Contains(c, "selected")) {
					form.Set(name, oa["value"])
				}
			}
		case strings.HasPrefix(c, "<textarea"):
			form.Set(name, html.UnescapeString(wpTextarea.FindStringSubmatch(c)[1]))
		default:
			typ := strings.ToLower(attrs["type"])
			_, checked := attrs["checked"]
			switch {
			case typ == "submit" || typ == "button" || typ == "image" || typ == "reset":
			case (typ == "checkbox" || typ == "radio") && !checked:
			default:
				form.Add(name, attrs["value"])
			}
		}
	}
	return form
}

// tagAttrs are a tag's attributes, unescaped (an attribute with no value maps to "").
func tagAttrs(tag string) map[string]string {
	out := map[string]string{}
	tag = strings.TrimSuffix(strings.TrimPrefix(tag, "<"), ">")
	if i := strings.IndexAny(tag, " \t\n"); i >= 0 {
		tag = tag[i:]
	} else {
		return out
	}
	for _, a := range wpAttr.FindAllStringSubmatch(tag, -1) {
		name := strings.ToLower(a[1])
		if _, seen := out[name]; !seen {
			out[name] = html.UnescapeString(a[2] + a[3] + a[4])
		}
	}
	return out
}

// Link finds on the page at path the first link whose address matches re (written
// against the address as the page escapes it) and returns it unescaped.
func (b *WordPressBrowser) Link(t testing.TB, path string, re *regexp.Regexp) string {
	t.Helper()
	m := re.FindString(b.Get(t, path))
	if m == "" {
		t.Fatalf("wordpress: no link %s on %s", re, path)
	}
	return html.UnescapeString(m)
}
