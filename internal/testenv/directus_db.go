package testenv

import (
	"maps"
	"slices"
	"testing"
)

// DirectusState is what an instance's database holds, as the judges compare it: table → a
// row's key → column → value as text ("" for NULL). The tables are the newsroom's own
// collections (articles by title with their author's name, authors by name), the columns
// of their tables (by "table.column"), the data model's collections, fields and relations,
// the users (by email, with their role's name), the roles, the access policies and what
// holds them, the project's settings, the comments and the files. What changes by itself
// is left out: the activity log and revisions, sessions, a user's last page and last
// access, and the layout presets the Data Studio keeps for each user as they browse.
type DirectusState map[string]map[string]map[string]string

// directusTables are the queries State reads each table with; column k is a row's key.
var directusTables = map[string]string{
	"articles": `SELECT a.title AS k, a.status, IFNULL(au.name, '') AS author, IFNULL(a.body, '') AS body
		FROM articles a LEFT JOIN authors au ON au.id = a.author`,
	"authors": `SELECT name AS k, IFNULL(email, '') AS email FROM authors`,
	"columns": `SELECT m.name || '.' || c.name AS k, c.type FROM sqlite_master m JOIN pragma_table_info(m.name) c
		WHERE m.type = 'table' AND m.name NOT LIKE 'directus\_%' ESCAPE '\' AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\'`,
	"collections": `SELECT collection AS k, hidden, singleton, IFNULL(archive_field, '') AS archive_field,
		IFNULL(display_template, '') AS display_template, IFNULL("group", '') AS grp FROM directus_collections`,
	"fields": `SELECT collection || '.' || field AS k, IFNULL(interface, '') AS interface, IFNULL(special, '') AS special,
		hidden, readonly, required, IFNULL(options, '') AS options FROM directus_fields`,
	"relations": `SELECT many_collection || '.' || many_field AS k, IFNULL(one_collection, '') AS one_collection FROM directus_relations`,
	"users": `SELECT u.email AS k, IFNULL(u.first_name, '') AS first_name, IFNULL(u.last_name, '') AS last_name,
		IFNULL(r.name, '') AS role, u.status, IFNULL(u.title, '') AS title, u.provider
		FROM directus_users u LEFT JOIN directus_roles r ON r.id = u.role`,
	"roles": `SELECT name AS k, IFNULL(description, '') AS description, IFNULL(parent, '') AS parent FROM directus_roles`,
	"policies": `SELECT p.name AS k, p.admin_access, p.app_access, p.enforce_tfa,
		(SELECT COUNT(*) FROM directus_permissions pm WHERE pm.policy = p.id) AS permissions FROM directus_policies p`,
	"access": `SELECT IFNULL(r.name, '') || ' / ' || IFNULL(u.email, '') || ' > ' || p.name AS k, '' AS holder
		FROM directus_access a JOIN directus_policies p ON p.id = a.policy
		LEFT JOIN directus_roles r ON r.id = a.role LEFT JOIN directus_users u ON u.id = a.user`,
	"settings": `SELECT 'project' AS k, project_name, IFNULL(project_descriptor, '') AS project_descriptor,
		IFNULL(project_url, '') AS project_url, project_color, default_language, IFNULL(public_note, '') AS public_note,
		auth_login_attempts, public_registration, default_appearance, IFNULL(module_bar, '') AS module_bar,
		IFNULL(custom_css, '') AS custom_css, IFNULL(project_owner, '') AS project_owner, default_save_action
		FROM directus_settings`,
	"comments": `SELECT collection || ' ' || item || ': ' || comment AS k, '' AS c FROM directus_comments`,
	"files":    `SELECT filename_download AS k, IFNULL(title, '') AS title FROM directus_files`,
}

// Query reads the instance's database with the sqlite3 CLI: one map per row.
func (d *Directus) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return SQLiteRows(t, d.DB, query)
}

// State reads the tables the judges compare.
func (d *Directus) State(t testing.TB) DirectusState {
	t.Helper()
	return DirectusState(keyedTables(directusTables, func(q string) []map[string]string { return d.Query(t, q) }))
}

// Seed is the state of the fresh instance, once seeded (a copy).
func (d *Directus) Seed() DirectusState { return DirectusState(cloneRows(d.seed)) }

// Differs says how the database differs from the seed with changes made, "" when it does
// not (rowsDiffer says how changes read: nil for a row gone, the changed columns of a
// seed's row, the columns to check of a new one, "*" for any value).
func (d *Directus) Differs(t testing.TB, changes DirectusState) string {
	t.Helper()
	return rowsDiffer(slices.Sorted(maps.Keys(directusTables)), d.Seed(), d.State(t), changes)
}
