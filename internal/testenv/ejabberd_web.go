package testenv

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// EjabberdBrowser uses ejabberd's web admin as a person's browser does with scripts off,
// through the instance's front (signed in as the administrator): the links a page shows,
// its one form's fields as the page fills them, the button pressed. It is how the
// harness's own test does each goal's effect without the agent.
type EjabberdBrowser struct {
	w    *Ejabberd
	c    *http.Client
	page string
	at   *url.URL // the page's address
}

// Browser is a browser at no page yet.
func (w *Ejabberd) Browser() *EjabberdBrowser {
	return &EjabberdBrowser{w: w, c: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// Page is the page the browser is on.
func (b *EjabberdBrowser) Page() string { return b.page }

// Open fetches a page (an address, or a path resolved against the page the browser is on
// or else the start page), following redirects as a browser does, and returns the page
// it ends on. An answer of 400 or more fails the test.
func (b *EjabberdBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

// Start opens the web admin's start page.
func (b *EjabberdBrowser) Start(t testing.TB) string {
	t.Helper()
	return b.Open(t, b.w.URL)
}

var ejabberdLink = regexp.MustCompile(`(?s)<a\b([^>]*)>(.*?)</a>`)

// ClickText follows the first link on the page the browser is on whose text is text.
func (b *EjabberdBrowser) ClickText(t testing.TB, text string) string {
	t.Helper()
	for _, m := range ejabberdLink.FindAllStringSubmatch(b.page, -1) {
		a := tagAttrs("<a " + m[1] + ">")
		if strings.TrimSpace(html.UnescapeString(plaTag.ReplaceAllString(m[2], ""))) == text && a["target"] == "" {
			return b.Open(t, a["href"])
		}
	}
	t.Fatalf("ejabberd: the page has no link %q: %s", text, EjabberdText(b.page))
	return ""
}

// Form is the page's form (each web admin page has one at most).
func (b *EjabberdBrowser) Form(t testing.TB) *PhpLDAPadminForm {
	t.Helper()
	f := PhpLDAPadminFormOf(t, b.page, `method='post'`)
	if f.Action == "" {
		f.Action = b.at.String()
	}
	return f
}

// Send sends a form as a browser does when its button named button is pressed, following
// the redirects of the answer, and returns the page it ends on. A page that says the
// form was not taken ("Bad format", "Error") fails the test.
func (b *EjabberdBrowser) Send(t testing.TB, f *PhpLDAPadminForm, button string) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	label, ok := f.Buttons[button]
	if !ok {
		t.Fatalf("ejabberd: the form to %s has no button %q", f.Action, button)
	}
	values.Set(button, label)
	page := b.follow(t, http.MethodPost, f.Action, values)
	if m := ejabberdResult.FindStringSubmatch(page); m != nil && m[1] != "Submitted" {
		t.Fatalf("ejabberd: %s answered %q: %s", f.Action, m[1], EjabberdText(page))
	}
	return page
}

var ejabberdResult = regexp.MustCompile(`<p class='result'>([^<]*)</p>`)

func (b *EjabberdBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target, err := url.Parse(path)
		if err != nil {
			t.Fatalf("ejabberd: %q is no address: %v", path, err)
		}
		base := b.at
		if base == nil {
			base, _ = url.Parse(b.w.URL)
		}
		target = base.ResolveReference(target)
		status, loc, body := sendForm(t, b.c, "ejabberd", method, target.String(), form, nil)
		switch {
		case status >= 400:
			t.Fatalf("ejabberd: %s %s answered %d: %s", method, target, status, EjabberdText(body))
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
			b.at = target
		default:
			b.page, b.at = body, target
			return body
		}
	}
	t.Fatalf("ejabberd: %s %s redirects too often", method, path)
	return ""
}

// EjabberdText is a page's text as a person reads it: scripts dropped, tags dropped,
// entities unescaped, white space folded.
func EjabberdText(page string) string { return IcingaWebText(page) }
