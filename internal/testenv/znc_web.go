package testenv

import (
	"html"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

// ZNCBrowser uses a ZNC's web admin as a person's browser does: the session cookie its
// login form sets, each form's fields as the page fills them (its _CSRF_Check token
// among them), the button pressed, the links a page shows. It is how the harness's own
// test does each goal's effect without the agent.
type ZNCBrowser struct {
	w    *ZNC
	c    *http.Client
	page string
}

// ZNCWebAdmin is where the webadmin module's pages are.
const ZNCWebAdmin = "/mods/global/webadmin/"

// Browser is a browser with no session yet: SignIn signs it in through the login form.
func (w *ZNC) Browser() *ZNCBrowser {
	jar, _ := cookiejar.New(nil)
	return &ZNCBrowser{w: w, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the login page and sends its form with the admin's name and password, as
// a person who types them into User and Pass and presses Login does.
func (b *ZNCBrowser) SignIn(t testing.TB) {
	t.Helper()
	f := PhpLDAPadminFormOf(t, b.Open(t, "/"), `action="/login"`)
	f.Fields.Set("user", b.w.User)
	f.Fields.Set("pass", b.w.Password)
	if page := b.Send(t, f, ""); !strings.Contains(page, `href="`+ZNCWebAdmin+`listusers"`) {
		t.Fatalf("znc: signing in as %s did not:\n%s", b.w.User, page)
	}
}

// Page is the page the browser is on.
func (b *ZNCBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root), following redirects as a browser does,
// and returns the page it ends on. An answer of 400 or more fails the test.
func (b *ZNCBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

// Click follows the link on the page the browser is on whose address is href (as the
// page writes it, unescaped), after checking that the page shows it: the links of a list
// repeat their text ("Edit", "Del") on every row, so the address tells the rows apart.
func (b *ZNCBrowser) Click(t testing.TB, href string) string {
	t.Helper()
	if !strings.Contains(html.UnescapeString(b.page), `href="`+href+`"`) {
		t.Fatalf("znc: the page has no link to %s:\n%s", href, b.page)
	}
	return b.Open(t, href)
}

// Form is the form on the page the browser is on that is sent to action (a path).
func (b *ZNCBrowser) Form(t testing.TB, action string) *PhpLDAPadminForm {
	t.Helper()
	return PhpLDAPadminFormOf(t, b.page, `action="`+action+`"`)
}

// Send sends a form as a browser does when its button named button is pressed ("" for
// a button with no name), following the redirects of the answer, and returns the page it
// ends on. A page that says ZNC refused the change fails the test.
func (b *ZNCBrowser) Send(t testing.TB, f *PhpLDAPadminForm, button string) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	if button != "" {
		label, ok := f.Buttons[button]
		if !ok {
			t.Fatalf("znc: the form to %s has no button %q", f.Action, button)
		}
		values.Set(button, label)
	}
	page := b.follow(t, http.MethodPost, f.Action, values)
	if i := strings.Index(page, `<div class="errorbar"`); i >= 0 {
		t.Fatalf("znc: %s answered with an error: %s", f.Action, ZNCText(page[i:min(len(page), i+600)]))
	}
	return page
}

func (b *ZNCBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target := path
		if !strings.HasPrefix(path, "http") {
			target = strings.TrimSuffix(b.w.URL, "/") + "/" + strings.TrimPrefix(path, "/")
		}
		status, loc, body := sendForm(t, b.c, "znc", method, target, form, nil)
		switch {
		case status >= 400:
			t.Fatalf("znc: %s %s answered %d:\n%s", method, path, status, body)
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
		default:
			b.page = body
			return body
		}
	}
	t.Fatalf("znc: %s %s redirects too often", method, path)
	return ""
}

// ZNCText is a page's text as a person reads it: tags dropped, entities unescaped, white
// space folded.
func ZNCText(page string) string {
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}
