package testenv

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// DokuWiki is a private copy of Debian's DokuWiki, served by PHP's built-in server, with
// an administrator of its own: a real application, written by nobody here.
type DokuWiki struct {
	URL      string // the wiki's root, e.g. http://127.0.0.1:PORT
	User     string
	Password string
	// Pages is the folder of the wiki's page files: "ns:page" is Pages/ns/page.txt.
	Pages string
}

// Page reads a page's saved source, "" when the page does not exist.
func (w *DokuWiki) Page(id string) string {
	b, _ := os.ReadFile(filepath.Join(w.Pages, strings.ReplaceAll(id, ":", string(filepath.Separator))+".txt"))
	return string(b)
}

// WritePage saves a page's source directly, as another editor would have.
func (w *DokuWiki) WritePage(t testing.TB, id, text string) {
	t.Helper()
	path := filepath.Join(w.Pages, strings.ReplaceAll(id, ":", string(filepath.Separator))+".txt")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dokuwikiDir is where Debian installs DokuWiki's code, and its configuration.
const (
	dokuwikiDir  = "/usr/share/dokuwiki"
	dokuwikiConf = "/etc/dokuwiki"
)

// StartDokuWiki copies DokuWiki's code and default configuration into a temporary folder,
// gives it a fresh data folder, an administrator and the usual rights (anyone reads,
// signed-in users edit), and serves it with php -S on a free port. It skips the test when
// DokuWiki or PHP is missing: `make setup-test` installs them.
func StartDokuWiki(t testing.TB) *DokuWiki {
	t.Helper()
	php, err := exec.LookPath("php")
	if err != nil || !exists(filepath.Join(dokuwikiDir, "doku.php")) {
		t.Skip("DokuWiki or PHP is not installed: run `make setup-test` (it installs Debian's dokuwiki and php-cli)")
	}
	root := t.TempDir()
	code, conf, data := filepath.Join(root, "www"), filepath.Join(root, "conf"), filepath.Join(root, "data")
	if out, err := exec.Command("cp", "-rL", dokuwikiDir, code).CombinedOutput(); err != nil {
		t.Fatalf("copy DokuWiki: %v\n%s", err, out)
	}
	if err := os.MkdirAll(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dokuwikiConf)
	if err != nil {
		t.Fatalf("read DokuWiki's configuration: %v", err)
	}
	for _, e := range entries {
		if e.Type()&fs.ModeSymlink != 0 || e.IsDir() || !(strings.HasSuffix(e.Name(), ".php") || strings.HasSuffix(e.Name(), ".conf") || strings.HasSuffix(e.Name(), ".css") || strings.HasSuffix(e.Name(), ".json")) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dokuwikiConf, e.Name()))
		if err != nil {
			continue // not readable by this user, and not needed
		}
		write(t, filepath.Join(conf, e.Name()), string(b))
	}
	for _, d := range []string{"pages", "attic", "meta", "media", "media_attic", "media_meta", "cache", "index", "locks", "tmp", "log"} {
		if err := os.MkdirAll(filepath.Join(data, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The code reads its configuration from the copy, not from the machine's.
	pre, err := os.ReadFile(filepath.Join(dokuwikiDir, "inc", "preload.php"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(code, "inc", "preload.php"), strings.ReplaceAll(string(pre), dokuwikiConf, conf))
	w := &DokuWiki{User: "admin", Password: "wiki-admin-pass", Pages: filepath.Join(data, "pages")}
	hash, err := exec.Command(php, "-r", `echo password_hash($argv[1], PASSWORD_BCRYPT);`, w.Password).Output()
	if err != nil {
		t.Fatalf("hash the password: %v", err)
	}
	write(t, filepath.Join(conf, "local.php"), fmt.Sprintf(`<?php
$conf['title'] = 'Test wiki';
$conf['savedir'] = %q;
$conf['useacl'] = 1;
$conf['superuser'] = '@admin';
$conf['userewrite'] = 0;
$conf['lang'] = 'en';
$conf['dnslookups'] = 0;
`, data))
	write(t, filepath.Join(conf, "users.auth.php"), fmt.Sprintf("%s:%s:Wiki Admin:admin@example.org:admin,user\n", w.User, hash))
	write(t, filepath.Join(conf, "acl.auth.php"), "*\t@ALL\t1\n*\t@user\t8\n")
	port := FreePort(t)
	w.URL = "http://" + Addr(port)
	cmd := exec.Command(php, "-S", Addr(port), "-t", code)
	cmd.Dir = code
	p := start(t, "dokuwiki", cmd)
	waitHTTP(t, "dokuwiki", w.URL+"/doku.php?id=start", 30*time.Second, p)
	return w
}

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }
