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

// OCSInventoryBrowser uses the console's pages as a person's browser does: the session
// cookie its sign-in form sets, each form's fields as the page fills them (its CSRF_n token
// among them) sent back to the page's own address, the hidden field a link or an icon
// fills before it sends its form (the console's pag() and confirme()), and the rows a list
// loads from ajax.php. It is how the harness seeds an instance and how its own test does
// each goal's effect without the agent.
type OCSInventoryBrowser struct {
	o    *OCSInventory
	h    *http.Client
	path string
	page string
}

// Browser is a browser with no session yet: SignIn signs it in through the sign-in form.
func (o *OCSInventory) Browser() *OCSInventoryBrowser {
	jar, _ := cookiejar.New(nil)
	return &OCSInventoryBrowser{o: o, h: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens the sign-in page and sends its form with admin's name and password, as a
// person who types them into User and Password and presses Send does.
func (b *OCSInventoryBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, "/index.php")
	page := b.Post(t, "/index.php", url.Values{"LOGIN": {b.o.User}, "PASSWD": {b.o.Password}, "Valid_CNX": {"Send"}})
	if !strings.Contains(page, "Logout") || !strings.Contains(page, "My account") {
		t.Fatalf("ocsinventory: signing in as %s did not:\n%s", b.o.User, OCSText(page))
	}
}

// Page is the page the browser is on.
func (b *OCSInventoryBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root), following redirects as a browser does, and
// returns the page it ends on. An answer of 400 or more fails the test.
func (b *OCSInventoryBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

// Post sends values to path as a form of the page would.
func (b *OCSInventoryBrowser) Post(t testing.TB, path string, values url.Values) string {
	t.Helper()
	return b.follow(t, http.MethodPost, path, values)
}

// Form is the form on the page the browser is on whose id is id.
func (b *OCSInventoryBrowser) Form(t testing.TB, id string) *PhpLDAPadminForm {
	t.Helper()
	return PhpLDAPadminFormOf(t, b.page, `id='`+id+`'`)
}

// Save fills the fields of the form whose id is id on the page the browser is on and
// sends it with its submit button named button (none for ""), to the page's own address
// (the console's forms have no action).
func (b *OCSInventoryBrowser) Save(t testing.TB, id, button string, fields map[string]string) string {
	t.Helper()
	f := b.Form(t, id)
	for k, v := range fields {
		f.Fields.Set(k, v)
	}
	if button != "" {
		value, ok := f.Buttons[button]
		if !ok {
			t.Fatalf("ocsinventory: the form %s has no button %s:\n%s", id, button, OCSText(b.page))
		}
		f.Fields.Set(button, value)
	}
	return b.Post(t, b.path, f.Fields)
}

// Pag does what the console's tabs, links and confirmed icons do (pag() and confirme()):
// set the hidden field of the form whose id is id to value and send the form.
func (b *OCSInventoryBrowser) Pag(t testing.TB, id, field, value string) string {
	t.Helper()
	f := b.Form(t, id)
	if _, ok := f.Fields[field]; !ok {
		t.Fatalf("ocsinventory: the form %s has no field %s", id, field)
	}
	f.Fields.Set(field, value)
	return b.Post(t, b.path, f.Fields)
}

// ocsRowLink is the link to a computer's page in a row of the computers' list.
var ocsRowLink = regexp.MustCompile(`href='index\.php\?function=computer&head=1&systemid=(\d+)'>([^<]*)</a>`)

// FindComputer opens All computers, types name into the list's search box (the rows the
// list loads from ajax.php for that search) and returns the id of the row whose name is
// name exactly (its link), failing the test when there is none.
func (b *OCSInventoryBrowser) FindComputer(t testing.TB, name string) string {
	t.Helper()
	page := b.Open(t, "/index.php?function=visu_computers")
	f := b.Form(t, "show_all")
	values := url.Values{"draw": {"1"}, "start": {"0"}, "length": {"10"}, "search[value]": {name}, "search[regex]": {"false"},
		"columns[0][data]": {"name"}, "columns[0][name]": {"h.name"}, "columns[0][searchable]": {"true"}, "columns[0][orderable]": {"true"},
		"order[0][column]": {"0"}, "order[0][dir]": {"asc"}, "visible_col[]": {"0"}, "onglet": {"ACTIVE"}, "page": {"0"},
		"ocs[]": {f.Fields.Encode()}}
	for k, v := range f.Fields {
		if strings.HasPrefix(k, "CSRF_") {
			values[k] = v
		}
	}
	status, _, body := sendForm(t, b.h, "ocsinventory", http.MethodPost, b.o.URL+"/ajax.php?function=visu_computers&no_header=true&no_footer=true", values, nil)
	var rows struct{ Data []map[string]any }
	if err := json.Unmarshal([]byte(body), &rows); status != http.StatusOK || err != nil {
		t.Fatalf("ocsinventory: the computers' list answered %d: %v\n%s", status, err, body)
	}
	b.page = page
	for _, row := range rows.Data {
		cell, _ := row["name"].(string)
		if m := ocsRowLink.FindStringSubmatch(cell); m != nil && html.UnescapeString(m[2]) == name {
			return m[1]
		}
	}
	t.Fatalf("ocsinventory: searching the computers for %s finds no such row: %s", name, body)
	return ""
}

// OpenComputer finds the computer named name in All computers and opens the part of its
// page named cat ("admin" for Administrative data, "config" for Configuration); it returns
// the computer's id.
func (b *OCSInventoryBrowser) OpenComputer(t testing.TB, name, cat string) string {
	t.Helper()
	id := b.FindComputer(t, name)
	page := b.Open(t, "/index.php?function=computer&head=1&systemid="+id+"&cat="+cat)
	if !strings.Contains(page, "<h3>"+name+"</h3>") {
		t.Fatalf("ocsinventory: the page of %s does not show its name:\n%s", name, OCSText(page))
	}
	return id
}

// ocsGroupOption is an option of a computer's "Statically add to this group" list.
var ocsGroupOption = regexp.MustCompile(`<option value='(\d+)'>([^<]*)</option>`)

// AddToGroup opens the Configuration part of the computer's page, chooses group in its
// list of groups and presses "Statically add to this group" (which opens the address the
// button's script makes).
func (b *OCSInventoryBrowser) AddToGroup(t testing.TB, computer, group string) {
	t.Helper()
	id := b.OpenComputer(t, computer, "config")
	list := regexp.MustCompile(`(?s)<select name="groupcombo".*?</select>`).FindString(b.page)
	for _, m := range ocsGroupOption.FindAllStringSubmatch(list, -1) {
		if html.UnescapeString(m[2]) == group {
			b.Open(t, "/index.php?function=computer&head=1&systemid="+id+"&option=cd_configuration&actgrp=1&grp="+m[1])
			return
		}
	}
	t.Fatalf("ocsinventory: the groups' list of %s has no %s: %s", computer, group, list)
}

func (b *OCSInventoryBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target := path
		if !strings.HasPrefix(path, "http") {
			target = b.o.URL + "/" + strings.TrimPrefix(path, "/")
		}
		status, loc, body := sendForm(t, b.h, "ocsinventory", method, target, form, nil)
		switch {
		case status >= 400:
			t.Fatalf("ocsinventory: %s %s answered %d:\n%s", method, path, status, OCSText(body))
		case status >= 300 && loc != "":
			method, path, form = http.MethodGet, loc, nil
		default:
			if strings.Contains(body, "CSRF ATTACK") {
				t.Fatalf("ocsinventory: %s %s was refused as a forged form", method, path)
			}
			b.path = strings.TrimPrefix(target, b.o.URL)
			b.page = body
			return body
		}
	}
	t.Fatalf("ocsinventory: %s %s redirects too often", method, path)
	return ""
}

// OCSText is a page's text as a person reads it: scripts and styles dropped, tags dropped,
// entities unescaped, white space folded.
func OCSText(page string) string {
	page = ocsScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}

var ocsScript = regexp.MustCompile(`(?is)<script\b.*?</script>|<style\b.*?</style>`)
