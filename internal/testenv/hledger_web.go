package testenv

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// HledgerBrowser sends what hledger-web's own pages send for a person's actions: its pages
// (the General Journal, an account's register as the sidebar links it, a search), and the
// "Add a transaction" form's POST to /add (the form's session token, Date, Description
// and the rows' Account and Amount fields, four rows at least, the last amount left blank
// for hledger to balance), with the session cookie the pages set. There is no sign-in. It
// is how the harness's own test does each goal's effect without the agent.
type HledgerBrowser struct {
	w *Hledger
	c *http.Client
}

// Browser is a browser on no page yet, with a cookie jar of its own.
func (w *Hledger) Browser() *HledgerBrowser {
	jar, _ := cookiejar.New(nil)
	return &HledgerBrowser{w: w, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

// Open fetches a page or an asset (a path from the app's root, "/journal"), following its
// redirects, and returns its body. An answer of 400 or more fails the test.
func (b *HledgerBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	target := b.w.Base + path
	for range 5 {
		code, loc, body := sendForm(t, b.c, "hledger-web", http.MethodGet, target, nil, nil)
		switch {
		case code >= 400:
			t.Fatalf("hledger-web: GET %s answered %d: %s", target, code, body)
		case code >= 300 && loc != "":
			target = loc
		default:
			return body
		}
	}
	t.Fatalf("hledger-web: GET %s redirects too often", path)
	return ""
}

// Register is the register of account, as the account's name in the sidebar opens it.
func (b *HledgerBrowser) Register(t testing.TB, account string) string {
	t.Helper()
	return b.Open(t, "/register?q="+url.QueryEscape("inacct:"+account+" "))
}

// HledgerAdded is the message the journal page shows once the add form added a
// transaction.
const HledgerAdded = "Transaction added."

// hledgerToken is the add form's session token (a hidden field).
var hledgerToken = regexp.MustCompile(`name="_token" value="([^"]*)"`)

// hledgerMessage is the message the add form shows above its rows when it refuses.
var hledgerMessage = regexp.MustCompile(`(?s)id="message"[^>]*>(.*?)</div>`)

// Add adds x as the journal page's "Add a transaction" form does: it opens the journal
// page (the form's token), fills Date, Description and a row for each posting (its amount
// typed as the goals give it, without the dollar sign: the journal's default commodity),
// leaves the last amount blank (hledger infers it) and the rows past the postings empty,
// and clicks "add". The app must answer with the redirect to the journal page it sends
// when it added the transaction, and that page must say so (HledgerAdded); a refusal
// fails the test with its message.
func (b *HledgerBrowser) Add(t testing.TB, x HledgerTxn) {
	t.Helper()
	m := hledgerToken.FindStringSubmatch(b.Open(t, "/journal"))
	if m == nil {
		t.Fatalf("hledger-web: the journal page has no add form with a token")
	}
	form := url.Values{"_formid": {"identify-add"}, "_token": {m[1]}, "date": {x.Date}, "description": {x.Description}}
	for i := 0; i < max(4, len(x.Postings)); i++ {
		account, amount := "", ""
		if i < len(x.Postings) {
			account = x.Postings[i].Account
			if i < len(x.Postings)-1 {
				amount = strings.TrimPrefix(x.Postings[i].Amount, "$")
			}
		}
		form.Add("account", account)
		form.Add("amount", amount)
	}
	form.Add("submit", "")
	code, loc, body := sendForm(t, b.c, "hledger-web", http.MethodPost, b.w.Base+"/add", form, nil)
	if code != http.StatusSeeOther || loc != b.w.URL {
		msg := body
		if mm := hledgerMessage.FindStringSubmatch(body); mm != nil {
			msg = IcingaWebText(mm[1])
		}
		t.Fatalf("hledger-web: adding %s answered %d (to %q): %s", x, code, loc, msg)
	}
	if page := b.Open(t, "/journal"); !strings.Contains(page, ">"+HledgerAdded+"<") {
		t.Fatalf("hledger-web: after adding %s the journal page does not say %q", x, HledgerAdded)
	}
}
