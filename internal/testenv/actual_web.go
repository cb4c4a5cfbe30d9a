package testenv

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// ActualBrowser uses an Actual server as its web app does: the sign-in page's request for
// a session token with the server password, the Files page's list of budget files (the
// budget file opened is the one named "Household Budget"), and the budget's changes, made
// by Actual's own budget code (the API client runs the code the web app runs in the
// browser) and sent to the server as the same sync messages. It is how the harness's own
// test does each goal's effect without the agent.
type ActualBrowser struct {
	a      *Actual
	token  string
	syncID string
}

// Browser is a browser with no session yet: SignIn signs it in.
func (a *Actual) Browser() *ActualBrowser { return &ActualBrowser{a: a} }

// SignIn opens the start page, signs in with the server password as the sign-in page does
// (POST /account/login) and opens the budget file as the Files page does (its list from
// /sync/list-user-files).
func (b *ActualBrowser) SignIn(t testing.TB) {
	t.Helper()
	if page := b.Open(t, "/"); !strings.Contains(page, "<title>Actual</title>") {
		t.Fatalf("actual: the start page is not Actual's web app: %.300s", page)
	}
	b.token = b.a.login(t)
	var files struct {
		Status string
		Data   []struct {
			GroupID string `json:"groupId"`
			Name    string `json:"name"`
			Deleted int    `json:"deleted"`
		}
	}
	if err := json.Unmarshal([]byte(b.Open(t, "/sync/list-user-files")), &files); err != nil || files.Status != "ok" {
		t.Fatalf("actual: the Files page's list: %v %+v", err, files)
	}
	for _, f := range files.Data {
		if f.Name == ActualBudgetName && f.Deleted == 0 {
			b.syncID = f.GroupID
		}
	}
	if b.syncID == "" {
		t.Fatalf("actual: the Files page does not list %q: %+v", ActualBudgetName, files.Data)
	}
}

// Actual is the instance the browser uses.
func (b *ActualBrowser) Actual() *Actual { return b.a }

// Do makes ops in the budget file and sends them to the server, as the web app does when a
// person makes them on its pages.
func (b *ActualBrowser) Do(t testing.TB, ops ...ActualOp) {
	t.Helper()
	if b.token == "" {
		t.Fatal("actual: the browser is not signed in")
	}
	var out map[string]any
	b.a.run(t, actualRequest{Token: b.token, SyncID: b.syncID, Ops: ops}, &out)
}

// Open fetches a path of the server (with the session token, once signed in) and returns
// its body; an answer other than 200 fails the test.
func (b *ActualBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, b.a.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.token != "" {
		req.Header.Set("X-ACTUAL-TOKEN", b.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("actual: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("actual: GET %s answered %d: %.300s", path, resp.StatusCode, body)
	}
	return string(body)
}

// login asks the server for a session token with its password, as the sign-in page does.
func (a *Actual) login(t testing.TB) string {
	t.Helper()
	var out struct {
		Status string
		Reason string
		Data   struct{ Token string }
	}
	if code := a.post(t, "/account/login", map[string]string{"loginMethod": "password", "password": a.Password}, "", &out); code != http.StatusOK || out.Data.Token == "" {
		t.Fatalf("actual: signing in answered %d %+v", code, out)
	}
	return out.Data.Token
}

// token is the judges' own session token, asked for once.
func (a *Actual) token(t testing.TB) string {
	t.Helper()
	if a.session == "" {
		a.session = a.login(t)
	}
	return a.session
}
