package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"
)

// EtherpadBrowser is a visitor of an Etherpad's pages without a browser: the home page,
// a pad's page, and the messages a pad's page sends its server over socket.io (its edits
// as changesets, chat messages, its user's name). Its token is the page's "token" cookie,
// which names the visitor's author.
type EtherpadBrowser struct {
	base  string
	c     *http.Client
	token string
}

// Browser is a new visitor of the instance, an author of its own.
func (e *Etherpad) Browser() *EtherpadBrowser {
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	return e.browserAs("t." + hex.EncodeToString(b))
}

// browserAs is a visitor whose token is token (the seed's authors keep theirs).
func (e *Etherpad) browserAs(token string) *EtherpadBrowser {
	jar, _ := cookiejar.New(nil)
	return &EtherpadBrowser{base: e.Base, c: &http.Client{Jar: jar, Timeout: 20 * time.Second}, token: token}
}

// Get fetches a page (a path from the root) and returns its status and body.
func (b *EtherpadBrowser) Get(t testing.TB, path string) (int, string) {
	t.Helper()
	resp, err := b.c.Get(b.base + path)
	if err != nil {
		t.Fatalf("etherpad: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("etherpad: GET %s: %v", path, err)
	}
	return resp.StatusCode, string(body)
}

// EtherpadPad is a pad's page, open: the connection it keeps and the pad as the server
// last told it (its revision, text and attribute pool).
type EtherpadPad struct {
	ID      string
	Author  string // the author the server gave this visitor
	Color   string // the author's colour, as the page's user list sends it back
	b       *EtherpadBrowser
	sock    *epSocket
	rev     int
	text    string
	attribs string
}

// epClientVars is what CLIENT_VARS tells a page of its pad and author.
type epClientVars struct {
	UserID       string   `json:"userId"`
	UserColor    any      `json:"userColor"`
	ColorPalette []string `json:"colorPalette"`
	Collab       struct {
		Rev  int `json:"rev"`
		Text struct {
			Text    string `json:"text"`
			Attribs string `json:"attribs"`
		} `json:"initialAttributedText"`
	} `json:"collab_client_vars"`
}

// Open opens the pad padID as its page does (/p/ID, typed into the home page's name box or
// followed from a link): it loads the page, connects and sends CLIENT_READY, which creates
// a pad that is not there yet, and reads CLIENT_VARS. It is closed when the test ends.
func (b *EtherpadBrowser) Open(t testing.TB, padID string) *EtherpadPad {
	t.Helper()
	if code, page := b.Get(t, "/p/"+url.PathEscape(padID)); code != http.StatusOK || !strings.Contains(page, `id="editorcontainer"`) {
		t.Fatalf("etherpad: the page of pad %q answers %d without its editor", padID, code)
	}
	sock, err := dialEtherpad(b.c, b.base, padID)
	if err != nil {
		t.Fatal(err)
	}
	p := &EtherpadPad{ID: padID, b: b, sock: sock}
	t.Cleanup(p.Close)
	ready := map[string]any{"component": "pad", "type": "CLIENT_READY", "padId": padID, "token": b.token, "protocolVersion": 2}
	if err := sock.send(ready); err != nil {
		t.Fatal(err)
	}
	m, err := sock.await(15*time.Second, func(m epMessage) bool { return m.Type == "CLIENT_VARS" })
	if err != nil {
		t.Fatalf("etherpad: pad %q: %v", padID, err)
	}
	var vars epClientVars
	if err := json.Unmarshal(m.Data, &vars); err != nil || vars.UserID == "" {
		t.Fatalf("etherpad: pad %q: CLIENT_VARS: %v: %s", padID, err, m.Data)
	}
	p.Author, p.rev = vars.UserID, vars.Collab.Rev
	p.text, p.attribs = vars.Collab.Text.Text, vars.Collab.Text.Attribs
	p.Color = fmt.Sprint(vars.UserColor)
	if n, ok := vars.UserColor.(float64); ok && int(n) < len(vars.ColorPalette) {
		p.Color = vars.ColorPalette[int(n)]
	}
	return p
}

// Close leaves the pad.
func (p *EtherpadPad) Close() {
	if p.sock != nil {
		p.sock.close()
		p.sock = nil
	}
}

// Text is the pad's text as the server last told it (a list line starts with its marker).
func (p *EtherpadPad) Text() string { return p.text }

// commit sends a changeset as the page's editor does (USER_CHANGES, with the attribute
// pool its ops use) and waits for the server to accept it; text is the pad's text after it.
func (p *EtherpadPad) commit(t testing.TB, changeset string, pool [][2]string, text string) {
	t.Helper()
	nums := map[string][2]string{}
	for i, a := range pool {
		nums[fmt.Sprint(i)] = a
	}
	apool := map[string]any{"numToAttrib": nums, "nextNum": len(pool)}
	msg := map[string]any{"type": "USER_CHANGES", "baseRev": p.rev, "changeset": changeset, "apool": apool}
	if err := p.sock.send(map[string]any{"type": "COLLABROOM", "component": "pad", "data": msg}); err != nil {
		t.Fatal(err)
	}
	m, err := p.sock.await(15*time.Second, func(m epMessage) bool { return m.dataType() == "ACCEPT_COMMIT" })
	if err != nil {
		t.Fatalf("etherpad: pad %q: changeset %q: %v", p.ID, changeset, err)
	}
	var accept struct {
		NewRev int `json:"newRev"`
	}
	_ = json.Unmarshal(m.Data, &accept)
	p.rev, p.text = accept.NewRev, text
}

// SetText makes the pad's text text (ending with a newline), typed as this visitor's author:
// the run between what the two texts share at their start and end is replaced.
func (p *EtherpadPad) SetText(t testing.TB, text string) {
	t.Helper()
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	p.commit(t, epSplice(p.text, text, "*0"), [][2]string{{"author", p.Author}}, text)
}

// AppendLine types line as a new last line.
func (p *EtherpadPad) AppendLine(t testing.TB, line string) {
	t.Helper()
	p.SetText(t, p.text+line+"\n")
}

// ReplaceLine turns the line from into to (the first line that is exactly from).
func (p *EtherpadPad) ReplaceLine(t testing.TB, from, to string) {
	t.Helper()
	lines := strings.Split(p.text, "\n")
	for i, l := range lines {
		if l == from {
			lines[i] = to
			p.SetText(t, strings.Join(lines, "\n"))
			return
		}
	}
	t.Fatalf("etherpad: pad %q has no line %q: %q", p.ID, from, p.text)
}

// ClearAuthorship is the toolbar's "Clear Authorship Colors" on the whole pad, confirmed.
func (p *EtherpadPad) ClearAuthorship(t testing.TB) {
	t.Helper()
	p.commit(t, epApplyAll(p.text, "*0"), [][2]string{{"author", ""}}, p.text)
}

// Bullet is the toolbar's "Unordered List" with the cursor in the line that is exactly line.
func (p *EtherpadPad) Bullet(t testing.TB, line string) {
	t.Helper()
	lines := strings.Split(p.text, "\n")
	for i, l := range lines {
		if l == line {
			lines[i] = "*" + l
			pool := [][2]string{{"author", p.Author}, {"insertorder", "first"}, {"lmkr", "1"}, {"list", "bullet1"}}
			p.commit(t, epLineMarker(p.text, i, "*0*1*2*3"), pool, strings.Join(lines, "\n"))
			return
		}
	}
	t.Fatalf("etherpad: pad %q has no line %q: %q", p.ID, line, p.text)
}

// Chat posts a message in the pad's chat (the chat box's Enter) and waits until the server
// sends it back to the pad's visitors.
func (p *EtherpadPad) Chat(t testing.TB, text string) {
	t.Helper()
	msg := map[string]any{"type": "COLLABROOM", "component": "pad", "data": map[string]any{"type": "CHAT_MESSAGE", "text": text}}
	if err := p.sock.send(msg); err != nil {
		t.Fatal(err)
	}
	if _, err := p.sock.await(15*time.Second, func(m epMessage) bool { return m.dataType() == "CHAT_MESSAGE" }); err != nil {
		t.Fatalf("etherpad: pad %q: chat %q: %v", p.ID, text, err)
	}
}

// SetName is the user list's name box: the visitor's name, sent with its colour as the
// page sends its user's info (USERINFO_UPDATE). The server answers nothing: the judge
// waits for the author's record.
func (p *EtherpadPad) SetName(t testing.TB, name string) {
	t.Helper()
	info := map[string]any{"userId": p.Author, "name": name, "ip": "127.0.0.1", "colorId": p.Color}
	msg := map[string]any{"type": "COLLABROOM", "component": "pad", "data": map[string]any{"type": "USERINFO_UPDATE", "userInfo": info}}
	if err := p.sock.send(msg); err != nil {
		t.Fatal(err)
	}
}

// EtherpadHasL10n says whether page has an element whose text Etherpad's pages fill in
// from the locale's string id (the pages ship ids, not words: index.newPad is "New Pad").
func EtherpadHasL10n(page, id string) bool {
	return strings.Contains(page, `data-l10n-id="`+id+`"`)
}
