package testenv

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Fossil is a private Fossil repository — Debian's fossil: a wiki, tickets, technotes, a
// forum and user administration in one binary, all kept in one SQLite file — served by
// `fossil server` on a free loopback port, with an administrator who signs in through the
// Login page. What a run did is read back from the repository file itself.
type Fossil struct {
	URL      string // the server's root, e.g. http://127.0.0.1:PORT
	User     string // the administrator
	Password string
	Repo     string // the repository file
	env      []string
}

// FossilPassword is the administrator's password in every instance: one grant on the
// worker serves each fresh instance of a test.
const FossilPassword = "fossil-admin-pass"

// The seed every instance starts from: a wiki page and two open tickets.
const (
	FossilSeedPage     = "Meeting Notes"
	FossilSeedPageText = "Agenda: budget and hiring."
	FossilSlowTicket   = "Login page is slow"
	FossilTypoTicket   = "Typo on the home page"
)

// FossilInstalled says whether fossil and the sqlite3 CLI the judges read with are there.
func FossilInstalled() bool {
	_, err1 := exec.LookPath("fossil")
	_, err2 := exec.LookPath("sqlite3")
	return err1 == nil && err2 == nil
}

// StartFossil creates a fresh repository in a temporary folder (its own HOME, so no
// global Fossil state of the machine is touched), gives the administrator a password,
// seeds a wiki page and two tickets, and serves it with `fossil server --localhost` until
// the test ends. It skips the test when fossil or sqlite3 is missing.
func StartFossil(t testing.TB) *Fossil {
	t.Helper()
	if !FossilInstalled() {
		t.Skip("Fossil or sqlite3 is not installed: run `deploy/setup.sh heldout` (it installs Debian's fossil and sqlite3)")
	}
	root := t.TempDir()
	f := &Fossil{User: "admin", Password: FossilPassword, Repo: filepath.Join(root, "team.fossil"),
		env: append(os.Environ(), "HOME="+root, "FOSSIL_HOME="+root, "USER=admin", "TZ=UTC")}
	f.run(t, "", "init", "--admin-user", f.User, f.Repo)
	f.run(t, "", "user", "password", f.User, f.Password, "-R", f.Repo)
	f.sqlExec(t, `REPLACE INTO config(name, value, mtime) VALUES ('project-name', 'Team Notes', strftime('%s','now'))`)
	f.run(t, FossilSeedPageText, "wiki", "create", FossilSeedPage, "--mimetype", "text/x-markdown", "-R", f.Repo)
	f.run(t, "", "ticket", "add", "title", FossilSlowTicket, "type", "Code_Defect", "severity", "Important", "status", "Open", "-R", f.Repo)
	f.run(t, "", "ticket", "add", "title", FossilTypoTicket, "type", "Documentation", "severity", "Minor", "status", "Open", "-R", f.Repo)
	port := FreePort(t)
	f.URL = "http://" + Addr(port)
	cmd := exec.Command("fossil", "server", "--localhost", "--port", fmt.Sprint(port), f.Repo)
	cmd.Dir, cmd.Env = root, f.env
	p := start(t, "fossil", cmd)
	waitHTTP(t, "fossil", f.URL+"/login", 30*time.Second, p)
	return f
}

// run runs the fossil CLI with stdin, failing the test on an error.
func (f *Fossil) run(t testing.TB, stdin string, args ...string) string {
	t.Helper()
	out, err := f.cli(stdin, args...)
	if err != nil {
		t.Fatalf("fossil %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (f *Fossil) cli(stdin string, args ...string) (string, error) {
	cmd := exec.Command("fossil", args...)
	cmd.Env, cmd.Dir = f.env, filepath.Dir(f.Repo)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (f *Fossil) sqlExec(t testing.TB, stmt string) {
	t.Helper()
	if out, err := exec.Command("sqlite3", "-cmd", ".timeout 5000", f.Repo, stmt).CombinedOutput(); err != nil {
		t.Fatalf("sqlite3 %s: %v\n%s", stmt, err, out)
	}
}

// Query reads the repository file with the sqlite3 CLI (read-only), one map per row, each
// value as text ("" for NULL).
func (f *Fossil) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return SQLiteRows(t, f.Repo, query)
}

// WikiPage is a wiki page's latest saved text, and whether the page exists.
func (f *Fossil) WikiPage(t testing.TB, name string) (string, bool) {
	t.Helper()
	for _, p := range f.WikiPages(t) {
		if p == name {
			return f.run(t, "", "wiki", "export", name, "-R", f.Repo), true
		}
	}
	return "", false
}

// WikiPages are the names of the repository's wiki pages.
func (f *Fossil) WikiPages(t testing.TB) []string {
	t.Helper()
	return lines(f.run(t, "", "wiki", "list", "-R", f.Repo))
}

// FossilTicket is a ticket's fields as the repository keeps them.
type FossilTicket struct {
	UUID, Title, Type, Severity, Status, Resolution string
	Comments                                        []string // each change's remark, in order
}

// Tickets are the repository's tickets, with their remarks.
func (f *Fossil) Tickets(t testing.TB) []FossilTicket {
	t.Helper()
	var out []FossilTicket
	for _, r := range f.Query(t, `SELECT tkt_id, tkt_uuid, title, type, severity, status, resolution FROM ticket ORDER BY tkt_id`) {
		tk := FossilTicket{UUID: r["tkt_uuid"], Title: r["title"], Type: r["type"], Severity: r["severity"], Status: r["status"], Resolution: r["resolution"]}
		for _, c := range f.Query(t, `SELECT icomment FROM ticketchng WHERE tkt_id = `+r["tkt_id"]+` AND icomment IS NOT NULL AND icomment != '' ORDER BY tkt_mtime`) {
			tk.Comments = append(tk.Comments, c["icomment"])
		}
		out = append(out, tk)
	}
	return out
}

// Ticket is the one ticket with this title; ok is false when there is none or several.
func (f *Fossil) Ticket(t testing.TB, title string) (tk FossilTicket, ok bool) {
	t.Helper()
	n := 0
	for _, x := range f.Tickets(t) {
		if x.Title == title {
			tk, n = x, n+1
		}
	}
	return tk, n == 1
}

// FossilTechnote is a technote: its id, its timeline comment and its text.
type FossilTechnote struct{ ID, Comment, Text string }

// Technotes are the repository's technotes.
func (f *Fossil) Technotes(t testing.TB) []FossilTechnote {
	t.Helper()
	var out []FossilTechnote
	for _, r := range f.Query(t, `SELECT substr(tag.tagname, 7) AS id, event.comment AS comment FROM event JOIN tag USING (tagid) WHERE event.type = 'e' AND tag.tagname LIKE 'event-%' ORDER BY event.mtime`) {
		text := f.run(t, "", "wiki", "export", "--technote", r["id"], "-R", f.Repo)
		out = append(out, FossilTechnote{ID: r["id"], Comment: r["comment"], Text: text})
	}
	return out
}

// Users are the repository's users: login → capability letters.
func (f *Fossil) Users(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, r := range f.Query(t, `SELECT login, cap FROM user`) {
		out[r["login"]] = r["cap"]
	}
	return out
}

// PasswordIs says whether the user's saved password is pw: Fossil keeps the SHA1 of
// "project-code/login/password".
func (f *Fossil) PasswordIs(t testing.TB, login, pw string) bool {
	t.Helper()
	code := f.Query(t, `SELECT value FROM config WHERE name = 'project-code'`)
	saved := f.Query(t, `SELECT pw FROM user WHERE login = '`+strings.ReplaceAll(login, "'", "''")+`'`)
	if len(code) != 1 || len(saved) != 1 {
		return false
	}
	sum := sha1.Sum([]byte(code[0]["value"] + "/" + login + "/" + pw))
	return strings.EqualFold(saved[0]["pw"], hex.EncodeToString(sum[:]))
}

// FossilPost is a forum post: its title (a thread's first post has one), its author, its
// text, and whether it starts a thread.
type FossilPost struct {
	Title, User, Text string
	Thread            bool
}

// ForumPosts are the repository's forum posts, read from their artifacts.
func (f *Fossil) ForumPosts(t testing.TB) []FossilPost {
	t.Helper()
	if len(f.Query(t, `SELECT name FROM sqlite_master WHERE name = 'forumpost'`)) == 0 {
		return nil // the table is made with the first post
	}
	var out []FossilPost
	for _, r := range f.Query(t, `SELECT blob.uuid AS uuid, forumpost.fpid = forumpost.froot AS root FROM forumpost JOIN blob ON blob.rid = forumpost.fpid ORDER BY fmtime`) {
		p := parseForumArtifact(f.run(t, "", "artifact", r["uuid"], "-R", f.Repo))
		p.Thread = r["root"] == "1"
		out = append(out, p)
	}
	return out
}

// parseForumArtifact reads a forum post's artifact: its H (title), U (user) and W (text)
// cards.
func parseForumArtifact(a string) FossilPost {
	var p FossilPost
	for a != "" {
		line, rest, _ := strings.Cut(a, "\n")
		a = rest
		card, arg, _ := strings.Cut(line, " ")
		switch card {
		case "H":
			p.Title = unescapeCard(arg)
		case "U":
			p.User = unescapeCard(arg)
		case "W":
			var n int
			fmt.Sscan(arg, &n)
			if n <= len(a) {
				p.Text = a[:n]
			}
			a = ""
		}
	}
	return p
}

// unescapeCard undoes a card's escapes: \s a space, \n a new line, \\ a backslash.
func unescapeCard(s string) string {
	return strings.NewReplacer(`\s`, " ", `\n`, "\n", `\\`, `\`).Replace(s)
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
