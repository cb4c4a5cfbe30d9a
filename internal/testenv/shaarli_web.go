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

// ShaarliBrowser uses a Shaarli's pages as a person's browser does: its session cookie, a
// form's fields as the page fills them (with the one-time token each page carries), the
// button pressed, the links a page shows. It is how the harness installs and seeds an
// instance and how its own test does each goal's effect without the agent.
type ShaarliBrowser struct {
	s *Shaarli
	c *http.Client
}

// Browser is a browser with no session yet: SignIn signs it in through the login form.
func (s *Shaarli) Browser() *ShaarliBrowser {
	jar, _ := cookiejar.New(nil)
	return &ShaarliBrowser{s: s, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the login page and posts its form with the user's name and password, as a
// person who clicks Login at the top of a page does.
func (b *ShaarliBrowser) SignIn(t testing.TB) {
	t.Helper()
	status, _, body := b.Submit(t, "/login", `name="loginform"`, url.Values{"login": {b.s.User}, "password": {b.s.Password}}, "")
	if status != http.StatusFound || !strings.Contains(b.Get(t, "/"), `href="/admin/logout"`) {
		t.Fatalf("shaarli: signing in as %s answered %d:\n%s", b.s.User, status, body)
	}
}

// Get fetches a page (a path from the root, or a whole address), following redirects as a
// browser does, and returns the body of the page it ends on. An answer of 400 or more fails
// the test.
func (b *ShaarliBrowser) Get(t testing.TB, path string) string {
	t.Helper()
	for range 10 {
		status, loc, body := b.Do(t, http.MethodGet, path, nil)
		switch {
		case status >= 400:
			t.Fatalf("shaarli: GET %s answered %d:\n%s", path, status, body)
		case status >= 300 && loc != "":
			path = loc
		default:
			return body
		}
	}
	t.Fatalf("shaarli: GET %s redirects too often", path)
	return ""
}

// Do sends one request (a form for POST) and returns its status, where it redirects
// (resolved against the request's address) and its body.
func (b *ShaarliBrowser) Do(t testing.TB, method, path string, form url.Values) (int, string, string) {
	t.Helper()
	target := path
	if !strings.HasPrefix(path, "http") {
		target = b.s.URL + path
	}
	return sendForm(t, b.c, "shaarli", method, target, form, nil)
}

var (
	shaarliControl  = regexp.MustCompile(`(?s)<input\b[^>]*>|<select\b[^>]*>.*?</select>|<textarea\b[^>]*>.*?</textarea>`)
	shaarliOption   = regexp.MustCompile(`(?s)<option\b([^>]*)>`)
	shaarliTextarea = regexp.MustCompile(`(?s)<textarea\b[^>]*>(.*?)</textarea>`)
	shaarliToken    = regexp.MustCompile(`<input type="hidden" name="token" value="([0-9a-f]+)"`)
)

// PageToken is the one-time token a page carries for the requests its links and scripts
// send (deleting a bookmark, pinning it).
func PageToken(page string) string {
	if m := shaarliToken.FindStringSubmatch(page); m != nil {
		return m[1]
	}
	return ""
}

// Submit opens the page at path, fills its form whose opening tag holds marker (e.g.
// `name="linkform"`) as a person does — the fields as the page fills them, then fields
// (a field given no value is emptied or unticked), then the submit button named button
// with its label, if any — and sends it as the form says (its method and action). It
// returns the status, the redirect and the body of the answer, not following it.
func (b *ShaarliBrowser) Submit(t testing.TB, path, marker string, fields url.Values, button string) (int, string, string) {
	t.Helper()
	page := b.Get(t, path)
	re := regexp.MustCompile(`(?s)(<form\b[^>]*` + regexp.QuoteMeta(marker) + `[^>]*>)(.*?)</form>`)
	m := re.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("shaarli: no form %s on %s:\n%s", marker, path, page)
	}
	form, buttons := shaarliFormFields(m[2])
	for k, v := range fields {
		if len(v) == 0 {
			form.Del(k)
		} else {
			form[k] = v
		}
	}
	if button != "" {
		label, ok := buttons[button]
		if !ok {
			t.Fatalf("shaarli: the form %s on %s has no button %q", marker, path, button)
		}
		form.Set(button, label)
	}
	attrs := tagAttrs(m[1])
	action := attrs["action"]
	if action == "" {
		action = path
	}
	if strings.EqualFold(attrs["method"], "get") {
		return b.Do(t, http.MethodGet, action+"?"+form.Encode(), nil)
	}
	return b.Do(t, http.MethodPost, action, form)
}

// shaarliFormFields reads a form's fields as a browser sends them (text and hidden fields,
// ticked boxes, each list's selected option or its first, text areas) and its named submit
// buttons, name → label.
func shaarliFormFields(inner string) (url.Values, map[string]string) {
	form, buttons := url.Values{}, map[string]string{}
	for _, c := range shaarliControl.FindAllString(inner, -1) {
		attrs := tagAttrs(c[:strings.IndexByte(c, '>')+1])
		name := attrs["name"]
		if name == "" {
			continue
		}
		switch {
		case strings.HasPrefix(c, "<select"):
			opts := shaarliOption.FindAllStringSubmatch(c, -1)
			for i, o := range opts {
				oa := tagAttrs("<option " + o[1] + ">")
				if _, sel := oa["selected"]; sel || (i == 0 && !strings.Contains(c, "selected")) {
					form.Set(name, oa["value"])
				}
			}
		case strings.HasPrefix(c, "<textarea"):
			form.Set(name, html.UnescapeString(shaarliTextarea.FindStringSubmatch(c)[1]))
		default:
			typ := strings.ToLower(attrs["type"])
			_, checked := attrs["checked"]
			switch {
			case typ == "submit":
				buttons[name] = attrs["value"]
			case typ == "button" || typ == "image" || typ == "reset":
			case (typ == "checkbox" || typ == "radio") && !checked:
			case typ == "checkbox" && attrs["value"] == "":
				form.Set(name, "on")
			default:
				form.Set(name, attrs["value"])
			}
		}
	}
	return form, buttons
}

var shaarliItemLink = regexp.MustCompile(`<a href="([^"]*)"\s+aria-label="([^"]*)"`)

// ItemLink is the address of the link labelled label ("Edit", "Delete", "Toggle sticky")
// of the bookmark titled title in a list page, as a person finds the icon next to the
// bookmark; "" when the page lists no such bookmark.
func ItemLink(page, title, label string) string {
	items := strings.Split(page, `<div class="linklist-item `)
	for _, item := range items[1:] {
		if !strings.Contains(item, `<span class="linklist-link">`+html.EscapeString(title)+`</span>`) {
			continue
		}
		for _, m := range shaarliItemLink.FindAllStringSubmatch(item, -1) {
			if m[2] == label {
				return html.UnescapeString(m[1])
			}
		}
	}
	return ""
}
