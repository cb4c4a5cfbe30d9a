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

// RTBrowser uses an RT's pages as a person's browser does: the session cookie its login
// page sets, the links a page shows, a form's fields as the page fills them and the
// button pressed. Every request carries the instance's address as its Referer, as a
// browser's do: RT takes a form sent without one for a cross-site request forgery and
// asks before doing it. It is how the harness's own test does each goal's effect without
// the agent.
type RTBrowser struct {
	w *RT
	c *http.Client
}

// RTForm is a form read from a page: where it is sent, how, the fields as the page fills
// them (a person changes them before sending) and its named submit buttons.
type RTForm = PhpLDAPadminForm

// Browser is a browser with no session yet: SignIn signs it in through the login page.
func (w *RT) Browser() *RTBrowser {
	jar, _ := cookiejar.New(nil)
	return &RTBrowser{w: w, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the login page and sends its form with root's username and password, as a
// person does; the page it ends on is RT at a glance.
func (b *RTBrowser) SignIn(t testing.TB) string {
	t.Helper()
	f := RTFormOf(t, b.Get(t, "/"), `id="login"`)
	f.Fields.Set("user", RTUser)
	f.Fields.Set("pass", RTPassword)
	page := b.Send(t, f, "")
	if !strings.Contains(page, "Logged in as") || !strings.Contains(page, "RT at a glance") {
		t.Fatalf("rt: signing in as %s did not:\n%s", RTUser, page)
	}
	return page
}

// Get fetches a page (a path from the root, or a whole address), following redirects as a
// browser does, and returns the body of the page it ends on. An answer of 400 or more, or
// RT's page that asks whether a request was forged, fails the test.
func (b *RTBrowser) Get(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

// Click follows the first link on page whose text is text, and returns the page it opens.
func (b *RTBrowser) Click(t testing.TB, page, text string) string {
	t.Helper()
	href := RTLink(page, text)
	if href == "" {
		t.Fatalf("rt: no link %q on the page:\n%s", text, page)
	}
	return b.Get(t, href)
}

// Submit reads the form whose opening tag holds marker from page, sets fields on it as a
// person fills them in, and sends it with the named button pressed ("" for a button with
// no name); it returns the page it ends on.
func (b *RTBrowser) Submit(t testing.TB, page, marker string, fields url.Values, button string) string {
	t.Helper()
	f := RTFormOf(t, page, marker)
	for k, v := range fields {
		f.Fields[k] = v
	}
	return b.Send(t, f, button)
}

// Send sends a form as a browser does when its button named button is pressed ("" for a
// button with no name), following the redirects of the answer, and returns the page it
// ends on.
func (b *RTBrowser) Send(t testing.TB, f *RTForm, button string) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	if button != "" {
		label, ok := f.Buttons[button]
		if !ok {
			t.Fatalf("rt: the form to %s has no button %q", f.Action, button)
		}
		values.Set(button, label)
	}
	action := f.Action
	if !strings.HasPrefix(action, "/") && !strings.HasPrefix(action, "http") {
		// The ticket pages' forms are sent relative to the page: all are under /Ticket/.
		action = "/Ticket/" + action
	}
	if strings.EqualFold(f.Method, "post") {
		return b.follow(t, http.MethodPost, action, values)
	}
	sep := "?"
	if strings.Contains(action, "?") {
		sep = "&"
	}
	return b.follow(t, http.MethodGet, action+sep+values.Encode(), nil)
}

func (b *RTBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target := path
		if !strings.HasPrefix(path, "http") {
			target = b.w.URL + "/" + strings.TrimPrefix(path, "/")
		}
		status, loc, body := sendForm(t, b.c, "rt", method, target, form, map[string]string{"Referer": b.w.URL + "/"})
		switch {
		case status >= 400 || strings.Contains(body, "Possible cross-site request forgery"):
			log := b.w.Log()
			t.Fatalf("rt: %s %s answered %d:\n%s\nthe server's log ends:\n%s", method, path, status, body, log[max(0, len(log)-3000):])
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
		default:
			return body
		}
	}
	t.Fatalf("rt: %s %s redirects too often", method, path)
	return ""
}

// RTFormOf reads the form whose opening tag holds marker (e.g. `name="TicketUpdate"`)
// from page: its fields as a browser would send them untouched and its named submit
// buttons.
func RTFormOf(t testing.TB, page, marker string) *RTForm {
	t.Helper()
	if !regexp.MustCompile(`<form\b[^>]*` + regexp.QuoteMeta(marker)).MatchString(page) {
		t.Fatalf("rt: no form %s on the page:\n%s", marker, RTText(page))
	}
	return PhpLDAPadminFormOf(t, page, marker)
}

var rtLink = regexp.MustCompile(`(?s)<a\b[^>]*?\bhref="([^"]*)"[^>]*>(.*?)</a>`)

// RTLink is the address of the first link on page whose text is text (as the page shows
// it, e.g. "Comment", "Helpdesk Staff", a ticket's subject), unescaped; "" when there is
// none.
func RTLink(page, text string) string {
	for _, m := range rtLink.FindAllStringSubmatch(page, -1) {
		if RTText(m[2]) == text {
			return html.UnescapeString(m[1])
		}
	}
	return ""
}

// RTResults is the text of the messages a page shows after a change (RT's Results box:
// "Comments added", "Queue created", ...), "" when it shows none.
func RTResults(page string) string {
	i := strings.Index(page, `<ul class="action-results">`)
	if i < 0 {
		return ""
	}
	rest := page[i:]
	if j := strings.Index(rest, "</ul>"); j >= 0 {
		rest = rest[:j]
	}
	return RTText(rest)
}

// Menu follows the link of RT's menus whose id is id (a menu item's path: "admin-queues-
// create" is Admin > Queues > Create), as a person does who opens the menus and clicks
// the item, and returns the page it opens.
func (b *RTBrowser) Menu(t testing.TB, page, id string) string {
	t.Helper()
	m := regexp.MustCompile(`<a id="` + regexp.QuoteMeta(id) + `"[^>]*\bhref="([^"]*)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("rt: no menu item %s on the page:\n%s", id, page)
	}
	return b.Get(t, html.UnescapeString(m[1]))
}

var rtOption = regexp.MustCompile(`(?s)<option\b([^>]*)>(.*?)</option>`)

// RTOption is the value of the option labelled label (as the page shows it) in the first
// list named name on page; "" when there is none.
func RTOption(page, name, label string) string {
	i := strings.Index(page, `<select name="`+name+`"`)
	if i < 0 {
		return ""
	}
	list := page[i:]
	list = list[:strings.Index(list, "</select>")+1]
	for _, m := range rtOption.FindAllStringSubmatch(list, -1) {
		if RTText(m[2]) == label {
			return tagAttrs("<option " + m[1] + ">")["value"]
		}
	}
	return ""
}
