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

// PostfixAdminBrowser uses a Postfix Admin's pages as a person's browser does: its session
// cookie, a form's fields as the page fills them (with the token each form carries against
// forged requests), the button pressed, the links a page shows. It is how the harness sets
// up and seeds an instance and how its own test does each goal's effect without the agent.
type PostfixAdminBrowser struct {
	w *PostfixAdmin
	c *http.Client
}

// Browser is a browser with no session yet: SignIn signs it in through the login page.
func (w *PostfixAdmin) Browser() *PostfixAdminBrowser {
	jar, _ := cookiejar.New(nil)
	return &PostfixAdminBrowser{w: w, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the login page and sends its form with the superadmin's address and
// password, pressing Login, as a person does; the app answers with its main page.
func (b *PostfixAdminBrowser) SignIn(t testing.TB) {
	t.Helper()
	status, loc, body := b.Submit(t, "/login.php", `name="frmLogin"`, url.Values{"fUsername": {b.w.User}, "fPassword": {b.w.Password}}, "submit")
	if status != http.StatusFound || !strings.Contains(b.Get(t, loc), "Logged in as "+b.w.User) {
		t.Fatalf("postfixadmin: signing in as %s answered %d (to %q):\n%s", b.w.User, status, loc, body)
	}
}

// Get fetches a page (a path from the root, or a whole address), following redirects as a
// browser does, and returns the body of the page it ends on. An answer of 400 or more fails
// the test.
func (b *PostfixAdminBrowser) Get(t testing.TB, path string) string {
	t.Helper()
	for range 10 {
		status, loc, body := b.Do(t, http.MethodGet, path, nil)
		switch {
		case status >= 400:
			t.Fatalf("postfixadmin: GET %s answered %d:\n%s", path, status, body)
		case status >= 300 && loc != "":
			path = loc
		default:
			return body
		}
	}
	t.Fatalf("postfixadmin: GET %s redirects too often", path)
	return ""
}

// Do sends one request (a form for POST) and returns its status, where it redirects
// (resolved against the request's address) and its body.
func (b *PostfixAdminBrowser) Do(t testing.TB, method, path string, form url.Values) (int, string, string) {
	t.Helper()
	target := path
	if !strings.HasPrefix(path, "http") {
		target = b.w.URL + "/" + strings.TrimPrefix(path, "/")
	}
	return sendForm(t, b.c, "postfixadmin", method, target, form, nil)
}

var (
	pfaForm   = regexp.MustCompile(`(?s)(<form\b[^>]*>)(.*?)</form>`)
	pfaButton = regexp.MustCompile(`(?s)<button\b[^>]*>`)
	pfaLink   = regexp.MustCompile(`<a\b[^>]*href="([^"]*)"`)
)

// Submit opens the page at path, fills its first form that holds marker (in its opening tag
// or inside, e.g. `name="edit_domain"` or `name="delete" value="a@b"`) as a person does —
// the fields as the page fills them, then fields (a field given no value is emptied or
// unticked), then the button named button with its value, if any — and sends it as the
// form says (its method and action, the page itself when it names none). It returns the
// status, the redirect and the body of the answer, not following it.
func (b *PostfixAdminBrowser) Submit(t testing.TB, path, marker string, fields url.Values, button string) (int, string, string) {
	t.Helper()
	page := b.Get(t, path)
	var m []string
	for _, f := range pfaForm.FindAllStringSubmatch(page, -1) {
		if strings.Contains(f[0], marker) {
			m = f
			break
		}
	}
	if m == nil {
		t.Fatalf("postfixadmin: no form %s on %s:\n%s", marker, path, page)
	}
	form := pfaFormFields(m[2])
	for k, v := range fields {
		if len(v) == 0 {
			form.Del(k)
		} else {
			form[k] = v
		}
	}
	if button != "" {
		value, ok := pfaButtons(m[2])[button]
		if !ok {
			t.Fatalf("postfixadmin: the form %s on %s has no button %q", marker, path, button)
		}
		form.Set(button, value)
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

// Save sends the edit form (marker) on the page at path with fields changed, pressing its
// submit button, and fails the test unless the app takes it: it answers a form it saved by
// redirecting (to the list, or to an empty form for the next one), and shows the form
// again with what is wrong when it did not save it. The page it redirects to must show no
// error (a welcome mail that could not be sent, say).
func (b *PostfixAdminBrowser) Save(t testing.TB, path, marker string, fields url.Values) {
	t.Helper()
	status, loc, body := b.Submit(t, path, marker, fields, "submit")
	if status != http.StatusFound {
		t.Fatalf("postfixadmin: the form %s of %s answered %d (to %q), not saved: %s", marker, path, status, loc, PostfixAdminErrors(body))
	}
	if page := b.Get(t, loc); strings.Contains(page, `class="flash-error"`) {
		t.Fatalf("postfixadmin: the form %s of %s was saved with an error: %s", marker, path, PostfixAdminErrors(page))
	}
}

var pfaError = regexp.MustCompile(`(?s)<ul class="flash-error">(.*?)</ul>|<span class="help-block">([^<]+)</span>`)

// PostfixAdminErrors is the error messages a page shows (its flash and each field's), or
// the page itself when it shows none.
func PostfixAdminErrors(page string) string {
	var out []string
	for _, m := range pfaError.FindAllStringSubmatch(page, -1) {
		if s := strings.TrimSpace(html.UnescapeString(plaTag.ReplaceAllString(m[1]+m[2], " "))); s != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return page
	}
	return strings.Join(out, "; ")
}

// Link is the address, unescaped, of the first link on page whose address holds part
// (as a person finds a row's "edit" button or the YES of its Active column); "" when
// there is none.
func PostfixAdminLink(page, part string) string {
	for _, m := range pfaLink.FindAllStringSubmatch(page, -1) {
		if u := html.UnescapeString(m[1]); strings.Contains(u, part) {
			return u
		}
	}
	return ""
}

// pfaFormFields reads a form's fields as a browser sends them untouched: text and hidden
// fields, ticked boxes, each list's selected options, text areas. Buttons are left out.
func pfaFormFields(inner string) url.Values {
	form := url.Values{}
	for _, c := range shaarliControl.FindAllString(inner, -1) {
		attrs := tagAttrs(c[:strings.IndexByte(c, '>')+1])
		name := attrs["name"]
		if name == "" {
			continue
		}
		switch {
		case strings.HasPrefix(c, "<select"):
			plaSelectValues(form, name, c, attrs)
		case strings.HasPrefix(c, "<textarea"):
			form.Add(name, html.UnescapeString(shaarliTextarea.FindStringSubmatch(c)[1]))
		default:
			typ := strings.ToLower(attrs["type"])
			_, checked := attrs["checked"]
			switch {
			case typ == "submit" || typ == "button" || typ == "image" || typ == "reset" || typ == "file":
			case (typ == "checkbox" || typ == "radio") && !checked:
			case typ == "checkbox" && attrs["value"] == "":
				form.Add(name, "on")
			default:
				form.Add(name, attrs["value"])
			}
		}
	}
	return form
}

// pfaButtons are a form's named submit buttons (<input type="submit"> and <button>),
// name → value.
func pfaButtons(inner string) map[string]string {
	out := map[string]string{}
	for _, c := range append(shaarliControl.FindAllString(inner, -1), pfaButton.FindAllString(inner, -1)...) {
		attrs := tagAttrs(c[:strings.IndexByte(c, '>')+1])
		typ := strings.ToLower(attrs["type"])
		if attrs["name"] != "" && (typ == "submit" || (strings.HasPrefix(c, "<button") && typ == "")) {
			out[attrs["name"]] = attrs["value"]
		}
	}
	return out
}
