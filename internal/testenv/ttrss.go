package testenv

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TTRSS is a private Tiny Tiny RSS — Debian's tt-rss: a web feed reader in PHP — copied
// into a temporary folder with a config.php of its own, kept in a private MariaDB server
// (a WordPressDB, with a "ttrss" database of its own) and served by PHP's built-in server
// on a free loopback port. Its one user, admin, signs in on the login page tt-rss shows at
// its root. The feeds it reads are served by the test itself (TTRSSFeedServer). What a run
// did is read back from the reader's own database with the mariadb CLI.
type TTRSS struct {
	URL        string // the reader's root, e.g. http://127.0.0.1:PORT; its login page until one signs in
	User       string // admin
	Password   string
	Dir        string // the reader's copy of the code and its config.php
	DB         *WordPressDB
	FeedServer *TTRSSFeedServer
	ini        string // the php.ini every PHP process of this instance runs with
}

// TTRSSPassword is admin's password in every instance: one grant on the worker serves each
// fresh instance of a test.
const TTRSSPassword = "ttrss-admin-pass-4"

// TTRSSFeedHost is the host in every feed's address. tt-rss refuses to fetch from a
// loopback address or a port other than 80 and 443, so the feeds have addresses on a
// reserved domain no one answers for, and tt-rss fetches them through its own proxy
// setting (_HTTP_PROXY), which points at the test's feed server on a loopback port.
const TTRSSFeedHost = "news.example"

// The seed every instance starts from: two categories, four subscribed feeds (one in each
// category, two uncategorized), each updated once by tt-rss's own update script so that its
// articles are in, all unread; a label no article has yet. Two more feeds are served but not
// subscribed.
const (
	TTRSSWork             = "Work"
	TTRSSHobbies          = "Hobbies"
	TTRSSTeamNews         = "Team News"
	TTRSSTeamNewsURL      = "http://" + TTRSSFeedHost + "/team.xml"
	TTRSSGardenClub       = "Garden Club"
	TTRSSGardenClubURL    = "http://" + TTRSSFeedHost + "/garden.xml"
	TTRSSOldBlog          = "Old Blog"
	TTRSSOldBlogURL       = "http://" + TTRSSFeedHost + "/old-blog.xml"
	TTRSSBookClub         = "Book Club"
	TTRSSBookClubURL      = "http://" + TTRSSFeedHost + "/books.xml"
	TTRSSCityEvents       = "City Events"
	TTRSSCityEventsURL    = "http://" + TTRSSFeedHost + "/events.xml"
	TTRSSEventsArchive    = "City Events Archive"
	TTRSSEventsArchiveURL = "http://" + TTRSSFeedHost + "/events-archive.xml"
	TTRSSLabel            = "Important"
	ttrssDir              = "/usr/share/tt-rss"
	ttrssSalt             = "held-out-salt"
)

// ttrssFeedSeed is one feed the test serves: its address, title, the category it is
// subscribed in ("" uncategorized) or whether it is not subscribed at all, and its
// articles' titles, newest first.
type ttrssFeedSeed struct {
	URL, Title, Category string
	Subscribed           bool
	Articles             []string
}

// ttrssSeed is what the test's feed server serves and what each instance subscribes to.
var ttrssSeed = []ttrssFeedSeed{
	{URL: TTRSSTeamNewsURL, Title: TTRSSTeamNews, Category: TTRSSWork, Subscribed: true,
		Articles: []string{"Quarterly results", "New coffee machine", "Office move next month"}},
	{URL: TTRSSGardenClubURL, Title: TTRSSGardenClub, Subscribed: true,
		Articles: []string{"Spring seed swap", "Planting tomatoes"}},
	{URL: TTRSSOldBlogURL, Title: TTRSSOldBlog, Subscribed: true,
		Articles: []string{"Goodbye for now"}},
	{URL: TTRSSBookClubURL, Title: TTRSSBookClub, Category: TTRSSHobbies, Subscribed: true,
		Articles: []string{"June reading list"}},
	{URL: TTRSSCityEventsURL, Title: TTRSSCityEvents,
		Articles: []string{"Street food festival", "Open-air cinema"}},
	{URL: TTRSSEventsArchiveURL, Title: TTRSSEventsArchive,
		Articles: []string{"Last year's lantern parade"}},
}

// TTRSSInstalled says whether Debian's tt-rss, the MariaDB server and client, and PHP with
// the extensions tt-rss needs (its MySQL drivers, curl, through which the proxy setting
// works, intl, mbstring and DOM) are here (deploy/setup.sh heldout installs them).
func TTRSSInstalled() bool {
	if !exists(filepath.Join(ttrssDir, "www", "index.php")) || !exists(filepath.Join(ttrssDir, "schema", "ttrss_schema_mysql.sql")) {
		return false
	}
	for _, bin := range []string{"php", "mariadbd", "mariadb", "mariadb-install-db"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `foreach (["mysqli", "pdo_mysql", "curl", "intl", "mbstring", "dom"] as $e) if (!extension_loaded($e)) exit(1);`).Run() == nil
}

// StartTTRSS starts a private MariaDB server and the test's feed server, copies tt-rss's
// code into a temporary folder with its own config.php (the package's reads /etc/tt-rss,
// which is left alone), loads tt-rss's schema, sets admin's password, serves the reader
// with php -S until the test ends and seeds it as admin does through its pages (ttrssSeed),
// then runs tt-rss's update script once. It skips the test when tt-rss, MariaDB or a PHP
// extension it needs is missing.
func StartTTRSS(t testing.TB) *TTRSS {
	t.Helper()
	if !TTRSSInstalled() {
		t.Skip("tt-rss, MariaDB or a PHP extension it needs is not installed: run `deploy/setup.sh heldout` (it installs Debian's tt-rss, mariadb-server, mariadb-client, php-mysql and php-curl)")
	}
	db := StartWordPressDB(t)
	root := t.TempDir()
	tt := &TTRSS{User: "admin", Password: TTRSSPassword, Dir: filepath.Join(root, "site"), DB: db,
		FeedServer: startTTRSSFeedServer(t), ini: filepath.Join(root, "php.ini")}
	copyTTRSS(t, tt.Dir)
	for _, d := range []string{"feed-icons", "../cache/images", "../cache/upload", "../cache/export", "../lock"} {
		if err := os.MkdirAll(filepath.Join(tt.Dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	port := FreePort(t)
	tt.URL = "http://" + Addr(port)
	php, err := exec.LookPath("php")
	if err != nil {
		t.Fatal(err)
	}
	write(t, tt.ini, ttrssPHPIni(db.Socket, filepath.Join(root, "php-errors.log")))
	write(t, filepath.Join(tt.Dir, "config.php"), ttrssConfig(tt.URL, php+" -c "+ttrssShellQuote(tt.ini), root, tt.FeedServer.Addr))
	tt.loadSchema(t)
	cmd := exec.Command(php, "-c", tt.ini, "-S", Addr(port))
	cmd.Dir = tt.Dir
	// Several workers: the reader's page sends its requests (the feed list, the counters,
	// the headlines) at once.
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=4")
	p := start(t, "tt-rss", cmd)
	waitHTTP(t, "tt-rss", tt.URL+"/", 30*time.Second, p)
	tt.seed(t)
	return tt
}

// copyTTRSS copies the package's web folder to dir. Its symbolic links into other Debian
// packages (Dojo, the icon font, PHP libraries) are relative, so each is made absolute;
// the links to the package's configuration and icon folder are removed (the instance has
// its own).
func copyTTRSS(t testing.TB, dir string) {
	t.Helper()
	src := filepath.Join(ttrssDir, "www")
	if out, err := exec.Command("cp", "-a", src, dir).CombinedOutput(); err != nil {
		t.Fatalf("copy tt-rss: %v\n%s", err, out)
	}
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		copied := filepath.Join(dir, rel)
		if err := os.Remove(copied); err != nil {
			return err
		}
		if rel == "config.php" || rel == "feed-icons" {
			return nil
		}
		target, err := os.Readlink(path)
		if err != nil {
			return err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		return os.Symlink(target, copied)
	})
	if err != nil {
		t.Fatalf("copy tt-rss's links: %v", err)
	}
}

// ttrssPHPIni is the php.ini of the instance's PHP processes (the server, the update script
// and the one it starts per feed): the database's socket for both MySQL drivers; tt-rss's
// startup check refuses to run as root, so posix_getuid, through which it asks, is
// disabled (the tests may run as root); the warnings PHP 8 gives this 2021 code go to a
// file rather than into the answers.
func ttrssPHPIni(socket, errorLog string) string {
	return fmt.Sprintf(`display_errors = Off
log_errors = On
error_log = "%s"
disable_functions = posix_getuid
pdo_mysql.default_socket = "%s"
mysqli.default_socket = "%[2]s"
`, errorLog, socket)
}

// ttrssConfig is the instance's config.php (tt-rss's configuration version 26, as
// Debian's): the database on the private server, its own URL, cache, lock and icon folders,
// its update script run with the instance's php.ini, no update checks, no registration,
// PHP's log rather than tt-rss's event log, and the feed server as the proxy for every
// fetch.
func ttrssConfig(url, phpExecutable, root, proxy string) string {
	return fmt.Sprintf(`<?php
	define('DB_TYPE', 'mysql');
	define('DB_HOST', 'localhost');
	define('DB_USER', 'root');
	define('DB_NAME', 'ttrss');
	define('DB_PASS', '');
	define('DB_PORT', '');
	define('MYSQL_CHARSET', 'UTF8');
	define('SELF_URL_PATH', %s);
	define('SINGLE_USER_MODE', false);
	define('SIMPLE_UPDATE_MODE', false);
	define('PHP_EXECUTABLE', %s);
	define('LOCK_DIRECTORY', %s);
	define('CACHE_DIR', %s);
	define('ICONS_DIR', 'feed-icons');
	define('ICONS_URL', 'feed-icons');
	define('AUTH_AUTO_CREATE', true);
	define('AUTH_AUTO_LOGIN', true);
	define('FORCE_ARTICLE_PURGE', 0);
	define('ENABLE_REGISTRATION', false);
	define('REG_NOTIFY_ADDRESS', 'admin@example.com');
	define('REG_MAX_USERS', 10);
	define('SESSION_COOKIE_LIFETIME', 86400);
	define('SMTP_FROM_NAME', 'Tiny Tiny RSS');
	define('SMTP_FROM_ADDRESS', 'noreply@example.com');
	define('DIGEST_SUBJECT', '[tt-rss] New headlines for last 24 hours');
	define('CHECK_FOR_UPDATES', false);
	define('ENABLE_GZIP_OUTPUT', false);
	define('PLUGINS', 'auth_internal, note');
	define('LOG_DESTINATION', '');
	define('CONFIG_VERSION', 26);
	define('_HTTP_PROXY', %s);
`, ttrssPHPQuote(url+"/"), ttrssPHPQuote(phpExecutable), ttrssPHPQuote(filepath.Join(root, "lock")),
		ttrssPHPQuote(filepath.Join(root, "cache")), ttrssPHPQuote(proxy))
}

// seed does what admin does through the reader's pages (creates the categories and the
// label, subscribes to the feeds), then runs tt-rss's update script once, which fetches
// every subscribed feed's articles, and checks that they are in.
func (tt *TTRSS) seed(t testing.TB) {
	t.Helper()
	b := tt.SignIn(t)
	cats := map[string]string{"": "0"}
	for _, c := range []string{TTRSSWork, TTRSSHobbies} {
		b.Backend(t, map[string][]string{"op": {"pref-feeds"}, "method": {"addCat"}, "cat": {c}})
		cats[c] = tt.CategoryID(t, c)
	}
	for _, f := range ttrssSeed {
		if !f.Subscribed {
			continue
		}
		reply := b.Backend(t, map[string][]string{"op": {"rpc"}, "method": {"addfeed"}, "feed": {f.URL}, "cat": {cats[f.Category]}})
		if !strings.Contains(reply, `"code":1`) {
			t.Fatalf("tt-rss: subscribing to %s answered %s", f.URL, reply)
		}
	}
	b.Backend(t, map[string][]string{"op": {"pref-labels"}, "method": {"add"}, "caption": {TTRSSLabel}})
	update := exec.Command("php", "-c", tt.ini, "update.php", "--feeds")
	update.Dir = tt.Dir
	out, err := update.CombinedOutput()
	if err != nil {
		t.Fatalf("tt-rss: update.php --feeds: %v\n%s", err, out)
	}
	got := map[string]int{}
	for _, a := range tt.Articles(t) {
		got[a.Feed]++
	}
	for _, f := range ttrssSeed {
		if f.Subscribed && got[f.Title] != len(f.Articles) {
			t.Fatalf("tt-rss: after update.php --feeds, %s has %d articles; want %d\n%s", f.Title, got[f.Title], len(f.Articles), out)
		}
	}
}

// TTRSSFeedServer is the test's feed server: an HTTP proxy on a loopback port that answers
// each request for a seeded feed's address with that feed as an Atom document, its articles
// an hour apart and the newest an hour old.
type TTRSSFeedServer struct {
	Addr string // host:port, tt-rss's _HTTP_PROXY
}

func startTTRSSFeedServer(t testing.TB) *TTRSSFeedServer {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Minute)
	docs := map[string]string{}
	for _, f := range ttrssSeed {
		docs[strings.TrimPrefix(f.URL, "http://"+TTRSSFeedHost)] = ttrssAtom(f, now)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("feed server: %v", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := docs[r.URL.Path]
		if !ok || (r.URL.Host != "" && r.URL.Host != TTRSSFeedHost) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
		fmt.Fprint(w, doc)
	})}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { srv.Close() })
	return &TTRSSFeedServer{Addr: l.Addr().String()}
}

// ttrssAtom is a feed as an Atom document.
func ttrssAtom(f ttrssFeedSeed, now time.Time) string {
	site := strings.TrimSuffix(f.URL, ".xml") + "/"
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>%s</title>
<link href="%s"/>
<id>%[2]s</id>
<updated>%s</updated>
`, ttrssXMLEscape(f.Title), site, now.Add(-time.Hour).Format(time.RFC3339))
	for i, a := range f.Articles {
		slug := strings.ToLower(strings.Join(strings.FieldsFunc(a, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') }), "-"))
		fmt.Fprintf(&b, `<entry><title>%s</title><link href="%s%s"/><id>%[2]s%[3]s</id><updated>%s</updated><summary>%[1]s.</summary></entry>
`, ttrssXMLEscape(a), site, slug, now.Add(-time.Duration(i+1)*time.Hour).Format(time.RFC3339))
	}
	b.WriteString("</feed>\n")
	return b.String()
}

var ttrssXMLEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

func ttrssXMLEscape(s string) string { return ttrssXMLEscaper.Replace(s) }

// ttrssPHPQuote is a single-quoted PHP string.
func ttrssPHPQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// ttrssShellQuote is a single-quoted shell word (tt-rss runs PHP_EXECUTABLE through the shell,
// and a test's temporary folder may have spaces in its name).
func ttrssShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// ttrssPasswordHash is admin's password as tt-rss's auth_internal keeps it (its "MODE2":
// SHA-256 of the salt and the password).
func ttrssPasswordHash(password string) string {
	sum := sha256.Sum256([]byte(ttrssSalt + password))
	return "MODE2:" + hex.EncodeToString(sum[:])
}
