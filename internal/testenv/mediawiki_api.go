package testenv

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

// MediaWikiSession is a signed-in client of the wiki's own action API (api.php): what the
// wiki's pages do when a person saves an edit, moves or deletes a page, watches one or
// saves a preference, done without a browser. The held-out harness uses it to check its
// judges, never to do a goal for the agent.
type MediaWikiSession struct {
	w      *MediaWiki
	client *http.Client
	csrf   string
	watch  string
}

// SignIn signs the administrator in as the login page does (a login token, then the
// password) and fetches the token every change needs.
func (w *MediaWiki) SignIn(t testing.TB) *MediaWikiSession {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	s := &MediaWikiSession{w: w, client: &http.Client{Jar: jar}}
	login := s.call(t, http.MethodGet, url.Values{"action": {"query"}, "meta": {"tokens"}, "type": {"login"}})
	token := dig(login, "query", "tokens", "logintoken")
	res := s.call(t, http.MethodPost, url.Values{"action": {"clientlogin"}, "username": {w.User}, "password": {w.Password},
		"logintoken": {token}, "loginreturnurl": {w.URL + "/"}})
	if st := dig(res, "clientlogin", "status"); st != "PASS" {
		t.Fatalf("sign in to the wiki: %v", res)
	}
	tokens := s.call(t, http.MethodGet, url.Values{"action": {"query"}, "meta": {"tokens"}, "type": {"csrf|watch"}})
	s.csrf, s.watch = dig(tokens, "query", "tokens", "csrftoken"), dig(tokens, "query", "tokens", "watchtoken")
	if s.csrf == "" || s.watch == "" {
		t.Fatalf("the wiki gave no edit or watch token: %v", tokens)
	}
	return s
}

// Do posts one change (action=edit, move, delete, watch, options, ...) with the session's
// token (a watch token to watch) and fails the test when the wiki reports an error.
func (s *MediaWikiSession) Do(t testing.TB, params map[string]string) map[string]any {
	t.Helper()
	v := url.Values{"token": {s.csrf}}
	if params["action"] == "watch" {
		v.Set("token", s.watch)
	}
	for k, val := range params {
		v.Set(k, val)
	}
	res := s.call(t, http.MethodPost, v)
	if e, ok := res["error"]; ok {
		t.Fatalf("api.php %v: %v", params, e)
	}
	return res
}

// call sends one request to api.php and decodes its JSON answer.
func (s *MediaWikiSession) call(t testing.TB, method string, v url.Values) map[string]any {
	t.Helper()
	v.Set("format", "json")
	v.Set("formatversion", "2")
	api := s.w.URL + "/api.php"
	var resp *http.Response
	var err error
	if method == http.MethodGet {
		resp, err = s.client.Get(api + "?" + v.Encode())
	} else {
		resp, err = s.client.Post(api, "application/x-www-form-urlencoded", strings.NewReader(v.Encode()))
	}
	if err != nil {
		t.Fatalf("api.php: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("api.php answered %s: %s", resp.Status, body)
	}
	return out
}

// dig is the string at a path of nested JSON objects, "" when there is none.
func dig(v map[string]any, path ...string) string {
	var cur any = v
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = m[k]
	}
	s, _ := cur.(string)
	return s
}
