package testenv

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// N8NBrowser sends an n8n the requests its editor's pages send: the editor is a
// single-page app whose every page reads and writes through the REST API (/rest/...) with
// JSON, signed in by the cookie its sign-in form gets (POST /rest/login), each request
// with the browser-id header the editor sends (n8n ties the cookie to it). It is how the
// seed is written and how the harness's own test does each goal's effect without the
// agent.
type N8NBrowser struct {
	n  *N8N
	c  *http.Client
	id string // the browser-id header
}

// Browser is a browser with no session yet: SignIn signs it in.
func (n *N8N) Browser() *N8NBrowser {
	jar, _ := cookiejar.New(nil)
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	return &N8NBrowser{n: n, c: &http.Client{Jar: jar}, id: hex.EncodeToString(id)}
}

// SignIn signs in as the owner as the sign-in page does when Email and Password are filled
// in and Sign in is pressed: the cookie comes back, and the signed-in user is the owner.
func (b *N8NBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Call(t, http.MethodPost, "/login", map[string]any{"emailOrLdapLoginId": b.n.Email, "password": b.n.Password})
	var me struct {
		Email string `json:"email"`
	}
	b.Get(t, "/login", &me)
	if me.Email != b.n.Email {
		t.Fatalf("n8n: signing in as %s did not: the session is %q's", b.n.Email, me.Email)
	}
}

// Call sends method to path (under /rest) with body as JSON (nil for none) and returns the
// answer's data; an answer of 400 or more fails the test.
func (b *N8NBrowser) Call(t testing.TB, method, path string, body any) json.RawMessage {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, b.n.Base+"/rest"+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("browser-id", b.id)
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("n8n: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("n8n: %s %s answered %d: %s", method, path, resp.StatusCode, out)
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if len(bytes.TrimSpace(out)) > 0 && json.Unmarshal(out, &env) != nil {
		t.Fatalf("n8n: %s %s answered no JSON: %s", method, path, out)
	}
	return env.Data
}

// Get reads path's data into v.
func (b *N8NBrowser) Get(t testing.TB, path string, v any) {
	t.Helper()
	if err := json.Unmarshal(b.Call(t, http.MethodGet, path, nil), v); err != nil {
		t.Fatalf("n8n: GET %s: %v", path, err)
	}
}

// N8NWorkflow is a workflow as the REST API answers it: what the editor loads when it
// opens one, and sends back (changed) when it saves it.
type N8NWorkflow struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Description *string           `json:"description"`
	Nodes       []json.RawMessage `json:"nodes"`
	Connections json.RawMessage   `json:"connections"`
	Settings    json.RawMessage   `json:"settings"`
	VersionID   string            `json:"versionId"`
	Checksum    string            `json:"checksum"`
	Tags        []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"tags"`
	HomeProject struct {
		ID string `json:"id"`
	} `json:"homeProject"`
}

// Workflow is the workflow named name, as the workflow list finds it (its search box
// filters by name) and the editor opens it; the test fails unless there is exactly one.
func (b *N8NBrowser) Workflow(t testing.TB, name string) N8NWorkflow {
	t.Helper()
	var list []N8NWorkflow
	filter, _ := json.Marshal(map[string]any{"name": name, "isArchived": false})
	b.Get(t, "/workflows?filter="+url.QueryEscape(string(filter)), &list)
	var id string
	for _, w := range list {
		if w.Name == name {
			if id != "" {
				t.Fatalf("n8n: two workflows are named %q", name)
			}
			id = w.ID
		}
	}
	if id == "" {
		t.Fatalf("n8n: no workflow is named %q", name)
	}
	var w N8NWorkflow
	b.Get(t, "/workflows/"+id, &w)
	return w
}

// TagID is the id of the tag named name, as the tags dropdown offers it.
func (b *N8NBrowser) TagID(t testing.TB, name string) string {
	t.Helper()
	var tags []struct{ ID, Name string }
	b.Get(t, "/tags", &tags)
	for _, tag := range tags {
		if tag.Name == name {
			return tag.ID
		}
	}
	t.Fatalf("n8n: there is no tag %q", name)
	return ""
}

// n8nAsset finds the scripts the editor's page loads.
var n8nAsset = regexp.MustCompile(`(?:src|href)="(/assets/[^"]+\.js)"`)

// AppText is the sign-in page, the scripts it loads, where the editor's English labels are
// ("Sign in", "Create workflow", "Personal Settings", ...), and the credential types the
// editor offers ("Header Auth", ...): what the pages the goals pass through can show.
func (b *N8NBrowser) AppText(t testing.TB) string {
	t.Helper()
	page := b.fetch(t, b.n.URL)
	var text strings.Builder
	text.WriteString(page)
	for _, m := range n8nAsset.FindAllStringSubmatch(page, -1) {
		text.WriteString(b.fetch(t, b.n.Base+m[1]))
	}
	text.WriteString(b.fetch(t, b.n.Base+"/types/credentials.json"))
	return text.String()
}

func (b *N8NBrowser) fetch(t testing.TB, address string) string {
	t.Helper()
	resp, err := b.c.Get(address)
	if err != nil {
		t.Fatalf("n8n: GET %s: %v", address, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("n8n: GET %s answered %d", address, resp.StatusCode)
	}
	return string(out)
}
