//go:build heldout

package e2e

import (
	"fmt"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// meshcentralGoal is an everyday goal of a MeshCentral administrator in its web app,
// written three ways as a person writes it from what the app shows ({signin} is the
// phrasing's way of signing in); done reads meshcentral.db and says "" when the goal's
// effect is there and nothing else the app changes did, else what it found; do makes the
// effect through the app's own commands along the goal's path, and miss a near miss the
// judge must not take for it (another group, account or box, a neighbouring name).
type meshcentralGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.MeshCentral) string
	do, miss  func(t testing.TB, b *testenv.MeshCentralBrowser)
}

const (
	meshcentralNewGroup    = "Warehouse Scanners"
	meshcentralRenamed     = "Lyon Branch"
	meshcentralNewUser     = "lucas"
	meshcentralNewEmail    = "lucas@acme.example"
	meshcentralNewPassword = "Welcome-Lucas-7"
	meshcentralAdminEmail  = "it-admin@acme.example"
	// Server Permissions' boxes, as the dialog adds them up.
	meshcentralLockAccount  = 32
	meshcentralLockSettings = 1024
	meshcentralEditGroup    = 1 // Add Users' Edit Device Group box
)

var meshcentralGoals = []meshcentralGoal{
	{
		name: "create a device group",
		phrasings: [3]string{
			`{signin}, click "Add Device Group", type "Warehouse Scanners" into "Name", click "OK"`,
			`{signin}, then on My Devices click Add Device Group, name it Warehouse Scanners (leave the Type on "Manage using a software agent") and hit OK`,
			`{signin} On the My Devices page click the "Add Device Group" link below the list of groups. In the New Device Group dialog type Warehouse Scanners in the field labelled Name, leave Type and Description as they are, and press OK.`,
		},
		done: func(t testing.TB, w *testenv.MeshCentral) string {
			return meshcentralGroupCreated(t, w, meshcentralNewGroup)
		},
		do:   func(t testing.TB, b *testenv.MeshCentralBrowser) { b.CreateGroup(t, meshcentralNewGroup, "") },
		miss: func(t testing.TB, b *testenv.MeshCentralBrowser) { b.CreateGroup(t, "Warehouse Scanner", "") },
	},
	{
		name: "rename a device group",
		phrasings: [3]string{
			`{signin}, click "Branch Office", click "Branch Office" in the heading "General - Branch Office", clear "Name", type "Lyon Branch" into "Name", click "OK"`,
			`{signin}, open the device group Branch Office from My Devices, click its name in the page title to edit it, change the Name to "Lyon Branch" and press OK`,
			`{signin} In My Devices click the group called Branch Office (not Branch Office Printers). On its General page click the group's name in the heading (the pencil beside it) to open Edit Device Group, replace what is in the Name field with Lyon Branch, keep the Description, then click OK.`,
		},
		done: func(t testing.TB, w *testenv.MeshCentral) string {
			return meshcentralExactly(t, w, func(s testenv.MeshCentralState) { meshcentralRename(s, "Branch Office", meshcentralRenamed) })
		},
		do: func(t testing.TB, b *testenv.MeshCentralBrowser) {
			b.RenameGroup(t, "Branch Office", meshcentralRenamed)
		},
		miss: func(t testing.TB, b *testenv.MeshCentralBrowser) {
			b.RenameGroup(t, "Branch Office Printers", meshcentralRenamed)
		},
	},
	{
		name: "add a user account",
		phrasings: [3]string{
			`{signin}, click "My Users", click "New Account...", type "lucas" into "Username", type "lucas@acme.example" into "Email", type "Welcome-Lucas-7" into the first "Password", type "Welcome-Lucas-7" into the second "Password", click "OK"`,
			`{signin}, go to My Users in the menu on the left and make a New Account: username lucas, email lucas@acme.example, password Welcome-Lucas-7 typed into both Password boxes, then OK`,
			`{signin} Then open My Users (the icon with two people in the left-hand menu) and press "New Account...". Fill the Username field with lucas and the Email field with lucas@acme.example, put Welcome-Lucas-7 into both Password fields, leave the check boxes unticked and click OK.`,
		},
		done: func(t testing.TB, w *testenv.MeshCentral) string {
			return meshcentralUserAdded(t, w, meshcentralNewUser)
		},
		do: func(t testing.TB, b *testenv.MeshCentralBrowser) {
			b.AddAccount(t, meshcentralNewUser, meshcentralNewEmail, meshcentralNewPassword)
		},
		miss: func(t testing.TB, b *testenv.MeshCentralBrowser) {
			b.AddAccount(t, "lukas", "lukas@acme.example", meshcentralNewPassword)
		},
	},
	{
		name: "lock a user account",
		phrasings: [3]string{
			`{signin}, click "My Users", type "omar" into "Filter", click "omar" in the list, click "No server rights", check "Lock Account", click "OK"`,
			`{signin}, in My Users filter the list for omar, open omar's account, click "No server rights" next to Server Rights, tick Lock Account and hit OK`,
			`{signin} Go to My Users on the left and type omar into the Filter box. In omar's row click "User" under Permissions to open Server Permissions, tick the box labelled Lock Account (only that one) and press OK.`,
		},
		done: func(t testing.TB, w *testenv.MeshCentral) string {
			return meshcentralExactly(t, w, func(s testenv.MeshCentralState) {
				s["user"]["omar"]["siteadmin"] = fmt.Sprint(meshcentralLockAccount)
			})
		},
		do: func(t testing.TB, b *testenv.MeshCentralBrowser) {
			b.SetServerPermissions(t, "omar", meshcentralLockAccount)
		},
		miss: func(t testing.TB, b *testenv.MeshCentralBrowser) {
			b.SetServerPermissions(t, "omar", meshcentralLockSettings)
		},
	},
	{
		name: "delete a device group",
		phrasings: [3]string{
			`{signin}, click "Old Kiosks", click "Delete Group", check "Confirm", click "OK"`,
			`{signin}, open the Old Kiosks device group, hit Delete Group at the bottom right, tick Confirm and OK`,
			`{signin} On My Devices click the device group "Old Kiosks" to open it, then click the Delete Group link at the bottom of its page. Tick the Confirm box in the dialog and press OK.`,
		},
		done: func(t testing.TB, w *testenv.MeshCentral) string { return meshcentralGroupDeleted(t, w, "Old Kiosks") },
		do:   func(t testing.TB, b *testenv.MeshCentralBrowser) { b.DeleteGroup(t, "Old Kiosks") },
		miss: func(t testing.TB, b *testenv.MeshCentralBrowser) { b.DeleteGroup(t, "Office PCs") },
	},
	{
		name: "add a user to a device group",
		phrasings: [3]string{
			`{signin}, click "Servers", click "Add Users", type "lisa" into "User Identifiers", check "Full Administrator", click "OK"`,
			`{signin}, open the device group Servers, Add Users, enter lisa as the User Identifiers, tick Full Administrator, OK`,
			`{signin} Open the "Servers" device group from My Devices and click Add Users just above the User Authorizations list. Type lisa into the User Identifiers field, tick Full Administrator at the top of the rights list and click OK.`,
		},
		done: func(t testing.TB, w *testenv.MeshCentral) string {
			return meshcentralExactly(t, w, func(s testenv.MeshCentralState) {
				full := fmt.Sprint(int64(testenv.MeshCentralFullRights))
				s["group"]["Servers"]["user:lisa"], s["user"]["lisa"]["group:Servers"] = full, full
			})
		},
		do: func(t testing.TB, b *testenv.MeshCentralBrowser) {
			b.AddMember(t, "Servers", "lisa", testenv.MeshCentralFullRights)
		},
		miss: func(t testing.TB, b *testenv.MeshCentralBrowser) {
			b.AddMember(t, "Servers", "lisa", meshcentralEditGroup)
		},
	},
	{
		name: "change my account's email address",
		phrasings: [3]string{
			`{signin}, click "My Account", click "Change email address", clear "Email", type "it-admin@acme.example" into "Email", click "OK"`,
			`{signin}, then under My Account use "Change email address" to set my email to it-admin@acme.example and press OK`,
			`{signin} Open My Account (the second icon in the menu on the left) and pick Change email address under Account actions. Replace what is in the Email field with it-admin@acme.example and click OK.`,
		},
		done: func(t testing.TB, w *testenv.MeshCentral) string {
			return meshcentralExactly(t, w, func(s testenv.MeshCentralState) {
				s["user"]["admin"]["email"], s["user"]["admin"]["emailVerified"] = meshcentralAdminEmail, "false"
			})
		},
		do:   func(t testing.TB, b *testenv.MeshCentralBrowser) { b.ChangeEmail(t, meshcentralAdminEmail) },
		miss: func(t testing.TB, b *testenv.MeshCentralBrowser) { b.ChangeEmail(t, "itadmin@acme.example") },
	},
}

// meshcentralExactly says "" when meshcentral.db holds the seed with change made and
// nothing else, else how it differs.
func meshcentralExactly(t testing.TB, w *testenv.MeshCentral, change func(testenv.MeshCentralState)) string {
	want := w.Seed()
	change(want)
	return w.Differs(t, want)
}

// meshcentralFull is Full Administrator's rights as the state has them.
var meshcentralFull = fmt.Sprint(int64(testenv.MeshCentralFullRights))

// meshcentralGroupCreated is the judge of a new agent-managed device group named name,
// made by admin (its Full Administrator), with any description.
func meshcentralGroupCreated(t testing.TB, w *testenv.MeshCentral, name string) string {
	return meshcentralExactly(t, w, func(s testenv.MeshCentralState) {
		s["group"][name] = map[string]string{"name": name, "mtype": "2", "desc": "*", "creatorid": "user//admin",
			"creatorname": "admin", "user:admin": meshcentralFull}
		s["user"]["admin"]["group:"+name] = meshcentralFull
	})
}

// meshcentralRename renames the device group from to to in s: the group and every link to it.
func meshcentralRename(s testenv.MeshCentralState, from, to string) {
	g := s["group"][from]
	delete(s["group"], from)
	g["name"] = to
	s["group"][to] = g
	for _, fields := range s["user"] {
		if r, ok := fields["group:"+from]; ok {
			delete(fields, "group:"+from)
			fields["group:"+to] = r
		}
	}
}

// meshcentralGroupDeleted is the judge of the device group name deleted: marked deleted
// (MeshCentral keeps a deleted group's document) and no account linked to it any more.
func meshcentralGroupDeleted(t testing.TB, w *testenv.MeshCentral, name string) string {
	return meshcentralExactly(t, w, func(s testenv.MeshCentralState) {
		s["group"][name]["deleted"] = "<date>"
		for _, fields := range s["user"] {
			delete(fields, "group:"+name)
		}
	})
}

// meshcentralUserAdded is the judge of a new account name: lucas's email, no server rights,
// no device group, and the password the goal gives.
func meshcentralUserAdded(t testing.TB, w *testenv.MeshCentral, name string) string {
	why := meshcentralExactly(t, w, func(s testenv.MeshCentralState) {
		s["user"][name] = map[string]string{"name": name, "email": meshcentralNewEmail, "password": "*"}
	})
	if why == "" && !w.PasswordIs(t, name, meshcentralNewPassword) {
		return fmt.Sprintf("%s's password is not %s", name, meshcentralNewPassword)
	}
	return why
}
