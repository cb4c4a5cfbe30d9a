package testenv

import (
	"encoding/json"
	"html"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// ZabbixBrowser uses a Zabbix frontend as a person's browser does: the session cookie its
// sign-in form sets, each form's fields as the page fills them (its sid, the session's
// token every change needs, among them), the button pressed, the links a page shows, and
// the requests a page's own scripts send when a form of theirs is saved (the host form and
// the maintenance period dialog answer in JSON). It is how the harness's own test does each
// goal's effect without the agent.
type ZabbixBrowser struct {
	z    *Zabbix
	c    *http.Client
	page string
}

// Browser is a browser with no session yet: SignIn signs it in through the sign-in form.
func (z *Zabbix) Browser() *ZabbixBrowser {
	jar, _ := cookiejar.New(nil)
	return &ZabbixBrowser{z: z, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the sign-in page and sends its form with Admin's name and password, as a
// person who types them into Username and Password and presses Sign in does.
func (b *ZabbixBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, "/")
	f := b.Form(t, `action="index.php"`)
	f.Fields.Set("name", b.z.User)
	f.Fields.Set("password", b.z.Password)
	if page := b.Send(t, f, "enter", "Sign in"); !strings.Contains(page, `href="hostgroups.php"`) {
		t.Fatalf("zabbix: signing in as %s did not:\n%s", b.z.User, page)
	}
}

// Page is the page the browser is on.
func (b *ZabbixBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root), following redirects as a browser does, and
// returns the page it ends on. An answer of 400 or more fails the test.
func (b *ZabbixBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

// Click follows the link or button on the page the browser is on whose address is href
// (as the page writes it, unescaped: a link's href or a button's data-url), after checking
// that the page shows it.
func (b *ZabbixBrowser) Click(t testing.TB, href string) string {
	t.Helper()
	page := html.UnescapeString(b.page)
	if !strings.Contains(page, `href="`+href+`"`) && !strings.Contains(page, `data-url="`+href+`"`) {
		t.Fatalf("zabbix: the page has no link to %s:\n%s", href, b.page)
	}
	return b.Open(t, href)
}

// Form is the form on the page the browser is on whose opening tag holds marker (e.g.
// `name="hostgroupForm"`), as a browser sends it: the page's script templates and disabled
// fields left out, each of the frontend's own drop-downs (z-select) sending its value, and
// each multiselect (Groups, Role) the items it shows picked.
func (b *ZabbixBrowser) Form(t testing.TB, marker string) *PhpLDAPadminForm {
	t.Helper()
	page := zabbixScript.ReplaceAllString(zabbixPicked(b.page), "")
	page = zabbixDisabled.ReplaceAllString(page, "")
	page = zabbixSelect.ReplaceAllString(page, `<input type="hidden" $1>`)
	return PhpLDAPadminFormOf(t, page, marker)
}

// zabbixPicked is page with, in each multiselect the page's script fills in (its
// multiSelect call names the element, the field and the items picked), the hidden fields
// the script adds for the picked items.
func zabbixPicked(page string) string {
	picked := map[string]string{}
	for _, at := range zabbixMultiSelect.FindAllStringSubmatchIndex(page, -1) {
		var ms struct {
			Name string `json:"name"`
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if json.NewDecoder(strings.NewReader(page[at[1]:])).Decode(&ms) != nil || ms.Name == "" {
			continue
		}
		var fields strings.Builder
		for _, d := range ms.Data {
			fields.WriteString(`<input type="hidden" name="` + html.EscapeString(ms.Name) + `" value="` + html.EscapeString(d.ID) + `">`)
		}
		picked[`<div id="`+page[at[2]:at[3]]+`" class="multiselect"`] = fields.String()
	}
	for open, fields := range picked {
		if i := strings.Index(page, open); i >= 0 {
			end := i + strings.IndexByte(page[i:], '>') + 1
			page = page[:end] + fields + page[end:]
		}
	}
	return page
}

var (
	zabbixScript   = regexp.MustCompile(`(?is)<script\b[^>]*>.*?</script>`)
	zabbixDisabled = regexp.MustCompile(`(?s)<textarea\b[^>]*\sdisabled="disabled"[^>]*>.*?</textarea>|<select\b[^>]*\sdisabled="disabled"[^>]*>.*?</select>|<input\b[^>]*\sdisabled="disabled"[^>]*>`)
	zabbixSelect   = regexp.MustCompile(`<z-select\b([^>]*)>`)
	// zabbixMultiSelect is a multiselect's set-up in a page's script, up to its options.
	zabbixMultiSelect = regexp.MustCompile(`jQuery\("#([\w-]+)"\)\.multiSelect\(`)
)

// Send sends a form as a browser does when its button named button, of value value, is
// pressed ("" for none), following the redirects of the answer, and returns the page it
// ends on. A page that says the frontend refused the change fails the test.
func (b *ZabbixBrowser) Send(t testing.TB, f *PhpLDAPadminForm, button, value string) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	if button != "" {
		values.Set(button, value)
	}
	page := b.follow(t, http.MethodPost, f.Action, values)
	zabbixRefused(t, f.Action, page)
	return page
}

// zabbixRefused fails the test when page shows one of the frontend's error boxes.
func zabbixRefused(t testing.TB, action, page string) {
	t.Helper()
	if i := strings.Index(page, `class="msg-bad`); i >= 0 {
		t.Fatalf("zabbix: %s answered with an error: %s", action, ZabbixText(page[i:min(len(page), i+1500)]))
	}
}

// Fetch sends values to path as a page's script does (a form's fields, url-encoded, the
// page staying where it is) and returns the answer, JSON; an answer that holds an error
// fails the test.
func (b *ZabbixBrowser) Fetch(t testing.TB, path string, values url.Values) map[string]json.RawMessage {
	t.Helper()
	status, _, body := sendForm(t, b.c, "zabbix", http.MethodPost, b.abs(path), values, map[string]string{"X-Requested-With": "XMLHttpRequest"})
	var answer map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &answer); err != nil || status >= 400 {
		t.Fatalf("zabbix: %s answered %d, not JSON (%v):\n%s", path, status, err, body)
	}
	if e, ok := answer["error"]; ok {
		t.Fatalf("zabbix: %s answered with an error: %s", path, e)
	}
	if e, ok := answer["errors"]; ok {
		t.Fatalf("zabbix: %s answered with an error: %s", path, e)
	}
	return answer
}

// Sid is the session's token the page the browser is on carries (its csrf-token), which
// the page's scripts add to each change they send.
func (b *ZabbixBrowser) Sid(t testing.TB) string {
	t.Helper()
	m := zabbixSid.FindStringSubmatch(b.page)
	if m == nil {
		t.Fatalf("zabbix: the page has no csrf-token:\n%s", b.page)
	}
	return m[1]
}

var zabbixSid = regexp.MustCompile(`<meta name="csrf-token" content="([0-9a-f]+)"`)

// Popup opens one of the frontend's dialogs (action, e.g. popup.host.edit) with params, as
// a page's script does, and makes the dialog the page the browser is on: its body, then its
// script in a script tag (Form reads the body's form; the script holds the data the dialog
// starts from).
func (b *ZabbixBrowser) Popup(t testing.TB, action string, params url.Values) string {
	t.Helper()
	answer := b.Fetch(t, "zabbix.php?action="+action+"&sid="+b.Sid(t), params)
	var body, script string
	if err := json.Unmarshal(answer["body"], &body); err != nil {
		t.Fatalf("zabbix: %s answered with no dialog: %v", action, answer)
	}
	_ = json.Unmarshal(answer["script_inline"], &script)
	b.page = `<meta name="csrf-token" content="` + b.Sid(t) + `"/>` + body + "<script>" + script + "</script>"
	return b.page
}

// PostLink does what a link or button of the frontend does when its script posts the
// arguments of its address (redirect(uri, 'post') in the frontend's scripts): sends them,
// with the session's token, to the address's page, and returns the page it ends on.
func (b *ZabbixBrowser) PostLink(t testing.TB, uri string) string {
	t.Helper()
	u, err := url.Parse(html.UnescapeString(uri))
	if err != nil {
		t.Fatal(err)
	}
	values := u.Query()
	if values.Get("sid") == "" {
		values.Set("sid", b.Sid(t))
	}
	page := b.follow(t, http.MethodPost, u.Path, values)
	zabbixRefused(t, u.Path, page)
	return page
}

func (b *ZabbixBrowser) abs(path string) string {
	if strings.HasPrefix(path, "http") {
		return path
	}
	return strings.TrimSuffix(b.z.URL, "/") + "/" + strings.TrimPrefix(path, "/")
}

func (b *ZabbixBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		status, loc, body := sendForm(t, b.c, "zabbix", method, b.abs(path), form, nil)
		switch {
		case status >= 400:
			t.Fatalf("zabbix: %s %s answered %d:\n%s", method, path, status, body)
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
		default:
			b.page = body
			return body
		}
	}
	t.Fatalf("zabbix: %s %s redirects too often", method, path)
	return ""
}

// ZabbixText is a page's text as a person reads it: scripts and tags dropped, entities
// unescaped, white space folded.
func ZabbixText(page string) string {
	page = zabbixScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}
