package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// WordPress is a private WordPress site — Debian's wordpress: a blog and CMS in PHP —
// copied into a temporary folder with a wp-config.php of its own, kept in a private
// MariaDB server (WordPressDB) and served by PHP's built-in server on a free loopback
// port. Its administrator signs in at /wp-login.php. What a run did is read back from the
// site's own database with the mariadb CLI.
type WordPress struct {
	URL      string // the site's root, e.g. http://127.0.0.1:PORT; the dashboard is URL/wp-admin/
	User     string // the administrator
	Password string
	Dir      string // the site's copy of the code, its wp-config.php and uploads
	DB       *WordPressDB
}

// WordPressPassword is the administrator's password in every instance: one grant on the
// worker serves each fresh instance of a test.
const WordPressPassword = "wp-admin-pass-7"

// The seed every instance starts from besides what WordPress installs ("Hello world!"
// with its one approved comment, "Sample Page", the "Uncategorized" category): two more
// published posts and a comment waiting for approval.
const (
	WordPressSiteTitle    = "Team Blog"
	WordPressTagline      = "News from the team"
	WordPressPicnicPost   = "Summer picnic"
	WordPressPicnicText   = "Bring a salad and a blanket."
	WordPressOldPost      = "Old announcement"
	WordPressOldText      = "The office is closed on Friday."
	WordPressCommenter    = "Dana"
	WordPressPendingText  = "Can I bring my dog to the picnic?"
	WordPressAdminEmail   = "admin@example.com"
	wordpressDir          = "/usr/share/wordpress"
	wordpressDefaultTheme = "twentytwentythree"
)

// WordPressInstalled says whether Debian's WordPress (with its default theme), the
// MariaDB server and client, and PHP with its MySQL driver are here (deploy/setup.sh
// heldout installs them).
func WordPressInstalled() bool {
	if !exists(filepath.Join(wordpressDir, "wp-admin", "install.php")) || !exists(filepath.Join(wordpressDir, "wp-content", "themes", wordpressDefaultTheme)) {
		return false
	}
	for _, bin := range []string{"php", "mariadbd", "mariadb", "mariadb-install-db"} {
		if _, err := exec.LookPath(bin); err != nil {
			return false
		}
	}
	return exec.Command("php", "-r", `exit(extension_loaded("mysqli") ? 0 : 1);`).Run() == nil
}

// StartWordPress starts a private MariaDB server, copies WordPress's code into a
// temporary folder with its own wp-config.php (the package's reads /etc/wordpress, which
// is left alone), installs the site with WordPress's own wp_install (what install.php
// runs), seeds it and serves it with php -S until the test ends. It skips the test when
// WordPress, MariaDB or PHP's MySQL driver is missing.
func StartWordPress(t testing.TB) *WordPress {
	t.Helper()
	if !WordPressInstalled() {
		t.Skip("WordPress, MariaDB or PHP's MySQL driver is not installed: run `deploy/setup.sh heldout` (it installs Debian's wordpress, mariadb-server, mariadb-client and php-mysql)")
	}
	db := StartWordPressDB(t)
	root := t.TempDir()
	w := &WordPress{User: "admin", Password: WordPressPassword, Dir: filepath.Join(root, "site"), DB: db}
	if out, err := exec.Command("cp", "-a", wordpressDir, w.Dir).CombinedOutput(); err != nil {
		t.Fatalf("copy wordpress: %v\n%s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(w.Dir, "wp-content", "uploads"), 0o755); err != nil {
		t.Fatal(err)
	}
	port := FreePort(t)
	w.URL = "http://" + Addr(port)
	write(t, filepath.Join(w.Dir, "wp-config.php"), wordpressConfig(db.Socket, w.URL))
	script := filepath.Join(root, "seed.php")
	write(t, script, wordpressSeedScript)
	seed := exec.Command("php", script, w.Dir, w.URL, WordPressSiteTitle, w.User, WordPressAdminEmail, w.Password)
	seed.Dir = root
	if out, err := seed.CombinedOutput(); err != nil || !strings.Contains(string(out), "seeded") {
		t.Fatalf("install and seed wordpress: %v\n%s", err, out)
	}
	cmd := exec.Command("php", "-S", Addr(port), "-t", w.Dir)
	cmd.Dir = w.Dir
	// Several workers: the block editor sends its requests at once.
	cmd.Env = append(os.Environ(), "PHP_CLI_SERVER_WORKERS=4")
	p := start(t, "wordpress", cmd)
	waitHTTP(t, "wordpress", w.URL+"/wp-login.php", 30*time.Second, p)
	return w
}

// wordpressConfig is the site's wp-config.php: its database on the private server's
// socket, no cron (php -S would wait on the requests it sends itself), no requests to
// the internet (updates, news), fixed keys.
func wordpressConfig(socket, url string) string {
	return fmt.Sprintf(`<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:%s');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
define('WP_HOME', '%[2]s');
define('WP_SITEURL', '%[2]s');
define('DISABLE_WP_CRON', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_AUTO_UPDATE_CORE', false);
define('AUTH_KEY', 'test-auth-key');
define('SECURE_AUTH_KEY', 'test-secure-auth-key');
define('LOGGED_IN_KEY', 'test-logged-in-key');
define('NONCE_KEY', 'test-nonce-key');
define('AUTH_SALT', 'test-auth-salt');
define('SECURE_AUTH_SALT', 'test-secure-auth-salt');
define('LOGGED_IN_SALT', 'test-logged-in-salt');
define('NONCE_SALT', 'test-nonce-salt');
$table_prefix = 'wp_';
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`, socket, url)
}

// wordpressSeedScript installs the site (wp_install, as install.php does) and seeds it:
// argv is the site's folder, URL, title, administrator, email and password. The block
// editor's welcome guide is marked as seen, as for an administrator who has written posts
// before.
const wordpressSeedScript = `<?php
[, $dir, $url, $title, $user, $email, $pass] = $argv;
define('WP_INSTALLING', true);
$_SERVER['HTTP_HOST'] = parse_url($url, PHP_URL_HOST) . ':' . parse_url($url, PHP_URL_PORT);
require $dir . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
$r = wp_install($title, $user, $email, false, '', $pass);
if (is_wp_error($r)) { fwrite(STDERR, $r->get_error_message()); exit(1); }
update_option('blogdescription', 'News from the team');
$picnic = wp_insert_post(['post_title' => 'Summer picnic', 'post_content' => 'Bring a salad and a blanket.', 'post_status' => 'publish', 'post_author' => 1], true);
$old = wp_insert_post(['post_title' => 'Old announcement', 'post_content' => 'The office is closed on Friday.', 'post_status' => 'publish', 'post_author' => 1], true);
if (is_wp_error($picnic) || is_wp_error($old)) { fwrite(STDERR, 'posts not seeded'); exit(1); }
$c = wp_insert_comment(['comment_post_ID' => $picnic, 'comment_author' => 'Dana', 'comment_author_email' => 'dana@example.com',
	'comment_content' => 'Can I bring my dog to the picnic?', 'comment_approved' => 0]);
if (!$c) { fwrite(STDERR, 'comment not seeded'); exit(1); }
update_user_meta(1, $GLOBALS['wpdb']->get_blog_prefix() . 'persisted_preferences',
	['core/edit-post' => ['welcomeGuide' => false], '_modified' => gmdate('c')]);
echo "seeded\n";
`

// Posts are the site's posts and pages (not revisions nor auto-drafts), by ID.
func (w *WordPress) Posts(t testing.TB) []WordPressPost {
	t.Helper()
	var out []WordPressPost
	for _, r := range w.DB.Query(t, `SELECT ID, post_type, post_status, post_title, post_content FROM wp_posts WHERE post_type IN ('post', 'page') AND post_status != 'auto-draft' ORDER BY ID`) {
		out = append(out, WordPressPost{ID: r["ID"], Type: r["post_type"], Status: r["post_status"], Title: r["post_title"], Content: r["post_content"]})
	}
	return out
}

// WordPressPost is a post or page as the site keeps it.
type WordPressPost struct{ ID, Type, Status, Title, Content string }

// Text is the post's content as a reader sees it: the block editor's comments and the
// HTML tags left out, spaces joined.
func (p WordPressPost) Text() string {
	return strings.Join(strings.Fields(htmlTagOrComment.ReplaceAllString(p.Content, " ")), " ")
}

// Option is one of the site's options ("" when it has none).
func (w *WordPress) Option(t testing.TB, name string) string {
	t.Helper()
	rows := w.DB.Query(t, `SELECT option_value FROM wp_options WHERE option_name = `+sqlQuote(name))
	if len(rows) != 1 {
		return ""
	}
	return rows[0]["option_value"]
}

// Categories are the names of the site's categories, by term ID.
func (w *WordPress) Categories(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, r := range w.DB.Query(t, `SELECT t.name FROM wp_terms t JOIN wp_term_taxonomy tt USING (term_id) WHERE tt.taxonomy = 'category' ORDER BY t.term_id`) {
		out = append(out, r["name"])
	}
	return out
}

// WordPressComment is a comment: its post's title, author, text and approval ("1"
// approved, "0" waiting, "trash", "spam").
type WordPressComment struct{ Post, Author, Content, Approved string }

// Comments are the site's comments, by ID.
func (w *WordPress) Comments(t testing.TB) []WordPressComment {
	t.Helper()
	var out []WordPressComment
	for _, r := range w.DB.Query(t, `SELECT p.post_title, c.comment_author, c.comment_content, c.comment_approved FROM wp_comments c LEFT JOIN wp_posts p ON p.ID = c.comment_post_ID ORDER BY c.comment_ID`) {
		out = append(out, WordPressComment{Post: r["post_title"], Author: r["comment_author"], Content: r["comment_content"], Approved: r["comment_approved"]})
	}
	return out
}

// WordPressUser is a user: login, email and capabilities (the serialized roles).
type WordPressUser struct{ Login, Email, Caps string }

// Users are the site's users, by ID.
func (w *WordPress) Users(t testing.TB) []WordPressUser {
	t.Helper()
	var out []WordPressUser
	for _, r := range w.DB.Query(t, `SELECT u.user_login, u.user_email, m.meta_value FROM wp_users u LEFT JOIN wp_usermeta m ON m.user_id = u.ID AND m.meta_key = 'wp_capabilities' ORDER BY u.ID`) {
		out = append(out, WordPressUser{Login: r["user_login"], Email: r["user_email"], Caps: r["meta_value"]})
	}
	return out
}
