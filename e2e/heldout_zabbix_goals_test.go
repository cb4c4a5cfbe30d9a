//go:build heldout

package e2e

import (
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// zabbixGoal is an everyday goal on the Zabbix frontend, written three ways as a person
// writes it from what the pages show ({signin} is the phrasing's way of signing in); done
// reads the frontend's database and says "" when the goal's effect is there and nothing
// else the judges compare changed, else what it found; do makes the effect through the
// frontend's own pages along the goal's path, and miss a near miss the judge must not take
// for it (another host or host group, a neighbouring name or role).
type zabbixGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, z *testenv.Zabbix) string
	do, miss  func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix)
}

const (
	zabbixNewGroup       = "Database servers"
	zabbixNewHost        = "app-01"
	zabbixNewHostIP      = "192.0.2.31"
	zabbixNewUser        = "mlopez"
	zabbixNewUserName    = "Maria"
	zabbixNewUserSurname = "Lopez"
	zabbixNewUserGroup   = "Zabbix administrators"
	zabbixNewPassword    = "Lighthouse-Keeper-42"
	zabbixNewRole        = "Admin role"
	zabbixMaintenance    = "Web patching"
	zabbixVisibleName    = "Primary database"
)

var zabbixGoals = []zabbixGoal{
	{
		name: "create a host group",
		phrasings: [3]string{
			`{signin}, click "Configuration", click "Host groups", click "Create host group", type "Database servers" into "Group name", click "Add"`,
			`{signin}, then go to Configuration > Host groups and press Create host group; fill Group name with Database servers and press Add`,
			`{signin} Open Host groups under Configuration in the menu on the left and click the "Create host group" button. Write "Database servers" in the field labelled "Group name", then click Add. Check that the list shows "Database servers".`,
		},
		done: func(t testing.TB, z *testenv.Zabbix) string {
			return z.Differs(t, testenv.ZabbixState{"hstgrp": {zabbixNewGroup: {"internal": "0", "flags": "0"}}})
		},
		do: func(t testing.TB, b *testenv.ZabbixBrowser, _ *testenv.Zabbix) { zabbixAddGroup(t, b, zabbixNewGroup) },
		miss: func(t testing.TB, b *testenv.ZabbixBrowser, _ *testenv.Zabbix) {
			zabbixAddGroup(t, b, "Database server")
		},
	},
	{
		name: "create a host with an agent interface",
		phrasings: [3]string{
			`{signin}, click "Configuration", click "Hosts", click "Create host", type "app-01" into "Host name", select "Web servers" in "Groups", click "Add" under "Interfaces" and choose "Agent", type "192.0.2.31" into "IP address", then click the "Add" button at the bottom of the form`,
			`{signin}, then open Configuration > Hosts and press Create host. Fill Host name with app-01, put the host in the Web servers group, add an Agent interface with IP address 192.0.2.31 and press Add`,
			`{signin} In the menu, go to Configuration and then Hosts, and click "Create host". In the new host form, enter "app-01" as the Host name and choose "Web servers" in the Groups field. Under Interfaces click Add, pick Agent, and write 192.0.2.31 in its IP address field. Finally click the Add button to save the host.`,
		},
		done: func(t testing.TB, z *testenv.Zabbix) string {
			return z.Differs(t, testenv.ZabbixState{"hosts": {zabbixNewHost: {"name": zabbixNewHost, "status": "0",
				"host_groups": testenv.ZabbixWebServers, "interfaces": zabbixAgent(zabbixNewHostIP), "templates": "", "proxy": ""}}})
		},
		do: func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix) {
			zabbixAddHost(t, b, z, testenv.ZabbixWebServers)
		},
		miss: func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix) {
			zabbixAddHost(t, b, z, testenv.ZabbixLinuxServers)
		},
	},
	{
		name: "create a user with a role",
		phrasings: [3]string{
			`{signin}, click "Administration", click "Users", click "Create user", type "mlopez" into "Username", type "Maria" into "Name", type "Lopez" into "Last name", select "Zabbix administrators" in "Groups", type "Lighthouse-Keeper-42" into "Password", type "Lighthouse-Keeper-42" into "Password (once again)", click the "Permissions" tab, select "Admin role" in "Role", click "Add"`,
			`{signin}, then go to Administration > Users and press Create user; fill Username with mlopez, Name with Maria and Last name with Lopez, add the Zabbix administrators group in Groups, enter Lighthouse-Keeper-42 as the Password and again in Password (once again), then on the Permissions tab choose Admin role as the Role and press Add`,
			`{signin} Open Users under Administration and click "Create user". On the User tab, the Username is mlopez, the Name is Maria and the Last name is Lopez; pick "Zabbix administrators" in the Groups field and type Lighthouse-Keeper-42 into both the Password field and the field labelled "Password (once again)". Then open the Permissions tab, select the role "Admin role" and click the Add button.`,
		},
		done: func(t testing.TB, z *testenv.Zabbix) string {
			if u := z.State(t)["users"][zabbixNewUser]; u != nil && !testenv.ZabbixPasswordIs(u["passwd"], zabbixNewPassword) {
				return "the user's password is not " + zabbixNewPassword
			}
			return z.Differs(t, testenv.ZabbixState{"users": {zabbixNewUser: {"name": zabbixNewUserName, "surname": zabbixNewUserSurname,
				"role": zabbixNewRole, "user_groups": zabbixNewUserGroup}}})
		},
		do:   func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix) { zabbixAddUser(t, b, z, zabbixNewRole) },
		miss: func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix) { zabbixAddUser(t, b, z, "User role") },
	},
	{
		name: "create a maintenance period",
		phrasings: [3]string{
			`{signin}, click "Configuration", click "Maintenance", click "Create maintenance period", type "Web patching" into "Name", click "Add" under "Periods", click "Add" in the "Maintenance period" dialog, select "Web servers" in "Host groups", click the "Add" button at the bottom of the form`,
			`{signin}, then open Configuration > Maintenance and press Create maintenance period. Name it Web patching, add a period (the one time only period the dialog suggests is fine), choose Web servers in Host groups and press Add`,
			`{signin} Go to Maintenance in the Configuration menu and click "Create maintenance period". Write "Web patching" in the field labelled "Name". In Periods, click the Add link and accept the period it proposes by clicking Add in the dialog. Then pick the host group "Web servers" in the Host groups field and click the Add button to save the maintenance period.`,
		},
		done: func(t testing.TB, z *testenv.Zabbix) string {
			if m := z.State(t)["maintenances"][zabbixMaintenance]; m != nil && (m["periods"] == "0" || m["periods"] == "") {
				return "the maintenance period has no periods"
			}
			return z.Differs(t, testenv.ZabbixState{"maintenances": {zabbixMaintenance: {"maintenance_type": "0",
				"host_groups": testenv.ZabbixWebServers, "hosts": ""}}})
		},
		do: func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix) {
			zabbixAddMaintenance(t, b, z, testenv.ZabbixWebServers)
		},
		miss: func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix) {
			zabbixAddMaintenance(t, b, z, testenv.ZabbixLinuxServers)
		},
	},
	{
		name: "give a host a visible name",
		phrasings: [3]string{
			`{signin}, click "Configuration", click "Hosts", click "db-01", type "Primary database" into "Visible name", click "Update"`,
			`{signin}, then go to Configuration > Hosts, open the host db-01, set Visible name to Primary database and press Update`,
			`{signin} Open the Hosts page from the Configuration menu and click the host named db-01. In the host form, put "Primary database" into the field labelled "Visible name", then click the Update button. Check that the list of hosts shows "Primary database".`,
		},
		done: func(t testing.TB, z *testenv.Zabbix) string {
			return z.Differs(t, testenv.ZabbixState{"hosts": {"db-01": {"name": zabbixVisibleName}}})
		},
		do:   func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix) { zabbixRenameHost(t, b, z, "db-01") },
		miss: func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix) { zabbixRenameHost(t, b, z, "web-01") },
	},
	{
		name: "disable a host",
		phrasings: [3]string{
			`{signin}, click "Configuration", click "Hosts", click "Enabled" in the row of "web-02", click "OK"`,
			`{signin}, then open Configuration > Hosts and disable the host web-02: press Enabled in its Status column and confirm with OK`,
			`{signin} Go to the Hosts page under Configuration. In the row of the host "web-02", click the green "Enabled" status so that it becomes Disabled, and confirm with OK when asked "Disable host?".`,
		},
		done: func(t testing.TB, z *testenv.Zabbix) string {
			return z.Differs(t, testenv.ZabbixState{"hosts": {"web-02": {"status": "1"}}})
		},
		do:   func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix) { zabbixDisableHost(t, b, z, "web-02") },
		miss: func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix) { zabbixDisableHost(t, b, z, "web-01") },
	},
	{
		name: "delete a host group",
		phrasings: [3]string{
			`{signin}, click "Configuration", click "Host groups", click "Staging servers", click "Delete", click "OK"`,
			`{signin}, then go to Configuration > Host groups, open Staging servers, press Delete and confirm with OK`,
			`{signin} Open Host groups in the Configuration menu. Click the group named "Staging servers", then click the Delete button and confirm the deletion by clicking OK. Check that "Staging servers" is no longer in the list.`,
		},
		done: func(t testing.TB, z *testenv.Zabbix) string {
			return z.Differs(t, testenv.ZabbixState{"hstgrp": {testenv.ZabbixStaging: nil}})
		},
		do: func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix) {
			zabbixDeleteGroup(t, b, z, testenv.ZabbixStaging)
		},
		miss: func(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix) {
			zabbixDeleteGroup(t, b, z, testenv.ZabbixTest)
		},
	},
}

// zabbixAgent is how the judges read a host's one Zabbix agent interface at ip.
func zabbixAgent(ip string) string {
	return "type 1 ip " + ip + " dns  port 10050 useip 1 main 1"
}

// zabbixMenu opens the dashboard and follows the menu's entry to href.
func zabbixMenu(t testing.TB, b *testenv.ZabbixBrowser, href string) {
	t.Helper()
	b.Open(t, "/zabbix.php?action=dashboard.view")
	b.Click(t, href)
}

// zabbixAddGroup adds a host group named name through Host groups' Create host group.
func zabbixAddGroup(t testing.TB, b *testenv.ZabbixBrowser, name string) {
	t.Helper()
	zabbixMenu(t, b, "hostgroups.php")
	b.Click(t, "hostgroups.php?form=create")
	f := b.Form(t, `name="hostgroupForm"`)
	f.Fields.Set("name", name)
	b.Send(t, f, "add", "Add")
}

// zabbixAddHost adds the host app-01 in group, with a Zabbix agent interface at the goal's
// address, through Hosts' Create host dialog, sent as the dialog's script sends it (the
// group picked in Groups, the interface Interfaces' Add made).
func zabbixAddHost(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix, group string) {
	t.Helper()
	zabbixMenu(t, b, "zabbix.php?action=host.list")
	b.Popup(t, "popup.host.edit", url.Values{})
	f := b.Form(t, `id="host-form"`)
	f.Fields.Set("host", zabbixNewHost)
	f.Fields.Add("groups[]", z.GroupID(t, group))
	zabbixInterface(f, "1", true, zabbixNewHostIP)
	b.Fetch(t, f.Action, f.Fields)
}

// zabbixInterface adds to a host form the fields of a Zabbix agent interface (id, new or
// not, at ip), the main one of its type, as the form's interface rows send them.
func zabbixInterface(f *testenv.PhpLDAPadminForm, id string, isNew bool, ip string) {
	p := "interfaces[" + id + "]"
	for k, v := range map[string]string{"[interfaceid]": id, "[type]": "1", "[ip]": ip, "[dns]": "", "[useip]": "1", "[port]": "10050", "[items]": ""} {
		f.Fields.Set(p+k, v)
	}
	f.Fields.Set(p+"[isNew]", map[bool]string{true: "true", false: ""}[isNew])
	f.Fields.Set("mainInterfaces[1]", id)
}

// zabbixAddUser adds the user mlopez with the goal's name, group and password, and the
// role role, through Users' Create user.
func zabbixAddUser(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix, role string) {
	t.Helper()
	zabbixMenu(t, b, "zabbix.php?action=user.list")
	b.Click(t, "zabbix.php?action=user.edit")
	f := b.Form(t, `id="user-form"`)
	for k, v := range map[string]string{"username": zabbixNewUser, "name": zabbixNewUserName, "surname": zabbixNewUserSurname,
		"password1": zabbixNewPassword, "password2": zabbixNewPassword} {
		f.Fields.Set(k, v)
	}
	f.Fields.Set("user_groups[]", z.Query(t, "SELECT usrgrpid FROM usrgrp WHERE name = '"+zabbixNewUserGroup+"'")[0]["usrgrpid"])
	f.Fields.Set("roleid", z.Query(t, "SELECT roleid FROM role WHERE name = '"+role+"'")[0]["roleid"])
	b.Send(t, f, "action", "user.create")
}

// zabbixAddMaintenance adds the maintenance period Web patching for group through
// Maintenance's Create maintenance period: the name, a period from the Periods' Add dialog
// as it proposes it (one time only, from now, an hour), which sends the form back with the
// period in it, then the host group, and Add.
func zabbixAddMaintenance(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix, group string) {
	t.Helper()
	zabbixMenu(t, b, "maintenance.php")
	b.Click(t, "maintenance.php?form=create")
	f := b.Form(t, `id="maintenance-form"`)
	f.Fields.Set("mname", zabbixMaintenance)
	b.Popup(t, "popup.maintenance.period", url.Values{"index": {"0"}})
	d := b.Form(t, `id="maintenance_period_form"`)
	period := url.Values{}
	for _, k := range []string{"action", "refresh", "update", "index", "timeperiod_type", "start_date", "period_days", "period_hours", "period_minutes"} {
		period.Set(k, d.Fields.Get(k))
	}
	var params map[string]any
	if err := json.Unmarshal(b.Fetch(t, "zabbix.php?sid="+b.Sid(t), period)["params"], &params); err != nil || len(params) == 0 {
		t.Fatalf("zabbix: the period dialog answered no period: %v", err)
	}
	for k, v := range params {
		if k != "index" {
			f.Fields.Set("timeperiods[0]["+k+"]", fmt.Sprint(v))
		}
	}
	b.Send(t, f, "", "")
	f = b.Form(t, `id="maintenance-form"`)
	f.Fields.Add("groupids[]", z.GroupID(t, group))
	b.Send(t, f, "add", "Add")
}

// zabbixHostID is the id of the host named host.
func zabbixHostID(t testing.TB, z *testenv.Zabbix, host string) string {
	t.Helper()
	return z.Query(t, "SELECT hostid FROM hosts WHERE host = '"+host+"'")[0]["hostid"]
}

// zabbixInit is the data a host dialog's script starts from: its interfaces.
var zabbixInit = regexp.MustCompile(`\.init\((\{"popup_url".*?\})\);`)

// zabbixRenameHost sets host's Visible name to the goal's through the host's dialog (its
// name in Hosts' list opens it), sent as the dialog's script sends it: the form's fields
// and the host's interfaces as the dialog shows them.
func zabbixRenameHost(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix, host string) {
	t.Helper()
	zabbixMenu(t, b, "zabbix.php?action=host.list")
	id := zabbixHostID(t, z, host)
	if !strings.Contains(html.UnescapeString(b.Page()), `href="zabbix.php?action=host.edit&hostid=`+id+`">`+host+`</a>`) {
		t.Fatalf("zabbix: Hosts does not list %s", host)
	}
	page := b.Popup(t, "popup.host.edit", url.Values{"hostid": {id}})
	var init struct {
		Interfaces []struct{ InterfaceID, Type, IP string } `json:"host_interfaces"`
	}
	m := zabbixInit.FindStringSubmatch(page)
	if m == nil || json.Unmarshal([]byte(m[1]), &init) != nil || len(init.Interfaces) != 1 {
		t.Fatalf("zabbix: the host dialog of %s has no interfaces to start from", host)
	}
	f := b.Form(t, `id="host-form"`)
	f.Fields.Set("visiblename", zabbixVisibleName)
	zabbixInterface(f, init.Interfaces[0].InterfaceID, false, init.Interfaces[0].IP)
	b.Fetch(t, f.Action, f.Fields)
}

// zabbixEnabled is a host's Enabled link in Hosts' list: the address its script posts.
var zabbixEnabled = regexp.MustCompile(`redirect\('(zabbix\.php\?action=popup\.massupdate\.host&hostids%5B0%5D=(\d+)&[^']*)'`)

// zabbixDisableHost presses the Enabled link in host's row of Hosts' list and answers OK.
func zabbixDisableHost(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix, host string) {
	t.Helper()
	zabbixMenu(t, b, "zabbix.php?action=host.list")
	id := zabbixHostID(t, z, host)
	for _, m := range zabbixEnabled.FindAllStringSubmatch(html.UnescapeString(b.Page()), -1) {
		if m[2] == id {
			b.PostLink(t, m[1])
			return
		}
	}
	t.Fatalf("zabbix: Hosts shows no Enabled link for %s", host)
}

// zabbixDeleteGroup opens group from Host groups' list and presses Delete, answering OK.
func zabbixDeleteGroup(t testing.TB, b *testenv.ZabbixBrowser, z *testenv.Zabbix, group string) {
	t.Helper()
	zabbixMenu(t, b, "hostgroups.php")
	id := z.GroupID(t, group)
	b.Click(t, "hostgroups.php?form=update&groupid="+id)
	del := "hostgroups.php?delete=1&form=update&groupid=" + id
	if !strings.Contains(b.Page(), "redirect('"+del+"', 'post')") {
		t.Fatalf("zabbix: the host group %s has no Delete button", group)
	}
	b.PostLink(t, del)
}
