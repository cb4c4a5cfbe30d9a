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

// MailmanBrowser uses Mailman's web UI (Postorius) as a person's browser does with scripts
// off: the session and CSRF cookies its sign-in form sets, each form's fields as the page
// fills them (its csrfmiddlewaretoken among them), the links a page shows. Postorius's
// forms have no names, and a page may hold two forms with the same address (a member's
// options and their moderation), so a form is told apart by a field it holds. It is how the
// harness's own test does each goal's effect without the agent.
type MailmanBrowser struct {
	m    *Mailman
	c    *http.Client
	page string
	at   *url.URL // the page's address
}

// Browser is a browser with no session yet: SignIn signs it in through the sign-in form.
func (m *Mailman) Browser() *MailmanBrowser {
	jar, _ := cookiejar.New(nil)
	return &MailmanBrowser{m: m, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the list index, follows its Login link and sends the sign-in form with
// admin's name and password, as a person who types them into Login and Password and
// presses Sign In does.
func (b *MailmanBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, "Login")
	f := b.Form(t, "login")
	f.Fields.Set("login", b.m.User)
	f.Fields.Set("password", b.m.Password)
	if page := MailmanText(b.Send(t, f)); !strings.Contains(page, "Logout") || !strings.Contains(page, "Create New List") {
		t.Fatalf("mailman: signing in as %s did not: %s", b.m.User, page)
	}
}

// Mailman is the instance the browser uses.
func (b *MailmanBrowser) Mailman() *Mailman { return b.m }

// Page is the page the browser is on.
func (b *MailmanBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root, or a whole address), following redirects as
// a browser does, and returns the page it ends on. An answer of 400 or more fails the test.
func (b *MailmanBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

var mailmanLink = regexp.MustCompile(`(?s)<a\b([^>]*)>(.*?)</a>`)

// ClickText follows the first link on the page the browser is on whose text, or else whose
// title, is text.
func (b *MailmanBrowser) ClickText(t testing.TB, text string) string {
	t.Helper()
	href := mailmanHref(b.page, text)
	if href == "" {
		t.Fatalf("mailman: the page has no link %q: %s", text, MailmanText(b.page))
	}
	return b.Open(t, href)
}

// mailmanHref is the address of the first link in page whose text or title is text (""
// when there is none).
func mailmanHref(page, text string) string {
	for _, m := range mailmanLink.FindAllStringSubmatch(page, -1) {
		a := tagAttrs("<a " + m[1] + ">")
		shown := strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(m[2], " "))), " ")
		if a["href"] != "" && a["href"] != "#" && (shown == text || a["title"] == text) {
			return a["href"]
		}
	}
	return ""
}

var mailmanForm = regexp.MustCompile(`(?s)<form\b[^>]*>.*?</form>`)

// Form is the first form on the page the browser is on that holds a field named field.
func (b *MailmanBrowser) Form(t testing.TB, field string) *PhpLDAPadminForm {
	t.Helper()
	for _, f := range mailmanForm.FindAllString(b.page, -1) {
		if strings.Contains(f, `name="`+field+`"`) {
			form := PhpLDAPadminFormOf(t, f, "")
			if form.Action == "" {
				form.Action = b.at.String()
			}
			return form
		}
	}
	t.Fatalf("mailman: the page has no form with a field %q: %s", field, MailmanText(b.page))
	return nil
}

// Send sends a form as a browser does when its submit button is pressed, following the
// redirects of the answer, and returns the page it ends on. A page that says the form was
// not taken (a field's error, an error message) fails the test.
func (b *MailmanBrowser) Send(t testing.TB, f *PhpLDAPadminForm) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	page := b.follow(t, http.MethodPost, f.Action, values)
	for _, bad := range []string{"alert-danger", "has-error", "is-invalid", "errorlist"} {
		if strings.Contains(page, bad) {
			t.Fatalf("mailman: %s answered with an error: %s", f.Action, MailmanText(page))
		}
	}
	return page
}

func (b *MailmanBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target, err := url.Parse(path)
		if err != nil {
			t.Fatalf("mailman: %q is no address: %v", path, err)
		}
		if b.at != nil {
			target = b.at.ResolveReference(target)
		} else if !target.IsAbs() {
			base, _ := url.Parse(b.m.URL + "/")
			target = base.ResolveReference(target)
		}
		var header map[string]string
		if method == http.MethodPost && b.at != nil {
			header = map[string]string{"Referer": b.at.String()}
		}
		status, loc, body := sendForm(t, b.c, "mailman", method, target.String(), form, header)
		switch {
		case status >= 400:
			t.Fatalf("mailman: %s %s answered %d: %s", method, path, status, MailmanText(body))
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
			b.at = target
		default:
			b.page, b.at = body, target
			return body
		}
	}
	t.Fatalf("mailman: %s %s redirects too often", method, path)
	return ""
}

var mailmanScript = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)>`)

// MailmanText is a page's text as a person reads it: scripts dropped, tags dropped,
// entities unescaped, white space folded.
func MailmanText(page string) string {
	page = mailmanScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}
