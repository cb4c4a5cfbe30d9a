package testenv

import (
	"cmp"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// AdminerSession is a signed-in visitor of Adminer's own pages, posting its forms as a
// browser would (the harness's check that a goal's effect, done through the app, is what
// the judges see; no agent involved).
type AdminerSession struct {
	a  *Adminer
	db *AdminerDB
	c  *http.Client
}

// SignIn fills Adminer's login form (System "SQLite 3", no server or username, the
// password, the database's file) and returns the session and the page it lands on.
func (a *Adminer) SignIn(t testing.TB, db *AdminerDB, password string) (*AdminerSession, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	s := &AdminerSession{a: a, db: db, c: &http.Client{Jar: jar}}
	s.fetch(t, http.MethodGet, a.URL, nil) // the session's cookie, as the login page sets it
	login := &AdminerForm{}
	for _, kv := range [][2]string{{"auth[driver]", "sqlite"}, {"auth[server]", ""}, {"auth[username]", ""}, {"auth[password]", password}, {"auth[db]", db.Path}} {
		login.Set(kv[0], kv[1])
	}
	page := s.fetch(t, http.MethodPost, a.URL, login)
	return s, page
}

// Page is the address of one of the database's pages: query is what follows the database
// in Adminer's own links ("select=customers", "edit=orders&where[id]=2", "sql=").
func (s *AdminerSession) Page(query string) string {
	u := s.a.URL + "?sqlite=&username=&db=" + url.QueryEscape(s.db.Path)
	if query != "" {
		u += "&" + query
	}
	return u
}

// Get fetches one of the database's pages (a refused sign-in's too: Adminer answers it
// 403 with its login form).
func (s *AdminerSession) Get(t testing.TB, query string) string {
	t.Helper()
	return s.fetch(t, http.MethodGet, s.Page(query), nil)
}

var adminerToken = regexp.MustCompile(`name=["']token["'] value=["']([0-9]+:[0-9]+)["']`)

// Post submits a form of the page at query, as its submit button does: the page is
// fetched first for the form's token (Adminer's defence against cross-site requests).
// It returns the page Adminer answers with, after its redirect.
func (s *AdminerSession) Post(t testing.TB, query string, form *AdminerForm) string {
	t.Helper()
	m := adminerToken.FindStringSubmatch(s.Get(t, query))
	if m == nil {
		t.Fatalf("no form token on Adminer's page %s", query)
	}
	form.Set("token", m[1])
	return s.fetch(t, http.MethodPost, s.Page(query), form)
}

var (
	adminerForm     = regexp.MustCompile(`(?s)<form action="" method="post"[^>]*id="form">(.*?)</form>`)
	adminerControl  = regexp.MustCompile(`(?s)<input\b[^>]*>|<select\b[^>]*>.*?</select>|<textarea\b[^>]*>.*?</textarea>`)
	adminerAttr     = regexp.MustCompile(`([a-z_-]+)(?:=(?:"([^"]*)"|'([^']*)'))?`)
	adminerOption   = regexp.MustCompile(`<option\b([^>]*)>([^<]*)`)
	adminerTextarea = regexp.MustCompile(`(?s)>(.*)</textarea>`)
	adminerValue    = regexp.MustCompile(`value=(?:"([^"]*)"|'([^']*)')`)
)

// AdminerForm is a form's controls, in the order the page has them (and a browser sends
// them: Adminer reads a table's columns in that order).
type AdminerForm struct{ names, values []string }

// Add appends a control.
func (f *AdminerForm) Add(name, value string) {
	f.names, f.values = append(f.names, name), append(f.values, value)
}

// Set gives the first control named so the value (and drops any other of that name), or
// appends one.
func (f *AdminerForm) Set(name, value string) {
	f.Del(name)
	f.Add(name, value)
}

// Del drops the controls named so.
func (f *AdminerForm) Del(name string) {
	for i := 0; i < len(f.names); i++ {
		if f.names[i] == name {
			f.names, f.values = append(f.names[:i], f.names[i+1:]...), append(f.values[:i], f.values[i+1:]...)
			i--
		}
	}
}

// Type sets a field of Adminer's edit form as typing into it does: its value, and the
// function beside it back to none (typing leaves "NULL").
func (f *AdminerForm) Type(field, value string) {
	f.Set("fields["+field+"]", value)
	if f.Has("function[" + field + "]") {
		f.Set("function["+field+"]", "")
	}
}

// Has says whether a control is named so.
func (f *AdminerForm) Has(name string) bool {
	for _, n := range f.names {
		if n == name {
			return true
		}
	}
	return false
}

// AddRow copies the row of a table's columns named from (`fields[4]`) right after it,
// as the row named to, for a new column called field: what Adminer's "Add next" button
// does in the page (its name, default and origin emptied).
func (f *AdminerForm) AddRow(from, to, field string) {
	last := -1
	var names, values []string
	for i, n := range f.names {
		if strings.HasPrefix(n, from+"[") {
			last = i
			names, values = append(names, to+n[len(from):]), append(values, f.values[i])
		}
	}
	for i, n := range names {
		switch n[len(to):] {
		case "[field]":
			values[i] = field
		case "[orig]", "[default]":
			values[i] = ""
		}
	}
	f.names = append(f.names[:last+1], append(names, f.names[last+1:]...)...)
	f.values = append(f.values[:last+1], append(values, f.values[last+1:]...)...)
	f.Del(to + "[has_default]")
}

// Encode is the form as a browser posts it.
func (f *AdminerForm) Encode() string {
	parts := make([]string, len(f.names))
	for i, n := range f.names {
		parts[i] = url.QueryEscape(n) + "=" + url.QueryEscape(f.values[i])
	}
	return strings.Join(parts, "&")
}

// Form is what the main form of the page at query submits as it stands (a browser's
// successful controls: its inputs, checked boxes, selected options and text areas, no
// button), for a test to change a few values of and Post.
func (s *AdminerSession) Form(t testing.TB, query string) *AdminerForm {
	t.Helper()
	m := adminerForm.FindStringSubmatch(s.Get(t, query))
	if m == nil {
		t.Fatalf("no form on Adminer's page %s", query)
	}
	form := &AdminerForm{}
	for _, c := range adminerControl.FindAllString(m[1], -1) {
		tag := c[:strings.IndexAny(c, " >")]
		head := c[:strings.Index(c, ">")]
		attrs := map[string]string{}
		for _, a := range adminerAttr.FindAllStringSubmatch(head[len(tag):], -1) {
			attrs[a[1]] = html.UnescapeString(a[2] + a[3])
		}
		_, checked := attrs["checked"]
		name, typ := attrs["name"], attrs["type"]
		if _, disabled := attrs["disabled"]; name == "" || disabled {
			continue
		}
		switch {
		case tag == "<textarea":
			form.Add(name, html.UnescapeString(adminerTextarea.FindStringSubmatch(c)[1]))
		case tag == "<select":
			form.Add(name, selected(c))
		case typ == "submit" || typ == "image" || typ == "button" || typ == "file":
		case typ == "checkbox" || typ == "radio":
			if checked {
				form.Add(name, cmp.Or(attrs["value"], "on"))
			}
		default:
			form.Add(name, attrs["value"])
		}
	}
	return form
}

// selected is the value a select submits: its selected option's, or its first's.
func selected(sel string) string {
	value := ""
	for i, o := range adminerOption.FindAllStringSubmatch(sel, -1) {
		v := html.UnescapeString(o[2])
		if a := adminerValue.FindStringSubmatch(o[1]); a != nil {
			v = html.UnescapeString(a[1] + a[2])
		}
		if strings.Contains(o[1], "selected") {
			return v
		}
		if i == 0 {
			value = v
		}
	}
	return value
}

func (s *AdminerSession) fetch(t testing.TB, method, u string, form *AdminerForm) string {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := s.c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	if resp.StatusCode >= http.StatusInternalServerError {
		t.Fatalf("%s %s: %s\n%s", method, u, resp.Status, b)
	}
	return string(b)
}
