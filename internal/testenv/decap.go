package testenv

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// DecapVersion and DecapServerVersion are the npm packages deploy/setup.sh installs
// (DECAP_VERSION and DECAP_SERVER_VERSION there).
const (
	DecapVersion       = "3.16.3"
	DecapServerVersion = "3.11.3"
)

// Decap is a private Decap CMS — npm's decap-cms 3.16.3: a single-page admin app (React)
// that edits a static site's content, kept as files in a git repository, through forms
// built from its config.yml — with its local backend, npm's decap-server 3.11.3 in git
// mode, which writes and commits each change to a private repository. The admin page
// (admin/index.html, admin/config.yml and the CMS bundle with its chunks) is served by the
// test itself on a free loopback port; decap-server runs as the test's own process on
// another, its repository a seeded git repository in a temporary folder. Nothing is loaded
// from outside the machine. The local backend has no accounts: its Login button signs in
// at once. The judges read the repository's files (and git's status) back.
type Decap struct {
	URL      string // the admin page, e.g. http://127.0.0.1:PORT/admin/ (its Login button)
	Repo     string // the private git repository decap-server writes to
	APIURL   string // decap-server's API, e.g. http://127.0.0.1:PORT/api/v1
	proc     *process
	seed     DecapState
	siteRoot string // the served folder: admin/ with index.html and config.yml
}

// DecapDir is where deploy/setup.sh installed Decap CMS and decap-server (DECAP_DIR
// there).
func DecapDir() string {
	if dir := os.Getenv("DECAP_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(config.ToolsDir(), "decap-"+DecapVersion)
}

// decapBundle is the folder of the CMS bundle (decap-cms.js and the chunks it loads).
func decapBundle() string { return filepath.Join(DecapDir(), "node_modules", "decap-cms", "dist") }

// decapServer is decap-server's entry point.
func decapServer() string {
	return filepath.Join(DecapDir(), "node_modules", "decap-server", "dist", "index.js")
}

// DecapInstalled says whether Decap CMS, decap-server, Node.js and git are here
// (deploy/setup.sh heldout installs them).
func DecapInstalled() bool {
	_, errNode := exec.LookPath("node")
	_, errGit := exec.LookPath("git")
	return errNode == nil && errGit == nil && exists(filepath.Join(decapBundle(), "decap-cms.js")) && exists(decapServer())
}

// StartDecap makes a private repository seeded with DecapSeedFiles (one commit), runs
// decap-server on it in git mode until the test ends, serves the admin page on a free
// loopback port (stopped when the test ends), and waits until decap-server lists the
// seed's posts. The seed the judges compare with is what the repository then holds. It
// skips the test when Decap CMS is missing.
func StartDecap(t testing.TB) *Decap {
	t.Helper()
	if !DecapInstalled() {
		t.Skip("Decap CMS is not installed: run `deploy/setup.sh heldout` (it installs npm's decap-cms " + DecapVersion + " and decap-server " + DecapServerVersion + ")")
	}
	root := t.TempDir()
	apiPort := FreePort(t)
	w := &Decap{Repo: filepath.Join(root, "site"), APIURL: fmt.Sprintf("http://%s/api/v1", Addr(apiPort)), siteRoot: filepath.Join(root, "www")}
	decapSeedRepo(t, w.Repo)
	if err := os.MkdirAll(filepath.Join(w.siteRoot, "admin"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(w.siteRoot, "admin", "index.html"), decapIndex)
	write(t, filepath.Join(w.siteRoot, "admin", "config.yml"), strings.ReplaceAll(decapConfig, "{api}", w.APIURL))
	cmd := exec.Command("node", decapServer())
	cmd.Dir = root
	// Only what it needs: no .env in its folder, no git configuration but the repository's.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "MODE=git", "PORT=" + fmt.Sprint(apiPort),
		"BIND_HOST=127.0.0.1", "GIT_REPO_DIRECTORY=" + w.Repo, "LOG_LEVEL=info", "GIT_CONFIG_NOSYSTEM=1", "TZ=UTC", "LANG=C.UTF-8"}
	w.proc = start(t, "decap-server", cmd)
	w.URL = w.serveAdmin(t) + "/admin/"
	if why := Eventually(30*time.Second, func() string { return w.Browser().probe() }); why != "" {
		t.Fatalf("decap-server: %s:\n%s", why, w.proc.out.String())
	}
	w.seed = w.State(t)
	return w
}

// serveAdmin serves the admin page on a free loopback port until the test ends: the
// folder's admin/index.html and admin/config.yml, and the CMS bundle's files under
// /admin/ beside them; / leads to /admin/. It returns the server's root URL.
func (w *Decap) serveAdmin(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	own := http.FileServer(http.Dir(w.siteRoot))
	bundle := http.StripPrefix("/admin/", http.FileServer(http.Dir(decapBundle())))
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(rw http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case p == "/" || p == "/admin":
			http.Redirect(rw, r, "/admin/", http.StatusFound)
		case p == "/admin/" || p == "/admin/index.html":
			own.ServeHTTP(rw, r)
		case p == "/admin/config.yml":
			rw.Header().Set("Content-Type", "text/yaml; charset=utf-8")
			own.ServeHTTP(rw, r)
		case strings.HasPrefix(p, "/admin/"):
			bundle.ServeHTTP(rw, r)
		default:
			http.NotFound(rw, r)
		}
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + l.Addr().String()
}

// Output is what decap-server printed so far.
func (w *Decap) Output() string { return w.proc.out.String() }

// decapIndex is the admin page, as Decap CMS's install guide writes it, with the bundle
// served beside it rather than from a CDN.
const decapIndex = `<!doctype html>
<html>
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1.0" />
  <meta name="robots" content="noindex" />
  <title>Content Manager</title>
</head>
<body>
  <!-- Include the script that builds the page and powers Decap CMS -->
  <script src="decap-cms.js"></script>
</body>
</html>
`

// decapConfig is the admin's config.yml ({api} is decap-server's API): a gardening blog's
// posts and authors (folder collections) and its site settings (a file collection), with
// the local backend on.
const decapConfig = `backend:
  name: git-gateway
  branch: main
local_backend:
  url: {api}
media_folder: static/images
public_folder: /images
collections:
  - name: posts
    label: Posts
    label_singular: Post
    description: Articles of the Green Thumb Notes blog.
    folder: content/posts
    create: true
    slug: "{{slug}}"
    summary: "{{title}}"
    fields:
      - {label: Title, name: title, widget: string}
      - {label: Publish Date, name: date, widget: datetime, default: "{{now}}"}
      - label: Tags
        label_singular: Tag
        name: tags
        widget: list
        collapsed: false
        field: {label: Tag, name: tag, widget: string}
      - {label: Draft, name: draft, widget: boolean, default: false}
      - {label: Body, name: body, widget: markdown}
  - name: authors
    label: Authors
    label_singular: Author
    folder: content/authors
    extension: yml
    format: yml
    create: true
    identifier_field: name
    slug: "{{slug}}"
    fields:
      - {label: Name, name: name, widget: string}
      - {label: Email, name: email, widget: string}
      - {label: Bio, name: bio, widget: text}
  - name: settings
    label: Settings
    files:
      - label: Site Settings
        name: site
        file: data/settings.yml
        fields:
          - {label: Site Title, name: site_title, widget: string}
          - {label: Tagline, name: tagline, widget: string}
          - {label: Description, name: description, widget: text}
`
