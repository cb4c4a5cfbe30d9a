package testenv

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// IkiWikiBrowser signs in to an ikiwiki and posts its CGI forms as a person's browser
// would (its session cookie, each form's hidden fields, the button pressed): how the
// harness's own test does each goal's effect without the agent.
type IkiWikiBrowser struct {
	w *IkiWiki
	c *http.Client
}

// Browser is a browser with no session yet: the first page that asks for a sign-in is
// answered by Open, as a person signs in when ikiwiki asks.
func (w *IkiWiki) Browser() *IkiWikiBrowser {
	jar, _ := cookiejar.New(nil)
	return &IkiWikiBrowser{w: w, c: &http.Client{Jar: jar}}
}

// Open fetches a page; where ikiwiki answers with its sign-in form, it signs in there
// (passwordauth's Login button) and returns the page ikiwiki goes on to.
func (b *IkiWikiBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	page := b.Get(t, path)
	if !strings.Contains(page, `id="signin"`) {
		return page
	}
	status, body := b.Press(t, page, "Login", url.Values{"name": {b.w.User}, "password": {b.w.Password}})
	if status != http.StatusOK || strings.Contains(body, `id="signin"`) {
		t.Fatalf("ikiwiki: signing in as %s answered %d:\n%s", b.w.User, status, body)
	}
	return body
}

// Get fetches a page and returns its body.
func (b *IkiWikiBrowser) Get(t testing.TB, path string) string {
	t.Helper()
	resp, err := b.c.Get(b.w.URL + path)
	if err != nil {
		t.Fatalf("ikiwiki: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

// Press fills the page's post form (what a browser would send: its hidden and text
// fields, text areas and each list's selected option, then fields) and presses the
// submit button whose label is button. It returns the status and body of the page it
// ends on (redirects followed).
func (b *IkiWikiBrowser) Press(t testing.TB, page, button string, fields url.Values) (int, string) {
	t.Helper()
	form := PostForm(page)
	if form == nil {
		t.Fatalf("ikiwiki: the page has no form to press %q on:\n%s", button, page)
	}
	for k, v := range fields {
		form[k] = v
	}
	form.Set("_submit", button)
	resp, err := b.c.PostForm(b.w.CGI, form)
	if err != nil {
		t.Fatalf("ikiwiki: pressing %q: %v", button, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

var (
	postFormRe = regexp.MustCompile(`(?s)<form[^>]*method="post"[^>]*>(.*?)</form>`)
	inputRe    = regexp.MustCompile(`<input\s[^>]*>`)
	textareaRe = regexp.MustCompile(`(?s)<textarea\s[^>]*name="([^"]+)"[^>]*>(.*?)</textarea>`)
	selectRe   = regexp.MustCompile(`(?s)<select\s[^>]*name="([^"]+)"[^>]*>(.*?)</select>`)
	optionRe   = regexp.MustCompile(`<option\s([^>]*)>`)
	attrRe     = regexp.MustCompile(`([a-z_]+)="([^"]*)"`)
)

// PostForm reads the page's first post form as a browser sends it, the submit buttons
// left out; nil when the page has none.
func PostForm(page string) url.Values {
	m := postFormRe.FindStringSubmatch(page)
	if m == nil {
		return nil
	}
	v := url.Values{}
	for _, in := range inputRe.FindAllString(m[1], -1) {
		a := attrs(in)
		if a["name"] != "" && a["type"] != "submit" && a["type"] != "checkbox" {
			v.Set(a["name"], a["value"])
		}
	}
	for _, ta := range textareaRe.FindAllStringSubmatch(m[1], -1) {
		v.Set(ta[1], html.UnescapeString(ta[2]))
	}
	for _, sel := range selectRe.FindAllStringSubmatch(m[1], -1) {
		// A list with several options marked selected shows (and sends) the last.
		for _, o := range optionRe.FindAllStringSubmatch(sel[2], -1) {
			if a := attrs(o[0]); a["selected"] != "" {
				v.Set(sel[1], a["value"])
			}
		}
	}
	return v
}

func attrs(tag string) map[string]string {
	a := map[string]string{}
	for _, m := range attrRe.FindAllStringSubmatch(tag, -1) {
		a[m[1]] = html.UnescapeString(m[2])
	}
	return a
}

// IkiWikiUserInfo is what the user database (srcdir/.ikiwiki/userdb, a Perl Storable file)
// keeps of one user.
type IkiWikiUserInfo struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// Users reads the user database with Perl's Storable: name → what it keeps.
func (w *IkiWiki) Users(t testing.TB) map[string]IkiWikiUserInfo {
	t.Helper()
	out, err := exec.Command("perl", "-MStorable", "-MJSON::PP", "-e",
		`print JSON::PP->new->canonical->encode(Storable::retrieve($ARGV[0]))`,
		filepath.Join(w.Src, ".ikiwiki", "userdb")).Output()
	if err != nil {
		t.Fatalf("ikiwiki: reading the user database: %v", err)
	}
	users := map[string]IkiWikiUserInfo{}
	if err := json.Unmarshal(out, &users); err != nil {
		t.Fatalf("ikiwiki: the user database: %v\n%s", err, out)
	}
	return users
}
