package testenv

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// IkiWiki is a private ikiwiki — Debian's ikiwiki: a wiki compiler that renders Markdown
// source files into static HTML and edits them through a CGI program (ikiwiki.cgi) — built
// from a setup file in a temporary folder and served on a free loopback port by a Go HTTP
// server: the rendered pages as static files, the compiled CGI wrapper through Go's
// net/http/cgi. One user signs in through its sign-in form (passwordauth). What a run did
// is read back from the wiki's own source files (srcdir) and, where useful, its rendered
// pages (destdir).
type IkiWiki struct {
	URL      string // the wiki's root, e.g. http://127.0.0.1:PORT
	CGI      string // the CGI program's address: URL + "/ikiwiki.cgi"
	User     string // the registered user
	Password string
	Src      string // the source folder: page.mdwn files, comments under page/
	Dest     string // the rendered wiki
}

// IkiWikiPassword is the user's password in every instance: one grant on the worker
// serves each fresh instance of a test.
const (
	IkiWikiUser     = "editor"
	IkiWikiPassword = "iki-editor-pass-31"
)

// IkiWikiSeed is the source every instance starts from: page name → its .mdwn text. The
// front page links each page; "news" lists its posts and shows the box that creates one.
var IkiWikiSeed = map[string]string{
	"index":         "Welcome to the team wiki.\n\n* [[Meeting Notes|meeting_notes]]\n* [[Team Lunch|team_lunch]]\n* [[Old Draft|old_draft]]\n* [[News|news]]\n",
	"meeting_notes": "Agenda: budget and hiring.\n",
	"team_lunch":    "Lunch is on Fridays at noon.\n",
	"old_draft":     "This draft is out of date.\n",
	"news":          "Team news.\n\n[[!inline pages=\"news/* and !*/Discussion\" postform=yes rootpage=\"news\" postformtext=\"Add a new post titled:\" show=10]]\n",
}

const ikiwikiSetup = `# IkiWiki::Setup::Yaml - YAML formatted setup file
wikiname: Team Wiki
adminemail: ''
adminuser: []
srcdir: %[1]s/src
destdir: %[1]s/dest
url: %[2]s
cgiurl: %[2]s/ikiwiki.cgi
cgi_wrapper: %[1]s/dest/ikiwiki.cgi
cgi_wrappermode: '0755'
rcs: ''
add_plugins: [passwordauth, comments, rename, remove]
disable_plugins: [openid, emailauth]
comments_pagespec: '* and !news'
timeformat: '%%Y-%%m-%%d %%H:%%M'
`

// ikiwikiAddUser registers a user as passwordauth's registration form does (its user
// database, the password saved by passwordauth itself).
const ikiwikiAddUser = `use IkiWiki; use IkiWiki::Setup; use IkiWiki::UserInfo;
%config = IkiWiki::defaultconfig(); IkiWiki::Setup::load($ARGV[0]);
IkiWiki::loadplugins(); IkiWiki::checkconfig();
IkiWiki::userinfo_setall($ARGV[1], {email => "", regdate => time}) or die "userinfo_setall failed\n";
IkiWiki::Plugin::passwordauth::setpassword($ARGV[1], $ARGV[2]);`

// IkiWikiInstalled says whether ikiwiki and the C compiler it builds its CGI wrapper with
// are there.
func IkiWikiInstalled() bool {
	_, err1 := exec.LookPath("ikiwiki")
	_, err2 := exec.LookPath("cc")
	return err1 == nil && err2 == nil
}

// StartIkiWiki writes the seed pages and a setup file into a temporary folder (its own
// HOME, so nothing of the machine's is touched), builds the wiki and its CGI wrapper with
// `ikiwiki --setup`, registers the user, and serves the wiki until the test ends. It skips
// the test when ikiwiki is missing.
func StartIkiWiki(t testing.TB) *IkiWiki {
	t.Helper()
	if !IkiWikiInstalled() {
		t.Skip("ikiwiki is not installed: run `deploy/setup.sh heldout` (it installs Debian's ikiwiki and a C compiler)")
	}
	root := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("ikiwiki: listen: %v", err)
	}
	w := &IkiWiki{URL: "http://" + l.Addr().String(), User: IkiWikiUser, Password: IkiWikiPassword,
		Src: filepath.Join(root, "src"), Dest: filepath.Join(root, "dest")}
	w.CGI = w.URL + "/ikiwiki.cgi"
	for _, d := range []string{w.Src, w.Dest, filepath.Join(root, "home")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range IkiWikiSeed {
		if err := os.WriteFile(filepath.Join(w.Src, name+".mdwn"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setup := filepath.Join(root, "wiki.setup")
	if err := os.WriteFile(setup, []byte(fmt.Sprintf(ikiwikiSetup, root, w.URL)), 0o644); err != nil {
		t.Fatal(err)
	}
	// The wrapper keeps the HOME it was built with: the temporary one.
	env := append(os.Environ(), "HOME="+filepath.Join(root, "home"), "TZ=UTC", "LANG=C.UTF-8")
	ikiwikiRun(t, env, "ikiwiki", "--setup", setup)
	ikiwikiRun(t, env, "perl", "-e", ikiwikiAddUser, setup, w.User, w.Password)
	mux := http.NewServeMux()
	mux.Handle("/ikiwiki.cgi", &cgi.Handler{Path: filepath.Join(w.Dest, "ikiwiki.cgi"), Root: "/ikiwiki.cgi", Dir: w.Dest,
		Env: []string{"TZ=UTC", "LANG=C.UTF-8"}})
	mux.Handle("/", http.FileServer(http.Dir(w.Dest)))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(l)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	return w
}

func ikiwikiRun(t testing.TB, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ikiwiki: %s: %v\n%s", name, err, out)
	}
}

// Page is a page's saved source text, and whether the page exists (name as ikiwiki keeps
// it: lower case, spaces as underscores, e.g. "meeting_notes" or "news/launch_day").
func (w *IkiWiki) Page(name string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(w.Src, filepath.FromSlash(name)+".mdwn"))
	return string(b), err == nil
}

// Pages are the wiki's source pages (the .mdwn files under srcdir), sorted.
func (w *IkiWiki) Pages() []string {
	var out []string
	filepath.WalkDir(w.Src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".ikiwiki" {
			return filepath.SkipDir
		}
		if rel, _ := filepath.Rel(w.Src, p); strings.HasSuffix(rel, ".mdwn") {
			out = append(out, strings.TrimSuffix(filepath.ToSlash(rel), ".mdwn"))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// Rendered says whether destdir holds the page rendered (name/index.html, or index.html
// for the front page) and its HTML.
func (w *IkiWiki) Rendered(name string) (string, bool) {
	p := filepath.Join(w.Dest, filepath.FromSlash(name), "index.html")
	if name == "index" {
		p = filepath.Join(w.Dest, "index.html")
	}
	b, err := os.ReadFile(p)
	return string(b), err == nil
}

// IkiWikiComment is one comment as the comments plugin saved it (page/comment_N_*._comment).
type IkiWikiComment struct {
	File, Username, Subject, Content string
}

// Comments are a page's saved comments, in file order.
func (w *IkiWiki) Comments(page string) []IkiWikiComment {
	files, _ := filepath.Glob(filepath.Join(w.Src, filepath.FromSlash(page), "*._comment"))
	slices.Sort(files)
	var out []IkiWikiComment
	for _, f := range files {
		b, _ := os.ReadFile(f)
		out = append(out, IkiWikiComment{File: filepath.Base(f), Username: directiveParam(string(b), "username"),
			Subject: directiveParam(string(b), "subject"), Content: directiveParam(string(b), "content")})
	}
	return out
}

// PendingComments are comments saved for moderation (._comment_pending files) anywhere.
func (w *IkiWiki) PendingComments() []string {
	var out []string
	filepath.WalkDir(w.Src, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, "._comment_pending") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// directiveParam reads one parameter of an ikiwiki directive: name="v" or name="""v""".
func directiveParam(s, name string) string {
	for _, q := range []string{`"""`, `"`} {
		if _, rest, ok := strings.Cut(s, name+"="+q); ok {
			v, _, _ := strings.Cut(rest, q)
			return v
		}
	}
	return ""
}
