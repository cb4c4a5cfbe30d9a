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

// GhostBrowser sends a Ghost the requests its admin's pages send: the admin is a
// single-page app whose every page reads and writes through the Admin API
// (/ghost/api/admin/...) with JSON, signed in by the session cookie its sign-in form gets
// (POST /session/), each request with the admin's Origin (Ghost refuses a session's request
// from another). It is how the seed is written and how the harness's own test does each
// goal's effect without the agent.
type GhostBrowser struct {
	g *Ghost
	c *http.Client
}

// Browser is a browser with no session yet: SignIn signs it in.
func (g *Ghost) Browser() *GhostBrowser {
	jar, _ := cookiejar.New(nil)
	return &GhostBrowser{g: g, c: &http.Client{Jar: jar}}
}

// SignIn signs in as the owner as the sign-in page does when Email address and Password
// are filled in and Sign in is pressed: the session cookie comes back, and the signed-in
// user is the owner.
func (b *GhostBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Call(t, http.MethodPost, "/session/", map[string]any{"username": b.g.Email, "password": b.g.Password})
	var me struct {
		Users []struct {
			Email string `json:"email"`
		} `json:"users"`
	}
	b.Get(t, "/users/me/", &me)
	if len(me.Users) != 1 || me.Users[0].Email != b.g.Email {
		t.Fatalf("ghost: signing in as %s did not: the session is %v's", b.g.Email, me.Users)
	}
}

// Call sends method to path (under /ghost/api/admin) with body as JSON (nil for none) and
// returns the answer; an answer of 400 or more fails the test.
func (b *GhostBrowser) Call(t testing.TB, method, path string, body any) json.RawMessage {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, b.g.Base+"/ghost/api/admin"+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Origin", b.g.Base)
	req.Header.Set("Accept-Version", "v6.0")
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("ghost: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("ghost: %s %s answered %d: %s", method, path, resp.StatusCode, out)
	}
	return out
}

// Get reads path's answer into v.
func (b *GhostBrowser) Get(t testing.TB, path string, v any) {
	t.Helper()
	if err := json.Unmarshal(b.Call(t, http.MethodGet, path, nil), v); err != nil {
		t.Fatalf("ghost: GET %s: %v", path, err)
	}
}

// ghostItem is a post, page or tag as the Admin API answers it: what a page sends back
// when it saves one.
type ghostItem struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	UpdatedAt string `json:"updated_at"`
	Tags      []struct {
		Name string `json:"name"`
	} `json:"tags"`
}

// ghostQuote is s as a quoted string of Ghost's filter language.
func ghostQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// Post is the post (kind "posts") or page ("pages") titled title, as the list finds it.
func (b *GhostBrowser) Post(t testing.TB, kind, title string) ghostItem {
	t.Helper()
	var res map[string]json.RawMessage
	q := url.Values{"filter": {"title:" + ghostQuote(title)}, "include": {"tags,authors"}, "limit": {"all"}}
	b.Get(t, "/"+kind+"/?"+q.Encode(), &res)
	var items []ghostItem
	if err := json.Unmarshal(res[kind], &items); err != nil || len(items) != 1 {
		t.Fatalf("ghost: %d %s are titled %q, not one (%v)", len(items), kind, title, err)
	}
	return items[0]
}

// CreatePost saves a new post (kind "posts") or page ("pages") with its body as HTML, its
// status and its tags, as the editor does once it is written and published (or left a
// draft).
func (b *GhostBrowser) CreatePost(t testing.TB, kind string, p GhostPost) {
	t.Helper()
	status := "draft"
	if p.Published {
		status = "published"
	}
	tags := []any{}
	for _, name := range p.Tags {
		tags = append(tags, map[string]any{"name": name})
	}
	b.Call(t, http.MethodPost, "/"+kind+"/?source=html", map[string]any{kind: []any{map[string]any{
		"title": p.Title, "html": "<p>" + p.Body + "</p>", "status": status, "tags": tags}}})
}

// SavePost saves fields of the post (kind "posts") or page ("pages") titled title, as the
// editor's Update (or Publish, or a draft's saving) does: with the updated_at it was read
// with, which Ghost checks against a change made meanwhile.
func (b *GhostBrowser) SavePost(t testing.TB, kind, title string, fields map[string]any) {
	t.Helper()
	p := b.Post(t, kind, title)
	body := map[string]any{"updated_at": p.UpdatedAt}
	for k, v := range fields {
		body[k] = v
	}
	b.Call(t, http.MethodPut, "/"+kind+"/"+p.ID+"/", map[string]any{kind: []any{body}})
}

// AddTag adds the tag named tag to the post titled title, its other tags kept, as the
// post settings' Tags field and Update do.
func (b *GhostBrowser) AddTag(t testing.TB, title, tag string) {
	t.Helper()
	tags := []any{}
	for _, old := range b.Post(t, "posts", title).Tags {
		tags = append(tags, map[string]any{"name": old.Name})
	}
	b.SavePost(t, "posts", title, map[string]any{"tags": append(tags, map[string]any{"name": tag})})
}

// DeletePost deletes the post (kind "posts") or page ("pages") titled title, as the
// post settings' Delete post does once confirmed.
func (b *GhostBrowser) DeletePost(t testing.TB, kind, title string) {
	t.Helper()
	b.Call(t, http.MethodDelete, "/"+kind+"/"+b.Post(t, kind, title).ID+"/", nil)
}

// CreateTag saves a new tag with its name and description, as the tag page's Save does.
func (b *GhostBrowser) CreateTag(t testing.TB, name, description string) {
	t.Helper()
	b.Call(t, http.MethodPost, "/tags/", map[string]any{"tags": []any{map[string]any{"name": name, "description": description}}})
}

// RoleID is the id of the role named name, as the invitation's role picker offers it.
func (b *GhostBrowser) RoleID(t testing.TB, name string) string {
	t.Helper()
	var res struct {
		Roles []struct{ ID, Name string } `json:"roles"`
	}
	b.Get(t, "/roles/?permissions=assign", &res)
	for _, r := range res.Roles {
		if r.Name == name {
			return r.ID
		}
	}
	t.Fatalf("ghost: the owner may not assign a role %q: %v", name, res.Roles)
	return ""
}

// Invite sends an invitation to email for the role named role, as Settings' Staff, Invite
// people and Send invitation do.
func (b *GhostBrowser) Invite(t testing.TB, email, role string) {
	t.Helper()
	b.Call(t, http.MethodPost, "/invites/", map[string]any{"invites": []any{map[string]any{
		"email": email, "role_id": b.RoleID(t, role), "expires": nil, "status": nil, "token": nil}}})
}

// SetSettings saves settings (key → value), as a section of Settings does with Save.
func (b *GhostBrowser) SetSettings(t testing.TB, settings map[string]string) {
	t.Helper()
	var list []any
	for k, v := range settings {
		list = append(list, map[string]any{"key": k, "value": v})
	}
	b.Call(t, http.MethodPut, "/settings/", map[string]any{"settings": list})
}

// Page fetches path from the site's root with the browser's session, as a browser loads a
// page or an asset, and returns its body ("" for an answer other than 200).
func (b *GhostBrowser) Page(t testing.TB, path string) string {
	t.Helper()
	resp, err := b.c.Get(b.g.Base + path)
	if err != nil {
		t.Fatalf("ghost: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return ""
	}
	return string(out)
}
