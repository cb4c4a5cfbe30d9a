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

// IcingaWebBrowser uses an Icinga Web 2's pages as a person's browser does with scripts
// off: the session cookie its login form sets, each form's fields as the page fills them
// (its CSRFToken among them), the button pressed, the links a page shows. Forms are told
// apart by their name (Icinga Web 2 names each: "form_login", "form_config_preferences",
// "IcingaFormsConfigUserUserForm"…). It is how the harness's own test does each goal's
// effect without the agent.
type IcingaWebBrowser struct {
	w    *IcingaWeb
	c    *http.Client
	page string
	at   *url.URL // the page's address
}

// Browser is a browser with no session yet: SignIn signs it in through the login form.
func (w *IcingaWeb) Browser() *IcingaWebBrowser {
	jar, _ := cookiejar.New(nil)
	return &IcingaWebBrowser{w: w, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the start page, which sends a visitor to the login form, and sends that
// form with admin's name and password, as a person who types them into Username and
// Password and presses Login does.
func (b *IcingaWebBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, "/")
	f := b.Form(t, "form_login")
	f.Fields.Set("username", b.w.User)
	f.Fields.Set("password", b.w.Password)
	if page := IcingaWebText(b.Send(t, f, "btn_submit")); !strings.Contains(page, "My Account") || !strings.Contains(page, "Logout") {
		t.Fatalf("icingaweb: signing in as %s did not: %s", b.w.User, page)
	}
}

// SavePreferences opens My Account, changes the preferences form's fields (by their
// names: default_page_size, theme…) and presses "Save to the Preferences".
func (b *IcingaWebBrowser) SavePreferences(t testing.TB, fields map[string]string) {
	t.Helper()
	b.Open(t, "/account")
	f := b.Form(t, "form_config_preferences")
	for k, v := range fields {
		f.Fields.Set(k, v)
	}
	b.Send(t, f, "btn_submit")
}

// IcingaWeb is the instance the browser uses.
func (b *IcingaWebBrowser) IcingaWeb() *IcingaWeb { return b.w }

// Page is the page the browser is on.
func (b *IcingaWebBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root, or a whole address), following redirects as
// a browser does, and returns the page it ends on. An answer of 400 or more fails the test.
func (b *IcingaWebBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

var icingawebLink = regexp.MustCompile(`(?s)<a\b([^>]*)>(.*?)</a>`)

// ClickText follows the first link on the page the browser is on whose text, or else
// whose title (an icon's link has only that: "Remove this announcement"), is text.
func (b *IcingaWebBrowser) ClickText(t testing.TB, text string) string {
	t.Helper()
	href := icingawebHref(b.page, text)
	if href == "" {
		t.Fatalf("icingaweb: the page has no link %q: %s", text, IcingaWebText(b.page))
	}
	return b.Open(t, href)
}

// icingawebHref is the address of the first link in page whose text or title is text ("" when
// there is none).
func icingawebHref(page, text string) string {
	for _, m := range icingawebLink.FindAllStringSubmatch(page, -1) {
		a := tagAttrs("<a " + m[1] + ">")
		shown := strings.TrimSpace(html.UnescapeString(plaTag.ReplaceAllString(m[2], "")))
		if a["href"] != "" && a["href"] != "#" && (shown == text || a["title"] == text) {
			return a["href"]
		}
	}
	return ""
}

var icingawebRow = regexp.MustCompile(`(?s)<tr\b.*?</tr>`)

// ClickInRow follows the link whose text or title is text in the first row of the page's
// tables that shows row (an announcement's message, a user's name).
func (b *IcingaWebBrowser) ClickInRow(t testing.TB, row, text string) string {
	t.Helper()
	for _, tr := range icingawebRow.FindAllString(b.page, -1) {
		if strings.Contains(IcingaWebText(tr), row) {
			if href := icingawebHref(tr, text); href != "" {
				return b.Open(t, href)
			}
		}
	}
	t.Fatalf("icingaweb: the page has no row %q with a link %q: %s", row, text, IcingaWebText(b.page))
	return ""
}

// Form is the form named name on the page the browser is on.
func (b *IcingaWebBrowser) Form(t testing.TB, name string) *PhpLDAPadminForm {
	t.Helper()
	if !strings.Contains(b.page, `name="`+name+`"`) {
		t.Fatalf("icingaweb: the page has no form %q: %s", name, IcingaWebText(b.page))
	}
	f := PhpLDAPadminFormOf(t, b.page, `name="`+name+`"`)
	if f.Action == "" {
		f.Action = b.at.String()
	}
	return f
}

// Send sends a form as a browser does when its button named button is pressed, following
// the redirects of the answer, and returns the page it ends on. A page that says the form
// was not taken (a field's error) or that Icinga Web 2 failed fails the test.
func (b *IcingaWebBrowser) Send(t testing.TB, f *PhpLDAPadminForm, button string) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	label, ok := f.Buttons[button]
	if !ok {
		t.Fatalf("icingaweb: the form to %s has no button %q", f.Action, button)
	}
	values.Set(button, label)
	page := b.follow(t, http.MethodPost, f.Action, values)
	for _, bad := range []string{`<ul class="errors">`, `class="errors"`, "An error occurred", "Exception"} {
		if strings.Contains(page, bad) {
			t.Fatalf("icingaweb: %s answered with an error: %s", f.Action, IcingaWebText(page))
		}
	}
	return page
}

func (b *IcingaWebBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target, err := url.Parse(path)
		if err != nil {
			t.Fatalf("icingaweb: %q is no address: %v", path, err)
		}
		if b.at != nil {
			target = b.at.ResolveReference(target)
		} else if !target.IsAbs() {
			base, _ := url.Parse(b.w.URL + "/")
			target = base.ResolveReference(target)
		}
		status, loc, body := sendForm(t, b.c, "icingaweb", method, target.String(), form, nil)
		switch {
		case status >= 400:
			t.Fatalf("icingaweb: %s %s answered %d: %s", method, path, status, IcingaWebText(body))
		case status >= 300 && strings.HasSuffix(loc, "/__CLOSE__"):
			// Icinga Web 2's word to its script to close the column the form was in.
			b.page, b.at = body, target
			return body
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
			b.at = target
		default:
			b.page, b.at = body, target
			return body
		}
	}
	t.Fatalf("icingaweb: %s %s redirects too often", method, path)
	return ""
}

var icingawebScript = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)>`)

// IcingaWebText is a page's text as a person reads it: scripts dropped, tags dropped,
// entities unescaped, white space folded.
func IcingaWebText(page string) string {
	page = icingawebScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}
