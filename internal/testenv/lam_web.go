package testenv

import (
	"bytes"
	"fmt"
	"html"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// LAMBrowser uses a LAM's pages as a person's browser does: the session cookie its login
// form sets, each form's fields as the page fills them (its sec_token among them), the
// button pressed, the links a page shows. LAM keeps an account being edited in the session
// (the form's editKey): switching tabs, opening a sub-page and saving are each a post of
// the whole form. It is how the harness's own test does each goal's effect without the
// agent.
type LAMBrowser struct {
	l    *LAM
	c    *http.Client
	page string
	at   *url.URL // the page's address, which its relative links and actions are read against
}

// Browser is a browser with no session yet: SignIn signs it in through the login page.
func (l *LAM) Browser() *LAMBrowser {
	jar, _ := cookiejar.New(nil)
	return &LAMBrowser{l: l, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the login page and sends its form with the admin (the one name its User
// name list offers) and the password, as a person who types the password and presses
// Login does; LAM then shows the list of users.
func (b *LAMBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, b.l.URL)
	f := b.Form(t, "checklogin")
	if f.Fields.Get("username") != b.l.Login {
		t.Fatalf("lam: the login page's User name is %q, not the admin", f.Fields.Get("username"))
	}
	f.Fields.Set("passwd", b.l.Password)
	if page := b.Send(t, f, "checklogin"); !strings.Contains(page, "logout.php") || !strings.Contains(b.at.String(), "list.php?type=user") {
		t.Fatalf("lam: signing in as %s did not:\n%s", b.l.Login, page)
	}
}

// Page is the page the browser is on.
func (b *LAMBrowser) Page() string { return b.page }

// Open fetches a page (a whole address, or one read against the page the browser is on),
// following redirects as a browser does, and returns the page it ends on. An answer of 400
// or more fails the test.
func (b *LAMBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

// Click follows the link on the page the browser is on whose address is href (as the page
// writes it, unescaped), after checking that the page shows it: a list's rows show the
// same icons (Edit, Delete, Copy), so the address tells the rows apart.
func (b *LAMBrowser) Click(t testing.TB, href string) string {
	t.Helper()
	if !strings.Contains(html.UnescapeString(b.page), `href="`+href+`"`) {
		t.Fatalf("lam: the page has no link to %s:\n%s", href, b.page)
	}
	return b.Open(t, href)
}

// Form is the form on the page the browser is on that holds the button named button (a
// list page has two forms sent to the same address: its settings dialog's and its own).
func (b *LAMBrowser) Form(t testing.TB, button string) *PhpLDAPadminForm {
	t.Helper()
	for _, m := range lamForm.FindAllStringSubmatch(b.page, -1) {
		f := lamFormOf(m[1], m[2])
		if _, ok := f.Buttons[button]; ok {
			return f
		}
	}
	t.Fatalf("lam: no form with a button %s on the page:\n%s", button, b.page)
	return nil
}

// Send sends a form as a browser does when its button named button is pressed (LAM's
// buttons are named; the Save of an account page is accountContainerSaveAccount), following
// the redirects of the answer, and returns the page it ends on. A page that says LAM
// refused the change fails the test.
func (b *LAMBrowser) Send(t testing.TB, f *PhpLDAPadminForm, button string) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	label, ok := f.Buttons[button]
	if !ok {
		t.Fatalf("lam: the form to %s has no button %q", f.Action, button)
	}
	values.Set(button, label)
	page := b.follow(t, http.MethodPost, f.Action, values)
	if i := strings.Index(page, `class="statusError`); i >= 0 {
		t.Fatalf("lam: %s answered with an error: %s", f.Action, LAMText(page[i:min(len(page), i+800)]))
	}
	return page
}

func (b *LAMBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target, err := url.Parse(path)
		if err != nil {
			t.Fatalf("lam: %s: %v", path, err)
		}
		if b.at != nil {
			target = b.at.ResolveReference(target)
		}
		status, loc, body := sendForm(t, b.c, "lam", method, target.String(), form, nil)
		switch {
		case status >= 400:
			log := b.l.web.out.String()
			t.Fatalf("lam: %s %s answered %d:\n%s\nthe server's log ends:\n%s", method, target, status, body, log[max(0, len(log)-3000):])
		case status >= 300 && loc != "":
			b.at = target
			method, path, form = http.MethodGet, loc, nil
		default:
			b.at, b.page = target, body
			return body
		}
	}
	t.Fatalf("lam: %s %s redirects too often", method, path)
	return ""
}

var (
	lamForm    = regexp.MustCompile(`(?s)(<form\b[^>]*>)(.*?)</form>`)
	lamControl = regexp.MustCompile(`(?s)<input\b[^>]*>|<select\b[^>]*>.*?</select>|<textarea\b[^>]*>.*?</textarea>|<button\b[^>]*>`)
	lamOption  = regexp.MustCompile(`(?s)<option\b([^>]*)>([^<]*)`)
	lamScript  = regexp.MustCompile(`(?is)<script\b.*?</script>`)
)

// lamFormOf reads a form (its opening tag and what is inside it): its fields as a
// browser would send them untouched (text and hidden fields, ticked boxes, each list's
// selected options, whose value is their text when they have no value, text areas) and
// its submit buttons, <input> and <button> alike, by name. Disabled fields are not sent.
func lamFormOf(open, inner string) *PhpLDAPadminForm {
	attrs := tagAttrs(open)
	f := &PhpLDAPadminForm{Action: attrs["action"], Method: attrs["method"], Fields: url.Values{}, Buttons: map[string]string{}}
	for _, c := range lamControl.FindAllString(inner, -1) {
		a := tagAttrs(c[:strings.IndexByte(c, '>')+1])
		name, typ := a["name"], strings.ToLower(a["type"])
		_, checked := a["checked"]
		_, disabled := a["disabled"]
		switch {
		case name == "" || disabled:
		case strings.HasPrefix(c, "<select"):
			lamSelectValues(f.Fields, name, c)
		case strings.HasPrefix(c, "<textarea"):
			f.Fields.Add(name, html.UnescapeString(shaarliTextarea.FindStringSubmatch(c)[1]))
		case strings.HasPrefix(c, "<button"):
			if typ == "" || typ == "submit" {
				f.Buttons[name] = a["value"]
			}
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
	return f
}

// lamSelectValues adds what a list sends: its selected options, or its first when none is
// selected and it is not a list of many.
func lamSelectValues(fields url.Values, name, sel string) {
	_, multiple := tagAttrs(sel[:strings.IndexByte(sel, '>')+1])["multiple"]
	opts := lamOption.FindAllStringSubmatch(sel, -1)
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
			fields.Add(name, LAMOptionValue(o))
		}
	}
}

// LAMOptionValue is what an option (lamOption's match) sends: its value, or its text.
func LAMOptionValue(o []string) string {
	if v, ok := tagAttrs("<option " + o[1] + ">")["value"]; ok {
		return v
	}
	return strings.TrimSpace(html.UnescapeString(o[2]))
}

// LAMOptions are the options of the list named name on page, as what each sends → what
// it shows.
func LAMOptions(page, name string) map[string]string {
	re := regexp.MustCompile(`(?s)<select\b[^>]*name="` + regexp.QuoteMeta(name) + `"[^>]*>.*?</select>`)
	out := map[string]string{}
	for _, o := range lamOption.FindAllStringSubmatch(re.FindString(page), -1) {
		out[LAMOptionValue(o)] = strings.TrimSpace(html.UnescapeString(o[2]))
	}
	return out
}

// LAMText is a page's text as a person reads it: scripts and tags dropped, entities
// unescaped, white space folded.
func LAMText(page string) string {
	page = lamScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}

// ldapClient runs one of OpenLDAP's clients (ldapadd, ldapsearch, ...) against the
// instance's server, bound as its admin, with stdin as its input; the system's ldap.conf
// is not read.
func (l *LAM) ldapClient(tool, stdin string, args ...string) ([]byte, error) {
	cmd := exec.Command(tool, append([]string{"-x", "-H", l.LDAP, "-D", l.Login, "-w", l.Password}, args...)...)
	cmd.Env = append(os.Environ(), "LDAPNOINIT=1")
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return append(out, stderr.Bytes()...), fmt.Errorf("%s: %v: %s", tool, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// Entries reads the whole directory back with ldapsearch — every entry under the suffix
// with its user attributes — keyed by LDAPKey of its DN.
func (l *LAM) Entries() (map[string]LDAPEntry, error) {
	out, err := l.ldapClient("ldapsearch", "", "-LLL", "-o", "ldif-wrap=no", "-b", LAMBase, "-s", "sub", "(objectClass=*)")
	if err != nil {
		return nil, err
	}
	entries, err := ParseLDIF(string(out))
	if err != nil {
		return nil, err
	}
	byKey := map[string]LDAPEntry{}
	for _, e := range entries {
		byKey[LDAPKey(e.DN)] = e
	}
	return byKey, nil
}
