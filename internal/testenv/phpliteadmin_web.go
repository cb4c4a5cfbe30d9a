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

// PhpLiteAdminBrowser uses a phpLiteAdmin's pages as a person's browser does with scripts
// off: the session cookie its login form sets, each form's fields as the page fills them
// (its CSRF token among them), the button pressed, the links a page shows (an icon's link
// by its title: "Edit", "Delete"). It is how the harness's own test does each goal's
// effect without the agent.
type PhpLiteAdminBrowser struct {
	a    *PhpLiteAdmin
	c    *http.Client
	page string
	at   *url.URL // the page's address
}

// Browser is a browser with no session yet: SignIn signs it in through the login form.
func (a *PhpLiteAdmin) Browser() *PhpLiteAdminBrowser {
	jar, _ := cookiejar.New(nil)
	return &PhpLiteAdminBrowser{a: a, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the app's page, which shows the login form, and sends it with the
// instance's password, as a person who types it into Password and presses Log In does.
func (b *PhpLiteAdminBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, b.a.URL)
	f := b.Form(t, "name='password'")
	f.Fields.Set("password", b.a.Password)
	if page := b.Send(t, f, "Log In"); !strings.Contains(page, "value='Logout'") || !strings.Contains(page, "Create new table") {
		t.Fatalf("phpliteadmin: signing in did not: %s", PhpLiteAdminText(page))
	}
}

// Home opens the app's page: the open database's page (library.sqlite's at first) once
// signed in.
func (b *PhpLiteAdminBrowser) Home(t testing.TB) string {
	t.Helper()
	return b.Open(t, b.a.URL)
}

// Page is the page the browser is on.
func (b *PhpLiteAdminBrowser) Page() string { return b.page }

// Open fetches a page (a whole address, or one relative to the page the browser is on:
// "?database=…&table=books&action=row_view"), following redirects as a browser does, and
// returns the page it ends on. An answer of 400 or more fails the test.
func (b *PhpLiteAdminBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

var (
	phpliteadminLink = regexp.MustCompile(`(?s)<a\b([^>]*)>(.*?)</a>`)
)

// ClickText follows the first link on the page whose text, or else whose title (an icon's
// link: "Edit", "Delete"), is text.
func (b *PhpLiteAdminBrowser) ClickText(t testing.TB, text string) string {
	t.Helper()
	href := phpliteadminHref(b.page, text)
	if href == "" {
		t.Fatalf("phpliteadmin: the page has no link %q: %s", text, PhpLiteAdminText(b.page))
	}
	return b.Open(t, href)
}

// phpliteadminHref is the address of the first link in page whose text or title is text
// ("" when there is none).
func phpliteadminHref(page, text string) string {
	for _, m := range phpliteadminLink.FindAllStringSubmatch(page, -1) {
		a := tagAttrs("<a " + m[1] + ">")
		shown := strings.TrimSpace(html.UnescapeString(plaTag.ReplaceAllString(m[2], "")))
		if a["href"] != "" && !strings.HasPrefix(a["href"], "javascript:") && (shown == text || a["title"] == text) {
			return a["href"]
		}
	}
	return ""
}

// ClickInRow follows the link whose text or title is text in the first table row of the
// page that shows row (a book's title, a member's name).
func (b *PhpLiteAdminBrowser) ClickInRow(t testing.TB, row, text string) string {
	t.Helper()
	for _, tr := range strings.Split(b.page, "<tr")[1:] {
		tr, _, _ = strings.Cut(tr, "</tr>")
		if strings.Contains(PhpLiteAdminText("<tr"+tr), row) {
			if href := phpliteadminHref(tr, text); href != "" {
				return b.Open(t, href)
			}
		}
	}
	t.Fatalf("phpliteadmin: the page has no row %q with a link %q: %s", row, text, PhpLiteAdminText(b.page))
	return ""
}

// Form is the first form on the page that holds marker in its HTML (a field's
// name='newname', an action's action=row_edit&amp;confirm=1, a hidden value). A form the
// page leaves unclosed (the row delete's confirmation) ends where the next form begins.
func (b *PhpLiteAdminBrowser) Form(t testing.TB, marker string) *PhpLDAPadminForm {
	t.Helper()
	for _, block := range strings.Split(b.page, "<form")[1:] {
		block, _, _ = strings.Cut(block, "</form>")
		if strings.Contains(block, marker) {
			return PhpLDAPadminFormOf(t, "<form"+block+"</form>", "")
		}
	}
	t.Fatalf("phpliteadmin: the page has no form with %s: %s", marker, PhpLiteAdminText(b.page))
	return nil
}

// Send sends a form as a browser does when its submit button labelled label is pressed
// (the button's own name and label sent along when it has a name), following the
// redirects of the answer, and returns the page it ends on. A page that reports an error
// of phpLiteAdmin or of SQLite fails the test.
func (b *PhpLiteAdminBrowser) Send(t testing.TB, f *PhpLDAPadminForm, label string) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	for name, value := range f.Buttons {
		if value == label {
			values.Set(name, value)
		}
	}
	var page string
	if strings.EqualFold(f.Method, "get") {
		target := *b.at
		if f.Action != "" {
			target = *b.at.ResolveReference(phpliteadminURL(t, f.Action))
		}
		target.RawQuery = values.Encode()
		page = b.Open(t, target.String())
	} else {
		page = b.follow(t, http.MethodPost, f.Action, values)
	}
	if text := PhpLiteAdminText(page); strings.Contains(text, "ERROR: ") || strings.Contains(text, "Incorrect password") {
		t.Fatalf("phpliteadmin: %s answered with an error: %s", f.Action, text)
	}
	return page
}

// phpliteadminURL parses an address, failing the test when it is none.
func phpliteadminURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatalf("phpliteadmin: %q is no address: %v", s, err)
	}
	return u
}

func (b *PhpLiteAdminBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target := phpliteadminURL(t, path)
		if b.at != nil {
			target = b.at.ResolveReference(target)
		} else if !target.IsAbs() {
			target = phpliteadminURL(t, b.a.URL).ResolveReference(target)
		}
		status, loc, body := sendForm(t, b.c, "phpliteadmin", method, target.String(), form, nil)
		switch {
		case status >= 400:
			t.Fatalf("phpliteadmin: %s %s answered %d: %s", method, path, status, PhpLiteAdminText(body))
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
			b.at = target
		default:
			b.page, b.at = body, target
			return body
		}
	}
	t.Fatalf("phpliteadmin: %s %s redirects too often", method, path)
	return ""
}

var phpliteadminScript = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)>`)

// PhpLiteAdminText is a page's text as a person reads it: scripts dropped, tags dropped,
// entities unescaped, white space folded.
func PhpLiteAdminText(page string) string {
	page = phpliteadminScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}
