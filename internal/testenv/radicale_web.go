package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/xml"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// RadicaleForm is a collection as the web interface's Create and Edit forms hold it: its
// address, the Type list's value ("ADDRESSBOOK", "CALENDAR", "CALENDAR_JOURNAL_TASKS",
// "TASKS" and so on), Title, Description and Color ("#rrggbb", or "" for none).
type RadicaleForm struct {
	Href, Type, DisplayName, Description, Color string
}

// RadicaleClient sends the WebDAV requests Radicale's web interface sends (its fn.js),
// with the user's name and password as its XMLHttpRequests carry them (HTTP basic auth):
// how the harness's own test makes each goal's effect without the agent.
type RadicaleClient struct {
	r *Radicale
}

// Client is a client signed in as the instance's user.
func (r *Radicale) Client() *RadicaleClient { return &RadicaleClient{r: r} }

// Collections lists the user's calendars and address books as the collections page does
// after signing in: a PROPFIND of the root for the user's principal, then a PROPFIND of
// depth 1 of the principal with the page's own body, sorted by title as the page shows
// them.
func (c *RadicaleClient) Collections(t testing.TB) []RadicaleForm {
	t.Helper()
	status, body := c.send(t, "PROPFIND", "/", `<?xml version="1.0" encoding="utf-8" ?><propfind xmlns="DAV:"><prop>`+
		`<current-user-principal /><displayname /></prop></propfind>`, nil)
	var root radicaleMultistatus
	if err := xml.Unmarshal([]byte(body), &root); status != 207 || err != nil || len(root.Responses) == 0 {
		t.Fatalf("radicale: the principal's PROPFIND answered %d (%v): %s", status, err, body)
	}
	principal := root.Responses[0].prop().Principal
	if principal == "" {
		t.Fatalf("radicale: no principal in %s", body)
	}
	status, body = c.send(t, "PROPFIND", principal, `<?xml version="1.0" encoding="utf-8" ?>`+
		`<propfind xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CR="urn:ietf:params:xml:ns:carddav" `+
		`xmlns:I="http://apple.com/ns/ical/" xmlns:INF="http://inf-it.com/ns/ab/" xmlns:RADICALE="http://radicale.org/ns/">`+
		`<prop><resourcetype /><RADICALE:displayname /><I:calendar-color /><INF:addressbook-color />`+
		`<C:calendar-description /><C:supported-calendar-component-set /><CR:addressbook-description /></prop></propfind>`,
		map[string]string{"Depth": "1"})
	var ms radicaleMultistatus
	if err := xml.Unmarshal([]byte(body), &ms); status != 207 || err != nil {
		t.Fatalf("radicale: the collections' PROPFIND answered %d (%v): %s", status, err, body)
	}
	var out []RadicaleForm
	for _, resp := range ms.Responses {
		p := resp.prop()
		f := RadicaleForm{Href: resp.Href, DisplayName: p.DisplayName}
		switch {
		case p.ResourceType.Addressbook != nil:
			f.Type, f.Color, f.Description = "ADDRESSBOOK", p.AddressbookColor, p.AddressbookDescription
		case p.ResourceType.Calendar != nil:
			var parts []string
			for _, comp := range [][2]string{{"VEVENT", "CALENDAR"}, {"VJOURNAL", "JOURNAL"}, {"VTODO", "TASKS"}} {
				for _, have := range p.Components {
					if have.Name == comp[0] {
						parts = append(parts, comp[1])
						break
					}
				}
			}
			f.Type, f.Color, f.Description = strings.Join(parts, "_"), p.CalendarColor, p.CalendarDescription
		}
		// The page keeps a colour it can show ("#rrggbb", from "#rrggbb" or "#rrggbbaa").
		if color := strings.TrimSpace(f.Color); radicaleColor.MatchString(color) {
			f.Color = color[:7]
		} else {
			f.Color = ""
		}
		if strings.HasSuffix(f.Href, "/") && f.Href != principal && f.Type != "" {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b RadicaleForm) int { return strings.Compare(a.title(), b.title()) })
	return out
}

func (f RadicaleForm) title() string {
	if f.DisplayName != "" {
		return f.DisplayName
	}
	return f.Href
}

var radicaleColor = regexp.MustCompile(`^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$`)

// Form is the listed collection with this title, as its Edit link opens the Edit form; it
// fails the test when there is not exactly one.
func (c *RadicaleClient) Form(t testing.TB, title string) RadicaleForm {
	t.Helper()
	var found []RadicaleForm
	for _, f := range c.Collections(t) {
		if f.title() == title {
			found = append(found, f)
		}
	}
	if len(found) != 1 {
		t.Fatalf("radicale: %d collections titled %q", len(found), title)
	}
	return found[0]
}

// Create presses the Create form's Create button: an MKCOL of the collection at f.Href,
// or, when f.Href is "", at a new /USER/UUID/ as the form makes one. It returns the
// address.
func (c *RadicaleClient) Create(t testing.TB, f RadicaleForm) string {
	t.Helper()
	if f.Href == "" {
		f.Href = c.r.Href(radicaleUUID(t))
	}
	c.must(t, "MKCOL", f.Href, radicaleFormBody(f, true), nil)
	return f.Href
}

// Edit presses the Edit form's Save button: a PROPPATCH that sets what the form holds and
// removes what it leaves empty.
func (c *RadicaleClient) Edit(t testing.TB, f RadicaleForm) {
	t.Helper()
	c.must(t, "PROPPATCH", f.Href, radicaleFormBody(f, false), nil)
}

// Delete presses Yes on a collection's Delete page: a DELETE of its address.
func (c *RadicaleClient) Delete(t testing.TB, href string) {
	t.Helper()
	c.must(t, "DELETE", href, "", nil)
}

// Put stores an item (an .ics or .vcf text) at href, as a CalDAV or CardDAV client does.
func (c *RadicaleClient) Put(t testing.TB, href, text string) {
	t.Helper()
	ctype := "text/calendar; charset=utf-8"
	if strings.HasSuffix(href, ".vcf") {
		ctype = "text/vcard; charset=utf-8"
	}
	c.must(t, "PUT", href, text, map[string]string{"Content-Type": ctype})
}

// radicaleFormBody is the body the web interface sends for its Create (MKCOL) or Edit
// (PROPPATCH) form, built as its create_edit_collection builds it.
func radicaleFormBody(f RadicaleForm, create bool) string {
	esc := strings.NewReplacer("&", "&amp;", `"`, "&quot;", "'", "&apos;", "<", "&lt;", ">", "&gt;").Replace
	displayname := esc(f.DisplayName)
	var calColor, abColor, calDesc, abDesc, resourcetype, comps string
	color := ""
	if f.Color != "" {
		color = esc(f.Color + "ff")
	}
	if f.Type == "ADDRESSBOOK" {
		abColor, abDesc, resourcetype = color, esc(f.Description), "<CR:addressbook />"
	} else {
		calColor, calDesc, resourcetype = color, esc(f.Description), "<C:calendar />"
		for _, comp := range [][2]string{{"CALENDAR", "VEVENT"}, {"JOURNAL", "VJOURNAL"}, {"TASKS", "VTODO"}} {
			if strings.Contains(f.Type, comp[0]) {
				comps += `<C:comp name="` + comp[1] + `" />`
			}
		}
	}
	// opt is the element when its value is set, "" otherwise; gone is the empty element
	// for the remove list when its value is not set.
	opt := func(tag, v string) string {
		if v == "" {
			return ""
		}
		return "<" + tag + ">" + v + "</" + tag + ">"
	}
	gone := func(tag, v string) string {
		if v != "" {
			return ""
		}
		return "<" + tag + " />"
	}
	kind := "propertyupdate"
	if create {
		kind = "mkcol"
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" ?><` + kind + ` xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" ` +
		`xmlns:CR="urn:ietf:params:xml:ns:carddav" xmlns:I="http://apple.com/ns/ical/" xmlns:INF="http://inf-it.com/ns/ab/"><set><prop>`)
	if create {
		b.WriteString("<resourcetype><collection />" + resourcetype + "</resourcetype>")
	}
	b.WriteString(opt("C:supported-calendar-component-set", comps) + opt("displayname", displayname) +
		opt("I:calendar-color", calColor) + opt("INF:addressbook-color", abColor) +
		opt("CR:addressbook-description", abDesc) + opt("C:calendar-description", calDesc) + "</prop></set>")
	if !create {
		b.WriteString("<remove><prop>" + gone("C:supported-calendar-component-set", comps) + gone("displayname", displayname) +
			gone("I:calendar-color", calColor) + gone("INF:addressbook-color", abColor) +
			gone("CR:addressbook-description", abDesc) + gone("C:calendar-description", calDesc) + "</prop></remove>")
	}
	b.WriteString("</" + kind + ">")
	return b.String()
}

// radicaleUUID is a new collection's ID as the web interface makes it: random hex digits
// in the 8-4-4-4-12 shape of a UUID.
func radicaleUUID(t testing.TB) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// send sends one request to the server with the user's credentials and returns the status
// and the body; a body goes as the page's XMLHttpRequest sends a string (plain text)
// unless header says otherwise.
func (c *RadicaleClient) send(t testing.TB, method, href, body string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, c.r.Server+href, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(c.r.User, c.r.Password)
	if body != "" {
		req.Header.Set("Content-Type", "text/plain;charset=UTF-8")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("radicale: %s %s: %v", method, href, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// must is send failing the test on any status the page takes for an error (not 2xx).
func (c *RadicaleClient) must(t testing.TB, method, href, body string, header map[string]string) {
	t.Helper()
	if status, out := c.send(t, method, href, body, header); status < 200 || status > 299 {
		t.Fatalf("radicale: %s %s answered %d: %s", method, href, status, out)
	}
}

// radicaleMultistatus is what the web interface reads of a PROPFIND's answer.
type radicaleMultistatus struct {
	Responses []radicaleResponse `xml:"DAV: response"`
}

type radicaleResponse struct {
	Href      string `xml:"DAV: href"`
	Propstats []struct {
		Status string       `xml:"DAV: status"`
		Prop   radicaleProp `xml:"DAV: prop"`
	} `xml:"DAV: propstat"`
}

type radicaleProp struct {
	Principal    string `xml:"DAV: current-user-principal>href"`
	ResourceType struct {
		Addressbook *struct{} `xml:"urn:ietf:params:xml:ns:carddav addressbook"`
		Calendar    *struct{} `xml:"urn:ietf:params:xml:ns:caldav calendar"`
	} `xml:"DAV: resourcetype"`
	DisplayName            string `xml:"http://radicale.org/ns/ displayname"`
	CalendarColor          string `xml:"http://apple.com/ns/ical/ calendar-color"`
	AddressbookColor       string `xml:"http://inf-it.com/ns/ab/ addressbook-color"`
	CalendarDescription    string `xml:"urn:ietf:params:xml:ns:caldav calendar-description"`
	AddressbookDescription string `xml:"urn:ietf:params:xml:ns:carddav addressbook-description"`
	Components             []struct {
		Name string `xml:"name,attr"`
	} `xml:"urn:ietf:params:xml:ns:caldav supported-calendar-component-set>comp"`
}

// prop is the response's found properties: those of its propstat answered 200 (the
// others, answered 404, name what the collection lacks).
func (r radicaleResponse) prop() radicaleProp {
	for _, ps := range r.Propstats {
		if strings.Contains(ps.Status, " 200 ") {
			return ps.Prop
		}
	}
	return radicaleProp{}
}
