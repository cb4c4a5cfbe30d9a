package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// loadSchema creates the reader's "ttrss" database on the private server, loads tt-rss's
// own MySQL schema into it (the one Debian's dbconfig would load: admin, the preference
// defaults) and sets admin's password.
func (tt *TTRSS) loadSchema(t testing.TB) {
	t.Helper()
	tt.DB.Exec(t, "CREATE DATABASE ttrss CHARACTER SET utf8mb4")
	schema, err := os.Open(filepath.Join(ttrssDir, "schema", "ttrss_schema_mysql.sql"))
	if err != nil {
		t.Fatal(err)
	}
	defer schema.Close()
	load := exec.Command("mariadb", "--no-defaults", "--socket="+tt.DB.Socket, "--user=root", "ttrss")
	load.Stdin = schema
	if out, err := load.CombinedOutput(); err != nil {
		t.Fatalf("load tt-rss's schema: %v\n%s", err, out)
	}
	tt.Exec(t, "UPDATE ttrss_users SET salt = "+sqlQuote(ttrssSalt)+", pwd_hash = "+sqlQuote(ttrssPasswordHash(tt.Password))+
		" WHERE login = "+sqlQuote(tt.User))
}

// Exec runs a statement on the reader's database, failing the test on an error.
func (tt *TTRSS) Exec(t testing.TB, stmt string) {
	t.Helper()
	if out, err := tt.DB.client("ttrss", stmt); err != nil {
		t.Fatalf("mariadb %s: %v\n%s", stmt, err, out)
	}
}

// Query reads the reader's database with the mariadb CLI: one map per row, column → value
// as text ("NULL" for NULL).
func (tt *TTRSS) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return tt.DB.QueryIn(t, "ttrss", query)
}

// ttrssOwner is the condition on owner_uid that keeps admin's rows.
const ttrssOwner = "owner_uid = (SELECT id FROM ttrss_users WHERE login = 'admin')"

// TTRSSFeed is a subscribed feed as the reader keeps it: its ID, title, address and
// category ("" when uncategorized).
type TTRSSFeed struct{ ID, Title, URL, Category string }

// Feeds are admin's subscribed feeds, by ID.
func (tt *TTRSS) Feeds(t testing.TB) []TTRSSFeed {
	t.Helper()
	var out []TTRSSFeed
	for _, r := range tt.Query(t, `SELECT f.id, f.title, f.feed_url, COALESCE(c.title, '') AS category FROM ttrss_feeds f
		LEFT JOIN ttrss_feed_categories c ON c.id = f.cat_id WHERE f.`+ttrssOwner+` ORDER BY f.id`) {
		out = append(out, TTRSSFeed{ID: r["id"], Title: r["title"], URL: r["feed_url"], Category: r["category"]})
	}
	return out
}

// Categories are the titles of admin's feed categories, by ID.
func (tt *TTRSS) Categories(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, r := range tt.Query(t, `SELECT title FROM ttrss_feed_categories WHERE `+ttrssOwner+` ORDER BY id`) {
		out = append(out, r["title"])
	}
	return out
}

// Labels are the captions of admin's labels, by ID.
func (tt *TTRSS) Labels(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, r := range tt.Query(t, `SELECT caption FROM ttrss_labels2 WHERE `+ttrssOwner+` ORDER BY id`) {
		out = append(out, r["caption"])
	}
	return out
}

// TTRSSArticle is an article in admin's feeds: its ID (what the pages' requests name it
// by), title, feed's title, whether it is unread, starred or published, and its labels'
// captions, sorted.
type TTRSSArticle struct {
	ID, Title, Feed            string
	Unread, Starred, Published bool
	Labels                     []string
}

// Articles are the articles in admin's feeds, by ID.
func (tt *TTRSS) Articles(t testing.TB) []TTRSSArticle {
	t.Helper()
	var out []TTRSSArticle
	for _, r := range tt.Query(t, `SELECT e.id, e.title, COALESCE(f.title, '') AS feed, ue.unread, ue.marked, ue.published,
		(SELECT GROUP_CONCAT(l.caption ORDER BY l.caption SEPARATOR '\n') FROM ttrss_user_labels2 ul JOIN ttrss_labels2 l ON l.id = ul.label_id
			WHERE ul.article_id = e.id AND l.`+ttrssOwner+`) AS labels
		FROM ttrss_user_entries ue JOIN ttrss_entries e ON e.id = ue.ref_id LEFT JOIN ttrss_feeds f ON f.id = ue.feed_id
		WHERE ue.`+ttrssOwner+` ORDER BY e.id`) {
		a := TTRSSArticle{ID: r["id"], Title: r["title"], Feed: r["feed"], Unread: r["unread"] == "1", Starred: r["marked"] == "1", Published: r["published"] == "1"}
		if r["labels"] != "NULL" && r["labels"] != "" {
			a.Labels = strings.Split(r["labels"], "\n")
		}
		out = append(out, a)
	}
	return out
}

// Prefs are admin's preferences whose value differs from tt-rss's default, name → value
// (the settings in effect: no profile). What saving the Preferences form unchanged writes
// counts as the default: lists tt-rss keeps comma-separated (blacklisted tags), which it
// sorts, are equal in any order, and the language list's "Detect automatically" ("auto")
// is the default "".
func (tt *TTRSS) Prefs(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, r := range tt.Query(t, `SELECT p.pref_name, p.def_value, u.value FROM ttrss_prefs p
		LEFT JOIN ttrss_user_prefs u ON u.pref_name = p.pref_name AND u.profile IS NULL AND u.`+ttrssOwner+` ORDER BY p.pref_name`) {
		if v := r["value"]; v != "NULL" && ttrssPrefValue(r["pref_name"], v) != ttrssPrefValue(r["pref_name"], r["def_value"]) {
			out[r["pref_name"]] = v
		}
	}
	return out
}

// ttrssPrefValue is a preference's value for comparing: a comma-separated list's items
// trimmed and sorted, the automatic language as the default.
func ttrssPrefValue(name, v string) string {
	if name == "USER_LANGUAGE" && v == "auto" {
		return ""
	}
	if !strings.Contains(v, ",") {
		return v
	}
	items := strings.Split(v, ",")
	for i := range items {
		items[i] = strings.TrimSpace(items[i])
	}
	slices.Sort(items)
	return strings.Join(items, ",")
}

// FeedID is the ID of admin's subscription to the feed at url.
func (tt *TTRSS) FeedID(t testing.TB, url string) string {
	t.Helper()
	for _, f := range tt.Feeds(t) {
		if f.URL == url {
			return f.ID
		}
	}
	t.Fatalf("tt-rss: no subscription to %s", url)
	return ""
}

// CategoryID is the ID of admin's category titled so.
func (tt *TTRSS) CategoryID(t testing.TB, title string) string {
	t.Helper()
	rows := tt.Query(t, `SELECT id FROM ttrss_feed_categories WHERE title = `+sqlQuote(title)+` AND `+ttrssOwner)
	if len(rows) != 1 {
		t.Fatalf("tt-rss: %d categories titled %q", len(rows), title)
	}
	return rows[0]["id"]
}

// ArticleID is the ID of the one article titled so.
func (tt *TTRSS) ArticleID(t testing.TB, title string) string {
	t.Helper()
	for _, a := range tt.Articles(t) {
		if a.Title == title {
			return a.ID
		}
	}
	t.Fatalf("tt-rss: no article %q", title)
	return ""
}
