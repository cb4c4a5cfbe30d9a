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

// CactiBrowser uses a Cacti's pages as a person's browser does: the session cookie its
// login form sets, each form's fields as the page fills them (its __csrf_magic token among
// them), the links a page shows, the boxes ticked in a list and the action chosen under
// it. Cacti's pages load the page a saved form redirects to into the page already shown
// (header=false); this asks for it as a whole, which Cacti serves as well. It is how the
// harness seeds an instance and how its own test does each goal's effect without the
// agent.
type CactiBrowser struct {
	c    *Cacti
	h    *http.Client
	page string
}

// Browser is a browser with no session yet: SignIn signs it in through the login form.
func (c *Cacti) Browser() *CactiBrowser {
	jar, _ := cookiejar.New(nil)
	return &CactiBrowser{c: c, h: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the login page and sends its form with admin's name and password, as a
// person who types them into Username and Password and presses Login does.
func (b *CactiBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, "/")
	f := b.Form(t, "login")
	f.Fields.Set("login_username", b.c.User)
	f.Fields.Set("login_password", b.c.Password)
	if page := b.Send(t, f); !strings.Contains(page, "Logged in as "+b.c.User) {
		t.Fatalf("cacti: signing in as %s did not:\n%s", b.c.User, CactiText(page))
	}
}

// Page is the page the browser is on.
func (b *CactiBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root), following redirects as a browser does, and
// returns the page it ends on. An answer of 400 or more fails the test.
func (b *CactiBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

// Click follows the link on the page the browser is on whose address is href (as the page
// writes it, unescaped), after checking that the page shows it.
func (b *CactiBrowser) Click(t testing.TB, href string) string {
	t.Helper()
	if !strings.Contains(html.UnescapeString(b.page), `href='`+href+`'`) && !strings.Contains(html.UnescapeString(b.page), `href="`+href+`"`) {
		t.Fatalf("cacti: the page has no link to %s:\n%s", href, CactiText(b.page))
	}
	return b.Open(t, "/"+strings.TrimPrefix(href, "/"))
}

// Form is the form on the page the browser is on whose id is id.
func (b *CactiBrowser) Form(t testing.TB, id string) *PhpLDAPadminForm {
	t.Helper()
	return PhpLDAPadminFormOf(t, b.page, `id='`+id+`'`)
}

// Send sends a form as a browser does when its submit button is pressed (Cacti's buttons
// have no name), following the redirects of the answer, and returns the page it ends on.
func (b *CactiBrowser) Send(t testing.TB, f *PhpLDAPadminForm) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	return b.follow(t, http.MethodPost, "/"+strings.TrimPrefix(f.Action, "/"), values)
}

// Save fills the fields of the form whose id is id on the page the browser is on (a
// checkbox's field set to "" is unticked) and sends it.
func (b *CactiBrowser) Save(t testing.TB, id string, fields map[string]string) string {
	t.Helper()
	f := b.Form(t, id)
	for k, v := range fields {
		if v == "" && strings.Contains(b.page, `type='checkbox' id='`+k+`'`) {
			f.Fields.Del(k)
			continue
		}
		f.Fields.Set(k, v)
	}
	return b.Send(t, f)
}

// OpenRow follows the link that opens the row named name in the list on the page the
// browser is on (a device's description, a user's name), as a person clicks the name.
func (b *CactiBrowser) OpenRow(t testing.TB, name string) string {
	t.Helper()
	for _, m := range cactiMainLink.FindAllStringSubmatch(b.page, -1) {
		if html.UnescapeString(m[2]) == name {
			return b.Click(t, html.UnescapeString(m[1]))
		}
	}
	t.Fatalf("cacti: the list has no row %q:\n%s", name, CactiText(b.page))
	return ""
}

var (
	cactiMainLink = regexp.MustCompile(`<a class="linkEditMain" href="([^"]*)">([^<]*)</a>`)
	cactiRow      = regexp.MustCompile(`(?s)<tr[^>]*id='line(\d+)'[^>]*>(.*?)</tr>`)
	cactiMain     = regexp.MustCompile(`<a class="linkEditMain" href="[^"]*">([^<]*)</a>`)
	cactiOption   = regexp.MustCompile(`<option value=['"]([^'"]*)['"][^>]*>([^<]*)`)
)

// Act does what a person does under a list (the Devices, Users, Trees pages): ticks the
// rows whose name (the link that opens the row) is one of names, chooses the action
// labelled action in the list's "Choose an action" menu and presses Go. It returns the
// page that asks to confirm (its form is "form1", which Save sends with Continue).
func (b *CactiBrowser) Act(t testing.TB, action string, names ...string) string {
	t.Helper()
	f := b.Form(t, "chk")
	for _, name := range names {
		found := false
		for _, row := range cactiRow.FindAllStringSubmatch(b.page, -1) {
			if m := cactiMain.FindStringSubmatch(row[2]); m != nil && html.UnescapeString(m[1]) == name {
				f.Fields.Set("chk_"+row[1], "on")
				found = true
			}
		}
		if !found {
			t.Fatalf("cacti: the list has no row %q:\n%s", name, CactiText(b.page))
		}
	}
	menu := regexp.MustCompile(`(?s)<select id='drp_action'.*?</select>`).FindString(b.page)
	value := ""
	for _, o := range cactiOption.FindAllStringSubmatch(menu, -1) {
		if strings.TrimSpace(html.UnescapeString(o[2])) == action {
			value = o[1]
		}
	}
	if value == "" {
		t.Fatalf("cacti: the list's actions have no %q:\n%s", action, menu)
	}
	f.Fields.Set("drp_action", value)
	return b.Send(t, f)
}

func (b *CactiBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target := path
		if !strings.HasPrefix(path, "http") {
			target = b.c.URL + "/" + strings.TrimPrefix(path, "/")
		}
		status, loc, body := sendForm(t, b.h, "cacti", method, target, form, nil)
		switch {
		case status >= 400:
			t.Fatalf("cacti: %s %s answered %d:\n%s", method, path, status, CactiText(body))
		case status >= 300 && loc != "":
			// A whole page rather than the part Cacti's script loads into the page shown.
			method, path, form = http.MethodGet, strings.Replace(loc, "header=false", "header=true", 1), nil
		default:
			b.page = body
			return body
		}
	}
	t.Fatalf("cacti: %s %s redirects too often", method, path)
	return ""
}

// CactiText is a page's text as a person reads it: scripts dropped, tags dropped, entities
// unescaped, white space folded.
func CactiText(page string) string {
	page = cactiScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}

var cactiScript = regexp.MustCompile(`(?is)<script\b.*?</script>`)
