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

// ZoneMinderBrowser uses a ZoneMinder's console as a person's browser does: the session
// cookie its login form sets, each form's fields as the page fills them (its __csrf_magic
// token among them), the forms the console's scripts load into a modal (Groups' New, the
// console's Function links) asked for as those scripts ask, and what a person ticks and
// presses on the console. It is how the harness seeds an instance and how its own test
// does each goal's effect without the agent.
type ZoneMinderBrowser struct {
	z    *ZoneMinder
	h    *http.Client
	page string
}

// Browser is a browser with no session yet: SignIn signs it in through the login form.
func (z *ZoneMinder) Browser() *ZoneMinderBrowser {
	jar, _ := cookiejar.New(nil)
	return &ZoneMinderBrowser{z: z, h: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the login page and sends its form with admin's name and password, as a
// person who types them into Username and Password and presses Login does, then opens the
// console the login page goes on to.
func (b *ZoneMinderBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, "/")
	f := b.Form(t, `id="loginForm"`)
	f.Fields.Set("username", b.z.User)
	f.Fields.Set("password", b.z.Password)
	b.Send(t, f, nil)
	if page := ZoneMinderText(b.Open(t, "/?view=console")); !strings.Contains(page, "account_circle "+b.z.User) {
		t.Fatalf("zoneminder: signing in as %s did not:\n%s", b.z.User, page)
	}
}

// Page is the page the browser is on.
func (b *ZoneMinderBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root, e.g. "/?view=console"), following redirects
// as a browser does, and returns the page it ends on. An answer of 400 or more fails the
// test.
func (b *ZoneMinderBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

// Modal fetches a form the console's scripts load into a modal (?request=modal&modal=…),
// as they fetch it, and makes it the page the browser is on.
func (b *ZoneMinderBrowser) Modal(t testing.TB, query string) string {
	t.Helper()
	var answer struct{ HTML string }
	if err := json.Unmarshal([]byte(b.Open(t, "/?request=modal&"+query)), &answer); err != nil || answer.HTML == "" {
		t.Fatalf("zoneminder: the modal %s did not load: %v\n%s", query, err, b.page)
	}
	b.page = answer.HTML
	return b.page
}

// Form is the form on the page the browser is on whose opening tag holds marker (e.g.
// `id="contentForm"`, `name="optionsForm"`).
func (b *ZoneMinderBrowser) Form(t testing.TB, marker string) *PhpLDAPadminForm {
	t.Helper()
	return PhpLDAPadminFormOf(t, b.page, marker)
}

// Send sends a form as a browser does when its submit button is pressed (extra holds the
// button's name and value, and what the page's scripts set first), following the
// redirects of the answer, and returns the page it ends on.
func (b *ZoneMinderBrowser) Send(t testing.TB, f *PhpLDAPadminForm, extra map[string]string) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	for k, v := range extra {
		values.Set(k, v)
	}
	return b.follow(t, http.MethodPost, "/"+strings.TrimPrefix(html.UnescapeString(f.Action), "/"), values)
}

var (
	zoneminderRow  = regexp.MustCompile(`(?s)<tr id="monitor_id-(\d+)".*?</tr>`)
	zoneminderName = regexp.MustCompile(`<a href="\?view=watch&amp;mid=\d+">([^<]*)</a>`)
	zoneminderErr  = regexp.MustCompile(`(?s)<div id="error">(.*?)</div>|SQL-ERR[^<]*`)
)

// MonitorID is the id of the monitor the console lists as name (the page must be the
// console).
func (b *ZoneMinderBrowser) MonitorID(t testing.TB, name string) string {
	t.Helper()
	for _, row := range zoneminderRow.FindAllStringSubmatch(b.page, -1) {
		for _, m := range zoneminderName.FindAllStringSubmatch(row[0], -1) {
			if html.UnescapeString(m[1]) == name {
				return row[1]
			}
		}
	}
	t.Fatalf("zoneminder: the console lists no monitor %q:\n%s", name, ZoneMinderText(b.page))
	return ""
}

// monitorFields sets the monitor form's fields a person fills: Name, Function, Source Type
// (Type), Source Path (Path), Notes; its Capture Resolution is 640x480 unless set.
func monitorFields(f *PhpLDAPadminForm, fields map[string]string) {
	if f.Fields.Get("newMonitor[Width]") == "" {
		f.Fields.Set("newMonitor[Width]", "640")
		f.Fields.Set("newMonitor[Height]", "480")
		f.Fields.Set("dimensions_select", "640x480")
	}
	for k, v := range fields {
		f.Fields.Set("newMonitor["+k+"]", v)
	}
}

// AddMonitor presses Add on the console, fills the monitor form's fields (monitorFields)
// and presses Save.
func (b *ZoneMinderBrowser) AddMonitor(t testing.TB, fields map[string]string) {
	t.Helper()
	b.Open(t, "/?view=console")
	b.Open(t, "/?view=monitor")
	f := b.Form(t, `id="contentForm"`)
	monitorFields(f, fields)
	b.saved(t, b.Send(t, f, map[string]string{"action": "save"}), "add monitor "+fields["Name"])
}

// EditMonitor opens the monitor the console lists as name (its Source link), changes the
// form's fields (monitorFields) and presses Save.
func (b *ZoneMinderBrowser) EditMonitor(t testing.TB, name string, fields map[string]string) {
	t.Helper()
	b.Open(t, "/?view=console")
	b.Open(t, "/?view=monitor&mid="+b.MonitorID(t, name))
	f := b.Form(t, `id="contentForm"`)
	monitorFields(f, fields)
	b.saved(t, b.Send(t, f, map[string]string{"action": "save"}), "edit monitor "+name)
}

// SetFunction clicks the function shown in the console's row of the monitor name, chooses
// function in the Function modal (Analysis Enabled and Decoding Enabled left as they are)
// and presses Save.
func (b *ZoneMinderBrowser) SetFunction(t testing.TB, name, function string) {
	t.Helper()
	b.Open(t, "/?view=console")
	mid := b.MonitorID(t, name)
	b.Modal(t, "modal=function")
	f := b.Form(t, `id="function_form"`)
	f.Fields.Set("mid", mid)
	f.Fields.Set("newFunction", function)
	f.Fields.Set("newEnabled", "1")
	f.Fields.Set("newDecodingEnabled", "1")
	b.saved(t, b.Send(t, f, nil), "set the function of "+name)
}

// DeleteMonitors chooses group in the console's Group filter (none for ""), which sends the
// filter at once, ticks the rows of names and presses Delete, answering its question with
// OK.
func (b *ZoneMinderBrowser) DeleteMonitors(t testing.TB, group string, names ...string) {
	t.Helper()
	page := b.Open(t, "/?view=console")
	if group != "" {
		m := regexp.MustCompile(`<option value="(\d+)"[^>]*>(?:&nbsp;)*` + regexp.QuoteMeta(html.EscapeString(group)) + `</option>`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("zoneminder: the console's Group filter has no %q:\n%s", group, ZoneMinderText(page))
		}
		b.Send(t, b.Form(t, `name="monitorForm"`), map[string]string{"GroupId[]": m[1]})
	}
	f := b.Form(t, `name="monitorForm"`)
	for _, name := range names {
		f.Fields.Add("markMids[]", b.MonitorID(t, name))
	}
	b.saved(t, b.Send(t, f, map[string]string{"action": "delete"}), "delete monitors")
}

// AddUser opens Options' Users tab, presses Add New User, fills the user form (Username,
// Password — typed into New Password and Confirm Password —, Enabled and the permissions,
// by the form's names) and presses Save.
func (b *ZoneMinderBrowser) AddUser(t testing.TB, fields map[string]string) {
	t.Helper()
	b.Open(t, "/?view=options&tab=users")
	b.Open(t, "/?view=user&uid=0")
	f := b.Form(t, `id="contentForm"`)
	for k, v := range fields {
		f.Fields.Set("newUser["+k+"]", v)
		if k == "Password" {
			f.Fields.Set("conf_password", v)
		}
	}
	b.saved(t, b.Send(t, f, map[string]string{"action": "Save"}), "add user "+fields["Username"])
}

// SaveOptions opens Options' tab (its name in the address: "web", "system", …), sets the
// options (by their names, e.g. ZM_WEB_CONSOLE_BANNER) and presses Save.
func (b *ZoneMinderBrowser) SaveOptions(t testing.TB, tab string, options map[string]string) {
	t.Helper()
	b.Open(t, "/?view=options&tab="+tab)
	f := b.Form(t, `name="optionsForm"`)
	for k, v := range options {
		f.Fields.Set("newConfig["+k+"]", v)
	}
	b.saved(t, b.Send(t, f, nil), "save the options of "+tab)
}

// SaveGroup opens Groups and presses New, or the group named group ("" for a new one),
// types name into Name, picks the monitors in Monitor and presses Save.
func (b *ZoneMinderBrowser) SaveGroup(t testing.TB, group, name string, monitors ...string) {
	t.Helper()
	b.Open(t, "/?view=console")
	ids := make([]string, len(monitors))
	for i, m := range monitors {
		ids[i] = b.MonitorID(t, m)
	}
	page := b.Open(t, "/?view=groups")
	query := "modal=group"
	if group != "" {
		m := regexp.MustCompile(`data-group-id="(\d+)">\d+ ` + regexp.QuoteMeta(html.EscapeString(group)) + `<`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("zoneminder: Groups lists no group %q:\n%s", group, ZoneMinderText(page))
		}
		query += "&gid=" + m[1]
	}
	b.Modal(t, query)
	f := b.Form(t, `id="groupForm"`)
	f.Fields.Set("newGroup[Name]", name)
	f.Fields["newGroup[MonitorIds][]"] = ids
	b.saved(t, b.Send(t, f, map[string]string{"action": "save"}), "save group "+name)
}

// saved fails the test when page, the answer to what did, shows an error.
func (b *ZoneMinderBrowser) saved(t testing.TB, page, did string) {
	t.Helper()
	if m := zoneminderErr.FindString(page); m != "" && strings.TrimSpace(ZoneMinderText(m)) != "" {
		t.Fatalf("zoneminder: %s failed: %s", did, ZoneMinderText(m))
	}
}

func (b *ZoneMinderBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target := path
		if !strings.HasPrefix(path, "http") {
			target = b.z.URL + "/" + strings.TrimPrefix(path, "/")
		}
		status, loc, body := sendForm(t, b.h, "zoneminder", method, target, form, nil)
		switch {
		case status >= 400:
			t.Fatalf("zoneminder: %s %s answered %d:\n%s", method, path, status, ZoneMinderText(body))
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
		default:
			b.page = body
			return body
		}
	}
	t.Fatalf("zoneminder: %s %s redirects too often", method, path)
	return ""
}

// ZoneMinderText is a page's text as a person reads it: scripts dropped, tags dropped,
// entities unescaped, white space folded.
func ZoneMinderText(page string) string { return CactiText(page) }
