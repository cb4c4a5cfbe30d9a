package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

// GlewlwydBrowser uses a Glewlwyd's web app as a person's browser does, without running
// its scripts: it loads the admin page and the sign-in page, signs in through the sign-in
// page's request (the session cookie it sets) and sends the JSON requests the admin app's
// pages send when a person adds, changes or deletes a user, a client or a scope. It is how
// the harness's own test does each goal's effect without the agent.
type GlewlwydBrowser struct {
	g *Glewlwyd
	c *http.Client
}

// Browser is a browser with no session yet: SignIn signs it in.
func (g *Glewlwyd) Browser() *GlewlwydBrowser {
	jar, _ := cookiejar.New(nil)
	return &GlewlwydBrowser{g: g, c: &http.Client{Jar: jar}}
}

// Glewlwyd is the instance the browser uses.
func (b *GlewlwydBrowser) Glewlwyd() *Glewlwyd { return b.g }

// SignIn does what a person does on the admin page's "Log in": the sign-in page loads,
// admin's name and password go to the API's /auth as its OK button sends them, and the
// admin page loads again (its Continue).
func (b *GlewlwydBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.signInAs(t, b.g.User, b.g.Password)
}

func (b *GlewlwydBrowser) signInAs(t testing.TB, user, password string) {
	t.Helper()
	b.Open(t, "login.html?callback_url="+url.QueryEscape(b.g.URL)+"&scope=g_admin")
	b.Call(t, http.MethodPost, "auth/", map[string]string{"username": user, "password": password}, nil)
	b.Open(t, "?g_continue")
	var me []map[string]any
	b.Call(t, http.MethodGet, "profile_list/", nil, &me)
	if len(me) == 0 || me[0]["username"] != user {
		t.Fatalf("glewlwyd: signing in as %s did not: %v", user, me)
	}
}

// Open fetches a page or file of the web app (a path from the admin page's folder) and
// returns it; an answer other than 200 fails the test.
func (b *GlewlwydBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	resp, err := b.c.Get(b.g.URL + path)
	if err != nil {
		t.Fatalf("glewlwyd: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("glewlwyd: GET %s answered %d: %s", path, resp.StatusCode, body)
	}
	return string(body)
}

// Call sends a request to the API (path from its root, e.g. "user/dave"), body as JSON
// unless nil, and reads the JSON answer into out unless nil. An answer other than 200
// fails the test.
func (b *GlewlwydBrowser) Call(t testing.TB, method, path string, body, out any) {
	t.Helper()
	status, answer := b.call(t, method, path, body)
	if status != http.StatusOK {
		t.Fatalf("glewlwyd: %s api/%s answered %d: %s", method, path, status, answer)
	}
	if out != nil {
		if err := json.Unmarshal(answer, out); err != nil {
			t.Fatalf("glewlwyd: %s api/%s: %v: %s", method, path, err, answer)
		}
	}
}

func (b *GlewlwydBrowser) call(t testing.TB, method, path string, body any) (int, []byte) {
	t.Helper()
	var in io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		in = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, b.g.URL+"api/"+path, in)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("glewlwyd: %s api/%s: %v", method, path, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, answer
}

// SearchUsers is the user list's Search: the users whose name, username or e-mail holds
// pattern, as the list shows them.
func (b *GlewlwydBrowser) SearchUsers(t testing.TB, pattern string) []map[string]any {
	t.Helper()
	var users []map[string]any
	b.Call(t, http.MethodGet, "user?offset=0&limit=20&pattern="+url.QueryEscape(pattern), nil, &users)
	return users
}

// AddUser is the user list's "Add a user" dialog sent with its OK: username, password
// (typed twice), name, e-mail, the scopes picked, Active ticked.
func (b *GlewlwydBrowser) AddUser(t testing.TB, username, password, name, email string, scopes ...string) {
	t.Helper()
	user := map[string]any{"source": "database", "username": username, "password": password, "name": name, "email": email,
		"picture": "", "enabled": true, "user-code": ""}
	if len(scopes) > 0 {
		user["scope"] = scopes
	}
	b.Call(t, http.MethodPost, "user/?source=database", user, nil)
}

// EditUser is a user row's Edit dialog sent with its OK: the user as the list shows it,
// changed by change.
func (b *GlewlwydBrowser) EditUser(t testing.TB, username string, change func(user map[string]any)) {
	t.Helper()
	var user map[string]any
	for _, u := range b.SearchUsers(t, username) {
		if u["username"] == username {
			user = u
		}
	}
	if user == nil {
		t.Fatalf("glewlwyd: the user list has no %s", username)
	}
	change(user)
	b.Call(t, http.MethodPut, "user/"+url.PathEscape(username), user, nil)
}

// DeleteUser is a user row's Delete confirmed with OK.
func (b *GlewlwydBrowser) DeleteUser(t testing.TB, username string) {
	t.Helper()
	b.Call(t, http.MethodDelete, "user/"+url.PathEscape(username), nil, nil)
}

// AddClient is the client list's "Add a client" dialog sent with its OK: client ID, name,
// the redirect URIs added with the field's "+", the dialog's defaults for the rest
// (enabled, authorization types code and refresh_token, not confidential, token endpoint
// auth method client_secret_basic).
func (b *GlewlwydBrowser) AddClient(t testing.TB, clientID, name string, redirectURIs ...string) {
	t.Helper()
	client := map[string]any{"source": "database", "client_id": clientID, "name": name, "enabled": true,
		"redirect_uri": append([]string{}, redirectURIs...), "authorization_type": []string{"code", "refresh_token"},
		"response_mode": "", "sector_identifier_uri": "", "confidential": false,
		"token_endpoint_auth_method": []string{"client_secret_basic"}, "client_secret": "", "password": ""}
	b.Call(t, http.MethodPost, "client/?source=database", client, nil)
}

// EditClient is a client row's Edit dialog sent with its OK: the client as the dialog
// loads it, changed by change.
func (b *GlewlwydBrowser) EditClient(t testing.TB, clientID string, change func(client map[string]any)) {
	t.Helper()
	var client map[string]any
	b.Call(t, http.MethodGet, "client/"+url.PathEscape(clientID), nil, &client)
	change(client)
	b.Call(t, http.MethodPut, "client/"+url.PathEscape(clientID), client, nil)
}

// AddScope is the scope list's Add dialog sent with its OK: name, display name,
// description, Password ticked, a password session duration of 0 and no other scheme.
func (b *GlewlwydBrowser) AddScope(t testing.TB, name, display, description string) {
	t.Helper()
	b.Call(t, http.MethodPost, "scope/", map[string]any{"name": name, "display_name": display, "description": description,
		"password_required": true, "password_max_age": 0, "scheme": map[string]any{}, "schemeRequired": map[string]any{}}, nil)
}

// seedData signs in with the package's default password, sets admin's password through
// the profile's password change, and adds the seed's scopes, users and clients through
// the admin app's requests.
func (g *Glewlwyd) seedData(t testing.TB) {
	t.Helper()
	b := g.Browser()
	b.signInAs(t, g.User, "password")
	b.Call(t, http.MethodPut, "profile/password", map[string]string{"username": g.User, "old_password": "password", "password": g.Password}, nil)
	for _, s := range GlewlwydSeedScopes {
		b.AddScope(t, s[0], s[1], s[2])
	}
	for _, u := range GlewlwydSeedUsers {
		b.AddUser(t, u.Username, GlewlwydSeedPassword, u.Name, u.Email, u.Scopes...)
		if !u.Enabled {
			b.EditUser(t, u.Username, func(user map[string]any) { user["enabled"] = false })
		}
	}
	for _, c := range GlewlwydSeedClients {
		b.AddClient(t, c.ClientID, c.Name, c.RedirectURI)
		b.EditClient(t, c.ClientID, func(client map[string]any) { client["scope"] = c.Scopes })
	}
	if status, _ := g.Browser().call(t, http.MethodPost, "auth/", map[string]string{"username": g.User, "password": "password"}); status == http.StatusOK {
		t.Fatalf("glewlwyd: admin's default password still signs in")
	}
}

// GlewlwydText is a page's text as a person reads it: tags dropped, white space folded.
func GlewlwydText(page string) string {
	return strings.Join(strings.Fields(plaTag.ReplaceAllString(page, " ")), " ")
}
