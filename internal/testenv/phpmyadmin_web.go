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

// PhpMyAdminBrowser signs in to phpMyAdmin and uses its pages as a person's browser does:
// its cookies (the session and the encrypted sign-in), the token every page carries, a
// form's fields as the page fills them, and the requests its scripts send when a form
// is submitted or a link is clicked (ajax_request=true, the link's data-post). It is how
// the harness's own test makes each goal's effect without the agent.
type PhpMyAdminBrowser struct {
	p     *PhpMyAdmin
	c     *http.Client
	token string
}

var (
	pmaToken      = regexp.MustCompile(`name="token" value="([0-9a-f]+)"`)
	pmaSetSession = regexp.MustCompile(`name="set_session" value="([^"]*)"`)
	pmaDataPost   = regexp.MustCompile(`data-post="([^"]*)"`)
	pmaControl    = regexp.MustCompile(`(?s)<input\b[^>]*>|<select\b[^>]*>.*?</select>|<textarea\b[^>]*>.*?</textarea>`)
	pmaOption     = regexp.MustCompile(`(?s)<option\b([^>]*)>([^<]*)`)
	pmaTextarea   = regexp.MustCompile(`(?s)<textarea\b[^>]*>(.*?)</textarea>`)
	pmaAlert      = regexp.MustCompile(`(?s)<div class="alert alert-[a-z]+" role="alert">.*?</div>`)
	pmaTags       = regexp.MustCompile(`(?s)<script.*?</script>|<[^>]*>`)
)

// SignIn signs in through the login form with the instance's account and password.
func (p *PhpMyAdmin) SignIn(t testing.TB) *PhpMyAdminBrowser {
	t.Helper()
	b, page := p.TrySignIn(t, p.User, p.Password)
	if b == nil {
		t.Fatalf("phpmyadmin: signing in as %s was refused: %.500s", p.User, PhpMyAdminText(page))
	}
	return b
}

// TrySignIn opens the login page (which sets the session's cookie and gives the form
// its token) and posts its form as the "Log in" button does. It returns the signed-in
// browser, or nil when phpMyAdmin answered with its login form again, and the page it
// answered with.
func (p *PhpMyAdmin) TrySignIn(t testing.TB, user, password string) (*PhpMyAdminBrowser, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	b := &PhpMyAdminBrowser{p: p, c: &http.Client{Jar: jar}}
	login := b.Get(t, "index.php")
	session := pmaSetSession.FindStringSubmatch(login)
	if b.token == "" || session == nil {
		t.Fatalf("phpmyadmin: the login page has no form: %.500s", PhpMyAdminText(login))
	}
	page := b.Post(t, "index.php?route=/", url.Values{"route": {"/"}, "lang": {"en"}, "set_session": {session[1]},
		"pma_username": {user}, "pma_password": {password}, "server": {"1"}})
	if strings.Contains(page, `id="login_form"`) || !strings.Contains(page, "Log out") {
		return nil, page
	}
	return b, page
}

// Get fetches a page (its path from phpMyAdmin's folder, e.g.
// "index.php?route=/server/databases") and returns its body; it keeps the page's token.
func (b *PhpMyAdminBrowser) Get(t testing.TB, path string) string {
	t.Helper()
	return b.do(t, http.MethodGet, path, nil)
}

// Post posts a form to path (a form's action, or "index.php" for a link's data-post), as
// a browser does with no script: it adds the token, and returns the page answered
// with, after its redirects.
func (b *PhpMyAdminBrowser) Post(t testing.TB, path string, form url.Values) string {
	t.Helper()
	return b.do(t, http.MethodPost, path, form)
}

// Submit posts a form to path as the script phpMyAdmin's page has for it does when its
// button is pressed or its link clicked (and, where the page asks first, confirmed):
// with the token and ajax_request=true. phpMyAdmin answers such a request with JSON;
// Submit wants it to say success and returns, as text, the messages and the query's
// result the page then shows (of a whole page, its messages alone).
func (b *PhpMyAdminBrowser) Submit(t testing.TB, path string, form url.Values) string {
	t.Helper()
	form.Set("ajax_request", "true")
	return b.ajax(t, path, form)
}

// SubmitPage posts a form to path as phpMyAdmin's page loader does for a form or a
// link with no script of its own (the Insert and Edit forms, the Edit link): as Submit,
// and with ajax_page_request=true; the answer's message is the next page.
func (b *PhpMyAdminBrowser) SubmitPage(t testing.TB, path string, form url.Values) string {
	t.Helper()
	form.Set("ajax_request", "true")
	form.Set("ajax_page_request", "true")
	return b.ajax(t, path, form)
}

func (b *PhpMyAdminBrowser) ajax(t testing.TB, path string, form url.Values) string {
	t.Helper()
	out := b.do(t, http.MethodPost, path, form)
	var answer struct {
		Success        bool   `json:"success"`
		Message        string `json:"message"`
		DisplayMessage string `json:"displayMessage"`
		SQLQuery       string `json:"sql_query"`
		Error          string `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &answer); err != nil {
		t.Fatalf("phpmyadmin: POST %s answered no JSON: %v\n%.500s", path, err, PhpMyAdminText(out))
	}
	if !answer.Success {
		t.Fatalf("phpmyadmin: POST %s failed: %s", path, PhpMyAdminText(answer.Error+" "+answer.Message))
	}
	text := answer.DisplayMessage + " " + answer.Message + " " + answer.SQLQuery
	// A page's answer is the whole next page: its messages are what a person reads first.
	if alerts := pmaAlert.FindAllString(text, -1); alerts != nil {
		text = strings.Join(alerts, " ")
	}
	return PhpMyAdminText(text)
}

func (b *PhpMyAdminBrowser) do(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	target := strings.TrimSuffix(b.p.URL, "index.php") + strings.TrimPrefix(path, "/")
	if form != nil && form.Get("token") == "" && b.token != "" {
		form.Set("token", b.token)
	}
	status, _, out := sendForm(t, b.c, "phpmyadmin", method, target, form, map[string]string{"Referer": b.p.URL})
	if status >= 400 {
		t.Fatalf("phpmyadmin: %s %s answered %d: %.500s", method, path, status, PhpMyAdminText(out))
	}
	if m := pmaToken.FindStringSubmatch(out); m != nil {
		b.token = m[1]
	}
	return out
}

// PhpMyAdminForm reads the form on page whose opening tag contains marker (e.g.
// `id="insertForm"`): its action, and its fields as the page fills them — text and
// hidden fields with their values, the checked boxes and radio buttons, each list's
// selected option (or its first), text areas — and no buttons.
func PhpMyAdminForm(t testing.TB, page, marker string) (string, url.Values) {
	t.Helper()
	re := regexp.MustCompile(`(?s)<form\b([^>]*` + regexp.QuoteMeta(marker) + `[^>]*)>(.*?)</form>`)
	m := re.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("phpmyadmin: no form %s on the page: %.500s", marker, PhpMyAdminText(page))
	}
	action := tagAttrs("<form " + m[1] + ">")["action"]
	form := url.Values{}
	for _, c := range pmaControl.FindAllString(m[2], -1) {
		attrs := tagAttrs(c[:strings.IndexByte(c, '>')+1])
		name := attrs["name"]
		if _, disabled := attrs["disabled"]; name == "" || disabled {
			continue
		}
		switch {
		case strings.HasPrefix(c, "<select"):
			form.Set(name, pmaSelected(c))
		case strings.HasPrefix(c, "<textarea"):
			form.Set(name, html.UnescapeString(pmaTextarea.FindStringSubmatch(c)[1]))
		default:
			typ := strings.ToLower(attrs["type"])
			_, checked := attrs["checked"]
			switch {
			case typ == "submit" || typ == "button" || typ == "image" || typ == "reset" || typ == "file":
			case (typ == "checkbox" || typ == "radio") && !checked:
			case typ == "checkbox" && attrs["value"] == "":
				form.Add(name, "on")
			default:
				form.Add(name, attrs["value"])
			}
		}
	}
	return action, form
}

// pmaSelected is what a list submits: its selected option's value (an option with no
// value submits its text), or its first's.
func pmaSelected(sel string) string {
	value := ""
	for i, o := range pmaOption.FindAllStringSubmatch(sel, -1) {
		attrs := tagAttrs("<option " + o[1] + ">")
		v, ok := attrs["value"]
		if !ok {
			v = strings.TrimSpace(html.UnescapeString(o[2]))
		}
		if _, sel := attrs["selected"]; sel {
			return v
		}
		if i == 0 {
			value = v
		}
	}
	return value
}

// PhpMyAdminDataPost is what the first link on page whose data-post (the request its
// script posts when the link is clicked, as the page escapes it) matches re posts.
func PhpMyAdminDataPost(t testing.TB, page string, re *regexp.Regexp) url.Values {
	t.Helper()
	for _, m := range pmaDataPost.FindAllStringSubmatch(page, -1) {
		if re.MatchString(m[1]) {
			v, err := url.ParseQuery(html.UnescapeString(m[1]))
			if err != nil {
				t.Fatalf("phpmyadmin: a link's data-post %q: %v", m[1], err)
			}
			return v
		}
	}
	t.Fatalf("phpmyadmin: no link posts %s on the page", re)
	return nil
}

// PhpMyAdminText is a page's (or an answer's) text, roughly as a person reads it.
func PhpMyAdminText(page string) string {
	return strings.Join(strings.Fields(html.UnescapeString(pmaTags.ReplaceAllString(page, " "))), " ")
}
