//go:build heldout

package e2e

import (
	"maps"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// cactiGoal is an everyday goal on Cacti, written three ways as a person writes it from
// what the pages show ({signin} is the phrasing's way of signing in); done reads Cacti's
// database and says "" when the goal's effect is there and nothing else the judges read
// changed, else what it found; do makes the effect through Cacti's own pages along the
// goal's path, and miss a near miss the judge must not take for it (another device or
// tree, a neighbouring name or value).
type cactiGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, c *testenv.Cacti) string
	do, miss  func(t testing.TB, b *testenv.CactiBrowser)
}

const (
	cactiNewDevice   = "Branch Router"
	cactiNewHostname = "192.0.2.50"
	cactiRenamed     = "Backup Server"
	cactiNewTree     = "Branch Offices"
	cactiNewUser     = "jdoe"
	cactiNewFullName = "Jane Doe"
	cactiNewPassword = "Graphs-For-Jane-9"
	cactiCommunity   = "monitor-ro"
)

var cactiGoals = []cactiGoal{
	{
		name: "add a device",
		phrasings: [3]string{
			`{signin}, click "New Device", type "Branch Router" into "Description", type "192.0.2.50" into "Hostname", click "Create"`,
			`{signin}, then open Devices and press the + button to add a device; fill Description with Branch Router and Hostname with 192.0.2.50 and press Create`,
			`{signin} Under Create in the menu on the left, click New Device. Put "Branch Router" in the field labelled "Description" and 192.0.2.50 in the Hostname field, then click the Create button. Check that the page shows "Branch Router (192.0.2.50)".`,
		},
		done: func(t testing.TB, c *testenv.Cacti) string {
			return c.Differs(t, testenv.CactiState{"host": {cactiNewDevice: {"hostname": cactiNewHostname, "deleted": ""}}})
		},
		do:   func(t testing.TB, b *testenv.CactiBrowser) { cactiAddDevice(t, b, cactiNewHostname) },
		miss: func(t testing.TB, b *testenv.CactiBrowser) { cactiAddDevice(t, b, "192.0.2.51") },
	},
	{
		name: "rename a device",
		phrasings: [3]string{
			`{signin}, click "Devices", click "File Server", type "Backup Server" into "Description", click "Save"`,
			`{signin}, then go to Devices, open File Server, change its Description to Backup Server and press Save`,
			`{signin} Open the Devices page and click the device "File Server". Replace the text in the Description field with "Backup Server" and click Save.`,
		},
		done: func(t testing.TB, c *testenv.Cacti) string {
			seed := c.Seed()
			return c.Differs(t, testenv.CactiState{
				"host":             {"File Server": nil, cactiRenamed: maps.Clone(seed["host"]["File Server"])},
				"graph_tree_items": {"Default Tree > File Server": nil, "Default Tree > " + cactiRenamed: maps.Clone(seed["graph_tree_items"]["Default Tree > File Server"])},
			})
		},
		do:   func(t testing.TB, b *testenv.CactiBrowser) { cactiRenameDevice(t, b, "File Server") },
		miss: func(t testing.TB, b *testenv.CactiBrowser) { cactiRenameDevice(t, b, "Web Server") },
	},
	{
		name: "delete a device",
		phrasings: [3]string{
			`{signin}, click "Devices", check the box in the row of "Old Printer", select "Delete" from "Choose an action", click "Go", click "Continue"`,
			`{signin}, then open Devices, tick Old Printer, choose the Delete action and press Go, then confirm with Continue`,
			`{signin} Go to Devices. Tick the checkbox next to the device "Old Printer", pick "Delete" in the actions menu at the bottom of the list and click Go. On the next page click the "Continue" button.`,
		},
		done: func(t testing.TB, c *testenv.Cacti) string {
			return c.Differs(t, testenv.CactiState{"host": {"Old Printer": nil}})
		},
		do:   func(t testing.TB, b *testenv.CactiBrowser) { cactiDeviceAction(t, b, "Delete", "Old Printer") },
		miss: func(t testing.TB, b *testenv.CactiBrowser) { cactiDeviceAction(t, b, "Delete", "Web Server") },
	},
	{
		name: "place a device on a tree",
		phrasings: [3]string{
			`{signin}, click "Devices", check the box in the row of "Core Switch", select "Place on a Tree (Network)" from "Choose an action", click "Go", click "Continue"`,
			`{signin}, then go to Devices, tick Core Switch, choose Place on a Tree (Network) in the action menu, press Go and then Continue`,
			`{signin} Open Devices and tick the box of "Core Switch". From the action list choose "Place on a Tree (Network)" and click Go. Leave the Destination Branch at [root] and click Continue.`,
		},
		done: func(t testing.TB, c *testenv.Cacti) string {
			return c.Differs(t, testenv.CactiState{"graph_tree_items": {testenv.CactiTreeNetwork + " > Core Switch": {"parent": ""}}})
		},
		do: func(t testing.TB, b *testenv.CactiBrowser) {
			cactiDeviceAction(t, b, "Place on a Tree ("+testenv.CactiTreeNetwork+")", "Core Switch")
		},
		miss: func(t testing.TB, b *testenv.CactiBrowser) {
			cactiDeviceAction(t, b, "Place on a Tree ("+testenv.CactiDefaultTree+")", "Core Switch")
		},
	},
	{
		name: "create a graph tree",
		phrasings: [3]string{
			`{signin}, click "Trees", click "Add Tree", type "Branch Offices" into "Name", select "Alphabetic Ordering" from "Sorting Type", click "Create"`,
			`{signin}, then open Trees and press the + button; fill Name with Branch Offices, set Sorting Type to Alphabetic Ordering and press Create`,
			`{signin} Go to Trees under Management and click the plus icon to add a tree. Name it "Branch Offices", choose Alphabetic Ordering in the field labelled "Sorting Type", then click Create.`,
		},
		done: func(t testing.TB, c *testenv.Cacti) string {
			return c.Differs(t, testenv.CactiState{"graph_tree": {cactiNewTree: {"sort_type": "2"}}})
		},
		do:   func(t testing.TB, b *testenv.CactiBrowser) { cactiAddTree(t, b, cactiNewTree) },
		miss: func(t testing.TB, b *testenv.CactiBrowser) { cactiAddTree(t, b, "Branch Office") },
	},
	{
		name: "add a user",
		phrasings: [3]string{
			`{signin}, click "Users", click "Add", type "jdoe" into "User Name", type "Jane Doe" into "Full Name", type "Graphs-For-Jane-9" into both "Password" fields, check "Enabled", click "Create"`,
			`{signin}, then open Users under Configuration and press the + button; fill User Name with jdoe and Full Name with Jane Doe, enter Graphs-For-Jane-9 as the password twice, tick Enabled and press Create`,
			`{signin} Go to Users and click the plus icon to add a user. In the field labelled "User Name" write jdoe, in "Full Name" write "Jane Doe". Type the password "Graphs-For-Jane-9" in the Password field and again in the confirmation field below it. Tick the "Enabled" box, then click the Create button.`,
		},
		done: func(t testing.TB, c *testenv.Cacti) string {
			if why := c.Differs(t, testenv.CactiState{"user_auth": {cactiNewUser: {"full_name": cactiNewFullName, "enabled": "on", "realm": "0", "password": "*"}}}); why != "" {
				return why
			}
			for _, u := range c.Query(t, "SELECT password FROM user_auth WHERE username = 'jdoe'") {
				if !testenv.CactiPasswordIs(u["password"], cactiNewPassword) {
					return "jdoe's password is not " + cactiNewPassword
				}
			}
			return ""
		},
		do:   func(t testing.TB, b *testenv.CactiBrowser) { cactiAddUser(t, b, "on") },
		miss: func(t testing.TB, b *testenv.CactiBrowser) { cactiAddUser(t, b, "") },
	},
	{
		name: "change the default SNMP community",
		phrasings: [3]string{
			`{signin}, click "Settings", click "Device Defaults", type "monitor-ro" into "Community", click "Save"`,
			`{signin}, then open Settings, go to the Device Defaults tab, set Community to monitor-ro and press Save`,
			`{signin} In Settings, open the "Device Defaults" tab. Under SNMP Defaults, replace public in the Community field with "monitor-ro", then click the Save button.`,
		},
		done: func(t testing.TB, c *testenv.Cacti) string {
			return c.Differs(t, testenv.CactiState{"settings": {"snmp_community": {"value": cactiCommunity}}})
		},
		do:   func(t testing.TB, b *testenv.CactiBrowser) { cactiSetCommunity(t, b, cactiCommunity) },
		miss: func(t testing.TB, b *testenv.CactiBrowser) { cactiSetCommunity(t, b, "monitor-rw") },
	},
}

// cactiDevices opens the console and follows its menu's Devices.
func cactiDevices(t testing.TB, b *testenv.CactiBrowser) {
	t.Helper()
	b.Open(t, "/index.php")
	b.Click(t, "/host.php")
}

// cactiAddDevice adds the device Branch Router at hostname through the menu's New Device.
func cactiAddDevice(t testing.TB, b *testenv.CactiBrowser, hostname string) {
	t.Helper()
	b.Open(t, "/index.php")
	b.Click(t, "/host.php?action=edit&create=true")
	b.Save(t, "host_form", map[string]string{"description": cactiNewDevice, "hostname": hostname})
}

// cactiRenameDevice opens device from the Devices list and saves it as Backup Server.
func cactiRenameDevice(t testing.TB, b *testenv.CactiBrowser, device string) {
	t.Helper()
	cactiDevices(t, b)
	b.OpenRow(t, device)
	b.Save(t, "host_form", map[string]string{"description": cactiRenamed})
}

// cactiDeviceAction ticks device in the Devices list, chooses action, presses Go and
// then Continue on the page that asks to confirm.
func cactiDeviceAction(t testing.TB, b *testenv.CactiBrowser, action, device string) {
	t.Helper()
	cactiDevices(t, b)
	b.Act(t, action, device)
	b.Save(t, "form1", nil)
}

// cactiAddTree adds a tree named name, sorted alphabetically, through Trees' Add.
func cactiAddTree(t testing.TB, b *testenv.CactiBrowser, name string) {
	t.Helper()
	b.Open(t, "/index.php")
	b.Click(t, "/tree.php")
	b.Click(t, "tree.php?action=edit")
	b.Save(t, "tree_edit", map[string]string{"name": name, "sort_type": "2"})
}

// cactiAddUser adds jdoe through Users' Add, its Enabled box ticked ("on") or not ("").
func cactiAddUser(t testing.TB, b *testenv.CactiBrowser, enabled string) {
	t.Helper()
	b.Open(t, "/index.php")
	b.Click(t, "/user_admin.php")
	b.Click(t, "user_admin.php?tab=general&action=user_edit")
	b.Save(t, "form1", map[string]string{"username": cactiNewUser, "full_name": cactiNewFullName,
		"password": cactiNewPassword, "password_confirm": cactiNewPassword, "enabled": enabled})
}

// cactiSetCommunity writes community into Settings' Device Defaults tab and presses Save.
func cactiSetCommunity(t testing.TB, b *testenv.CactiBrowser, community string) {
	t.Helper()
	b.Open(t, "/index.php")
	b.Click(t, "/settings.php")
	b.Click(t, "settings.php?tab=snmp")
	b.Save(t, "form_settings", map[string]string{"snmp_community": community})
}
