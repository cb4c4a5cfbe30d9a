package testenv

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// RedisCommanderBrowser uses Redis Commander's web UI as its own page's script does in a
// person's browser: the Sign In dialog's request and the bearer token it answers with,
// sent with every request after; the key tree's branches fetched as they are unfolded;
// the key picked loaded into its editor; and the dialogs' and editors' forms, read from the
// front page and from the editor templates the page fetches, sent as the page sends them.
// It is how the harness's own test does each goal's effect without the agent.
type RedisCommanderBrowser struct {
	w     *RedisCommander
	c     *http.Client
	token string
	home  string
}

// RedisCommanderNode is one node of the key tree: a folder (Rel "", its text e.g.
// "user:* (2)") or a key (Rel its type, its text the part of its name after the folder's).
type RedisCommanderNode struct {
	ID, Text, KeyName, Rel string
}

// Browser is a browser with no session yet: SignIn signs it in through the Sign In dialog.
func (w *RedisCommander) Browser() *RedisCommanderBrowser {
	return &RedisCommanderBrowser{w: w, c: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

var rcSigninPath = regexp.MustCompile(`const signinPath = '([^']*)'`)

// SignIn opens the front page, checks its Sign In dialog and sends what the dialog's
// script sends for a person who types the user's name and password into Username and
// Password and presses Sign In; the page then reloads with the token it got.
func (b *RedisCommanderBrowser) SignIn(t testing.TB) {
	t.Helper()
	page := b.Get(t, "")
	for _, want := range []string{`id="signinForm"`, `id="signinUsername"`, `id="signinPassword"`, ">Sign In</button>"} {
		if !strings.Contains(page, want) {
			t.Fatalf("redis-commander: the front page has no %s:\n%s", want, page)
		}
	}
	if err := b.signIn(page); err != nil {
		t.Fatalf("redis-commander: signing in as %s: %v", b.w.User, err)
	}
	b.home = b.Get(t, "")
}

// signIn posts the user's name and password where the page's script does and keeps the
// bearer token of the answer.
func (b *RedisCommanderBrowser) signIn(page string) error {
	m := rcSigninPath.FindStringSubmatch(page)
	if m == nil {
		return fmt.Errorf("the front page names no sign-in path")
	}
	status, body, err := b.do(http.MethodPost, m[1], url.Values{"username": {b.w.User}, "password": {b.w.Password}})
	if err != nil {
		return err
	}
	var res struct {
		OK          bool   `json:"ok"`
		BearerToken string `json:"bearerToken"`
	}
	if err := json.Unmarshal([]byte(body), &res); err != nil || status != http.StatusOK || !res.OK {
		return fmt.Errorf("answered %d: %s", status, body)
	}
	b.token = res.BearerToken
	return nil
}

// probe signs in and says whether the root of the key tree lists the seed's first folder:
// Redis Commander is up and connected to Redis.
func (b *RedisCommanderBrowser) probe() (bool, error) {
	_, page, err := b.do(http.MethodGet, "", nil)
	if err != nil {
		return false, err
	}
	if err := b.signIn(page); err != nil {
		return false, err
	}
	status, body, err := b.do(http.MethodGet, "apiv2/keystree/"+rcEscape(b.w.ConnID)+"/", nil)
	if err != nil || status != http.StatusOK {
		return false, err
	}
	return strings.Contains(body, `"keyName":"site:"`), nil
}

// Home is the front page as it is once signed in (its dialogs' forms are there).
func (b *RedisCommanderBrowser) Home() string { return b.home }

// do sends one request (a path relative to the front page) with the bearer token, a form
// as its url-encoded body when there is one, and returns the status and the body.
func (b *RedisCommanderBrowser) do(method, path string, form url.Values) (int, string, error) {
	base, _ := url.Parse(b.w.URL)
	ref, err := url.Parse(path)
	if err != nil {
		return 0, "", err
	}
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, base.ResolveReference(ref).String(), body)
	if err != nil {
		return 0, "", err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
	}
	if b.token != "" {
		req.Header.Set("Authorization", "Bearer "+b.token)
	}
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	resp, err := b.c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out), err
}

// Get fetches a page or an answer of the page's script; one of 400 or more fails the test.
func (b *RedisCommanderBrowser) Get(t testing.TB, path string) string {
	t.Helper()
	return b.must(t, http.MethodGet, path, nil)
}

// Post sends form to path as the page's script does; an answer of 400 or more fails the
// test.
func (b *RedisCommanderBrowser) Post(t testing.TB, path string, form url.Values) string {
	t.Helper()
	return b.must(t, http.MethodPost, path, form)
}

func (b *RedisCommanderBrowser) must(t testing.TB, method, path string, form url.Values) string {
	t.Helper()
	status, body, err := b.do(method, path, form)
	if err != nil {
		t.Fatalf("redis-commander: %s %s: %v", method, path, err)
	}
	if status >= 400 {
		t.Fatalf("redis-commander: %s %s answered %d: %s", method, path, status, body)
	}
	return body
}

// Tree is what the key tree shows when folder (a prefix ending in ":", "" for the
// connection's root) is unfolded.
func (b *RedisCommanderBrowser) Tree(t testing.TB, folder string) []RedisCommanderNode {
	t.Helper()
	path := "apiv2/keystree/" + rcEscape(b.w.ConnID) + "/"
	if folder != "" {
		path += rcEscape(folder) + "?absolute=false"
	}
	var res struct {
		Data []RedisCommanderNode `json:"data"`
	}
	if body := b.Get(t, path); json.Unmarshal([]byte(body), &res) != nil {
		t.Fatalf("redis-commander: the key tree under %q is no list: %s", folder, body)
	}
	return res.Data
}

// Unfold unfolds folder in the key tree and checks that it shows a node whose text is
// text or whose name is text (a list's or a set's text adds its length: "emails (3)");
// it returns the node.
func (b *RedisCommanderBrowser) Unfold(t testing.TB, folder, text string) RedisCommanderNode {
	t.Helper()
	nodes := b.Tree(t, folder)
	for _, n := range nodes {
		if n.Text == text || n.KeyName == text {
			return n
		}
	}
	t.Fatalf("redis-commander: the folder %q of the key tree shows no %q: %+v", folder, text, nodes)
	return RedisCommanderNode{}
}

// Pick clicks key in the key tree: the page loads its details (its type, value, fields,
// members) for its editor. The key must be of type typ.
func (b *RedisCommanderBrowser) Pick(t testing.TB, key, typ string) map[string]any {
	t.Helper()
	body := b.Get(t, "apiv2/key/"+rcEscape(b.w.ConnID)+"/"+rcEscape(key))
	details := map[string]any{}
	if err := json.Unmarshal([]byte(body), &details); err != nil || details["type"] != typ {
		t.Fatalf("redis-commander: %s is not a %s: %s", key, typ, body)
	}
	return details
}

// PickServer clicks the connection at the top of the key tree: the page loads the
// server's information into its template, which shows "Add New Key..." above it.
func (b *RedisCommanderBrowser) PickServer(t testing.TB) {
	t.Helper()
	if body := b.Get(t, "apiv2/server/"+rcEscape(b.w.ConnID)+"/info"); !strings.Contains(body, `"Redis version"`) {
		t.Fatalf("redis-commander: the server's information lacks its version: %.300s", body)
	}
	if page := b.Get(t, "templates/serverInfo.ejs"); !strings.Contains(page, "Add New Key...") {
		t.Fatalf("redis-commander: the server's page has no Add New Key...:\n%s", page)
	}
}

// Dialog is the form of one of the front page's dialogs (e.g. "addKeyForm"), as the page
// has it before its script fills it in.
func (b *RedisCommanderBrowser) Dialog(t testing.TB, id string) *PhpLDAPadminForm {
	t.Helper()
	return PhpLDAPadminFormOf(t, b.home, `id="`+id+`"`)
}

// Editor is the form id of an editor template (e.g. "editString") as the page renders it
// for key.
func (b *RedisCommanderBrowser) Editor(t testing.TB, template, key, id string) *PhpLDAPadminForm {
	t.Helper()
	page := b.Get(t, "templates/"+template+".ejs")
	page = strings.NewReplacer("<%= connectionId %>", b.w.ConnID, "<%= key %>", key).Replace(page)
	return PhpLDAPadminFormOf(t, page, `id="`+id+`"`)
}

// Send sends a form to its action as the page's script does (jQuery's $.post of the
// form's fields) and returns the answer.
func (b *RedisCommanderBrowser) Send(t testing.TB, f *PhpLDAPadminForm) string {
	t.Helper()
	return b.Post(t, f.Action, f.Fields)
}

// ConnID is the id of the connection the page shows, which its dialogs send along.
func (b *RedisCommanderBrowser) ConnID() string { return b.w.ConnID }

// KeyPath is the address the page's script changes key at (apiv2/key/CONNECTION/KEY).
func (b *RedisCommanderBrowser) KeyPath(key string) string {
	return "apiv2/key/" + rcEscape(b.w.ConnID) + "/" + rcEscape(key)
}

// rcEscape is JavaScript's encodeURIComponent, which the page's script escapes a
// connection's id and a key's name with.
func rcEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}
