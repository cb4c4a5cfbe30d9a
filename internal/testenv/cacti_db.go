package testenv

import (
	"maps"
	"slices"
	"testing"
)

// CactiState is what an instance's database holds, as the judges compare it: table → a
// row's key → column → value as text. The tables are the devices (host, by description),
// the graph trees (graph_tree, by name), what each tree holds (graph_tree_items, by "tree >
// device" or "tree > title"), the users (user_auth, by user name) and the settings (by
// name). What changes by itself is left out: a device's polling statistics, a tree's lock
// and time of change, a user's last sign-in, the settings Cacti keeps as its own
// bookkeeping (when a device last changed, its poller cache's checksums).
type CactiState map[string]map[string]map[string]string

// cactiTables are the queries State reads each table with; a row's first column is its key.
var cactiTables = map[string]string{
	"host": `SELECT description AS k, hostname, site_id, host_template_id, disabled, snmp_version, snmp_community,
		availability_method, location, notes, deleted FROM host`,
	"graph_tree": `SELECT name AS k, enabled, sort_type FROM graph_tree`,
	"graph_tree_items": `SELECT CONCAT(t.name, ' > ', IF(i.host_id > 0, h.description, i.title)) AS k,
		IFNULL(p.title, '') AS parent, i.local_graph_id, i.host_grouping_type
		FROM graph_tree_items i JOIN graph_tree t ON t.id = i.graph_tree_id LEFT JOIN host h ON h.id = i.host_id
		LEFT JOIN graph_tree_items p ON p.id = i.parent`,
	"user_auth": `SELECT username AS k, password, full_name, email_address, realm, enabled, locked,
		must_change_password FROM user_auth`,
	"settings": `SELECT name AS k, value FROM settings WHERE name NOT LIKE 'time\_last\_change\_%'
		AND name NOT LIKE 'poller\_replicate\_%'`,
}

// Exec runs a statement on the panel's database, failing the test on an error.
func (c *Cacti) Exec(t testing.TB, stmt string) {
	t.Helper()
	if out, err := c.DB.client("cacti", stmt); err != nil {
		t.Fatalf("mariadb %s: %v\n%s", stmt, err, out)
	}
}

// Query reads the panel's database with the mariadb CLI: one map per row, column → value
// as text ("NULL" for NULL).
func (c *Cacti) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return c.DB.QueryIn(t, "cacti", query)
}

// State reads the tables the judges compare.
func (c *Cacti) State(t testing.TB) CactiState {
	t.Helper()
	return CactiState(keyedTables(cactiTables, func(q string) []map[string]string { return c.Query(t, q) }))
}

// Seed is the state of the fresh instance, once seeded (a copy).
func (c *Cacti) Seed() CactiState { return CactiState(cloneRows(c.seed)) }

// Differs says how the database differs from the seed with changes made, "" when it does
// not (rowsDiffer says how changes read).
func (c *Cacti) Differs(t testing.TB, changes CactiState) string {
	t.Helper()
	return rowsDiffer(slices.Sorted(maps.Keys(cactiTables)), c.Seed(), c.State(t), changes)
}
