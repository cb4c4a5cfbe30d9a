package testenv

import (
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TTRSSBrowser signs in to a tt-rss and sends the requests its pages send (its session
// cookie, the CSRF token the main page gives its scripts, the backend.php calls its menus,
// dialogs and forms make with the values their widgets hold): how the harness's own test
// does each goal's effect without the agent.
type TTRSSBrowser struct {
	tt   *TTRSS
	c    *http.Client
	csrf string
}

// SignIn posts the login form (Login, Password, "Log in") as admin and reads the CSRF
// token from the main page it goes on to.
func (tt *TTRSS) SignIn(t testing.TB) *TTRSSBrowser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	b := &TTRSSBrowser{tt: tt, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	if page := b.get(t, "/"); !strings.Contains(page, `name="login"`) {
		t.Fatalf("tt-rss: no login form at %s/:\n%.500s", tt.URL, page)
	}
	status, _ := b.post(t, "/public.php?return="+url.QueryEscape(tt.URL+"/"), url.Values{"op": {"login"}, "login": {tt.User}, "password": {tt.Password}})
	if status != http.StatusFound {
		t.Fatalf("tt-rss: signing in as %s answered %d", tt.User, status)
	}
	m := regexp.MustCompile(`const __csrf_token = "([0-9a-f]+)"`).FindStringSubmatch(b.get(t, "/"))
	if m == nil {
		t.Fatalf("tt-rss: signing in as %s did not lead to the main page", tt.User)
	}
	b.csrf = m[1]
	return b
}

// Backend sends one of the pages' requests to backend.php (op, method and their
// parameters), with the session's CSRF token as the pages add it, and returns the answer.
func (b *TTRSSBrowser) Backend(t testing.TB, params url.Values) string {
	t.Helper()
	form := url.Values{}
	for k, v := range params {
		form[k] = v
	}
	form.Set("csrf_token", b.csrf)
	status, body := b.post(t, "/backend.php", form)
	if status != http.StatusOK {
		t.Fatalf("tt-rss: backend.php %s/%s answered %d: %.300s", params.Get("op"), params.Get("method"), status, body)
	}
	return body
}

// TTRSSWidgets are the values a dialog or form of the reader sends (what dijit's form value
// gathers): each Dojo widget's in the markup — text and hidden boxes with their values,
// checked boxes (their value, else "on"), each list's selected option (or its first) —
// leaving out plain HTML controls (a dialog's own upload form) and buttons.
func TTRSSWidgets(markup string) url.Values {
	form := url.Values{}
	for _, c := range wpControl.FindAllString(markup, -1) {
		attrs := tagAttrs(c[:strings.IndexByte(c, '>')+1])
		name := attrs["name"]
		if name == "" || attrs["dojotype"] == "" {
			continue
		}
		if _, off := attrs["disabled"]; off {
			continue
		}
		switch {
		case strings.HasPrefix(c, "<select"):
			opts := wpOption.FindAllStringSubmatch(c, -1)
			for i, o := range opts {
				oa := tagAttrs("<option" + o[1] + ">")
				if _, sel := oa["selected"]; sel || (i == 0 && !strings.Contains(c, "selected")) {
					form.Set(name, oa["value"])
				}
			}
		case strings.HasPrefix(c, "<textarea"):
			form.Set(name, html.UnescapeString(wpTextarea.FindStringSubmatch(c)[1]))
		default:
			typ := strings.ToLower(attrs["type"])
			_, checked := attrs["checked"]
			switch {
			case typ == "submit" || typ == "button" || typ == "image" || typ == "reset" || typ == "file":
			case typ == "checkbox" || typ == "radio":
				if checked {
					v := attrs["value"]
					if v == "" {
						v = "on"
					}
					form.Add(name, v)
				}
			default:
				form.Add(name, attrs["value"])
			}
		}
	}
	return form
}

// TTRSSForm is the markup inside the form in page whose opening tag contains marker (e.g.
// `id='changeSettingsForm'`).
func TTRSSForm(t testing.TB, page, marker string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<form\b[^>]*` + regexp.QuoteMeta(marker) + `[^>]*>(.*?)</form>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("tt-rss: no form %s in %.300s", marker, page)
	}
	return m[1]
}

func (b *TTRSSBrowser) get(t testing.TB, path string) string {
	t.Helper()
	resp, err := b.c.Get(b.tt.URL + path)
	if err != nil {
		t.Fatalf("tt-rss: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("tt-rss: GET %s answered %d", path, resp.StatusCode)
	}
	return string(body)
}

func (b *TTRSSBrowser) post(t testing.TB, path string, form url.Values) (int, string) {
	t.Helper()
	status, _, body := sendForm(t, b.c, "tt-rss", http.MethodPost, b.tt.URL+path, form, map[string]string{"Referer": b.tt.URL + "/"})
	return status, body
}
