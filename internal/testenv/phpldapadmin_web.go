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

// PhpLDAPadminBrowser uses a phpLDAPadmin's pages as a person's browser does: its session
// cookie, a form's fields as the page fills them, the button pressed, the links a page
// shows. phpLDAPadmin's scripts load the same pages into a frame of the page (the tree,
// the entry); this asks for them as whole pages, which phpLDAPadmin serves as well. It is
// how the harness's own test does each goal's effect without the agent.
type PhpLDAPadminBrowser struct {
	p *PhpLDAPadmin
	c *http.Client
}

// PhpLDAPadminForm is a form read from a page: where it is sent, how, the fields as the
// page fills them (a person changes them before sending) and its submit buttons by name.
type PhpLDAPadminForm struct {
	Action, Method string
	Fields         url.Values
	Buttons        map[string]string
}

// Browser is a browser with no session yet: SignIn signs it in through the login form.
func (p *PhpLDAPadmin) Browser() *PhpLDAPadminBrowser {
	jar, _ := cookiejar.New(nil)
	return &PhpLDAPadminBrowser{p: p, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the front page, follows its login link and sends the login form with the
// admin's DN and password, as a person who clicks "login" in the tree does.
func (b *PhpLDAPadminBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Get(t, "/index.php")
	f := PhpLDAPadminFormOf(t, b.Get(t, "/cmd.php?cmd=login_form&server_id=1"), `action="cmd.php"`)
	f.Fields.Set("login", b.p.Login)
	f.Fields.Set("login_pass", b.p.Password)
	if page := b.Send(t, f, "submit"); !strings.Contains(page, "Logged in as: "+b.p.Login) {
		t.Fatalf("phpldapadmin: signing in as %s did not:\n%s", b.p.Login, page)
	}
}

// EntryPath is the address of the entry's page (what a click on it in the tree opens).
func EntryPath(dn string) string {
	return "/cmd.php?" + url.Values{"cmd": {"template_engine"}, "server_id": {"1"}, "dn": {dn}}.Encode()
}

// Get fetches a page (a path from the root, or a whole address), following redirects as a
// browser does, and returns the body of the page it ends on. An answer of 400 or more fails
// the test.
func (b *PhpLDAPadminBrowser) Get(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

// Send sends a form as a browser does when its button named button is pressed ("" for a
// button with no name), following the redirects of the answer, and returns the page it
// ends on.
func (b *PhpLDAPadminBrowser) Send(t testing.TB, f *PhpLDAPadminForm, button string) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	if button != "" {
		label, ok := f.Buttons[button]
		if !ok {
			t.Fatalf("phpldapadmin: the form to %s has no button %q", f.Action, button)
		}
		values.Set(button, label)
	}
	action := f.Action
	if action == "" {
		action = "/cmd.php"
	}
	if !strings.HasPrefix(action, "/") && !strings.HasPrefix(action, "http") {
		action = "/" + action
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

func (b *PhpLDAPadminBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		status, loc, body := b.Do(t, method, path, form)
		switch {
		case status >= 400:
			log := b.p.web.out.String()
			t.Fatalf("phpldapadmin: %s %s answered %d:\n%s\nthe server's log ends:\n%s", method, path, status, body, log[max(0, len(log)-3000):])
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
		default:
			return body
		}
	}
	t.Fatalf("phpldapadmin: %s %s redirects too often", method, path)
	return ""
}

// Do sends one request (a form for POST) and returns its status, where it redirects
// (resolved against the request's address) and its body.
func (b *PhpLDAPadminBrowser) Do(t testing.TB, method, path string, form url.Values) (int, string, string) {
	t.Helper()
	// The pages link to each other relative to the root, where they all are.
	target := path
	if !strings.HasPrefix(path, "http") {
		target = strings.TrimSuffix(b.p.URL, "/index.php") + "/" + strings.TrimPrefix(path, "/")
	}
	return sendForm(t, b.c, "phpldapadmin", method, target, form, nil)
}

var (
	plaLink = regexp.MustCompile(`(?s)<a href="([^"]*)"[^>]*>(.*?)</a>`)
	plaTag  = regexp.MustCompile(`<[^>]*>`)
)

// PhpLDAPadminLink is the address of the first link on page whose text is text (as the
// page shows it, e.g. "Rename", "uid=pnovak", "search" under its icon), unescaped; "" when
// there is none.
func PhpLDAPadminLink(page, text string) string {
	for _, m := range plaLink.FindAllStringSubmatch(page, -1) {
		if strings.TrimSpace(html.UnescapeString(plaTag.ReplaceAllString(m[2], ""))) == text {
			return html.UnescapeString(m[1])
		}
	}
	return ""
}

var plaRadio = regexp.MustCompile(`<input type="radio" name="template" value="([^"]*)" id="[^"]*"[^>]*>.*?<label for="[^"]*">([^<]*)</label></td></tr>`)

// PhpLDAPadminTemplate is the value of the template labelled label ("Generic: User
// Account") in a "Create Object" page's list of templates; "" when it lists none.
func PhpLDAPadminTemplate(page, label string) string {
	for _, m := range plaRadio.FindAllStringSubmatch(page, -1) {
		if html.UnescapeString(m[2]) == label {
			return html.UnescapeString(m[1])
		}
	}
	return ""
}

// PhpLDAPadminFormOf reads the form whose opening tag holds marker (e.g. `id="entry_form"`)
// from page: its fields as a browser would send them untouched (text and hidden fields,
// ticked boxes, each list's selected options, text areas) and its named submit buttons.
func PhpLDAPadminFormOf(t testing.TB, page, marker string) *PhpLDAPadminForm {
	t.Helper()
	re := regexp.MustCompile(`(?s)(<form\b[^>]*` + regexp.QuoteMeta(marker) + `[^>]*>)(.*?)</form>`)
	m := re.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("phpldapadmin: no form %s on the page:\n%s", marker, page)
	}
	attrs := tagAttrs(m[1])
	f := &PhpLDAPadminForm{Action: attrs["action"], Method: attrs["method"], Fields: url.Values{}, Buttons: map[string]string{}}
	for _, c := range shaarliControl.FindAllString(m[2], -1) {
		a := tagAttrs(c[:strings.IndexByte(c, '>')+1])
		name := a["name"]
		if name == "" {
			continue
		}
		switch {
		case strings.HasPrefix(c, "<select"):
			plaSelectValues(f.Fields, name, c, a)
		case strings.HasPrefix(c, "<textarea"):
			f.Fields.Add(name, html.UnescapeString(shaarliTextarea.FindStringSubmatch(c)[1]))
		default:
			typ := strings.ToLower(a["type"])
			_, checked := a["checked"]
			switch {
			case typ == "submit":
				f.Buttons[name] = a["value"]
			case typ == "button" || typ == "image" || typ == "reset" || typ == "file":
			case (typ == "checkbox" || typ == "radio") && !checked:
			case typ == "checkbox" && a["value"] == "":
				f.Fields.Add(name, "on")
			default:
				f.Fields.Add(name, a["value"])
			}
		}
	}
	return f
}

// plaSelectValues adds what a list sends: its selected options, or its first when none is
// selected and it is not a list of many.
func plaSelectValues(fields url.Values, name, sel string, attrs map[string]string) {
	_, multiple := attrs["multiple"]
	opts := shaarliOption.FindAllStringSubmatch(sel, -1)
	picked := false
	for _, o := range opts {
		if _, ok := tagAttrs("<option " + o[1] + ">")["selected"]; ok {
			picked = true
		}
	}
	for i, o := range opts {
		oa := tagAttrs("<option " + o[1] + ">")
		_, selected := oa["selected"]
		if selected || (!picked && !multiple && i == 0) {
			fields.Add(name, oa["value"])
		}
	}
}
