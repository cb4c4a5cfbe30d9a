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

// zophLink is a link of a page: its address (as the page escapes it) and its text.
var zophLink = regexp.MustCompile(`(?s)<a href="([^"]*)"[^>]*>(.*?)</a>`)

// ZophBrowser uses Zoph's pages as a person's browser does: the session cookie its sign-in
// form sets, each form's fields as the page fills them sent to the form's action (or to
// the page's own address when it names none), and the links of a page's action bar (new,
// edit, delete, confirm) followed as a click follows them. It is how the harness's own
// test does each goal's effect without the agent.
type ZophBrowser struct {
	z    *Zoph
	h    *http.Client
	path string
	page string
}

// Browser is a browser with no session yet: SignIn signs it in through the sign-in form.
func (z *Zoph) Browser() *ZophBrowser {
	jar, _ := cookiejar.New(nil)
	return &ZophBrowser{z: z, h: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the sign-in page and sends its form with admin's name and password, as a
// person who types them into "username" and "password" and presses "logon" does.
func (b *ZophBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, "/logon.php")
	page := b.Save(t, `action="zoph.php"`, map[string]string{"uname": b.z.User, "pword": b.z.Password})
	if !strings.Contains(page, `href="zoph.php?_action=logout"`) {
		t.Fatalf("zoph: signing in as %s did not:\n%s", b.z.User, ZophText(page))
	}
}

// Page is the page the browser is on.
func (b *ZophBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root), following redirects as a browser does, and
// returns the page it ends on. An answer of 400 or more fails the test.
func (b *ZophBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

// Click follows the link of the page the browser is on whose text is text (its image's
// words left out) and whose
// address holds href (a part of it, as the page escapes it), failing the test when the
// page has none.
func (b *ZophBrowser) Click(t testing.TB, text, href string) string {
	t.Helper()
	for _, m := range zophLink.FindAllStringSubmatch(b.page, -1) {
		if strings.Contains(m[1], href) && ZophText(m[2]) == text {
			return b.Open(t, html.UnescapeString(m[1]))
		}
	}
	t.Fatalf("zoph: %s has no link %q to %s:\n%s", b.path, text, href, ZophText(b.page))
	return ""
}

// Save fills the fields of the form whose opening tag holds marker on the page the
// browser is on and sends it, as its submit button does, to its action (the page's own
// address when it names none).
func (b *ZophBrowser) Save(t testing.TB, marker string, fields map[string]string) string {
	t.Helper()
	f := PhpLDAPadminFormOf(t, b.page, marker)
	for k, v := range fields {
		f.Fields.Set(k, v)
	}
	for name, value := range f.Buttons {
		f.Fields.Set(name, value)
	}
	target := b.path
	if f.Action != "" {
		target = "/" + strings.TrimPrefix(f.Action, "/")
	}
	return b.follow(t, http.MethodPost, target, f.Fields)
}

// ID is the id of the row of Zoph's table (albums, categories, places, photos: the table's
// name without its prefix) whose column col is value, failing the test when there is not
// exactly one.
func (b *ZophBrowser) ID(t testing.TB, table, idCol, col, value string) string {
	t.Helper()
	rows := b.z.Query(t, "SELECT "+idCol+" AS id FROM zoph_"+table+" WHERE "+col+" = "+sqlQuote(value))
	if len(rows) != 1 {
		t.Fatalf("zoph: %d rows of %s have %s %q", len(rows), table, col, value)
	}
	return rows[0]["id"]
}

func (b *ZophBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target := path
		if !strings.HasPrefix(path, "http") {
			target = b.z.URL + "/" + strings.TrimPrefix(path, "/")
		}
		status, loc, body := sendForm(t, b.h, "zoph", method, target, form, nil)
		switch {
		case status >= 400:
			t.Fatalf("zoph: %s %s answered %d:\n%s", method, path, status, ZophText(body))
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
		default:
			if strings.Contains(body, `class="error"`) && strings.Contains(body, "Fatal") {
				t.Fatalf("zoph: %s %s shows an error:\n%s", method, path, ZophText(body))
			}
			b.path = strings.TrimPrefix(target, b.z.URL)
			b.page = body
			return body
		}
	}
	t.Fatalf("zoph: %s %s redirects too often", method, path)
	return ""
}

// ZophText is a page's text as a person reads it: scripts and styles dropped, tags
// dropped, entities unescaped, white space folded.
func ZophText(page string) string {
	page = ocsScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}
