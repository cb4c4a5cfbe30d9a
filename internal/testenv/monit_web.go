package testenv

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// MonitBrowser uses a monit daemon's web interface as a person's browser does: the home
// page, each service's page (a link on the home page), and the forms of its buttons
// (Start service, Stop service, Restart service, Disable monitoring, Enable monitoring),
// each a POST of the service's action with the security token monit sets as a cookie
// with the page and repeats in the form, answered by a redirect back to the service's
// page. There is no sign-in. It is how the harness's own test does each goal's effect
// without the agent.
type MonitBrowser struct {
	w    *Monit
	c    *http.Client
	page string
	at   *url.URL // the page's address
}

// Browser is a browser on no page yet, with a cookie jar of its own.
func (w *Monit) Browser() *MonitBrowser {
	jar, _ := cookiejar.New(nil)
	return &MonitBrowser{w: w, c: &http.Client{Jar: jar}}
}

// Page is the page the browser is on.
func (b *MonitBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root, or one relative to the page the browser is
// on), following redirects, and returns it. An answer of 400 or more fails the test.
func (b *MonitBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.send(t, http.MethodGet, path, nil)
}

// send makes a request as the browser does (a form's values for a POST) to target,
// resolved against the page the browser is on, follows redirects, and keeps the page it
// ends on.
func (b *MonitBrowser) send(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	base, err := url.Parse(b.w.URL)
	if err != nil {
		t.Fatal(err)
	}
	if b.at != nil {
		base = b.at
	}
	target, err := base.Parse(path)
	if err != nil {
		t.Fatalf("monit: %q is no address: %v", path, err)
	}
	var resp *http.Response
	if method == http.MethodPost {
		resp, err = b.c.PostForm(target.String(), form)
	} else {
		resp, err = b.c.Get(target.String())
	}
	if err != nil {
		t.Fatalf("monit: %s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("monit: %s %s answered %d: %s", method, target, resp.StatusCode, IcingaWebText(string(body)))
	}
	b.page, b.at = string(body), resp.Request.URL
	return b.page
}

// Click follows the link on the page the browser is on whose text is text (a service's
// name on the home page, Home above each page).
func (b *MonitBrowser) Click(t testing.TB, text string) string {
	t.Helper()
	href := icingawebHref(b.page, text)
	if href == "" {
		t.Fatalf("monit: the page has no link %q: %s", text, IcingaWebText(b.page))
	}
	return b.Open(t, href)
}

var (
	monitForm  = regexp.MustCompile(`(?is)<form\b([^>]*)>(.*?)</form>`)
	monitInput = regexp.MustCompile(`(?is)<input\b[^>]*>`)
)

// Press submits the form on the page the browser is on whose button says button (Stop
// service, Disable monitoring…), with its hidden fields, as a click on it does.
func (b *MonitBrowser) Press(t testing.TB, button string) string {
	t.Helper()
	for _, f := range monitForm.FindAllStringSubmatch(b.page, -1) {
		values, found := url.Values{}, false
		for _, in := range monitInput.FindAllString(f[2], -1) {
			a := tagAttrs(in)
			switch strings.ToLower(a["type"]) {
			case "hidden":
				values.Set(a["name"], a["value"])
			case "submit":
				found = found || a["value"] == button
			}
		}
		if !found {
			continue
		}
		action := tagAttrs("<form " + f[1] + ">")["action"]
		method := strings.ToUpper(tagAttrs("<form " + f[1] + ">")["method"])
		if method != http.MethodPost {
			return b.send(t, http.MethodGet, action+"?"+values.Encode(), nil)
		}
		return b.send(t, http.MethodPost, action, values)
	}
	t.Fatalf("monit: the page has no button %q: %s", button, IcingaWebText(b.page))
	return ""
}

// Buttons are the buttons of the page the browser is on, in its order.
func (b *MonitBrowser) Buttons() []string {
	var out []string
	for _, in := range monitInput.FindAllString(b.page, -1) {
		if a := tagAttrs(in); strings.ToLower(a["type"]) == "submit" {
			out = append(out, a["value"])
		}
	}
	return out
}

// Act opens the home page, follows the link of the service name to its page and presses
// button there, as a person does, and fails the test unless it comes back to the
// service's page.
func (b *MonitBrowser) Act(t testing.TB, name, button string) {
	t.Helper()
	b.Open(t, "/")
	b.Click(t, name)
	b.Press(t, button)
	if b.at.Path != "/"+name || !strings.Contains(IcingaWebText(b.page), "Name "+name+" ") {
		t.Fatalf("monit: %s on the page of %s came back to %s: %s", button, name, b.at, IcingaWebText(b.page))
	}
}
