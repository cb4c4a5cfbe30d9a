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

// DAViCalBrowser uses a DAViCal's admin pages as a person's browser does: the session
// cookie its login form sets, each form's fields as the page fills them (its csrf_token
// among them), the button pressed, the links a page shows. A page holds several forms (a
// principal's details, its group members, its grants, its tickets), each told apart by its
// button. It is how the harness's own test does each goal's effect without the agent.
type DAViCalBrowser struct {
	d    *DAViCal
	c    *http.Client
	page string
	at   *url.URL // the page's address: a form with no action is sent back to it
}

// Browser is a browser with no session yet: SignIn signs it in through the login form.
func (d *DAViCal) Browser() *DAViCalBrowser {
	jar, _ := cookiejar.New(nil)
	return &DAViCalBrowser{d: d, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the login page and sends its form with admin's name and password, as a
// person who types them into User Name and Password and presses GO! does.
func (b *DAViCalBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, "/")
	f := b.Form(t, "submit")
	f.Fields.Set("username", b.d.User)
	f.Fields.Set("password", b.d.Password)
	if page := b.Send(t, f, "submit"); !strings.Contains(page, "You are logged on as admin") {
		t.Fatalf("davical: signing in as %s did not:\n%s", b.d.User, page)
	}
}

// DAViCal is the instance the browser uses.
func (b *DAViCalBrowser) DAViCal() *DAViCal { return b.d }

// Page is the page the browser is on.
func (b *DAViCalBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root, or a whole address), following redirects as
// a browser does, and returns the page it ends on. An answer of 400 or more fails the test.
func (b *DAViCalBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

// ClickText follows the first link on the page the browser is on whose text is text (as
// the page shows it: "List Users", "alice"'s row's id "1001", "Create Collection").
func (b *DAViCalBrowser) ClickText(t testing.TB, text string) string {
	t.Helper()
	href := ""
	for _, m := range davicalLink.FindAllStringSubmatch(b.page, -1) {
		if strings.TrimSpace(html.UnescapeString(plaTag.ReplaceAllString(m[2], ""))) == text {
			href = html.UnescapeString(m[1])
			break
		}
	}
	if href == "" {
		t.Fatalf("davical: the page has no link %q:\n%s", text, DAViCalText(b.page))
	}
	return b.Open(t, href)
}

var (
	davicalForm = regexp.MustCompile(`(?s)<form\b[^>]*>.*?</form>`)
	davicalLink = regexp.MustCompile(`(?s)<a\b[^>]*\bhref="([^"]*)"[^>]*>(.*?)</a>`)
)

// Form is the form on the page the browser is on that has a submit button named button
// ("submit" for a principal's or a collection's details and the login form,
// "savegrouprow" for a group's Add member, "savegrantrow" for a grant).
func (b *DAViCalBrowser) Form(t testing.TB, button string) *PhpLDAPadminForm {
	t.Helper()
	for _, m := range davicalForm.FindAllString(b.page, -1) {
		if !strings.Contains(m, `type="submit"`) || !strings.Contains(m, `name="`+button+`"`) {
			continue
		}
		f := PhpLDAPadminFormOf(t, m, "")
		if _, ok := f.Buttons[button]; ok {
			if f.Action == "" {
				f.Action = b.at.String()
			}
			return f
		}
	}
	t.Fatalf("davical: the page has no form with a button %q:\n%s", button, DAViCalText(b.page))
	return nil
}

// Send sends a form as a browser does when its button named button is pressed, following
// the redirects of the answer, and returns the page it ends on. A page that says PHP
// failed fails the test.
func (b *DAViCalBrowser) Send(t testing.TB, f *PhpLDAPadminForm, button string) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	label, ok := f.Buttons[button]
	if !ok {
		t.Fatalf("davical: the form to %s has no button %q", f.Action, button)
	}
	values.Set(button, label)
	page := b.follow(t, http.MethodPost, f.Action, values)
	for _, bad := range []string{"PHP Fatal error", "Exception [", "Database error"} {
		if strings.Contains(page, bad) {
			t.Fatalf("davical: %s answered with an error:\n%s", f.Action, DAViCalText(page))
		}
	}
	return page
}

func (b *DAViCalBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target, err := url.Parse(html.UnescapeString(path))
		if err != nil {
			t.Fatalf("davical: %q is no address: %v", path, err)
		}
		if b.at != nil {
			target = b.at.ResolveReference(target)
		} else if !target.IsAbs() {
			base, _ := url.Parse(b.d.URL + "/")
			target = base.ResolveReference(target)
		}
		status, loc, body := sendForm(t, b.c, "davical", method, target.String(), form, nil)
		switch {
		case status >= 400:
			t.Fatalf("davical: %s %s answered %d:\n%s", method, path, status, body)
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
			b.at = target
		default:
			b.page, b.at = body, target
			return body
		}
	}
	t.Fatalf("davical: %s %s redirects too often", method, path)
	return ""
}

// DAViCalText is a page's text as a person reads it: tags dropped, entities unescaped,
// white space folded.
func DAViCalText(page string) string {
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}
