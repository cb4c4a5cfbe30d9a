package testenv

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TrytonBrowser sends what Tryton's web client, sao, sends: its files fetched from the
// server's root, and its JSON-RPC requests (POST /DATABASE/ with {"id", "method",
// "params"}), signed in through common.db.login as its Login dialog does it (the user
// name first; the server then asks for the password, which is sent with it) and each later
// request carrying the session in its Authorization header and the user's context as its
// last parameter, as sao's forms send a record's create, write or delete. It is how the
// harness's own test does each goal's effect without the agent.
type TrytonBrowser struct {
	w       *Tryton
	c       *http.Client
	userID  int
	session string
	context map[string]any
	id      int
}

// Browser is a browser with no session yet: SignIn signs it in.
func (w *Tryton) Browser() *TrytonBrowser {
	return &TrytonBrowser{w: w, c: &http.Client{}}
}

// Tryton is the instance the browser uses.
func (b *TrytonBrowser) Tryton() *Tryton { return b.w }

// Open fetches a file of the web client (a path from its root: "", "dist/tryton-sao.js",
// "locale/fr.json") and returns it; an answer of 400 or more fails the test.
func (b *TrytonBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	resp, err := b.c.Get(b.w.URL + strings.TrimPrefix(path, "/"))
	if err != nil {
		t.Fatalf("tryton: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("tryton: GET %s answered %d: %s", path, resp.StatusCode, body)
	}
	return string(body)
}

// rpc sends one JSON-RPC request to the server's root (db "") or to a database and
// returns its result, or its error as the server words it.
func (b *TrytonBrowser) rpc(t testing.TB, db, method string, params []any) (json.RawMessage, []any) {
	t.Helper()
	b.id++
	body, err := json.Marshal(map[string]any{"id": b.id, "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	url := b.w.URL
	if db != "" {
		url += db + "/"
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if b.session != "" {
		auth := fmt.Sprintf("%s:%d:%s", b.w.User, b.userID, b.session)
		req.Header.Set("Authorization", "Session "+base64.StdEncoding.EncodeToString([]byte(auth)))
	}
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("tryton: %s: %v", method, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  []any           `json:"error"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("tryton: %s answered %d, not JSON-RPC: %s", method, resp.StatusCode, raw)
	}
	return out.Result, out.Error
}

// SignIn signs in as admin as the Login dialog does: common.db.list (the dialog's
// Database), common.db.login with the user name alone, which the server answers by asking
// for the password, then again with the password; then it reads the user's context as
// sao does (model.res.user.get_preferences).
func (b *TrytonBrowser) SignIn(t testing.TB) {
	t.Helper()
	var dbs []string
	res, e := b.rpc(t, "", "common.db.list", []any{})
	if e != nil || json.Unmarshal(res, &dbs) != nil || len(dbs) != 1 || dbs[0] != b.w.Database {
		t.Fatalf("tryton: the databases listed are %s (%v), not %s alone", res, e, b.w.Database)
	}
	if _, e := b.rpc(t, b.w.Database, "common.db.login", []any{b.w.User, map[string]any{}, "en"}); len(e) == 0 || e[0] != "LoginException" {
		t.Fatalf("tryton: a sign-in without password was not asked for one: %v", e)
	}
	res, e = b.rpc(t, b.w.Database, "common.db.login", []any{b.w.User, map[string]any{"password": b.w.Password}, "en"})
	var session []any
	if e != nil || json.Unmarshal(res, &session) != nil || len(session) != 2 {
		t.Fatalf("tryton: signing in as %s did not: %s %v", b.w.User, res, e)
	}
	id, _ := session[0].(float64)
	b.userID, b.session = int(id), fmt.Sprint(session[1])
	b.context = map[string]any{}
	if err := json.Unmarshal(b.Call(t, "model.res.user.get_preferences", true), &b.context); err != nil {
		t.Fatalf("tryton: the user's context: %v", err)
	}
}

// Call sends method with params (the user's context is added as the last one) and returns
// its result; an error answered fails the test.
func (b *TrytonBrowser) Call(t testing.TB, method string, params ...any) json.RawMessage {
	t.Helper()
	if b.session == "" {
		t.Fatalf("tryton: %s before signing in", method)
	}
	res, e := b.rpc(t, b.w.Database, method, append(params, b.context))
	if e != nil {
		t.Fatalf("tryton: %s %v answered an error: %v", method, params, e)
	}
	return res
}

// Search is the ids of model's records that domain matches (Tryton's domain: a list of
// [field, operator, value]), inactive ones among them when the domain asks for them.
func (b *TrytonBrowser) Search(t testing.TB, model string, domain ...any) []int {
	t.Helper()
	if domain == nil {
		domain = []any{}
	}
	var ids []int
	if err := json.Unmarshal(b.Call(t, "model."+model+".search", domain, 0, nil, nil), &ids); err != nil {
		t.Fatalf("tryton: search %s: %v", model, err)
	}
	return ids
}

// ID is the id of the one record of model named name (its name field, or rec_name for the
// models whose records are named otherwise), failing the test when there is not one.
func (b *TrytonBrowser) ID(t testing.TB, model, name string) int {
	t.Helper()
	field := "name"
	if model == "res.user" {
		field = "login"
	}
	ids := b.Search(t, model, []any{field, "=", name})
	if len(ids) != 1 {
		t.Fatalf("tryton: %d records of %s named %q, not one", len(ids), model, name)
	}
	return ids[0]
}

// Create creates records of model as a form's Save of a new record does (its fields'
// values, a One2Many's new lines as ["create", [values…]], a Many2Many's chosen records as
// ["add", [ids…]]) and returns their ids.
func (b *TrytonBrowser) Create(t testing.TB, model string, values ...map[string]any) []int {
	t.Helper()
	var ids []int
	if err := json.Unmarshal(b.Call(t, "model."+model+".create", values), &ids); err != nil || len(ids) != len(values) {
		t.Fatalf("tryton: create %s: %v", model, err)
	}
	return ids
}

// Write writes values to records of model as a form's Save of a changed record does.
func (b *TrytonBrowser) Write(t testing.TB, model string, ids []int, values map[string]any) {
	t.Helper()
	b.Call(t, "model."+model+".write", ids, values)
}

// Delete deletes records of model as the toolbar's Delete does.
func (b *TrytonBrowser) Delete(t testing.TB, model string, ids []int) {
	t.Helper()
	b.Call(t, "model."+model+".delete", ids)
}

// SetPreferences saves the signed-in user's own settings as the Preferences dialog's OK
// does (model.res.user.set_preferences with the fields changed).
func (b *TrytonBrowser) SetPreferences(t testing.TB, values map[string]any) {
	t.Helper()
	b.Call(t, "model.res.user.set_preferences", values)
}

// TrytonDecimal is a number as sao sends a Numeric field's value.
func TrytonDecimal(s string) map[string]any {
	return map[string]any{"__class__": "Decimal", "decimal": s}
}

// Names is the names (rec_name) of model's records that domain matches, as a list or a
// search shows them.
func (b *TrytonBrowser) Names(t testing.TB, model string, domain ...any) []string {
	t.Helper()
	if domain == nil {
		domain = []any{}
	}
	var rows []struct {
		Name string `json:"rec_name"`
	}
	if err := json.Unmarshal(b.Call(t, "model."+model+".search_read", domain, 0, nil, nil, []string{"rec_name"}), &rows); err != nil {
		t.Fatalf("tryton: read %s: %v", model, err)
	}
	var names []string
	for _, r := range rows {
		names = append(names, r.Name)
	}
	return names
}

// View is the labels a form of model shows, as sao draws it from fields_view_get: each
// field's string and the view's own strings (its tabs'); viewType is "form" or "tree".
func (b *TrytonBrowser) View(t testing.TB, model, viewType string) []string {
	t.Helper()
	return trytonViewLabels(t, b.Call(t, "model."+model+".fields_view_get", nil, viewType))
}

// PreferencesView is the labels of the Preferences dialog's form.
func (b *TrytonBrowser) PreferencesView(t testing.TB) []string {
	t.Helper()
	return trytonViewLabels(t, b.Call(t, "model.res.user.get_preferences_fields_view"))
}

var trytonViewString = regexp.MustCompile(`string="([^"]+)"`)

// trytonViewLabels is the labels of a fields_view_get answer: its fields' strings and its
// arch's string attributes.
func trytonViewLabels(t testing.TB, raw json.RawMessage) []string {
	t.Helper()
	var view struct {
		Arch   string `json:"arch"`
		Fields map[string]struct {
			String string `json:"string"`
		} `json:"fields"`
	}
	if err := json.Unmarshal(raw, &view); err != nil {
		t.Fatalf("tryton: a view: %v", err)
	}
	var labels []string
	for _, f := range view.Fields {
		labels = append(labels, f.String)
	}
	for _, m := range trytonViewString.FindAllStringSubmatch(view.Arch, -1) {
		labels = append(labels, html.UnescapeString(m[1]))
	}
	return labels
}
