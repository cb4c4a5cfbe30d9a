package testenv

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TomcatBrowser uses the Manager's and Host Manager's pages as a person's browser does:
// the session and single sign-on cookies the sign-in form sets, each form as the page
// writes it (its address carrying the page's CSRF nonce, its fields as the page fills
// them), the button pressed. Forms are told apart by the command their address names
// (stop, start, undeploy, expire, deploy; add, remove) and the application's context path
// or the host's name it carries, as a person tells them apart by the row they are in. It is
// how the harness's own test does each goal's effect without the agent.
type TomcatBrowser struct {
	tc   *Tomcat
	c    *http.Client
	page string
	at   *url.URL // the page's address
}

// Browser is a browser with no session yet: SignIn signs it in through the sign-in form.
func (tc *Tomcat) Browser() *TomcatBrowser {
	jar, _ := cookiejar.New(nil)
	return &TomcatBrowser{tc: tc, c: &http.Client{Jar: jar, Timeout: 60 * time.Second}}
}

// SignIn opens the page of the web app app ("manager" or "host-manager"), which shows the
// sign-in form in its place, and sends the form with admin's name and password, as a
// person who types them into Username and Password and presses Log In does; it ends on the
// web app's page.
func (b *TomcatBrowser) SignIn(t testing.TB, app string) {
	t.Helper()
	b.Open(t, "/"+app+"/html")
	if tomcatSignedIn(b.page) { // the single sign-on of the other web app serves this one
		return
	}
	if !strings.Contains(b.page, `action="j_security_check"`) {
		t.Fatalf("tomcat: /%s/html shows no sign-in form: %s", app, IcingaWebText(b.page))
	}
	f := PhpLDAPadminFormOf(t, b.page, `action="j_security_check"`)
	f.Fields.Set("j_username", b.tc.User)
	f.Fields.Set("j_password", b.tc.Password)
	if page := b.send(t, http.MethodPost, f.Action, f.Fields); !tomcatSignedIn(page) {
		t.Fatalf("tomcat: signing in as %s did not: %s", b.tc.User, IcingaWebText(page))
	}
}

// tomcatSignedIn says whether page is the Manager's or the Host Manager's own page.
func tomcatSignedIn(page string) bool {
	return strings.Contains(page, "Tomcat Web Application Manager") || strings.Contains(page, "Tomcat Virtual Host Manager")
}

// Page is the page the browser is on.
func (b *TomcatBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root, or a whole address), following redirects as
// a browser does, and returns the page it ends on. An answer of 400 or more fails the test.
func (b *TomcatBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.send(t, http.MethodGet, path, nil)
}

var tomcatFormTag = regexp.MustCompile(`<form\b[^>]*>`)

// Form is the form on the page the browser is on whose address names command (its last
// path element: "stop", "expire", "deploy", "add"…) and, unless target is "", the
// application's context path or the host's name target (its path= or name= parameter).
func (b *TomcatBrowser) Form(t testing.TB, command, target string) *PhpLDAPadminForm {
	t.Helper()
	for _, tag := range tomcatFormTag.FindAllString(b.page, -1) {
		raw := tagAttrs(tag)["action"]
		u, err := url.Parse(raw)
		if err != nil {
			continue
		}
		// A new session's first page carries its id in each address (";jsessionid=…").
		if p, _, _ := strings.Cut(u.Path, ";"); !strings.HasSuffix(p, "/html/"+command) {
			continue
		}
		q := u.Query()
		if target != "" && q.Get("path") != target && q.Get("name") != target {
			continue
		}
		marker := tomcatAction.FindString(tag)
		return PhpLDAPadminFormOf(t, b.page, marker)
	}
	t.Fatalf("tomcat: the page has no form %s for %q: %s", command, target, IcingaWebText(b.page))
	return nil
}

var tomcatAction = regexp.MustCompile(`action="[^"]*"`)

// Press sends the form named by command and target (as Form finds it) untouched, as a
// person who presses its button does ("Stop" in the row of /inventory).
func (b *TomcatBrowser) Press(t testing.TB, command, target string) string {
	t.Helper()
	return b.Send(t, b.Form(t, command, target))
}

// Send sends a form as its button does and returns the page it ends on. A page whose
// message says the command failed fails the test.
func (b *TomcatBrowser) Send(t testing.TB, f *PhpLDAPadminForm) string {
	t.Helper()
	if f.Fields == nil {
		f.Fields = url.Values{}
	}
	page := b.send(t, http.MethodPost, f.Action, f.Fields)
	if msg := TomcatMessage(page); strings.HasPrefix(msg, "FAIL") {
		t.Fatalf("tomcat: %s answered with a failure: %s", f.Action, msg)
	}
	return page
}

var tomcatPre = regexp.MustCompile(`(?s)<pre>(.*?)</pre>`)

// TomcatMessage is the message a Manager or Host Manager page shows after a command
// ("OK - Stopped application at context path [/inventory]", "FAIL - …"): the first line of
// the box labelled Message ("" when the page has none).
func TomcatMessage(page string) string {
	m := tomcatPre.FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	line, _, _ := strings.Cut(strings.TrimSpace(m[1]), "\n")
	return IcingaWebText(line)
}

func (b *TomcatBrowser) send(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	target, err := url.Parse(path)
	if err != nil {
		t.Fatalf("tomcat: %q is no address: %v", path, err)
	}
	if b.at != nil {
		target = b.at.ResolveReference(target)
	} else {
		base, _ := url.Parse(b.tc.URL + "/")
		target = base.ResolveReference(target)
	}
	if form == nil && method == http.MethodPost {
		form = url.Values{}
	}
	status, body, at := tomcatGet(t, b.c, method, target.String(), form)
	if status >= 400 {
		t.Fatalf("tomcat: %s %s answered %d: %s", method, target, status, IcingaWebText(body))
	}
	b.page, b.at = body, at
	return body
}
