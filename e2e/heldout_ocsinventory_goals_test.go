//go:build heldout

package e2e

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// ocsGoal is an everyday goal on OCS Inventory's console, written three ways as a person
// writes it from what the pages show ({signin} is the phrasing's way of signing in); done
// reads the console's database and says "" when the goal's effect is there and nothing
// else the pages change did, else what it found; do makes the effect through the pages
// along the goal's path, and miss a near miss the judge must not take for it (another
// computer, group, profile, kind or value, a neighbouring name).
type ocsGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, o *testenv.OCSInventory) string
	do, miss  func(t testing.TB, b *testenv.OCSInventoryBrowser)
}

const (
	ocsNewGroup       = "Test Benches"
	ocsNewGroupDescr  = "Benches in room 2"
	ocsNewTag         = "LAB-B"
	ocsNewUser        = "mnovak"
	ocsNewUserFirst   = "Marta"
	ocsNewUserLast    = "Novak"
	ocsNewUserPass    = "Asset-Desk-2024"
	ocsNewField       = "ROOM"
	ocsNewFieldLabel  = "Room number"
	ocsFrequency      = "7"
	ocsDeleted        = "OFFICE-PC-02"
	ocsTagged         = "LAB-PC-02"
	ocsJoining        = "LAB-PC-10"
	ocsJoinedGroup    = "Lab Machines"
	ocsOtherGroup     = "Office Machines"
	ocsLocalAdmin     = "ladmin"
	ocsReadOnly       = "read-only"
	ocsComputersKind  = "COMPUTERS"
	ocsSNMPKind       = "SNMP"
	ocsMissFrequency  = "14"
	ocsMissGroup      = "Test Bench"
	ocsMissDeleted    = "OFFICE-PC-01"
	ocsMissTagged     = "LAB-PC-01"
	ocsUsersPage      = "/index.php?function=admin_user"
	ocsConfigPage     = "/index.php?function=admin_conf"
	ocsAdminDataPage  = "/index.php?function=admin_info"
	ocsCreateUserLink = "function=admin_add_user"
)

var ocsGoals = []ocsGoal{
	{
		name: "create a static group",
		phrasings: [3]string{
			`{signin}, click "Inventory", click "Groups", click "STATIC GROUPS", click "New static group", type "Test Benches" into "Group name", type "Benches in room 2" into "Description", click "OK"`,
			`{signin}, then open Inventory > Groups, go to the Static groups tab and press New static group; name it Test Benches with the description "Benches in room 2" and click OK`,
			`{signin} Once in, open the Inventory menu at the top and choose Groups. On the STATIC GROUPS tab hit the "New static group" button, fill in the field labelled Group name with "Test Benches" and the Description field with Benches in room 2, then press OK to create the group.`,
		},
		done: func(t testing.TB, o *testenv.OCSInventory) string {
			return ocsExactly(t, o, testenv.OCSInventoryState{
				"hardware": {ocsNewGroup: {"DEVICEID": "_SYSTEMGROUP_", "DESCRIPTION": ocsNewGroupDescr}},
				"groups":   {ocsNewGroup: {"REQUEST": "*"}},
			})
		},
		do: func(t testing.TB, b *testenv.OCSInventoryBrowser) { b.NewStaticGroup(t, ocsNewGroup, ocsNewGroupDescr) },
		miss: func(t testing.TB, b *testenv.OCSInventoryBrowser) {
			b.NewStaticGroup(t, ocsMissGroup, ocsNewGroupDescr)
		},
	},
	{
		name: "add a computer to a static group",
		phrasings: [3]string{
			`{signin}, click "All computers", click "LAB-PC-10", click "Configuration", select "Lab Machines" in the group list, click "Statically add to this group"`,
			`{signin}. In All computers open LAB-PC-10, go to its Configuration section, pick the group Lab Machines from the drop-down and hit "Statically add to this group"`,
			`{signin} Then click All computers in the top menu and open the computer named LAB-PC-10 by clicking its name in the list. In the menu on the left of its page choose Configuration, choose "Lab Machines" in the list of groups and press the Statically add to this group button, so that LAB-PC-10 becomes a member of Lab Machines.`,
		},
		done: func(t testing.TB, o *testenv.OCSInventory) string {
			return ocsExactly(t, o, testenv.OCSInventoryState{"groups_cache": {ocsJoinedGroup + " > " + ocsJoining: {"STATIC": "1"}}})
		},
		do:   func(t testing.TB, b *testenv.OCSInventoryBrowser) { b.AddToGroup(t, ocsJoining, ocsJoinedGroup) },
		miss: func(t testing.TB, b *testenv.OCSInventoryBrowser) { b.AddToGroup(t, ocsJoining, ocsOtherGroup) },
	},
	{
		name: "set a computer's TAG",
		phrasings: [3]string{
			`{signin}, click "All computers", click "LAB-PC-02", click "Administrative data", type "LAB-B" into "TAG", click "OK"`,
			`{signin}, then open LAB-PC-02 from All computers and in its Administrative data change the TAG to LAB-B, then OK`,
			`{signin} Go to All computers and click LAB-PC-02 in the list. On its Administrative data section (the first entry of the menu on the left), replace what is in the TAG field with "LAB-B" and click the OK button to save it.`,
		},
		done: func(t testing.TB, o *testenv.OCSInventory) string {
			return ocsExactly(t, o, testenv.OCSInventoryState{"accountinfo": {ocsTagged: {"TAG": ocsNewTag}}})
		},
		do:   func(t testing.TB, b *testenv.OCSInventoryBrowser) { ocsSetTag(t, b, ocsTagged) },
		miss: func(t testing.TB, b *testenv.OCSInventoryBrowser) { ocsSetTag(t, b, ocsMissTagged) },
	},
	{
		name: "find a computer and delete it",
		phrasings: [3]string{
			`{signin}, click "All computers", type "OFFICE-PC-02" into "Search", click the delete icon in the row "OFFICE-PC-02", click "OK" in the confirmation`,
			`{signin}, go to All computers, search for OFFICE-PC-02 and delete that computer with the red cross in its row (confirm with OK)`,
			`{signin} After that, open All computers and type OFFICE-PC-02 in the Search box above the list. In the row of OFFICE-PC-02 press the delete icon (the cross in the Actions column) and accept the "Do you really want to delete" question with OK. Only that computer should go.`,
		},
		done: func(t testing.TB, o *testenv.OCSInventory) string {
			return ocsExactly(t, o, ocsForget(o.Seed(), ocsDeleted))
		},
		do:   func(t testing.TB, b *testenv.OCSInventoryBrowser) { ocsDelete(t, b, ocsDeleted) },
		miss: func(t testing.TB, b *testenv.OCSInventoryBrowser) { ocsDelete(t, b, ocsMissDeleted) },
	},
	{
		name: "add a console user",
		phrasings: [3]string{
			`{signin}, click "Configuration", click "Users", click "Create user", type "mnovak" into "Login", select "Local administrators" in "Type", type "Marta" into "First name", type "Novak" into "Last name", type "Asset-Desk-2024" into "Password", click "OK"`,
			`{signin}; Configuration > Users > Create user: login mnovak, type Local administrators, first name Marta, last name Novak, password Asset-Desk-2024, then OK`,
			`{signin} Then open Configuration in the top menu and choose Users. Click "Create user" in the menu on the left, put mnovak in the Login field, choose Local administrators as the Type, write Marta as First name and Novak as Last name, set the password to "Asset-Desk-2024" in the field labelled Password and hit OK.`,
		},
		done: func(t testing.TB, o *testenv.OCSInventory) string { return ocsUserAdded(t, o) },
		do:   func(t testing.TB, b *testenv.OCSInventoryBrowser) { ocsAddUser(t, b, ocsLocalAdmin) },
		miss: func(t testing.TB, b *testenv.OCSInventoryBrowser) { ocsAddUser(t, b, ocsReadOnly) },
	},
	{
		name: "set the inventory frequency",
		phrasings: [3]string{
			`{signin}, click "Configuration", click "General configuration", click "Inventory", select "Custom" for "FREQUENCY", type "7" into the "day(s)" field, click "Update"`,
			`{signin}, then in Configuration > General configuration, on the Inventory tab, set FREQUENCY to Custom with 7 day(s) and press Update`,
			`{signin} Open Configuration and then General configuration. On the Inventory tab, under FREQUENCY, switch from Always inventoried to the Custom option, enter 7 in the day(s) box next to it, and click the Update button at the bottom so the agents are inventoried once a week.`,
		},
		done: func(t testing.TB, o *testenv.OCSInventory) string {
			return ocsExactly(t, o, testenv.OCSInventoryState{"config": {"FREQUENCY": {"IVALUE": ocsFrequency}}})
		},
		do:   func(t testing.TB, b *testenv.OCSInventoryBrowser) { ocsSetFrequency(t, b, ocsFrequency) },
		miss: func(t testing.TB, b *testenv.OCSInventoryBrowser) { ocsSetFrequency(t, b, ocsMissFrequency) },
	},
	{
		name: "add an administrative data field",
		phrasings: [3]string{
			`{signin}, click "Manage", click "Administrative data", click "New data", type "ROOM" into "New Field", type "Room number" into "Caption", select "TEXT" in "Field Type", click "Send"`,
			`{signin} and under Manage > Administrative data open the New data tab; add a computers field ROOM with caption Room number, type TEXT, and click Send`,
			`{signin} Next, go to Manage in the top menu and pick Administrative data. Switch to the New data tab, keep computers as the Administrative data kind, write ROOM in the New Field box and "Room number" as the Caption, leave the Field Type on TEXT and the Tab on TAG, then hit Send.`,
		},
		done: func(t testing.TB, o *testenv.OCSInventory) string {
			return ocsExactly(t, o, testenv.OCSInventoryState{"accountinfo_config": {
				ocsComputersKind + " / " + ocsNewField: {"TYPE": "0", "COMMENT": ocsNewFieldLabel, "ID_TAB": "1"}}})
		},
		do:   func(t testing.TB, b *testenv.OCSInventoryBrowser) { ocsAddField(t, b, ocsComputersKind) },
		miss: func(t testing.TB, b *testenv.OCSInventoryBrowser) { ocsAddField(t, b, ocsSNMPKind) },
	},
}

// ocsExactly says whether the database holds the seed with changes made and nothing else.
func ocsExactly(t testing.TB, o *testenv.OCSInventory, changes testenv.OCSInventoryState) string {
	return o.Differs(t, changes)
}

// ocsForget is the change that deleting the computer named name makes: every row of the
// seed that is the computer's or one of its parts gone (its settings, software, group
// memberships and administrative data with it).
func ocsForget(seed testenv.OCSInventoryState, name string) testenv.OCSInventoryState {
	changes := testenv.OCSInventoryState{}
	for table, rows := range seed {
		for key := range rows {
			if key == name || strings.HasPrefix(key, name+" > ") || strings.HasPrefix(key, name+" / ") || strings.HasSuffix(key, " > "+name) {
				if changes[table] == nil {
					changes[table] = map[string]map[string]string{}
				}
				changes[table][key] = nil
			}
		}
	}
	return changes
}

// ocsUserAdded says whether the database holds the seed and the goal's user, a Local
// administrator with the goal's names and password, and nothing else changed.
func ocsUserAdded(t testing.TB, o *testenv.OCSInventory) string {
	why := ocsExactly(t, o, testenv.OCSInventoryState{"operators": {ocsNewUser: {
		"FIRSTNAME": ocsNewUserFirst, "LASTNAME": ocsNewUserLast, "NEW_ACCESSLVL": ocsLocalAdmin}}})
	if why != "" {
		return why
	}
	if !testenv.OCSPasswordIs(o.State(t)["operators"][ocsNewUser]["PASSWD"], ocsNewUserPass) {
		return ocsNewUser + "'s password is not " + ocsNewUserPass
	}
	return ""
}

// ocsSetTag opens the computer's Administrative data, types the goal's TAG and presses OK.
func ocsSetTag(t testing.TB, b *testenv.OCSInventoryBrowser, computer string) {
	b.OpenComputer(t, computer, "admin")
	b.Save(t, "admin_info_computer", "Valid_modif", map[string]string{"TAG": ocsNewTag})
}

// ocsDelete searches All computers for the computer and confirms the delete icon of its
// row (which sends the list's form with SUP_PROF set to the row's id).
func ocsDelete(t testing.TB, b *testenv.OCSInventoryBrowser, computer string) {
	id := b.FindComputer(t, computer)
	if page := b.Pag(t, "show_all", "SUP_PROF", id); !strings.Contains(testenv.OCSText(page), computer+" deleted") {
		t.Fatalf("deleting %s shows no confirmation: %s", computer, testenv.OCSText(page))
	}
}

// ocsAddUser opens Configuration > Users, follows "Create user" and sends the form with
// the goal's user and the profile (Type) given.
func ocsAddUser(t testing.TB, b *testenv.OCSInventoryBrowser, profile string) {
	if page := b.Open(t, ocsUsersPage); !strings.Contains(page, ocsCreateUserLink) {
		t.Fatalf("the Users page has no Create user link: %s", testenv.OCSText(page))
	}
	b.Open(t, "/index.php?"+ocsCreateUserLink)
	b.Save(t, "my_account", "Valid_modif", map[string]string{"ID": ocsNewUser, "ACCESSLVL": profile,
		"FIRSTNAME": ocsNewUserFirst, "LASTNAME": ocsNewUserLast, "PASSWORD": ocsNewUserPass})
}

// ocsSetFrequency opens the General configuration's Inventory tab, chooses Custom for
// FREQUENCY with days day(s) and presses Update.
func ocsSetFrequency(t testing.TB, b *testenv.OCSInventoryBrowser, days string) {
	b.Open(t, ocsConfigPage)
	b.Save(t, "modif_onglet", "Valid", map[string]string{"FREQUENCY": "CUSTOM", "FREQUENCY_edit": days})
}

// ocsAddField opens Manage > Administrative data, its New data tab, and sends the goal's
// field for the kind of administrative data given (computers or SNMP).
func ocsAddField(t testing.TB, b *testenv.OCSInventoryBrowser, kind string) {
	b.Open(t, ocsAdminDataPage)
	b.Pag(t, "admin_info", "onglet", "2")
	b.Save(t, "admin_info", "Valid_modif", map[string]string{"accountinfo": kind, "newfield": ocsNewField,
		"newlbl": ocsNewFieldLabel, "newtype": "0", "account_tab": "1"})
}
