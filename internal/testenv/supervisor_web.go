package testenv

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// SupervisorBrowser uses a supervisord's web interface as a person's browser does: the
// status page, the links of its buttons (Refresh, Restart All, Stop All) and of each
// program's row (Start, Stop, Restart, Clear Log), each of which acts and sends the
// browser back to the status page with a message ("Process api-gateway stopped"). There
// is no sign-in. It is how the harness's own test does each goal's effect without the
// agent.
type SupervisorBrowser struct {
	w    *Supervisor
	c    *http.Client
	page string
	at   *url.URL // the page's address
}

// Browser is a browser on no page yet.
func (w *Supervisor) Browser() *SupervisorBrowser {
	return &SupervisorBrowser{w: w, c: &http.Client{}}
}

// Page is the page the browser is on.
func (b *SupervisorBrowser) Page() string { return b.page }

// Open fetches a page (a path from the root, or a whole address, or one relative to the
// page the browser is on), following redirects as a browser does, and returns the page it
// ends on. An answer of 400 or more fails the test.
func (b *SupervisorBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	base, err := url.Parse(b.w.URL)
	if err != nil {
		t.Fatal(err)
	}
	if b.at != nil {
		base = b.at
	}
	target, err := base.Parse(path)
	if err != nil {
		t.Fatalf("supervisor: %q is no address: %v", path, err)
	}
	resp, err := b.c.Get(target.String())
	if err != nil {
		t.Fatalf("supervisor: GET %s: %v", target, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("supervisor: GET %s answered %d: %s", target, resp.StatusCode, IcingaWebText(string(body)))
	}
	b.page, b.at = string(body), resp.Request.URL
	return b.page
}

// Click follows the link on the page the browser is on whose text is text: a button
// above the table (Refresh, Restart All, Stop All).
func (b *SupervisorBrowser) Click(t testing.TB, text string) string {
	t.Helper()
	href := icingawebHref(b.page, text)
	if href == "" {
		t.Fatalf("supervisor: the page has no link %q: %s", text, IcingaWebText(b.page))
	}
	return b.Open(t, href)
}

var supervisorNameCell = regexp.MustCompile(`(?s)<td\b[^>]*>\s*<a\b[^>]*>([^<]*)</a>\s*</td>`)

// ClickInRow follows the link whose text is text (Start, Stop, Restart, Clear Log) in the
// status table's row of the program the Name column shows as name.
func (b *SupervisorBrowser) ClickInRow(t testing.TB, name, text string) string {
	t.Helper()
	for _, tr := range icingawebRow.FindAllString(b.page, -1) {
		m := supervisorNameCell.FindStringSubmatch(tr)
		if m == nil || strings.TrimSpace(m[1]) != name {
			continue
		}
		if href := icingawebHref(tr, text); href != "" {
			return b.Open(t, href)
		}
	}
	t.Fatalf("supervisor: the status page has no row %q with a link %q: %s", name, text, IcingaWebText(b.page))
	return ""
}

var supervisorMessage = regexp.MustCompile(`(?s)<div class="status_msg">(.*?)</div>`)

// Message is the message the status page the browser is on shows above its buttons ("" for
// none).
func (b *SupervisorBrowser) Message() string {
	if m := supervisorMessage.FindStringSubmatch(b.page); m != nil {
		return IcingaWebText(m[1])
	}
	return ""
}

// Act opens the status page and follows the link text in the row of the program name,
// as a person who clicks it there does, and fails the test unless the page it comes
// back to says the program was acted on (wants: "stopped", "started", "restarted",
// "cleared").
func (b *SupervisorBrowser) Act(t testing.TB, name, text, wants string) {
	t.Helper()
	b.Open(t, "/")
	b.ClickInRow(t, name, text)
	if msg := b.Message(); !strings.Contains(msg, name) || !strings.Contains(msg, wants) {
		t.Fatalf("supervisor: %s in the row of %s came back with the message %q, not one saying %s", text, name, msg, wants)
	}
}
