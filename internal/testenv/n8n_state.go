package testenv

import (
	"maps"
	"slices"
	"testing"
)

// N8NState is what an instance's database holds, as the judges compare it: table → a
// row's key → column → value as text ("" for NULL). The tables are the workflows (by name:
// their id, whether archived or active, their description, folder, tags and the names of
// their nodes), the tags, the folders, the credentials (by name, with their type) and the
// users (by email, with their names, role and whether they are still invited only). What
// changes by itself is left out: versions and checksums, timestamps, a workflow's history
// and statistics, a user's settings and last activity, and the executions.
type N8NState map[string]map[string]map[string]string

// n8nTables are the queries State reads each table with; column k is a row's key.
var n8nTables = map[string]string{
	"workflows": `SELECT w.name AS k, w.id, w.isArchived AS archived, w.active, IFNULL(w.description, '') AS description,
		IFNULL(f.name, '') AS folder,
		(SELECT IFNULL(group_concat(name, ', '), '') FROM (SELECT t.name FROM workflows_tags wt
			JOIN tag_entity t ON t.id = wt.tagId WHERE wt.workflowId = w.id ORDER BY t.name)) AS tags,
		(SELECT IFNULL(group_concat(n, ', '), '') FROM (SELECT json_extract(value, '$.name') AS n
			FROM json_each(w.nodes) ORDER BY n)) AS nodes
		FROM workflow_entity w LEFT JOIN folder f ON f.id = w.parentFolderId`,
	"tags":        `SELECT name AS k, '' AS tag FROM tag_entity`,
	"folders":     `SELECT name AS k, IFNULL(parentFolderId, '') AS parent FROM folder`,
	"credentials": `SELECT name AS k, type, isGlobal AS global FROM credentials_entity`,
	"users": `SELECT email AS k, IFNULL(firstName, '') AS firstName, IFNULL(lastName, '') AS lastName,
		roleSlug AS role, (password IS NULL) AS invited, disabled FROM user`,
}

// Query reads the instance's database with the sqlite3 CLI: one map per row.
func (n *N8N) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return SQLiteRows(t, n.DB, query)
}

// State reads the tables the judges compare.
func (n *N8N) State(t testing.TB) N8NState {
	t.Helper()
	return N8NState(keyedTables(n8nTables, func(q string) []map[string]string { return n.Query(t, q) }))
}

// Seed is the state of the fresh instance, once seeded (a copy).
func (n *N8N) Seed() N8NState { return N8NState(cloneRows(n.seed)) }

// Differs says how the database differs from the seed with changes made, "" when it does
// not (rowsDiffer says how changes read: nil for a row gone, the changed columns of a
// seed's row, the columns to check of a new one, "*" for any value).
func (n *N8N) Differs(t testing.TB, changes N8NState) string {
	t.Helper()
	return rowsDiffer(slices.Sorted(maps.Keys(n8nTables)), n.Seed(), n.State(t), changes)
}
