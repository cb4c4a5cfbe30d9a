package testenv

import (
	"io"
	"net/http"
	"net/url"
	"testing"
)

// MaildevBrowser sends what MailDev's own page sends for a person's actions, under /api:
// GET email/summary (the list), GET email/ID and email/ID/html (a click on a mail in the
// list opens it and marks it read), DELETE email/ID (Delete email), DELETE email/all
// (Delete all emails, then Confirm), PATCH email/read-all (Mark all as read), POST
// email/ID/relay (Relay to original recipients) and POST email/ID/relay/ADDRESS (Relay to
// custom address, then Send). Mails are named by their key (MaildevKey); the page shows
// each one's recipient and subject. There is no sign-in. It is how the harness's own test
// does each goal's effect without the agent.
type MaildevBrowser struct {
	w *Maildev
	c *http.Client
}

// Browser is a browser on no page yet.
func (w *Maildev) Browser() *MaildevBrowser {
	return &MaildevBrowser{w: w, c: &http.Client{}}
}

// Open fetches a page or an asset (a path from the app's root) as a browser does (asking
// for HTML: the page's own path answers 404 to anything else) and returns its body. An
// answer of 400 or more fails the test.
func (b *MaildevBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.send(t, http.MethodGet, path)
}

// id is the ID of the mail key, which must be there.
func (b *MaildevBrowser) id(t testing.TB, key string) string {
	t.Helper()
	for id, k := range b.w.keys {
		if k == key {
			return id
		}
	}
	for _, m := range b.w.apiMails(t) {
		if m.key() == key {
			return m.ID
		}
	}
	t.Fatalf("maildev: no mail %q", key)
	return ""
}

// OpenMail opens the mail key as a click on it in the list does, which marks it read: the
// mail, then its HTML and source for the viewer (a mail without HTML answers 404 there,
// which the page takes as no HTML).
func (b *MaildevBrowser) OpenMail(t testing.TB, key string) {
	t.Helper()
	id := url.PathEscape(b.id(t, key))
	b.send(t, http.MethodGet, "/api/email/"+id)
	b.fetch(t, http.MethodGet, "/api/email/"+id+"/html")
	b.send(t, http.MethodGet, "/api/email/"+id+"/source")
}

// Delete opens the mail key and deletes it, as its Delete email button does.
func (b *MaildevBrowser) Delete(t testing.TB, key string) {
	t.Helper()
	b.OpenMail(t, key)
	b.send(t, http.MethodDelete, "/api/email/"+url.PathEscape(b.id(t, key)))
}

// DeleteAll deletes every mail, as Delete all emails and its Confirm do.
func (b *MaildevBrowser) DeleteAll(t testing.TB) {
	t.Helper()
	b.send(t, http.MethodDelete, "/api/email/all")
}

// MarkAllRead marks every mail read, as Mark all as read does.
func (b *MaildevBrowser) MarkAllRead(t testing.TB) {
	t.Helper()
	b.send(t, http.MethodPatch, "/api/email/read-all")
}

// Relay opens the mail key and relays it through the outgoing server: to its original
// recipients when to is "" (Relay to original recipients), else to the address to
// (Relay to custom address, the address typed, Send).
func (b *MaildevBrowser) Relay(t testing.TB, key, to string) {
	t.Helper()
	b.OpenMail(t, key)
	path := "/api/email/" + url.PathEscape(b.id(t, key)) + "/relay"
	if to != "" {
		path += "/" + url.PathEscape(to)
	}
	b.send(t, http.MethodPost, path)
}

// send sends method to path and returns the answer's body; an answer of 400 or more fails
// the test.
func (b *MaildevBrowser) send(t testing.TB, method, path string) string {
	t.Helper()
	code, out := b.fetch(t, method, path)
	if code >= 400 {
		t.Fatalf("maildev: %s %s answered %d: %s", method, path, code, out)
	}
	return out
}

// fetch sends method to path and returns the answer's status and body.
func (b *MaildevBrowser) fetch(t testing.TB, method, path string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, b.w.Base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8")
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("maildev: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}
