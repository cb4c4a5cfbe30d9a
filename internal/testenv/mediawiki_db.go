package testenv

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// What a wiki holds, read from its own SQLite database with the sqlite3 CLI (read-only,
// waiting out the server's writes): pages and their latest wikitext, edit summaries,
// categories, watchlists, preferences, deletions.

// Query runs one SQL statement on the wiki's database and returns its rows.
func (w *MediaWiki) Query(t testing.TB, sql string) []map[string]any {
	t.Helper()
	out, err := exec.Command("sqlite3", "-readonly", "-json", "-cmd", ".timeout 5000", w.DB, sql).CombinedOutput()
	if err != nil {
		t.Fatalf("sqlite3 %q: %v\n%s", sql, err, out)
	}
	if len(strings.TrimSpace(string(out))) == 0 {
		return nil
	}
	var rows []map[string]any
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatalf("sqlite3 %q: %v\n%s", sql, err, out)
	}
	return rows
}

// quote is s as an SQL string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// str is a row's column as text ("" when NULL).
func str(row map[string]any, col string) string {
	switch v := row[col].(type) {
	case string:
		return v
	case float64:
		return fmt.Sprint(int64(v))
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

// pageWhere selects the page of a title as a reader writes it ("Talk:Lunch menu").
func pageWhere(title string) string {
	ns, key := keyOf(title)
	return fmt.Sprintf("p.page_namespace = %d AND p.page_title = %s", ns, quote(key))
}

// Pages maps every page's title to its latest revision's id.
func (w *MediaWiki) Pages(t testing.TB) map[string]string {
	t.Helper()
	pages := map[string]string{}
	for _, r := range w.Query(t, "SELECT page_namespace AS ns, page_title AS title, page_latest AS rev FROM page") {
		ns := 0
		fmt.Sscan(str(r, "ns"), &ns)
		pages[titleOf(ns, str(r, "title"))] = str(r, "rev")
	}
	return pages
}

// MediaWikiPageInfo is what the database says of one page now.
type MediaWikiPageInfo struct {
	Exists   bool
	Redirect bool
	Text     string // the latest revision's wikitext
	Summary  string // the latest revision's edit summary
	Author   string // the latest revision's author
}

// Page reads a page's latest revision: its wikitext, summary and author.
func (w *MediaWiki) Page(t testing.TB, title string) MediaWikiPageInfo {
	t.Helper()
	rows := w.Query(t, `SELECT p.page_is_redirect AS redirect, CAST(x.old_text AS TEXT) AS text, c.comment_text AS summary, a.actor_name AS author
FROM page p JOIN revision r ON r.rev_id = p.page_latest
JOIN slots s ON s.slot_revision_id = r.rev_id JOIN content ct ON ct.content_id = s.slot_content_id
JOIN text x ON ct.content_address = 'tt:' || x.old_id
LEFT JOIN revision_comment_temp rc ON rc.revcomment_rev = r.rev_id
LEFT JOIN comment c ON c.comment_id = COALESCE(NULLIF(r.rev_comment_id, 0), rc.revcomment_comment_id) LEFT JOIN actor a ON a.actor_id = r.rev_actor
WHERE `+pageWhere(title))
	if len(rows) == 0 {
		return MediaWikiPageInfo{}
	}
	r := rows[0]
	return MediaWikiPageInfo{Exists: true, Redirect: str(r, "redirect") == "1", Text: str(r, "text"), Summary: str(r, "summary"), Author: str(r, "author")}
}

// Categories lists the categories a page is in, as the wiki recorded them after saving it.
func (w *MediaWiki) Categories(t testing.TB, title string) []string {
	t.Helper()
	var out []string
	for _, r := range w.Query(t, "SELECT cl.cl_to AS cat FROM categorylinks cl JOIN page p ON p.page_id = cl.cl_from WHERE "+pageWhere(title)+" ORDER BY cl.cl_to") {
		out = append(out, strings.ReplaceAll(str(r, "cat"), "_", " "))
	}
	return out
}

// Watchlist lists the pages on the administrator's watchlist (a page's discussion page is
// watched with it, and listed too).
func (w *MediaWiki) Watchlist(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, r := range w.Query(t, "SELECT wl.wl_namespace AS ns, wl.wl_title AS title FROM watchlist wl JOIN user u ON u.user_id = wl.wl_user WHERE u.user_name = "+quote(w.User)+" ORDER BY wl.wl_namespace, wl.wl_title") {
		ns := 0
		fmt.Sscan(str(r, "ns"), &ns)
		out = append(out, titleOf(ns, str(r, "title")))
	}
	return out
}

// Preference is one of the administrator's saved preferences ("nickname" is the
// signature), "" when it keeps the default.
func (w *MediaWiki) Preference(t testing.TB, name string) string {
	t.Helper()
	rows := w.Query(t, "SELECT CAST(up.up_value AS TEXT) AS v FROM user_properties up JOIN user u ON u.user_id = up.up_user WHERE u.user_name = "+quote(w.User)+" AND up.up_property = "+quote(name))
	if len(rows) == 0 {
		return ""
	}
	return str(rows[0], "v")
}

// Deletion is the reason logged for deleting a page, and whether its revisions were
// archived ("", false when it was not deleted).
func (w *MediaWiki) Deletion(t testing.TB, title string) (reason string, archived bool) {
	t.Helper()
	ns, key := keyOf(title)
	rows := w.Query(t, fmt.Sprintf(`SELECT c.comment_text AS reason FROM logging l LEFT JOIN comment c ON c.comment_id = l.log_comment_id
WHERE l.log_type = 'delete' AND l.log_action = 'delete' AND l.log_namespace = %d AND l.log_title = %s ORDER BY l.log_id DESC`, ns, quote(key)))
	arch := w.Query(t, fmt.Sprintf("SELECT COUNT(*) AS n FROM archive WHERE ar_namespace = %d AND ar_title = %s", ns, quote(key)))
	archived = len(arch) == 1 && str(arch[0], "n") != "0"
	if len(rows) == 0 {
		return "", archived
	}
	return str(rows[0], "reason"), archived
}
