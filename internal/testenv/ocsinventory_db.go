package testenv

import (
	"maps"
	"slices"
	"testing"
)

// OCSInventoryState is what an instance's database holds, as the judges compare it: table
// → a row's key → column → value as text. Computers and groups (both rows of hardware) are
// keyed by name; what belongs to one (its bios, its administrative data, its software, its
// settings, a group's definition and members) by that name too ("group > computer" for a
// member, "computer > program" for software, "computer / setting" for its own settings);
// the administrative data fields by "kind / field", the console's users by login and the
// settings by name. What changes by itself is left out: when a computer last reported, a
// group's time of creation and cache.
type OCSInventoryState map[string]map[string]map[string]string

// ocsTables are the queries State reads each table with; a row's column k is its key.
var ocsTables = map[string]string{
	"hardware": `SELECT NAME AS k, DEVICEID, WORKGROUP, IFNULL(DESCRIPTION, '') AS DESCRIPTION, OSNAME, IPADDR, USERID,
		IFNULL(ARCHIVE, '') AS ARCHIVE, IFNULL(CATEGORY_ID, '') AS CATEGORY_ID FROM hardware`,
	"bios": `SELECT IFNULL(h.NAME, CONCAT('#', b.HARDWARE_ID)) AS k, b.SMANUFACTURER, b.SMODEL, b.SSN
		FROM bios b LEFT JOIN hardware h ON h.ID = b.HARDWARE_ID`,
	"accountinfo": `SELECT IFNULL(h.NAME, CONCAT('#', a.HARDWARE_ID)) AS k, a.*
		FROM accountinfo a LEFT JOIN hardware h ON h.ID = a.HARDWARE_ID`,
	"accountinfo_config": `SELECT CONCAT(ACCOUNT_TYPE, ' / ', NAME) AS k, TYPE, COMMENT, ID_TAB,
		IFNULL(NAME_ACCOUNTINFO, '') AS NAME_ACCOUNTINFO, IFNULL(DEFAULT_VALUE, '') AS DEFAULT_VALUE FROM accountinfo_config`,
	"software": `SELECT CONCAT(IFNULL(h.NAME, CONCAT('#', s.HARDWARE_ID)), ' > ', n.NAME) AS k, v.VERSION, p.PUBLISHER
		FROM software s LEFT JOIN hardware h ON h.ID = s.HARDWARE_ID LEFT JOIN software_name n ON n.ID = s.NAME_ID
		LEFT JOIN software_version v ON v.ID = s.VERSION_ID LEFT JOIN software_publisher p ON p.ID = s.PUBLISHER_ID`,
	"groups": "SELECT IFNULL(h.NAME, CONCAT('#', g.HARDWARE_ID)) AS k, IFNULL(g.REQUEST, '') AS REQUEST, IFNULL(g.XMLDEF, '') AS XMLDEF\n" +
		"FROM `groups` g LEFT JOIN hardware h ON h.ID = g.HARDWARE_ID",
	"groups_cache": `SELECT CONCAT(IFNULL(g.NAME, CONCAT('#', c.GROUP_ID)), ' > ', IFNULL(h.NAME, CONCAT('#', c.HARDWARE_ID))) AS k, c.STATIC
		FROM groups_cache c LEFT JOIN hardware g ON g.ID = c.GROUP_ID LEFT JOIN hardware h ON h.ID = c.HARDWARE_ID`,
	"devices": `SELECT CONCAT(IFNULL(h.NAME, CONCAT('#', d.HARDWARE_ID)), ' / ', d.NAME) AS k, IFNULL(d.IVALUE, '') AS IVALUE,
		IFNULL(d.TVALUE, '') AS TVALUE FROM devices d LEFT JOIN hardware h ON h.ID = d.HARDWARE_ID`,
	"operators": `SELECT ID AS k, FIRSTNAME, LASTNAME, PASSWD, NEW_ACCESSLVL, IFNULL(COMMENTS, '') AS COMMENTS,
		IFNULL(EMAIL, '') AS EMAIL, IFNULL(USER_GROUP, '') AS USER_GROUP FROM operators`,
	"config": `SELECT NAME AS k, IFNULL(IVALUE, '') AS IVALUE, IFNULL(TVALUE, '') AS TVALUE FROM config`,
}

// Exec runs statements on the console's database, failing the test on an error.
func (o *OCSInventory) Exec(t testing.TB, stmt string) {
	t.Helper()
	if out, err := o.DB.client("ocsweb", stmt); err != nil {
		t.Fatalf("mariadb %s: %v\n%s", stmt, err, out)
	}
}

// Query reads the console's database with the mariadb CLI: one map per row, column →
// value as text ("NULL" for NULL).
func (o *OCSInventory) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return o.DB.QueryIn(t, "ocsweb", query)
}

// State reads the tables the judges compare.
func (o *OCSInventory) State(t testing.TB) OCSInventoryState {
	t.Helper()
	return OCSInventoryState(keyedTables(ocsTables, func(q string) []map[string]string { return o.Query(t, q) }))
}

// Seed is the state of the fresh instance, once seeded (a copy).
func (o *OCSInventory) Seed() OCSInventoryState { return OCSInventoryState(cloneRows(o.seed)) }

// Differs says how the database differs from the seed with changes made, "" when it does
// not (rowsDiffer says how changes read).
func (o *OCSInventory) Differs(t testing.TB, changes OCSInventoryState) string {
	t.Helper()
	return rowsDiffer(slices.Sorted(maps.Keys(ocsTables)), o.Seed(), o.State(t), changes)
}

// seedForms signs in as admin and writes the rest of the seed through the console's own
// forms: the user tmartin (Configuration > Users > Create user), the static groups (Groups
// > New static group), their members (each computer's Configuration part, "Statically add
// to this group") and the Inventory tab of the General configuration saved as it is shown
// (so that its values are stored); then keeps what the database holds as the fresh state.
func (o *OCSInventory) seedForms(t testing.TB) {
	t.Helper()
	b := o.Browser()
	b.SignIn(t)
	b.Open(t, "/index.php?function=admin_add_user")
	b.Save(t, "my_account", "Valid_modif", map[string]string{"ID": OCSOperator, "ACCESSLVL": "ladmin",
		"FIRSTNAME": OCSOperatorFirst, "LASTNAME": OCSOperatorLast, "PASSWORD": OCSOperatorPassword})
	for _, g := range OCSGroups {
		b.NewStaticGroup(t, g.Name, g.Description)
	}
	for _, g := range OCSGroups {
		for _, m := range g.Members {
			b.AddToGroup(t, m, g.Name)
		}
	}
	b.Open(t, "/index.php?function=admin_conf")
	b.Save(t, "modif_onglet", "Valid", nil)
	o.seed = o.State(t)
	if n := len(o.seed["hardware"]); n != len(OCSComputers)+len(OCSGroups) {
		t.Fatalf("ocsinventory: the seed holds %d computers and groups, not %d: %v", n, len(OCSComputers)+len(OCSGroups), o.seed["hardware"])
	}
	if n := len(o.seed["groups_cache"]); n != 3 {
		t.Fatalf("ocsinventory: the seed's groups have %d members, not 3: %v", n, o.seed["groups_cache"])
	}
	if u := o.seed["operators"][OCSOperator]; u == nil || u["NEW_ACCESSLVL"] != "ladmin" {
		t.Fatalf("ocsinventory: the seed lacks its user %s: %v", OCSOperator, o.seed["operators"])
	}
}

// NewStaticGroup opens Groups, presses "New static group" on its STATIC GROUPS tab, fills
// in Group name and Description and presses OK.
func (b *OCSInventoryBrowser) NewStaticGroup(t testing.TB, name, description string) {
	t.Helper()
	b.Open(t, "/index.php?function=visu_groups")
	b.Save(t, "groups", "add_static_group", nil)
	b.Save(t, "groups", "Valid_modif", map[string]string{"NAME": name, "DESCR": description})
}
