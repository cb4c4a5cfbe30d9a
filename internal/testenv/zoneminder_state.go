package testenv

import (
	"maps"
	"os/exec"
	"slices"
	"testing"
)

// ZoneMinderState is what an instance's database holds, as the judges compare it: table →
// a row's key → column → value as text. The tables are the monitors (Monitors, by name:
// their source type, function, analysis and decoding, source path, capture resolution and
// notes), the users (Users, by user name: the password's hash and each permission), the
// groups of monitors (Groups, by name: the parent group's name and the monitors, by name,
// sorted, joined with ", ") and the options (Config, by name). What changes by itself is
// left out: the log (Logs), the options ZoneMinder keeps as its own bookkeeping (ZM_DYN_*),
// the monitors' status and the zones a new monitor is given.
type ZoneMinderState map[string]map[string]map[string]string

// zoneminderTables are the queries State reads each table with; a row's first column is
// its key.
var zoneminderTables = map[string]string{
	"Monitors": "SELECT `Name` AS k, `Type`, `Function`, `Enabled`, `DecodingEnabled`, `Path`, `Width`, `Height`, " +
		"IFNULL(`Notes`, '') AS `Notes` FROM `Monitors`",
	"Users": "SELECT `Username` AS k, `Password`, `Enabled`, `Stream`, `Events`, `Control`, `Monitors`, `Groups`, " +
		"`Devices`, `Snapshots`, `System`, IFNULL(`MonitorIds`, '') AS `MonitorIds`, `APIEnabled`, " +
		"IFNULL(`Language`, '') AS `Language`, IFNULL(`MaxBandwidth`, '') AS `MaxBandwidth`, `HomeView` FROM `Users`",
	"Groups": "SELECT g.`Name` AS k, IFNULL(p.`Name`, '') AS parent, IFNULL((SELECT GROUP_CONCAT(m.`Name` ORDER BY m.`Name` SEPARATOR ', ') " +
		"FROM `Groups_Monitors` gm JOIN `Monitors` m ON m.`Id` = gm.`MonitorId` WHERE gm.`GroupId` = g.`Id`), '') AS monitors " +
		"FROM `Groups` g LEFT JOIN `Groups` p ON p.`Id` = g.`ParentId`",
	"Config": "SELECT `Name` AS k, `Value` FROM `Config` WHERE `Name` NOT LIKE 'ZM\\_DYN\\_%'",
}

// Exec runs a statement on the console's database, failing the test on an error.
func (z *ZoneMinder) Exec(t testing.TB, stmt string) {
	t.Helper()
	if out, err := z.DB.client("zm", stmt); err != nil {
		t.Fatalf("mariadb %s: %v\n%s", stmt, err, out)
	}
}

// Query reads the console's database with the mariadb CLI: one map per row, column → value
// as text ("NULL" for NULL).
func (z *ZoneMinder) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return z.DB.QueryIn(t, "zm", query)
}

// State reads the tables the judges compare.
func (z *ZoneMinder) State(t testing.TB) ZoneMinderState {
	t.Helper()
	return ZoneMinderState(keyedTables(zoneminderTables, func(q string) []map[string]string { return z.Query(t, q) }))
}

// Seed is the state of the fresh instance, once seeded (a copy).
func (z *ZoneMinder) Seed() ZoneMinderState { return ZoneMinderState(cloneRows(z.seed)) }

// Differs says how the database differs from the seed with changes made, "" when it does
// not (rowsDiffer says how changes read).
func (z *ZoneMinder) Differs(t testing.TB, changes ZoneMinderState) string {
	t.Helper()
	return rowsDiffer(slices.Sorted(maps.Keys(zoneminderTables)), z.Seed(), z.State(t), changes)
}

// PasswordIs says whether user's password is password (its hash checked with PHP's
// password_verify, as the login form does).
func (z *ZoneMinder) PasswordIs(t testing.TB, user, password string) bool {
	t.Helper()
	rows := z.Query(t, "SELECT `Password` FROM `Users` WHERE `Username` = "+sqlQuote(user))
	if len(rows) != 1 || rows[0]["Password"] == "" {
		return false
	}
	return exec.Command("php", "-r", `exit(password_verify($argv[1], $argv[2]) ? 0 : 1);`, password, rows[0]["Password"]).Run() == nil
}

// ZoneMinderUserRow is a new user's row as the judges want it: its permissions (those not
// named are None), enabled, its password's hash whatever it is (PasswordIs checks it), and
// the user form's defaults for the rest.
func ZoneMinderUserRow(perms map[string]string) map[string]string {
	row := map[string]string{"Password": "*", "Enabled": "1", "MonitorIds": "", "APIEnabled": "*", "Language": "*",
		"MaxBandwidth": "*", "HomeView": "*"}
	for _, p := range []string{"Stream", "Events", "Control", "Monitors", "Groups", "Devices", "Snapshots", "System"} {
		row[p] = "None"
		if v, ok := perms[p]; ok {
			row[p] = v
		}
	}
	return row
}
