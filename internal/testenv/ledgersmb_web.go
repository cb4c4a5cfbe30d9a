package testenv

import (
	"html"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// LedgerSMBBrowser uses a LedgerSMB's pages as its own scripts do: the login page's script
// checks the typed name and password with login.pl?action=authenticate (HTTP basic
// authentication, which the browser then sends with every request) and opens
// login.pl?action=login, which sets the session cookie; each screen is a page of one of
// the app's scripts (contact.pl, account.pl, configuration.pl, user.pl…) that the main
// page loads into its content pane, and each form there is posted with the button's
// action. It is how the harness seeds an instance and does each goal's effect without the
// agent.
type LedgerSMBBrowser struct {
	l          *LedgerSMB
	c          *http.Client
	user, pass string
	page       string
}

// Browser is a browser that signs in as admin (SignIn).
func (l *LedgerSMB) Browser() *LedgerSMBBrowser { return l.BrowserAs(l.User, l.Password) }

// BrowserAs is a browser that signs in as user with password.
func (l *LedgerSMB) BrowserAs(user, password string) *LedgerSMBBrowser {
	jar, _ := cookiejar.New(nil)
	return &LedgerSMBBrowser{l: l, c: &http.Client{Jar: jar, Timeout: 2 * time.Minute}, user: user, pass: password}
}

// SignIn does what the login page does when User Name, Password and Company are typed
// and Login is pressed, and checks that the main page names the user and the company.
func (b *LedgerSMBBrowser) SignIn(t testing.TB) {
	t.Helper()
	if page := b.Open(t, "/login.pl"); !strings.Contains(page, `name="company"`) {
		t.Fatalf("ledgersmb: the login page has no Company field: %s", LedgerSMBText(page))
	}
	company := "company=" + url.QueryEscape(b.l.Company)
	if status := b.status(t, "/login.pl?action=authenticate&"+company); status != http.StatusOK {
		t.Fatalf("ledgersmb: signing in as %s answered %d", b.user, status)
	}
	if text := LedgerSMBText(b.Open(t, "/login.pl?action=login&"+company)); !strings.Contains(text, b.user) || !strings.Contains(text, b.l.Company) {
		t.Fatalf("ledgersmb: the main page after signing in as %s: %s", b.user, text)
	}
}

// SignInFails says whether the app refuses the browser's name and password.
func (b *LedgerSMBBrowser) SignInFails(t testing.TB) bool {
	t.Helper()
	return b.status(t, "/login.pl?action=authenticate&company="+url.QueryEscape(b.l.Company)) == http.StatusUnauthorized
}

func (b *LedgerSMBBrowser) status(t testing.TB, path string) int {
	t.Helper()
	status, _, _ := sendForm(t, b.c, "ledgersmb", http.MethodGet, b.l.URL+path, nil, b.header())
	return status
}

func (b *LedgerSMBBrowser) header() map[string]string {
	return map[string]string{"Authorization": basicAuth(b.user, b.pass), "X-Requested-With": "XMLHttpRequest"}
}

// Page is the page the browser is on.
func (b *LedgerSMBBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root, e.g. "/contact.pl?action=add") and returns it;
// an answer other than 200 or a page that says the app failed fails the test.
func (b *LedgerSMBBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.do(t, http.MethodGet, path, nil)
}

// Post posts values to a script (e.g. "/contact.pl") as a form of the app's pages does.
func (b *LedgerSMBBrowser) Post(t testing.TB, path string, values url.Values) string {
	t.Helper()
	return b.do(t, http.MethodPost, path, values)
}

func (b *LedgerSMBBrowser) do(t testing.TB, method, path string, values url.Values) string {
	t.Helper()
	status, _, body := sendForm(t, b.c, "ledgersmb", method, b.l.URL+path, values, b.header())
	if status != http.StatusOK || strings.Contains(body, `<h2 class="error">`) {
		t.Fatalf("ledgersmb: %s %s %v answered %d: %s", method, path, values, status, LedgerSMBText(body))
	}
	b.page = body
	return body
}

var ledgersmbForm = regexp.MustCompile(`(?s)<form\b[^>]*>.*?</form>`)

// Form is the form on the page the browser is on whose button has the action action
// ("save_company", "save_credit", "save_new_location", "save_roles"…), as the page fills
// it in, with that action chosen.
func (b *LedgerSMBBrowser) Form(t testing.TB, action string) *PhpLDAPadminForm {
	t.Helper()
	for _, f := range ledgersmbForm.FindAllString(b.page, -1) {
		if strings.Contains(f, `name="action" value="`+action+`"`) {
			form := PhpLDAPadminFormOf(t, f, "")
			form.Fields.Set("action", action)
			return form
		}
	}
	t.Fatalf("ledgersmb: the page has no form with the button %q: %s", action, LedgerSMBText(b.page))
	return nil
}

// Send posts a form (Form) with fields changed (by name) to its script.
func (b *LedgerSMBBrowser) Send(t testing.TB, f *PhpLDAPadminForm, fields map[string]string) string {
	t.Helper()
	for k, v := range fields {
		f.Fields.Set(k, v)
	}
	return b.Post(t, "/"+strings.TrimPrefix(f.Action, "/"), f.Fields)
}

var ledgersmbLink = regexp.MustCompile(`(?s)<a\b[^>]*href="([^"]*)"[^>]*>(.*?)</a>`)

// ClickText opens the first link on the page the browser is on whose text is text (a
// contact's name in a search's results, a credit account's number).
func (b *LedgerSMBBrowser) ClickText(t testing.TB, text string) string {
	t.Helper()
	for _, m := range ledgersmbLink.FindAllStringSubmatch(b.page, -1) {
		if strings.TrimSpace(LedgerSMBText(m[2])) == text {
			return b.Open(t, "/"+strings.TrimPrefix(html.UnescapeString(m[1]), "/"))
		}
	}
	t.Fatalf("ledgersmb: the page has no link %q: %s", text, LedgerSMBText(b.page))
	return ""
}

// SearchContact does what Contacts > Search does with Name typed in: the list of matching
// contacts of every class, each name a link to its screen.
func (b *LedgerSMBBrowser) SearchContact(t testing.TB, name string) string {
	t.Helper()
	b.Open(t, "/reports.pl?action=start_report&module_name=gl&report_name=contact_search")
	return b.Send(t, b.Form(t, "search"), map[string]string{"name_part": name})
}

// OpenContact searches the contacts for name and opens the one named exactly so.
func (b *LedgerSMBBrowser) OpenContact(t testing.TB, name string) string {
	t.Helper()
	b.SearchContact(t, name)
	return b.ClickText(t, name)
}

var ledgersmbScript = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)>`)

// LedgerSMBText is a page's text as a person reads it: scripts dropped, tags dropped,
// entities unescaped, white space folded.
func LedgerSMBText(page string) string {
	page = ledgersmbScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}
