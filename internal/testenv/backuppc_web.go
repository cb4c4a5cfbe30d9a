package testenv

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// BackupPCBrowser uses BackupPC's CGI as a person's browser does: each page by its link,
// the configuration editor's one form (editForm: every setting of the file being edited,
// the tab's shown and the others hidden) sent back with what its buttons' scripts set
// (a tab's menuSubmit, Add's addSubmit, Delete's deleteSubmit, a change's modified flag,
// Save's saveAction), and the host page's Start/Stop form and its confirmation. lighttpd
// signs every request in as BackupPCAdmin. It is how the harness's own test makes each
// goal's effect without the agent.
type BackupPCBrowser struct {
	b    *BackupPC
	h    *http.Client
	page string
}

// Browser is a browser on the instance.
func (b *BackupPC) Browser() *BackupPCBrowser {
	return &BackupPCBrowser{b: b, h: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// Page is the page the browser is on.
func (w *BackupPCBrowser) Page() string { return w.page }

// Open fetches the CGI with query (e.g. "?action=editConfig", "" for the status page) and
// returns the page; an answer other than 200 or a page that says "Error:" fails the test.
func (w *BackupPCBrowser) Open(t testing.TB, query string) string {
	t.Helper()
	return w.send(t, http.MethodGet, w.b.URL+query, nil)
}

func (w *BackupPCBrowser) send(t testing.TB, method, target string, form url.Values) string {
	t.Helper()
	if method == http.MethodGet && form != nil {
		target += "?" + form.Encode()
		form = nil
	}
	status, _, body := sendForm(t, w.h, "backuppc", method, target, form, nil)
	if status != http.StatusOK {
		t.Fatalf("backuppc: %s %s answered %d:\n%s", method, target, status, BackupPCText(body))
	}
	if m := backuppcError.FindStringSubmatch(body); m != nil {
		t.Fatalf("backuppc: %s %s says %s", method, target, BackupPCText(m[0]))
	}
	w.page = body
	return body
}

// backuppcError is an error the CGI shows: its Error page's heading, or a setting the
// editor refused.
var backuppcError = regexp.MustCompile(`(?s)<h1>Error:.*?</h1>|<span class="editError">[^<]+</span>`)

// Edit sends the configuration editor's form on the page as its scripts would: the fields
// set to set's values (a field that is not on the form is added, as a ticked box is),
// the hidden fields the button's script sets among them.
func (w *BackupPCBrowser) Edit(t testing.TB, set map[string]string) string {
	t.Helper()
	f := PhpLDAPadminFormOf(t, w.page, `name="editForm"`)
	for k, v := range set {
		f.Fields.Set(k, v)
	}
	return w.send(t, http.MethodPost, w.b.root()+html.UnescapeString(f.Action), f.Fields)
}

// Asset fetches a file the pages load (a path from the server's root, e.g. the style
// sheet), failing the test on an answer other than 200.
func (w *BackupPCBrowser) Asset(t testing.TB, path string) string {
	t.Helper()
	status, _, body := sendForm(t, w.h, "backuppc", http.MethodGet, w.b.root()+path, nil, nil)
	if status != http.StatusOK {
		t.Fatalf("backuppc: %s answered %d", path, status)
	}
	return body
}

// root is the server's address, http://127.0.0.1:PORT.
func (b *BackupPC) root() string { return strings.TrimSuffix(b.URL, "/backuppc/index.cgi") }

// Tab opens the editor's tab (menuSubmit: "server", "schedule", "xfer", "hosts"…).
func (w *BackupPCBrowser) Tab(t testing.TB, menu string) string {
	t.Helper()
	if !strings.Contains(w.page, "menuSubmit('"+menu+"')") {
		t.Fatalf("backuppc: the editor has no tab %s:\n%s", menu, BackupPCText(w.page))
	}
	return w.Edit(t, map[string]string{"newMenu": menu})
}

// Save presses Save after the changes set made (a changed field marks the form modified,
// as its onChange does).
func (w *BackupPCBrowser) Save(t testing.TB, set map[string]string) {
	t.Helper()
	set["modified"], set["saveAction"] = "1", "Save"
	w.Edit(t, set)
}

// SetMain opens Edit Config, the tab menu and saves the setting name as value.
func (w *BackupPCBrowser) SetMain(t testing.TB, menu, name, value string) {
	t.Helper()
	w.Open(t, "?action=editConfig")
	w.Tab(t, menu)
	w.field(t, name)
	w.Save(t, map[string]string{"v_zZ_" + name: value})
}

// SetHost opens the host's Edit Config, its tab menu, ticks the setting's Override and
// saves it as value (a list such as XferMethod's sends the form when chosen, as its
// onChange does, before Save).
func (w *BackupPCBrowser) SetHost(t testing.TB, host, menu, name, value string) {
	t.Helper()
	w.Open(t, "?host="+url.QueryEscape(host))
	w.Open(t, "?action=editConfig&host="+url.QueryEscape(host))
	w.Tab(t, menu)
	w.field(t, name)
	set := map[string]string{"override_" + name: "1", "v_zZ_" + name: value}
	if strings.Contains(w.page, `<select name="v_zZ_`+name+`"`) {
		w.Edit(t, map[string]string{"override_" + name: "1", "v_zZ_" + name: value, "modified": "1"})
	}
	w.Save(t, set)
}

// field fails the test when the editor's tab has no field for the setting name.
func (w *BackupPCBrowser) field(t testing.TB, name string) {
	t.Helper()
	if !strings.Contains(w.page, `name="v_zZ_`+name+`"`) || strings.Contains(w.page, `type="hidden" name="v_zZ_`+name+`"`) {
		t.Fatalf("backuppc: the editor's tab shows no %s:\n%s", name, BackupPCText(w.page))
	}
}

// backuppcHostRow is a row of Edit Hosts: its index and its host's name.
var backuppcHostRow = regexp.MustCompile(`name="v_zZ_Hosts_zZ_(\d+)_zZ_0"[^>]*value="([^"]*)"`)

// hostRow opens Edit Hosts and returns the index of the host's row.
func (w *BackupPCBrowser) hostRow(t testing.TB, host string) string {
	t.Helper()
	w.Open(t, "?action=editConfig&newMenu=hosts")
	for _, m := range backuppcHostRow.FindAllStringSubmatch(w.page, -1) {
		if html.UnescapeString(m[2]) == host {
			return m[1]
		}
	}
	t.Fatalf("backuppc: Edit Hosts has no row %s:\n%s", host, BackupPCText(w.page))
	return ""
}

// AddHost opens Edit Hosts, presses Add, types the host's name and user into the new row
// and presses Save.
func (w *BackupPCBrowser) AddHost(t testing.TB, host, user string) {
	t.Helper()
	w.Open(t, "?action=editConfig&newMenu=hosts")
	rows := len(backuppcHostRow.FindAllString(w.page, -1))
	w.Edit(t, map[string]string{"addVar": "Hosts", "modified": "1"})
	row := "v_zZ_Hosts_zZ_" + strconv.Itoa(rows) + "_zZ_"
	if !strings.Contains(w.page, `name="`+row+`0"`) {
		t.Fatalf("backuppc: Add made no new row in Edit Hosts:\n%s", BackupPCText(w.page))
	}
	w.Save(t, map[string]string{row + "0": host, row + "2": user})
}

// DeleteHost opens Edit Hosts, presses Delete in the host's row and then Save.
func (w *BackupPCBrowser) DeleteHost(t testing.TB, host string) {
	t.Helper()
	row := w.hostRow(t, host)
	w.Edit(t, map[string]string{"deleteVar": "Hosts_zZ_" + row, "modified": "1"})
	w.Save(t, map[string]string{})
}

// SetHostUser opens Edit Hosts, types user into the user field of the host's row and
// presses Save.
func (w *BackupPCBrowser) SetHostUser(t testing.TB, host, user string) {
	t.Helper()
	row := w.hostRow(t, host)
	w.Save(t, map[string]string{"v_zZ_Hosts_zZ_" + row + "_zZ_2": user})
}

// StartBackup opens the host's page, presses "Start Full Backup" (full) or "Start Incr
// Backup" and confirms on the "Are you sure?" page; the server must say it took the
// request.
func (w *BackupPCBrowser) StartBackup(t testing.TB, host string, full bool) {
	t.Helper()
	action, label := "Start_Incr_Backup", "Start Incr Backup"
	if full {
		action, label = "Start_Full_Backup", "Start Full Backup"
	}
	page := w.Open(t, "?host="+url.QueryEscape(host))
	if !strings.Contains(page, `value="`+label+`"`) {
		t.Fatalf("backuppc: %s's page has no %s button:\n%s", host, label, BackupPCText(page))
	}
	f := PhpLDAPadminFormOf(t, page, `name="StartStopForm"`)
	f.Fields.Set("action", action)
	page = w.send(t, http.MethodGet, w.b.root()+f.Action, f.Fields)
	if !strings.Contains(page, "Are you sure?") {
		t.Fatalf("backuppc: %s asks no confirmation:\n%s", label, BackupPCText(page))
	}
	f = PhpLDAPadminFormOf(t, page, `name="Confirm"`)
	f.Fields.Set("action", action)
	page = w.send(t, http.MethodGet, w.b.root()+f.Action, f.Fields)
	if !strings.Contains(page, "ok: requested backup of "+host) {
		t.Fatalf("backuppc: the server did not take the backup of %s:\n%s", host, BackupPCText(page))
	}
}

// saveAsShown saves config.pl and each seed host's own config once through the editor, as
// they are shown: the files are then as the CGI writes them (a value it keeps as a list,
// an empty one it keeps as none), so a goal's Save changes only what the goal changes.
func (b *BackupPC) saveAsShown(t testing.TB) {
	t.Helper()
	w := b.Browser()
	w.Open(t, "?action=editConfig")
	w.Save(t, map[string]string{})
	for _, h := range BackupPCHosts {
		w.Open(t, "?action=editConfig&host="+url.QueryEscape(h.Name))
		w.Save(t, map[string]string{})
	}
}

// BackupPCText is a page's text as a person reads it: scripts and styles dropped, tags
// dropped, entities unescaped, white space folded.
func BackupPCText(page string) string {
	page = ocsScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(plaTag.ReplaceAllString(page, " "))), " ")
}
