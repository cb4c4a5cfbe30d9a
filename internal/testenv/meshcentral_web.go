package testenv

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"
)

// MeshCentralBrowser uses a MeshCentral's web app as a person's browser does: the login
// form (its session cookie), then the WebSocket the app's page keeps to control.ashx, with
// each dialog's OK sent as the JSON command the page's script sends (createmesh, editmesh,
// deletemesh, adduser, edituser, addmeshuser, changeemail…). It is how the harness seeds
// an instance and how its own test does each goal's effect without the agent.
type MeshCentralBrowser struct {
	w    *MeshCentral
	c    *http.Client
	ws   *mcSocket
	next int  // the next command's responseid
	bulk bool // while seeding: meshcentral.db is waited for once, at the end
}

// Browser is a browser with no session yet: SignIn signs it in through the login form.
func (w *MeshCentral) Browser() *MeshCentralBrowser {
	jar, _ := cookiejar.New(nil)
	return &MeshCentralBrowser{w: w, c: &http.Client{Jar: jar, Timeout: 60 * time.Second}}
}

// Open fetches a page (a path from the root) and returns it; an answer of 400 or more
// fails the test.
func (b *MeshCentralBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	resp, err := b.c.Get(b.w.URL + path)
	if err != nil {
		t.Fatalf("meshcentral: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("meshcentral: GET %s: %s", path, resp.Status)
	}
	return string(body)
}

// SignIn opens the login page and sends its form with admin's name and password, as a
// person who types them into Username and Password and presses Log In does, then opens
// the web app's WebSocket and waits for the account the server says it is.
func (b *MeshCentralBrowser) SignIn(t testing.TB) {
	t.Helper()
	b.Open(t, "/")
	form := url.Values{"action": {"login"}, "username": {b.w.User}, "password": {b.w.Password}, "urlargs": {""}}
	resp, err := b.c.PostForm(b.w.URL+"/login", form)
	if err != nil {
		t.Fatalf("meshcentral: log in: %v", err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "LeftMenuMyUsers") {
		t.Fatalf("meshcentral: logging in as %s did not open the web app (%s): %.300s", b.w.User, resp.Status, page)
	}
	b.ws, err = dialMeshCentral(b.w.URL, b.c.Jar)
	if err != nil {
		t.Fatalf("meshcentral: control.ashx: %v", err)
	}
	t.Cleanup(b.Close)
	b.await(t, "the account's userinfo", func(m map[string]any) bool {
		info, _ := m["userinfo"].(map[string]any)
		return m["action"] == "userinfo" && info["_id"] == "user//"+b.w.User
	})
}

// Close closes the web app's WebSocket, as leaving the page does.
func (b *MeshCentralBrowser) Close() {
	if b.ws != nil {
		b.ws.close()
		b.ws = nil
	}
}

// await reads the server's messages until match takes one, which it returns; none in
// 30 s fails the test.
func (b *MeshCentralBrowser) await(t testing.TB, what string, match func(map[string]any) bool) map[string]any {
	t.Helper()
	if b.ws == nil {
		t.Fatalf("meshcentral: waiting for %s with no session: SignIn first", what)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		m, err := b.ws.read(deadline)
		if err != nil {
			t.Fatalf("meshcentral: waiting for %s: %v", what, err)
		}
		if match(m) {
			return m
		}
	}
}

// Command sends cmd as the page sends it, with a responseid the server answers with, and
// waits for that answer and for meshcentral.db to be written; an answer other than "ok"
// (or, for addmeshuser, one with a failure) fails the test.
func (b *MeshCentralBrowser) Command(t testing.TB, cmd map[string]any) {
	t.Helper()
	b.next++
	id := fmt.Sprintf("harness-%d", b.next)
	cmd["responseid"] = id
	if err := b.ws.send(cmd); err != nil {
		t.Fatalf("meshcentral: send %v: %v", cmd["action"], err)
	}
	m := b.await(t, fmt.Sprint(cmd["action"], "'s answer"), func(m map[string]any) bool { return m["responseid"] == id })
	// addmeshuser answers with what it did for each user ("Added user tom") and a count.
	if m["result"] != "ok" && !(m["success"] != nil && m["failed"] == float64(0)) {
		t.Fatalf("meshcentral: %v answered %v", cmd["action"], m["result"])
	}
	if !b.bulk {
		b.w.settle()
	}
}

// Notify sends cmd, a command the server answers with no responseid, and waits for the
// event it sends of the change (an event whose action is event) and for meshcentral.db
// to be written.
func (b *MeshCentralBrowser) Notify(t testing.TB, cmd map[string]any, event string) {
	t.Helper()
	if err := b.ws.send(cmd); err != nil {
		t.Fatalf("meshcentral: send %v: %v", cmd["action"], err)
	}
	b.await(t, "the "+event+" event", func(m map[string]any) bool {
		e, _ := m["event"].(map[string]any)
		return m["action"] == "event" && e["action"] == event
	})
	b.w.settle()
}

// list asks for the server's list (action "meshes" or "users", as the page does when it
// loads) and returns its entries.
func (b *MeshCentralBrowser) list(t testing.TB, action string) []map[string]any {
	t.Helper()
	if err := b.ws.send(map[string]any{"action": action}); err != nil {
		t.Fatalf("meshcentral: send %s: %v", action, err)
	}
	m := b.await(t, "the "+action+" list", func(m map[string]any) bool { return m["action"] == action && m[action] != nil })
	var out []map[string]any
	switch v := m[action].(type) {
	case []any:
		for _, e := range v {
			if e, ok := e.(map[string]any); ok {
				out = append(out, e)
			}
		}
	case map[string]any:
		for _, e := range v {
			if e, ok := e.(map[string]any); ok {
				out = append(out, e)
			}
		}
	}
	return out
}

// GroupID is the id of the device group the web app lists as name (the one not deleted).
func (b *MeshCentralBrowser) GroupID(t testing.TB, name string) string {
	t.Helper()
	for _, m := range b.list(t, "meshes") {
		if m["name"] == name && m["deleted"] == nil {
			return fmt.Sprint(m["_id"])
		}
	}
	t.Fatalf("meshcentral: no device group %q", name)
	return ""
}

// UserID is the id of the account whose username is name, as My Users lists it.
func (b *MeshCentralBrowser) UserID(t testing.TB, name string) string {
	t.Helper()
	for _, u := range b.list(t, "users") {
		if u["name"] == name {
			return fmt.Sprint(u["_id"])
		}
	}
	t.Fatalf("meshcentral: no account %q", name)
	return ""
}

// settle waits until meshcentral.db has stopped growing for a moment: NeDB appends each
// change to it a moment after the server answers.
func (w *MeshCentral) settle() {
	last, still := int64(-1), 0
	for i := 0; i < 50 && still < 3; i++ {
		size := fileSize(w.dbPath())
		if size == last {
			still++
		} else {
			last, still = size, 0
		}
		time.Sleep(100 * time.Millisecond)
	}
}
