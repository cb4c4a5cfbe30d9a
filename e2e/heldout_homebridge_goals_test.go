//go:build heldout

package e2e

import (
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// homebridgeGoal is one everyday goal on the Homebridge UI: its phrasings (each starting
// with {signin}), its judge (what config.json and auth.json lack, "" when they hold
// exactly its effect and nothing else changed), its effect made through the UI's own
// requests, and a near miss of it.
type homebridgeGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, w *testenv.Homebridge) string
	do, miss  func(t *testing.T, b *testenv.HomebridgeBrowser)
}

// The passwords the goals give: the new user's, and Maria's new one.
const (
	homebridgeLenaPassword  = "Winter-Garden-31"
	homebridgeMariaPassword = "Sunflower-River-8"
)

// homebridgeExactly says what the storage lacks of the seed with change made to it ("" when
// it holds exactly that), then, when it holds it, which of the passwords (username →
// password) is not the one stored.
func homebridgeExactly(t *testing.T, w *testenv.Homebridge, change func(s testenv.HomebridgeState), passwords map[string]string) string {
	want := w.Seed()
	change(want)
	if why := w.Differs(t, want); why != "" {
		return why
	}
	for user, pw := range passwords {
		if !w.PasswordIs(t, user, pw) {
			return user + "'s password is not " + pw
		}
	}
	return ""
}

// homebridgeNoAdmin is the Admin User? switch turned off, for UserEdit.
var homebridgeNoAdmin = false

var homebridgeGoals = []homebridgeGoal{
	{
		name: "add a user who is not an admin",
		phrasings: [3]string{
			`{signin}, click "Settings" in the menu on the left, click "User Accounts", click "Add User", type "lena" into "Username", type "Lena Keller" into "Full Name", type "Winter-Garden-31" into "Password", type "Winter-Garden-31" into "Confirm Password", switch "Admin User?" off, click "Save", check that "Added New User" appears`,
			`{signin}. Then open Settings from the menu on the left, go to User Accounts and hit the Add User button (the person-with-a-plus icon at the top right). Fill in Username lena, Full Name "Lena Keller", and Winter-Garden-31 in both the Password and the Confirm Password fields; turn the Admin User? switch off, since Lena should not be an admin, then click Save.`,
			`{signin} Open Settings in the left menu, then User Accounts, and click Add User. Put "lena" in the field labelled Username and Lena Keller in Full Name, type Winter-Garden-31 into Password and again into Confirm Password, make sure Admin User? is switched off, and press Save.`,
		},
		done: func(t *testing.T, w *testenv.Homebridge) string {
			return homebridgeExactly(t, w, func(s testenv.HomebridgeState) {
				s["user"]["lena"], s["password"]["lena"] = "name=Lena Keller; admin=false", "*"
			}, map[string]string{"lena": homebridgeLenaPassword})
		},
		do: func(t *testing.T, b *testenv.HomebridgeBrowser) {
			b.AddUser(t, "lena", "Lena Keller", homebridgeLenaPassword, false)
		},
		// The dialog's Admin User? switch starts on: left on, Lena is an admin.
		miss: func(t *testing.T, b *testenv.HomebridgeBrowser) {
			b.AddUser(t, "lena", "Lena Keller", homebridgeLenaPassword, true)
		},
	},
	{
		name: "change Maria Keller's password",
		phrasings: [3]string{
			`{signin}, click "Settings" in the menu on the left, click "User Accounts", click "Edit" on the card of "Maria Keller", type "Sunflower-River-8" into "New Password", click "Save", check that "User Updated" appears`,
			`{signin}, then go to Settings (left menu) and User Accounts, press the Edit button (the pencil icon) in Maria Keller's card, enter Sunflower-River-8 in the New Password field and hit Save. Leave her name and her admin switch as they are.`,
			`{signin} In Settings on the left, open "User Accounts". On the card of Maria Keller (username maria, not Marie Brandt) click Edit, type Sunflower-River-8 into the field labelled New Password, then click Save.`,
		},
		done: func(t *testing.T, w *testenv.Homebridge) string {
			return homebridgeExactly(t, w, func(s testenv.HomebridgeState) { s["password"]["maria"] = "*" },
				map[string]string{"maria": homebridgeMariaPassword})
		},
		do: func(t *testing.T, b *testenv.HomebridgeBrowser) {
			b.EditUser(t, "maria", testenv.UserEdit{Password: homebridgeMariaPassword})
		},
		// Marie Brandt's card, next to Maria Keller's.
		miss: func(t *testing.T, b *testenv.HomebridgeBrowser) {
			b.EditUser(t, "marie", testenv.UserEdit{Password: homebridgeMariaPassword})
		},
	},
	{
		name: "take Jonas Keller's admin rights away",
		phrasings: [3]string{
			`{signin}, click "Settings" in the menu on the left, click "User Accounts", click "Edit" on the card of "Jonas Keller", switch "Admin User?" off, click "Save", check that "User Updated" appears`,
			`{signin}. Open Settings in the menu on the left and then User Accounts; on Jonas Keller's card press Edit, turn off the Admin User? toggle and click Save. Jonas should stay a user, just not an admin.`,
			`{signin} Go to Settings and then "User Accounts", hit Edit on the card of Jonas Keller, switch Admin User? off and press Save.`,
		},
		done: func(t *testing.T, w *testenv.Homebridge) string {
			return homebridgeExactly(t, w, func(s testenv.HomebridgeState) { s["user"]["jonas"] = "name=Jonas Keller; admin=false" }, nil)
		},
		do: func(t *testing.T, b *testenv.HomebridgeBrowser) {
			b.EditUser(t, "jonas", testenv.UserEdit{Admin: &homebridgeNoAdmin})
		},
		// The other admin's switch, Tom Fischer's.
		miss: func(t *testing.T, b *testenv.HomebridgeBrowser) {
			b.EditUser(t, "tom", testenv.UserEdit{Admin: &homebridgeNoAdmin})
		},
	},
	{
		name: "delete the Guest Tablet user",
		phrasings: [3]string{
			`{signin}, click "Settings" in the menu on the left, click "User Accounts", click "Delete" on the card of "Guest Tablet", check that "User Deleted" appears`,
			`{signin}, then open Settings from the left-hand menu, click User Accounts and press the red Delete button (trash icon) on the Guest Tablet card. Leave Kitchen Tablet alone.`,
			`{signin} In Settings (menu on the left) open User Accounts and click Delete in the card of "Guest Tablet", the one with username guest.`,
		},
		done: func(t *testing.T, w *testenv.Homebridge) string {
			return homebridgeExactly(t, w, func(s testenv.HomebridgeState) {
				delete(s["user"], "guest")
				delete(s["password"], "guest")
			}, nil)
		},
		do: func(t *testing.T, b *testenv.HomebridgeBrowser) { b.DeleteUser(t, "guest") },
		// The other tablet.
		miss: func(t *testing.T, b *testenv.HomebridgeBrowser) { b.DeleteUser(t, "kitchen") },
	},
	{
		name: "rename the bridge to Keller Home",
		phrasings: [3]string{
			`{signin}, click "Settings" in the menu on the left, type "Keller Home" into "Homebridge Name" in place of "Homebridge Loft"`,
			`{signin}. Then open Settings in the left menu and, under General, change the Homebridge Name field from Homebridge Loft to Keller Home; the page saves it by itself after a moment, there is no Save button.`,
			`{signin} Click Settings on the left, clear the field labelled "Homebridge Name" and enter Keller Home instead.`,
		},
		done: func(t *testing.T, w *testenv.Homebridge) string {
			return homebridgeExactly(t, w, func(s testenv.HomebridgeState) { s["bridge"]["name"] = `"Keller Home"` }, nil)
		},
		do:   func(t *testing.T, b *testenv.HomebridgeBrowser) { b.SetName(t, "Keller Home") },
		miss: func(t *testing.T, b *testenv.HomebridgeBrowser) { b.SetName(t, "Keller House") },
	},
	{
		name: "switch to Fahrenheit and dark mode",
		phrasings: [3]string{
			`{signin}, click "Settings" in the menu on the left, select "Fahrenheit (°F)" in "Temperature Units", select "Dark" in "Lighting Mode"`,
			`{signin}, then go to Settings in the left menu; in the Display section pick Fahrenheit (°F) for Temperature Units and set Lighting Mode to Dark. Both save on their own.`,
			`{signin} Open "Settings" from the left menu. Under Display, choose Dark in the Lighting Mode dropdown, then change Temperature Units to Fahrenheit.`,
		},
		done: func(t *testing.T, w *testenv.Homebridge) string {
			return homebridgeExactly(t, w, func(s testenv.HomebridgeState) {
				s["ui"]["tempUnits"], s["ui"]["lightingMode"] = `"f"`, `"dark"`
			}, nil)
		},
		do: func(t *testing.T, b *testenv.HomebridgeBrowser) {
			b.SetUISetting(t, "tempUnits", "f")
			b.SetUISetting(t, "lightingMode", "dark")
		},
		// Half of it: Fahrenheit, still in light mode.
		miss: func(t *testing.T, b *testenv.HomebridgeBrowser) { b.SetUISetting(t, "tempUnits", "f") },
	},
	{
		name: "search Settings for the bridge's port",
		phrasings: [3]string{
			`{signin}, click "Settings" in the menu on the left, click "Search...", type "port" into "Search...", type "51922" into "Homebridge Port" in place of "51871"`,
			`{signin}. Open Settings from the menu on the left, hit the search button (the magnifying glass at the top right), search for port, and in what it finds set Homebridge Port to 51922 (not the Start Port and not the UI port).`,
			`{signin} Go to Settings on the left, click the Search... button and type "port"; then change the field labelled Homebridge Port from 51871 to 51922.`,
		},
		done: func(t *testing.T, w *testenv.Homebridge) string {
			return homebridgeExactly(t, w, func(s testenv.HomebridgeState) { s["bridge"]["port"] = "51922" }, nil)
		},
		do: func(t *testing.T, b *testenv.HomebridgeBrowser) { b.SetPort(t, 51922) },
		// The field below it: Start Port.
		miss: func(t *testing.T, b *testenv.HomebridgeBrowser) { b.SetPortRange(t, 51922, 0) },
	},
}
