package testenv

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Radicale is a private Radicale — Debian's radicale 3.1: a CalDAV and CardDAV server whose
// own web interface (at /.web/) signs a user in and creates, edits, deletes and uploads
// calendars and address books — run from a configuration file of its own on a free
// loopback port, with a temporary storage folder and htpasswd authentication for one user.
// What a run did is read back from that storage folder: one folder per collection under
// collection-root/USER/, its properties in .Radicale.props (JSON) and its items as .ics
// and .vcf files.
type Radicale struct {
	URL      string // the web interface, where a person starts: http://127.0.0.1:PORT/.web/
	Server   string // the server's root, where the WebDAV requests go: http://127.0.0.1:PORT
	User     string // the one user
	Password string
	Storage  string // the storage folder (filesystem_folder)
	// Seeded are the seed collections by ID as Radicale saved them, read back right after
	// seeding: what a judge compares a collection a goal must not touch with.
	Seeded map[string]RadicaleCollection
}

// RadicalePassword is the user's password in every instance (kept in plain text in its
// htpasswd file): one grant on the worker serves each fresh instance of a test.
const (
	RadicaleUser     = "editor"
	RadicalePassword = "radicale-editor-pass-58"
)

// The seed every instance starts from, made as the web interface's Create form makes
// collections (each at a random-looking UUID of its own, here fixed so the judges know
// them): the calendar Work with an event, the address book Friends with a contact, and the
// calendar-and-tasks collection Old Projects with a task.
const (
	RadicaleWorkID    = "3c9f1a52-7d4e-4b8a-9e61-0f2d5c8b7a14"
	RadicaleFriendsID = "8e2b6d90-1c3f-4a7e-b5d2-6f9a0c4e1b37"
	RadicaleOldID     = "b41d7e28-5a9c-4f03-8c6e-2d7f1b9e0a55"
)

// RadicaleSeed are the seed collections as the web interface's Create form fills them
// (Href is the ID alone: Seed puts it under the user's principal).
var RadicaleSeed = []RadicaleForm{
	{Href: RadicaleWorkID, Type: "CALENDAR", DisplayName: "Work", Description: "Meetings and deadlines", Color: "#3366cc"},
	{Href: RadicaleFriendsID, Type: "ADDRESSBOOK", DisplayName: "Friends", Color: "#2a9d8f"},
	{Href: RadicaleOldID, Type: "CALENDAR_TASKS", DisplayName: "Old Projects", Description: "Finished in 2022", Color: "#8d99ae"},
}

// radicaleSeedItems are the seed's items, put as a CalDAV or CardDAV client puts them:
// collection ID → item name → text.
var radicaleSeedItems = map[string]map[string]string{
	RadicaleWorkID: {"team-standup.ics": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Held-out seed//EN\r\nBEGIN:VEVENT\r\n" +
		"UID:team-standup@example.com\r\nDTSTAMP:20240101T080000Z\r\nDTSTART:20240108T090000Z\r\nDTEND:20240108T091500Z\r\n" +
		"SUMMARY:Team standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"},
	RadicaleFriendsID: {"anna-berg.vcf": "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:anna-berg@example.com\r\nFN:Anna Berg\r\n" +
		"N:Berg;Anna;;;\r\nEMAIL:anna@example.com\r\nEND:VCARD\r\n"},
	RadicaleOldID: {"archive-report.ics": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Held-out seed//EN\r\nBEGIN:VTODO\r\n" +
		"UID:archive-report@example.com\r\nDTSTAMP:20221201T080000Z\r\nSUMMARY:Archive the final report\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"},
}

const radicaleConfig = `[server]
hosts = %[1]s

[auth]
type = htpasswd
htpasswd_filename = %[2]s/users
htpasswd_encryption = plain

[rights]
type = owner_only

[storage]
filesystem_folder = %[3]s

[web]
type = internal

[logging]
level = warning
mask_passwords = True
`

// RadicaleInstalled says whether the radicale program is there.
func RadicaleInstalled() bool {
	_, err := exec.LookPath("radicale")
	return err == nil
}

// StartRadicale writes a configuration and an htpasswd file into a temporary folder (its
// own HOME; the configuration given replaces the machine's /etc/radicale, and the
// system's service is not used), serves Radicale from there until the test ends, and
// seeds it through Radicale's own WebDAV requests (see RadicaleSeed). It skips the test
// when radicale is missing.
func StartRadicale(t testing.TB) *Radicale {
	t.Helper()
	if !RadicaleInstalled() {
		t.Skip("Radicale is not installed: run `deploy/setup.sh heldout` (it installs Debian's radicale)")
	}
	root := t.TempDir()
	port := FreePort(t)
	r := &Radicale{Server: "http://" + Addr(port), User: RadicaleUser, Password: RadicalePassword,
		Storage: filepath.Join(root, "collections")}
	r.URL = r.Server + "/.web/"
	if err := os.WriteFile(filepath.Join(root, "users"), []byte(r.User+":"+r.Password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(root, "config")
	if err := os.WriteFile(config, []byte(fmt.Sprintf(radicaleConfig, Addr(port), root, r.Storage)), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("radicale", "--config", config)
	cmd.Dir, cmd.Env = root, append(os.Environ(), "HOME="+root, "TZ=UTC", "LANG=C.UTF-8")
	p := start(t, "radicale", cmd)
	waitHTTP(t, "radicale", r.URL, 30*time.Second, p)
	r.seed(t)
	return r
}

// seed makes the seed collections and items and keeps them as saved in r.Seeded.
func (r *Radicale) seed(t testing.TB) {
	t.Helper()
	c := r.Client()
	for _, f := range RadicaleSeed {
		id := f.Href
		f.Href = r.Href(id)
		c.Create(t, f)
		for name, text := range radicaleSeedItems[id] {
			c.Put(t, f.Href+name, text)
		}
	}
	r.Seeded = map[string]RadicaleCollection{}
	for _, col := range r.Collections(t) {
		r.Seeded[col.ID] = col
	}
	for _, f := range RadicaleSeed {
		if col, ok := r.Seeded[f.Href]; !ok || col.Title() != f.DisplayName || len(col.Items) != len(radicaleSeedItems[f.Href]) {
			t.Fatalf("radicale: the seed collection %s was saved as %+v (there: %v)", f.DisplayName, col, ok)
		}
	}
	if len(r.Seeded) != len(RadicaleSeed) {
		t.Fatalf("radicale: the seed left %d collections", len(r.Seeded))
	}
}

// RadicaleCollection is a collection as Radicale's storage keeps it.
type RadicaleCollection struct {
	ID    string            // the folder's name: the last part of its address
	Props map[string]string // .Radicale.props as saved, e.g. "D:displayname", "tag"
	Items map[string]string // item file name (.ics, .vcf) → its text
}

// Title is the collection's title (its displayname).
func (c RadicaleCollection) Title() string { return c.Props["D:displayname"] }

// Tag is what the collection is: "VCALENDAR", "VADDRESSBOOK", or "" for a plain folder.
func (c RadicaleCollection) Tag() string { return c.Props["tag"] }

// Description is the calendar's or the address book's description.
func (c RadicaleCollection) Description() string {
	if c.Tag() == "VADDRESSBOOK" {
		return c.Props["CR:addressbook-description"]
	}
	return c.Props["C:calendar-description"]
}

// Color is the calendar's or the address book's colour as saved (the web interface saves
// "#rrggbbff"); Radicale keeps the address book's, a property of a namespace it does not
// know, under its full name.
func (c RadicaleCollection) Color() string {
	if c.Tag() == "VADDRESSBOOK" {
		return c.Props["{http://inf-it.com/ns/ab/}addressbook-color"]
	}
	return c.Props["ICAL:calendar-color"]
}

// Components are a calendar's components (VEVENT, VJOURNAL, VTODO), sorted; a calendar
// with none saved supports all three, as Radicale answers for it.
func (c RadicaleCollection) Components() []string {
	if c.Tag() != "VCALENDAR" {
		return nil
	}
	set, ok := c.Props["C:supported-calendar-component-set"]
	if !ok {
		return []string{"VEVENT", "VJOURNAL", "VTODO"}
	}
	comps := strings.Split(set, ",")
	slices.Sort(comps)
	return comps
}

// Type is the collection's type as the web interface names it in its Type list:
// "ADDRESSBOOK", "CALENDAR", "CALENDAR_JOURNAL_TASKS", "TASKS" and so on; "" for neither.
func (c RadicaleCollection) Type() string {
	switch c.Tag() {
	case "VADDRESSBOOK":
		return "ADDRESSBOOK"
	case "VCALENDAR":
		var parts []string
		for _, p := range [][2]string{{"VEVENT", "CALENDAR"}, {"VJOURNAL", "JOURNAL"}, {"VTODO", "TASKS"}} {
			if slices.Contains(c.Components(), p[0]) {
				parts = append(parts, p[1])
			}
		}
		return strings.Join(parts, "_")
	}
	return ""
}

// Collections are the user's collections as saved now, sorted by ID.
func (r *Radicale) Collections(t testing.TB) []RadicaleCollection {
	t.Helper()
	dir := filepath.Join(r.Storage, "collection-root", r.User)
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		t.Fatalf("radicale's storage: %v", err)
	}
	var out []RadicaleCollection
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, r.readCollection(t, filepath.Join(dir, e.Name())))
		}
	}
	return out
}

// Collection is the user's collection with this ID as saved now, and whether it is there.
func (r *Radicale) Collection(t testing.TB, id string) (RadicaleCollection, bool) {
	t.Helper()
	dir := filepath.Join(r.Storage, "collection-root", r.User, id)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return RadicaleCollection{}, false
	}
	return r.readCollection(t, dir), true
}

// readCollection reads a collection's folder: its .Radicale.props and its items (files
// not starting with a dot: Radicale's cache and lock files do).
func (r *Radicale) readCollection(t testing.TB, dir string) RadicaleCollection {
	t.Helper()
	c := RadicaleCollection{ID: filepath.Base(dir), Props: map[string]string{}, Items: map[string]string{}}
	if data, err := os.ReadFile(filepath.Join(dir, ".Radicale.props")); err == nil {
		if err := json.Unmarshal(data, &c.Props); err != nil {
			t.Fatalf("radicale's storage: %s/.Radicale.props: %v", c.ID, err)
		}
	} else if !os.IsNotExist(err) {
		t.Fatalf("radicale's storage: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
				c.Items[e.Name()] = string(data)
			}
		}
	}
	return c
}

// Href is the address of the user's collection with this ID, as the web interface makes
// it: /USER/ID/.
func (r *Radicale) Href(id string) string { return "/" + r.User + "/" + id + "/" }
