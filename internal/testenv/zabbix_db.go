package testenv

import (
	"encoding/json"
	"maps"
	"net/http"
	"os/exec"
	"slices"
	"testing"
)

// ZabbixState is what an instance's database holds, as the judges compare it: table → a
// row's key → column → value as text. The tables are the host groups (hstgrp, by name), the
// hosts (hosts, by host name: templates and discovered hosts left out), each with its host
// groups and its interfaces as text, the users (users, by username) with their role and
// user groups, and the maintenance periods (maintenances, by name) with their host groups,
// hosts and number of periods. What changes by itself is left out: sessions, the audit
// log, a user's failed sign-ins, the hosts' availability.
type ZabbixState map[string]map[string]map[string]string

// zabbixTables are the queries State reads each table with; a row's first column is its key.
var zabbixTables = map[string]string{
	"hstgrp": `SELECT name AS k, internal, flags FROM hstgrp`,
	"hosts": `SELECT h.host AS k, h.name, h.status, h.description, IFNULL(h.proxy_hostid, '') AS proxy,
		h.tls_connect, h.tls_accept, h.ipmi_authtype, IFNULL(inv.inventory_mode, -1) AS inventory_mode,
		IFNULL((SELECT GROUP_CONCAT(g.name ORDER BY g.name SEPARATOR ', ') FROM hosts_groups hg
			JOIN hstgrp g ON g.groupid = hg.groupid WHERE hg.hostid = h.hostid), '') AS host_groups,
		IFNULL((SELECT GROUP_CONCAT(CONCAT('type ', i.type, ' ip ', i.ip, ' dns ', i.dns, ' port ', i.port,
			' useip ', i.useip, ' main ', i.main) ORDER BY i.type, i.ip SEPARATOR ', ') FROM interface i
			WHERE i.hostid = h.hostid), '') AS interfaces,
		IFNULL((SELECT GROUP_CONCAT(t.host ORDER BY t.host SEPARATOR ', ') FROM hosts_templates ht
			JOIN hosts t ON t.hostid = ht.templateid WHERE ht.hostid = h.hostid), '') AS templates
		FROM hosts h LEFT JOIN host_inventory inv ON inv.hostid = h.hostid WHERE h.flags = 0 AND h.status IN (0, 1)`,
	"users": `SELECT u.username AS k, u.name, u.surname, u.passwd, IFNULL(r.name, '') AS role, u.autologin,
		u.autologout, u.lang, u.refresh, u.theme, u.rows_per_page, u.timezone, u.url,
		IFNULL((SELECT GROUP_CONCAT(g.name ORDER BY g.name SEPARATOR ', ') FROM users_groups ug
			JOIN usrgrp g ON g.usrgrpid = ug.usrgrpid WHERE ug.userid = u.userid), '') AS user_groups
		FROM users u LEFT JOIN role r ON r.roleid = u.roleid`,
	"maintenances": `SELECT m.name AS k, m.maintenance_type, m.description, m.active_since, m.active_till,
		IFNULL((SELECT GROUP_CONCAT(g.name ORDER BY g.name SEPARATOR ', ') FROM maintenances_groups mg
			JOIN hstgrp g ON g.groupid = mg.groupid WHERE mg.maintenanceid = m.maintenanceid), '') AS host_groups,
		IFNULL((SELECT GROUP_CONCAT(h.host ORDER BY h.host SEPARATOR ', ') FROM maintenances_hosts mh
			JOIN hosts h ON h.hostid = mh.hostid WHERE mh.maintenanceid = m.maintenanceid), '') AS hosts,
		(SELECT COUNT(*) FROM maintenances_windows w WHERE w.maintenanceid = m.maintenanceid) AS periods
		FROM maintenances m`,
}

// Exec runs a statement on the frontend's database, failing the test on an error.
func (z *Zabbix) Exec(t testing.TB, stmt string) {
	t.Helper()
	if out, err := z.DB.client("zabbix", stmt); err != nil {
		t.Fatalf("mariadb %s: %v\n%s", stmt, err, out)
	}
}

// Query reads the frontend's database with the mariadb CLI: one map per row, column →
// value as text ("NULL" for NULL).
func (z *Zabbix) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return z.DB.QueryIn(t, "zabbix", query)
}

// State reads the tables the judges compare.
func (z *Zabbix) State(t testing.TB) ZabbixState {
	t.Helper()
	return ZabbixState(keyedTables(zabbixTables, func(q string) []map[string]string { return z.Query(t, q) }))
}

// Seed is the state of the fresh instance, once seeded (a copy).
func (z *Zabbix) Seed() ZabbixState { return ZabbixState(cloneRows(z.seed)) }

// Differs says how the database differs from the seed with changes made, "" when it does
// not (rowsDiffer says how changes read).
func (z *Zabbix) Differs(t testing.TB, changes ZabbixState) string {
	t.Helper()
	return rowsDiffer(slices.Sorted(maps.Keys(zabbixTables)), z.Seed(), z.State(t), changes)
}

// ZabbixPasswordIs says whether hash (the users table's passwd column) is password's.
func ZabbixPasswordIs(hash, password string) bool {
	return hash != "" && exec.Command("php", "-r", `exit(password_verify($argv[1], $argv[2]) ? 0 : 1);`, password, hash).Run() == nil
}

// GroupID is the id of the host group named name ("" when there is none).
func (z *Zabbix) GroupID(t testing.TB, name string) string {
	t.Helper()
	rows := z.Query(t, "SELECT groupid FROM hstgrp WHERE name = "+sqlQuote(name))
	if len(rows) == 0 {
		return ""
	}
	return rows[0]["groupid"]
}

// API calls one method of the frontend's JSON-RPC API with auth (a session from user.login,
// "" for none) and returns its result; an error answer fails the test.
func (z *Zabbix) API(t testing.TB, auth, method string, params any) json.RawMessage {
	t.Helper()
	body := map[string]any{"jsonrpc": "2.0", "method": method, "params": params, "id": 1}
	if auth != "" {
		body["auth"] = auth
	}
	status, out := callJSON(t, http.MethodPost, z.URL+"/api_jsonrpc.php", body, map[string]string{"Content-Type": "application/json-rpc"})
	var answer struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
			Data    string `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(out, &answer); err != nil || status != http.StatusOK || answer.Error != nil {
		t.Fatalf("zabbix: %s answered %d: %v %s", method, status, err, out)
	}
	return answer.Result
}

// seedAPI signs in to the API as Admin and writes the seed: the host groups Web servers,
// Staging servers and Test servers, and ZabbixHosts, each with a Zabbix agent interface;
// then keeps what the database holds as the fresh state.
func (z *Zabbix) seedAPI(t testing.TB) {
	t.Helper()
	var auth string
	if err := json.Unmarshal(z.API(t, "", "user.login", map[string]string{"username": z.User, "password": z.Password}), &auth); err != nil {
		t.Fatalf("zabbix: user.login: %v", err)
	}
	z.API(t, auth, "hostgroup.create", []map[string]string{{"name": ZabbixWebServers}, {"name": ZabbixStaging}, {"name": ZabbixTest}})
	for _, h := range ZabbixHosts {
		z.API(t, auth, "host.create", map[string]any{
			"host":       h.Name,
			"groups":     []map[string]string{{"groupid": z.GroupID(t, h.Group)}},
			"interfaces": []map[string]any{{"type": 1, "main": 1, "useip": 1, "ip": h.IP, "dns": "", "port": "10050"}},
		})
	}
	z.API(t, auth, "user.logout", []string{})
	z.seed = z.State(t)
	for _, h := range ZabbixHosts {
		if row := z.seed["hosts"][h.Name]; row == nil || row["host_groups"] != h.Group {
			t.Fatalf("zabbix: the seed did not store the host %s in %s: %v", h.Name, h.Group, row)
		}
	}
	if z.seed["hstgrp"][ZabbixStaging] == nil || z.seed["users"][ZabbixAdmin] == nil {
		t.Fatalf("zabbix: the seed lacks its host groups or Admin: %v", z.seed)
	}
}
