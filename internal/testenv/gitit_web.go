package testenv

import (
	"bytes"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// GititBrowser uses a Gitit's pages as a person's browser does: the session cookie its
// login form sets, each form's fields as the page fills them (the edit form's hidden sha1
// of the revision being edited among them), the button pressed, the links a page shows.
// It is how the harness seeds an instance and how its own test does each goal's effect
// without the agent.
type GititBrowser struct {
	w    *Gitit
	c    *http.Client
	page string
	at   *url.URL // the page's address
}

// Browser is a browser with no session yet: SignIn signs it in through the login form.
func (w *Gitit) Browser() *GititBrowser {
	jar, _ := cookiejar.New(nil)
	return &GititBrowser{w: w, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn signs in as nora, the instance's user.
func (b *GititBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.SignInAs(t, b.w.User, b.w.Password)
}

// SignInAs opens the Front Page, follows "Login / Get an account" and sends the login form
// with user's name and password, as a person who types them into Username and Password and
// presses Login does; it fails the test unless Gitit then knows the browser as user.
func (b *GititBrowser) SignInAs(t testing.TB, user, password string) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, "Login / Get an account")
	f := b.Form(t, `id="loginForm"`)
	f.Fields.Set("username", user)
	f.Fields.Set("password", password)
	b.Send(t, f, "login")
	if who := b.Open(t, "/_user"); who != user {
		t.Fatalf("gitit: signing in as %s did not (the wiki knows the browser as %q): %s", user, who, GititText(b.page))
	}
}

// Register follows "Login / Get an account" and the login page's "click here to get one."
// and sends the register form with user's name, email and password (twice), leaving the
// form's hidden trap field empty as a person's browser does.
func (b *GititBrowser) Register(t testing.TB, user, email, password string) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, "Login / Get an account")
	b.ClickText(t, "click here to get one.")
	f := b.Form(t, `id="loginForm"`)
	f.Fields.Set("username", user)
	f.Fields.Set("email", email)
	f.Fields.Set("password", password)
	f.Fields.Set("password2", password)
	b.Send(t, f, "register")
}

// SavePage opens page (by its address) and saves it with text and summary (EditHere).
func (b *GititBrowser) SavePage(t testing.TB, page, text, summary string) {
	t.Helper()
	b.Open(t, "/"+GititPath(page))
	b.EditHere(t, text, summary)
}

// EditHere follows the edit tab of the page the browser is on (or, on a page that does not
// exist yet, its "Create the page" link), puts text into the edit form's text box and
// summary into "Description of changes" and presses Save.
func (b *GititBrowser) EditHere(t testing.TB, text, summary string) {
	t.Helper()
	if m := gititCreate.FindStringSubmatch(GititText(b.page)); m != nil {
		b.ClickText(t, m[0])
	} else {
		b.ClickText(t, "edit")
	}
	f := b.Form(t, `id="editform"`)
	f.Fields.Set("editedText", text)
	f.Fields.Set("logMsg", summary)
	b.Send(t, f, "update")
}

var gititCreate = regexp.MustCompile(`Create the page '[^']*'`)

// Upload sends the upload form ("Upload a file" in the menu on the left) with a file named
// name holding text, its name on the wiki the same, and its description.
func (b *GititBrowser) Upload(t testing.TB, name, text, summary string) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, "Upload a file")
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.WriteString(part, text)
	for _, kv := range [][2]string{{"wikiname", name}, {"logMsg", summary}, {"upload", "Upload"}} {
		_ = mw.WriteField(kv[0], kv[1])
	}
	_ = mw.Close()
	resp, err := b.c.Post(b.at.String(), mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatalf("gitit: upload %s: %v", name, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if page := GititText(string(out)); resp.StatusCode != http.StatusOK || !strings.Contains(page, "Uploaded") {
		t.Fatalf("gitit: uploading %s answered %d: %s", name, resp.StatusCode, page)
	}
}

// GititPath is a page's path on the wiki, escaped as its links have it ("Coffee%20Machine").
func GititPath(page string) string { return strings.ReplaceAll(url.PathEscape(page), "+", "%2B") }

// Page is the page the browser is on.
func (b *GititBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root, or a whole address), following redirects as
// a browser does, and returns the page it ends on. An answer of 400 or more fails the test,
// but for the page that offers to create a page that does not exist yet.
func (b *GititBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.follow(t, http.MethodGet, path, nil)
}

var gititLink = regexp.MustCompile(`(?s)<a\b([^>]*)>(.*?)</a>`)

// ClickText follows the first link on the page the browser is on whose text is text.
func (b *GititBrowser) ClickText(t testing.TB, text string) string {
	t.Helper()
	href := gititHref(b.page, text)
	if href == "" {
		t.Fatalf("gitit: the page has no link %q: %s", text, GititText(b.page))
	}
	return b.Open(t, href)
}

// ClickInItem follows the link whose text is text in the first item of the page's lists
// (the history's revisions, the search's results) that shows item.
func (b *GititBrowser) ClickInItem(t testing.TB, item, text string) string {
	t.Helper()
	for _, li := range gititItem.FindAllString(b.page, -1) {
		if strings.Contains(GititText(li), item) {
			if href := gititHref(li, text); href != "" {
				return b.Open(t, href)
			}
		}
	}
	t.Fatalf("gitit: the page has no item %q with a link %q: %s", item, text, GititText(b.page))
	return ""
}

var gititItem = regexp.MustCompile(`(?s)<li\b.*?</li>`)

// gititHref is the address of the first link in page whose text is text ("" when there is
// none).
func gititHref(page, text string) string {
	for _, m := range gititLink.FindAllStringSubmatch(page, -1) {
		a := tagAttrs("<a " + m[1] + ">")
		shown := strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(m[2], ""))), " ")
		if a["href"] != "" && a["href"] != "#" && shown == text {
			return a["href"]
		}
	}
	return ""
}

// Form is the form whose opening tag holds marker (`id="editform"`, `action=""`) on the
// page the browser is on.
func (b *GititBrowser) Form(t testing.TB, marker string) *PhpLDAPadminForm {
	t.Helper()
	f := PhpLDAPadminFormOf(t, b.page, marker)
	if f.Action == "" {
		f.Action = b.at.String()
	}
	return f
}

// Send sends a form as a browser does when its button named button is pressed, following
// the redirects of the answer, and returns the page it ends on. A page with Gitit's
// messages (a field's error, a wrong password, an edit conflict) fails the test.
func (b *GititBrowser) Send(t testing.TB, f *PhpLDAPadminForm, button string) string {
	t.Helper()
	values := url.Values{}
	for k, v := range f.Fields {
		values[k] = append([]string{}, v...)
	}
	label, ok := f.Buttons[button]
	if !ok {
		t.Fatalf("gitit: the form to %s has no button %q", f.Action, button)
	}
	values.Set(button, label)
	page := b.follow(t, http.MethodPost, f.Action, values)
	if strings.Contains(page, `<ul class="messages">`) {
		t.Fatalf("gitit: %s answered with a message: %s", f.Action, GititText(page))
	}
	return page
}

// follow sends method to path and follows redirects as a browser does; Gitit's answer to
// a form is often "303 See Other" with an empty Location, which a browser takes for the
// address it is on.
func (b *GititBrowser) follow(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	for range 10 {
		target, err := url.Parse(path)
		if err != nil {
			t.Fatalf("gitit: %q is no address: %v", path, err)
		}
		if b.at != nil {
			target = b.at.ResolveReference(target)
		} else {
			base, _ := url.Parse(b.w.URL + "/")
			target = base.ResolveReference(target)
		}
		status, loc, body := sendForm(t, b.c, "gitit", method, target.String(), form, nil)
		switch {
		case status >= 400 && !(status == http.StatusNotFound && strings.Contains(body, "There is no page named")):
			// A page that does not exist yet is a 404 that offers to create it.
			t.Fatalf("gitit: %s %s answered %d: %s", method, path, status, GititText(body))
		case status >= 300 && status < 400:
			if loc == "" {
				loc = target.String()
			}
			method, path, form = http.MethodGet, loc, nil
			b.at = target
		default:
			b.page, b.at = gititCloseTags.ReplaceAllString(body, "</$1>"), target
			return b.page
		}
	}
	t.Fatalf("gitit: %s %s redirects too often", method, path)
	return ""
}

// gititCloseTags are closing tags written over two lines (`</textarea\n  >`), as Gitit's
// HTML writer does.
var gititCloseTags = regexp.MustCompile(`</([a-zA-Z0-9]+)\s+>`)

var gititScript = regexp.MustCompile(`(?is)<(script|style|noscript)\b.*?</(script|style|noscript)>`)

// GititText is a page's text as a person reads it: scripts dropped, tags dropped, entities
// unescaped, white space folded.
func GititText(page string) string {
	page = gititScript.ReplaceAllString(gititCloseTags.ReplaceAllString(page, "</$1>"), " ")
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}
