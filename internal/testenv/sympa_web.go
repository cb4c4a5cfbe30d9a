package testenv

import (
	"html"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// SympaBrowser uses WWSympa's pages as a person's browser does with scripts off: the
// session cookie its login form sets, each form's fields as the page fills them (its
// csrftoken among them), the button pressed. WWSympa's forms have no names, so a form is
// told apart by a marker it holds (a button's or a field's name). It is how the harness's
// own test does each goal's effect without the agent.
type SympaBrowser struct {
	w    *Sympa
	c    *http.Client
	page string
}

// Browser is a browser with no session yet: SignIn signs it in through the login form.
func (w *Sympa) Browser() *SympaBrowser {
	jar, _ := cookiejar.New(nil)
	return &SympaBrowser{w: w, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the login page and sends its form with the listmaster's email address and
// password, as a person who types them into "email address" and "password" and presses
// Login does.
func (b *SympaBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, "/login")
	f := b.Form(t, `name="passwd"`)
	f.Fields.Set("email", b.w.Email)
	f.Fields.Set("passwd", b.w.Password)
	if page := SympaText(b.Send(t, f, "action_login")); !strings.Contains(page, "Logout") || !strings.Contains(page, "Listmaster Admin") {
		t.Fatalf("sympa: signing in as %s did not: %s", b.w.Email, page)
	}
}

// Sympa is the instance the browser uses.
func (b *SympaBrowser) Sympa() *Sympa { return b.w }

// Page is the page the browser is on.
func (b *SympaBrowser) Page() string { return b.page }

// Open fetches a page (a path under WWSympa's root, e.g. /review/choir, or a whole
// address), following redirects as a browser does, and returns the page it ends on. An
// answer of 400 or more fails the test.
func (b *SympaBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

var (
	sympaFormRe   = regexp.MustCompile(`(?s)<form\b[^>]*>.*?</form>`)
	sympaButtonRe = regexp.MustCompile(`(?s)<button\b[^>]*>`)
)

// Form is the first form on the page the browser is on that holds marker: its fields as
// the page fills them and its buttons (<input type="submit"> and <button> alike).
func (b *SympaBrowser) Form(t testing.TB, marker string) *PhpLDAPadminForm {
	t.Helper()
	for _, form := range sympaFormRe.FindAllString(b.page, -1) {
		if !strings.Contains(form, marker) {
			continue
		}
		f := PhpLDAPadminFormOf(t, form, "")
		for _, tag := range sympaButtonRe.FindAllString(form, -1) {
			if a := tagAttrs(tag); a["name"] != "" && a["type"] != "button" {
				f.Buttons[a["name"]] = a["value"]
			}
		}
		return f
	}
	t.Fatalf("sympa: the page has no form with %s: %s", marker, SympaText(b.page))
	return nil
}

// Send sends a form as a browser does when its button named button is pressed, following
// the redirects of the answer, and returns the page it ends on. A page that shows one of
// WWSympa's error messages fails the test.
func (b *SympaBrowser) Send(t testing.TB, f *PhpLDAPadminForm, button string) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	label, ok := f.Buttons[button]
	if !ok {
		t.Fatalf("sympa: the form to %s has no button %q", f.Action, button)
	}
	values.Set(button, label)
	page := b.follow(t, http.MethodPost, f.Action, values)
	if text := SympaText(page); strings.Contains(text, "ERROR (") {
		t.Fatalf("sympa: %s answered with an error: %s", button, text)
	}
	return page
}

func (b *SympaBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target := path
		if !strings.HasPrefix(path, "http") {
			u, _ := url.Parse(b.w.URL)
			if strings.HasPrefix(path, u.Path) {
				u.Path = path
			} else {
				u.Path += path
			}
			if i := strings.IndexByte(u.Path, '?'); i >= 0 {
				u.RawQuery, u.Path = u.Path[i+1:], u.Path[:i]
			}
			target = u.String()
		}
		status, loc, body := sendForm(t, b.c, "sympa", method, target, form, nil)
		switch {
		case status >= 400:
			t.Fatalf("sympa: %s %s answered %d: %s", method, path, status, SympaText(body))
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
		default:
			b.page = body
			return body
		}
	}
	t.Fatalf("sympa: %s %s redirects too often", method, path)
	return ""
}

var sympaScript = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)>|<!--.*?-->`)

// SympaText is a page's text as a person reads it: scripts and comments dropped, tags
// dropped, entities unescaped, white space folded.
func SympaText(page string) string {
	page = sympaScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}
