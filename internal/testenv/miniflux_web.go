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

// MinifluxBrowser uses Miniflux's pages as a person's browser does: the session cookie
// its sign-in form sets, each form's fields as the page fills them (its csrf token among
// them), the links a page shows, and the requests its script sends for a button with no
// form (Star, a Remove confirmed with "yes"), which carry the page's token in a header. It
// is how the harness's own test does each goal's effect without the agent.
type MinifluxBrowser struct {
	m    *Miniflux
	c    *http.Client
	page string
	at   *url.URL // the page's address: links and forms are resolved against it
}

// Browser is a browser with no session yet: SignIn signs it in through the sign-in form.
func (m *Miniflux) Browser() *MinifluxBrowser {
	jar, _ := cookiejar.New(nil)
	return &MinifluxBrowser{m: m, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the sign-in page and sends its form with admin's name and password, as a
// person who types them into Username and Password and presses Login does.
func (b *MinifluxBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, b.m.URL)
	f := b.Form(t, "/login")
	f.Fields.Set("username", b.m.User)
	f.Fields.Set("password", b.m.Password)
	if page := b.Send(t, f); !strings.Contains(page, `title="Logged in as `+b.m.User+`"`) {
		t.Fatalf("miniflux: signing in as %s did not:\n%s", b.m.User, MinifluxText(page))
	}
}

// Miniflux is the instance the browser uses.
func (b *MinifluxBrowser) Miniflux() *Miniflux { return b.m }

// Page is the page the browser is on.
func (b *MinifluxBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root, or a whole address), following redirects as
// a browser does, and returns the page it ends on. An answer of 400 or more fails the test.
func (b *MinifluxBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil, nil)
}

var minifluxLink = regexp.MustCompile(`(?s)<a\b[^>]*\bhref="([^"]*)"[^>]*>(.*?)</a>`)

// ClickText follows the first link on the page the browser is on whose text is text (as
// the page shows it: "Feeds", "Add feed", a feed's or an entry's title, "Edit"), after
// the first link whose text is after when after is not "" (an item's Edit follows its
// title; a category's title may be followed by its count of entries in brackets).
func (b *MinifluxBrowser) ClickText(t testing.TB, text, after string) string {
	t.Helper()
	href, seen := "", after == ""
	for _, m := range minifluxLink.FindAllStringSubmatch(b.page, -1) {
		label := strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(m[2], " "))), " ")
		if !seen {
			seen = label == after || strings.HasPrefix(label, after+" (")
			continue
		}
		if label == text {
			href = html.UnescapeString(m[1])
			break
		}
	}
	if href == "" {
		t.Fatalf("miniflux: the page has no link %q (after %q):\n%s", text, after, MinifluxText(b.page))
	}
	return b.Open(t, href)
}

// Form is the form on the page the browser is on whose action is action ("/login",
// "/subscribe", "/category/3/update", "/settings").
func (b *MinifluxBrowser) Form(t testing.TB, action string) *PhpLDAPadminForm {
	t.Helper()
	return PhpLDAPadminFormOf(t, b.page, `action="`+action+`"`)
}

// Send sends a form as a browser does when its submit button is pressed, following the
// redirects of the answer, and returns the page it ends on. A page that shows an error
// (Miniflux's red alert) fails the test.
func (b *MinifluxBrowser) Send(t testing.TB, f *PhpLDAPadminForm) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	page := b.follow(t, http.MethodPost, f.Action, values, nil)
	if strings.Contains(page, `class="alert alert-error"`) {
		t.Fatalf("miniflux: %s answered with an error:\n%s", f.Action, MinifluxText(page))
	}
	return page
}

// Script sends what the page's script sends for a button with no form (its data-url or
// data-star-url, e.g. "/entry/star/7" or "/feed/2/remove"): a POST with no body and the
// page's csrf token in the X-Csrf-Token header. It returns the page the answer ends on.
func (b *MinifluxBrowser) Script(t testing.TB, path string) string {
	t.Helper()
	token := minifluxBodyToken.FindStringSubmatch(b.page)
	if token == nil {
		t.Fatalf("miniflux: the page has no csrf token:\n%s", MinifluxText(b.page))
	}
	if !strings.Contains(b.page, `"`+path+`"`) {
		t.Fatalf("miniflux: the page has no button for %s:\n%s", path, MinifluxText(b.page))
	}
	return b.follow(t, http.MethodPost, path, nil, map[string]string{"X-Csrf-Token": token[1]})
}

var minifluxBodyToken = regexp.MustCompile(`<body\b[^>]*\bdata-csrf-token="([^"]*)"`)

func (b *MinifluxBrowser) follow(t testing.TB, method, path string, form url.Values, header map[string]string) string {
	t.Helper()
	for range 10 {
		target, err := url.Parse(html.UnescapeString(path))
		if err != nil {
			t.Fatalf("miniflux: %q is no address: %v", path, err)
		}
		if b.at != nil {
			target = b.at.ResolveReference(target)
		} else if !target.IsAbs() {
			base, _ := url.Parse(b.m.URL)
			target = base.ResolveReference(target)
		}
		status, loc, body := sendForm(t, b.c, "miniflux", method, target.String(), form, header)
		switch {
		case status >= 400:
			t.Fatalf("miniflux: %s %s answered %d:\n%s", method, path, status, MinifluxText(body))
		case status >= 300 && loc != "":
			method, path, form, header = http.MethodGet, loc, nil, nil
			b.at = target
		default:
			b.page, b.at = body, target
			return body
		}
	}
	t.Fatalf("miniflux: %s %s redirects too often", method, path)
	return ""
}

// MinifluxText is a page's text as a person reads it: tags dropped, entities unescaped,
// white space folded.
func MinifluxText(page string) string {
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}
