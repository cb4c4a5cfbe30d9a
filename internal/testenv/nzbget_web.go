package testenv

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// NZBGetBrowser uses an NZBGet's web control panel as a person's browser does: it opens
// the panel's page, signs in through the page's login dialog (the panel sends the
// dialog's user name and password once, in an X-Authorization header, and NZBGet answers
// with a session cookie), then makes the JSON-RPC calls the panel's scripts make when a
// person edits a download, sets the speed limit or saves the Settings page, with that
// cookie alone. It is how the harness's own test does each goal's effect without the agent.
type NZBGetBrowser struct {
	w *NZBGet
	c *http.Client
}

// NZBGetOption is one option as the Settings page loads and saves it (loadconfig,
// saveconfig).
type NZBGetOption struct {
	Name  string `json:"Name"`
	Value string `json:"Value"`
}

// Browser is a browser with no session yet: SignIn signs it in through the login dialog.
func (w *NZBGet) Browser() *NZBGetBrowser {
	jar, _ := cookiejar.New(nil)
	return &NZBGetBrowser{w: w, c: &http.Client{Jar: jar}}
}

// Open fetches one of the panel's files (a path from its root) and returns it; an answer
// other than 200 fails the test.
func (b *NZBGetBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	resp, err := b.c.Get(b.w.URL + strings.TrimPrefix(path, "/"))
	if err != nil {
		t.Fatalf("nzbget: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("nzbget: GET %s answered %d", path, resp.StatusCode)
	}
	return string(body)
}

// SignIn opens the panel, whose page shows its login dialog (NZBGet marks a form sign-in
// with the cookie Auth-Type=form), and sends the dialog's user name and password as the
// dialog's Login button does; NZBGet then keeps the session in its Auth-Token cookie.
func (b *NZBGetBrowser) SignIn(t testing.TB) {
	t.Helper()
	page := b.Open(t, "/")
	if !strings.Contains(page, `id="LoginDialog"`) || !b.hasCookie("Auth-Type", "form") {
		t.Fatalf("nzbget: the panel shows no login dialog (FormAuth)")
	}
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(b.w.User+":"+b.w.Password))
	var version string
	if err := nzbgetCall(b.c, b.w.rpc, map[string]string{"X-Authorization": auth}, "version", nil, &version); err != nil || version == "" {
		t.Fatalf("nzbget: signing in as %s: %v", b.w.User, err)
	}
	if !b.hasCookie("Auth-Token", "") {
		t.Fatalf("nzbget: signing in set no session cookie")
	}
}

// hasCookie says whether the browser holds the cookie name (with the value value, when
// that is not "") for the panel.
func (b *NZBGetBrowser) hasCookie(name, value string) bool {
	req, _ := http.NewRequest(http.MethodGet, b.w.URL, nil)
	for _, c := range b.c.Jar.Cookies(req.URL) {
		if c.Name == name && c.Value != "" && (value == "" || c.Value == value) {
			return true
		}
	}
	return false
}

// Call makes one JSON-RPC call as the panel's scripts do, with the session cookie alone,
// and decodes its result into out; a call NZBGet refuses fails the test.
func (b *NZBGetBrowser) Call(t testing.TB, method string, params []any, out any) {
	t.Helper()
	if err := nzbgetCall(b.c, b.w.rpc, nil, method, params, out); err != nil {
		t.Fatalf("nzbget: %v", err)
	}
}

// ID is the NZBID of the queued download named name (its NZBName), failing the test when
// the queue has none.
func (b *NZBGetBrowser) ID(t testing.TB, name string) int {
	t.Helper()
	var groups []NZBGetGroup
	b.Call(t, "listgroups", nil, &groups)
	for _, g := range groups {
		if g.NZBName == name {
			return g.NZBID
		}
	}
	t.Fatalf("nzbget: the queue has no download %q", name)
	return 0
}

// Edit applies one of the queue's edit commands to the download named name, as the panel
// does when its edit dialog is saved (GroupSetName, GroupSetPriority, GroupSetCategory)
// or a delete is confirmed (GroupParkDelete, the dialog's recommended choice).
func (b *NZBGetBrowser) Edit(t testing.TB, command, param, name string) {
	t.Helper()
	var ok bool
	b.Call(t, "editqueue", []any{command, param, []int{b.ID(t, name)}}, &ok)
	if !ok {
		t.Fatalf("nzbget: %s %q on %q was refused", command, param, name)
	}
}

// SetSpeedLimit sets the speed limit in KB/s, as the toolbar's Speed Limit dialog does
// when "Set limit" is pressed.
func (b *NZBGetBrowser) SetSpeedLimit(t testing.TB, kb int) {
	t.Helper()
	var ok bool
	b.Call(t, "rate", []any{kb}, &ok)
	if !ok {
		t.Fatalf("nzbget: the speed limit %d was refused", kb)
	}
}

// SaveSettings loads the configuration as the Settings page does, sets the options named
// in change (adding those the file lacks after the others) and saves it, as "Save all
// changes" does.
func (b *NZBGetBrowser) SaveSettings(t testing.TB, change map[string]string) {
	t.Helper()
	var opts []NZBGetOption
	b.Call(t, "loadconfig", nil, &opts)
	done := map[string]bool{}
	for i, o := range opts {
		if v, ok := change[o.Name]; ok {
			opts[i].Value, done[o.Name] = v, true
		}
	}
	for name, v := range change {
		if !done[name] {
			opts = append(opts, NZBGetOption{Name: name, Value: v})
		}
	}
	var ok bool
	b.Call(t, "saveconfig", []any{opts}, &ok)
	if !ok {
		t.Fatalf("nzbget: saving the settings %v was refused", change)
	}
}

var nzbgetCategory = regexp.MustCompile(`^Category([0-9]+)\.Name$`)

// AddCategory adds a category named name as the Settings page's CATEGORIES section does
// when "Add another Category" is pressed, its Name typed and "Save all changes" pressed:
// the next CategoryN, its other options at the template's defaults.
func (b *NZBGetBrowser) AddCategory(t testing.TB, name string) {
	t.Helper()
	var opts []NZBGetOption
	b.Call(t, "loadconfig", nil, &opts)
	next := 1
	for _, o := range opts {
		if m := nzbgetCategory.FindStringSubmatch(o.Name); m != nil {
			if n, _ := strconv.Atoi(m[1]); n >= next {
				next = n + 1
			}
		}
	}
	b.SaveSettings(t, NZBGetCategory(next, name))
}

// NZBGetCategory is category n's options as the Settings page saves a new one named name.
func NZBGetCategory(n int, name string) map[string]string {
	p := fmt.Sprintf("Category%d.", n)
	return map[string]string{p + "Name": name, p + "DestDir": "", p + "Unpack": "yes", p + "Extensions": "", p + "Aliases": ""}
}
