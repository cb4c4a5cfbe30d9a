package testenv

import (
	"maps"
	"slices"
	"testing"
)

// GhostState is what an instance's database holds, as the judges compare it: table → a
// row's key → column → value as text ("" for NULL). The tables are the posts and pages (by
// "title (post)" or "title (page)", with their status, slug, body as plain text, tags and
// authors), the tags (by name), the staff users (by email, with their roles), the pending
// invitations (by email, with the role offered) and the site's settings (by key). What
// changes by itself is left out: times, sessions, a user's last sign-in, the notifications
// Ghost keeps, and the settings of its update check and mention reports.
type GhostState map[string]map[string]map[string]string

// ghostTables are the queries State reads each table with; column k is a row's key.
var ghostTables = map[string]string{
	"posts": `SELECT p.title || ' (' || p.type || ')' AS k, p.status, p.slug, p.visibility, p.featured,
		IFNULL(p.plaintext, '') AS plaintext,
		IFNULL((SELECT group_concat(name, ', ') FROM (SELECT t.name FROM posts_tags pt JOIN tags t ON t.id = pt.tag_id
			WHERE pt.post_id = p.id ORDER BY t.name)), '') AS tags,
		IFNULL((SELECT group_concat(name, ', ') FROM (SELECT u.name FROM posts_authors pa JOIN users u ON u.id = pa.author_id
			WHERE pa.post_id = p.id ORDER BY u.name)), '') AS authors
		FROM posts p`,
	"tags": `SELECT name AS k, slug, IFNULL(description, '') AS description, visibility FROM tags`,
	"users": `SELECT u.email AS k, u.name, u.status,
		IFNULL((SELECT group_concat(r.name, ', ') FROM roles_users ru JOIN roles r ON r.id = ru.role_id
			WHERE ru.user_id = u.id), '') AS roles
		FROM users u`,
	"invites": `SELECT i.email AS k, i.status, IFNULL(r.name, '') AS role FROM invites i LEFT JOIN roles r ON r.id = i.role_id`,
	"settings": `SELECT key AS k, IFNULL(value, '') AS value FROM settings WHERE key NOT IN
		('notifications', 'version_notifications', 'next_update_check', 'last_mentions_report_email_timestamp')`,
}

// Query reads the instance's database with the sqlite3 CLI: one map per row.
func (g *Ghost) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return SQLiteRows(t, g.DB, query)
}

// State reads the tables the judges compare.
func (g *Ghost) State(t testing.TB) GhostState {
	t.Helper()
	return GhostState(keyedTables(ghostTables, func(q string) []map[string]string { return g.Query(t, q) }))
}

// Seed is the state of the fresh instance, once seeded (a copy).
func (g *Ghost) Seed() GhostState { return GhostState(cloneRows(g.seed)) }

// Differs says how the database differs from the seed with changes made, "" when it does
// not (rowsDiffer says how changes read: nil for a row gone, the changed columns of a
// seed's row, the columns to check of a new one, "*" for any value).
func (g *Ghost) Differs(t testing.TB, changes GhostState) string {
	t.Helper()
	return rowsDiffer(slices.Sorted(maps.Keys(ghostTables)), g.Seed(), g.State(t), changes)
}
