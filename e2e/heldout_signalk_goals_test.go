//go:build heldout

package e2e

import (
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// signalkGoal is one everyday goal of a Signal K admin: its phrasings ({signin} is where
// the sign-in goes), its judge (what the configuration files lack, "" when they hold
// exactly the goal's effect), its effect made through the admin UI's own requests, and a
// near miss of it.
type signalkGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.SignalK) string
	do        func(t testing.TB, b *testenv.SignalKBrowser)
	miss      func(t testing.TB, b *testenv.SignalKBrowser)
}

// signalkLenaPassword is the password the new crew member's goal gives her.
const signalkLenaPassword = "Watch-Lena-42"

// signalkAISPlugin is the plugin the search-and-act goal enables.
const signalkAISPlugin = "signalk-n2kais-to-nmea0183"

// signalkExactly says how the configuration files differ from the seed with change made
// ("" when they hold exactly that).
func signalkExactly(t testing.TB, w *testenv.SignalK, change func(want testenv.SignalKState)) string {
	want := w.Seed()
	change(want)
	return w.Differs(t, want)
}

var signalkGoals = []signalkGoal{
	{
		name: "add user lena (Read/Write)",
		phrasings: [3]string{
			`{signin}, click "Security", click "Users", click "Add", type "lena" into "User ID", type "Watch-Lena-42" into "Password", type "Watch-Lena-42" into "Confirm Password", select "Read/Write" in "Permissions", click "Apply"`,
			`{signin}. Then open Security in the menu on the left and go to Users, press Add under the list, enter lena as the User ID, put Watch-Lena-42 in both the Password and Confirm Password fields, pick "Read/Write" from Permissions and hit Apply.`,
			`{signin} Once you're in, expand "Security" in the sidebar, click Users, then click the Add button below the user table. In the new User form fill the field labelled User ID with "lena", Password with "Watch-Lena-42" and Confirm Password with "Watch-Lena-42" too, set Permissions to Read/Write, and click Apply.`,
		},
		done: func(t testing.TB, w *testenv.SignalK) string {
			if why := signalkExactly(t, w, func(want testenv.SignalKState) {
				want["user"]["lena"], want["password"]["lena"] = "readwrite", "*"
			}); why != "" {
				return why
			}
			if !w.PasswordIs(t, "lena", signalkLenaPassword) {
				return "lena's password is not the one the goal gives"
			}
			return ""
		},
		do: func(t testing.TB, b *testenv.SignalKBrowser) { b.AddUser(t, "lena", signalkLenaPassword, "readwrite") },
		miss: func(t testing.TB, b *testenv.SignalKBrowser) {
			b.AddUser(t, "lena", signalkLenaPassword, "readonly") // Permissions left at Read Only
		},
	},
	{
		name: "give martin Read/Write",
		phrasings: [3]string{
			`{signin}, click "Security", click "Users", click "martin", select "Read/Write" in "Permissions", click "Apply"`,
			`{signin}, then go to Security > Users in the left menu, click the row of martin in the user table (not marta), change Permissions to Read/Write and press Apply.`,
			`{signin} Then open "Security" in the sidebar and choose "Users". Click on the user martin in the table, switch the field labelled Permissions from Read Only to "Read/Write", and hit Apply.`,
		},
		done: func(t testing.TB, w *testenv.SignalK) string {
			return signalkExactly(t, w, func(want testenv.SignalKState) { want["user"]["martin"] = "readwrite" })
		},
		do: func(t testing.TB, b *testenv.SignalKBrowser) { b.EditUser(t, "martin", "", "readwrite") },
		miss: func(t testing.TB, b *testenv.SignalKBrowser) {
			b.EditUser(t, "martin", "", "admin") // the option below Read/Write
		},
	},
	{
		name: "delete user charter-guest",
		phrasings: [3]string{
			`{signin}, click "Security", click "Users", click "charter-guest", click "Delete"`,
			`{signin}, open Security in the menu on the left, then Users, click charter-guest in the list (not guest) and press the Delete button at the bottom of its form.`,
			`{signin} After that go to "Security" and then "Users" in the sidebar, click the row of "charter-guest" and click Delete.`,
		},
		done: func(t testing.TB, w *testenv.SignalK) string {
			return signalkExactly(t, w, func(want testenv.SignalKState) {
				delete(want["user"], "charter-guest")
				delete(want["password"], "charter-guest")
			})
		},
		do: func(t testing.TB, b *testenv.SignalKBrowser) { b.DeleteUser(t, "charter-guest") },
		miss: func(t testing.TB, b *testenv.SignalKBrowser) {
			b.DeleteUser(t, "guest") // the other guest
		},
	},
	{
		name: "rename the vessel, set its MMSI",
		phrasings: [3]string{
			`{signin}, click "Server", click "Settings", type "Nordlys II" into "Name", type "257998120" into "MMSI", click "Save" under "Vessel Base Data"`,
			`{signin}, then open Server > Settings in the left menu. In the Vessel Base Data card replace the Name with Nordlys II and the MMSI with 257998120, then press that card's Save button.`,
			`{signin} Then click "Server" in the sidebar and pick "Settings". Under Vessel Base Data, type "Nordlys II" into the field labelled Name and "257998120" into the MMSI field, and hit the Save button of the Vessel Base Data card.`,
		},
		done: func(t testing.TB, w *testenv.SignalK) string {
			return signalkExactly(t, w, func(want testenv.SignalKState) {
				want["vessel"]["name"], want["vessel"]["mmsi"] = `"Nordlys II"`, `"257998120"`
			})
		},
		do: func(t testing.TB, b *testenv.SignalKBrowser) {
			b.SaveVessel(t, map[string]any{"name": "Nordlys II", "mmsi": "257998120"})
		},
		miss: func(t testing.TB, b *testenv.SignalKBrowser) {
			b.SaveVessel(t, map[string]any{"name": "Nordlys II"}) // the MMSI left as it was
		},
	},
	{
		name: "add an NMEA 0183 TCP connection",
		phrasings: [3]string{
			`{signin}, click "Server", click "Data Connections", click "Add", select "NMEA 0183" in "Data Type", type "wind-mux" into "ID", select "TCP Client" in "NMEA 0183 Source", type "localhost" into "Host", type "10112" into "Port", click "Apply"`,
			`{signin}, then go to Server > Data Connections in the menu on the left and press Add below the Connections table. Set Data Type to NMEA 0183, enter wind-mux as the ID, choose TCP Client as the NMEA 0183 Source, put localhost in Host and 10112 in Port, and hit Apply.`,
			`{signin} Open "Server" in the sidebar, then "Data Connections", and click Add. In the form pick "NMEA 0183" for the field labelled Data Type, type "wind-mux" into ID, pick "TCP Client" under NMEA 0183 Source, then fill Host with "localhost" and Port with "10112". Click Apply.`,
		},
		done: func(t testing.TB, w *testenv.SignalK) string {
			return signalkExactly(t, w, func(want testenv.SignalKState) {
				want["connection"]["wind-mux"] = "type=NMEA0183; source=tcp; host=localhost; port=10112; enabled=true; logging=false"
			})
		},
		do: func(t testing.TB, b *testenv.SignalKBrowser) {
			b.AddConnection(t, "wind-mux", "NMEA0183", map[string]any{"type": "tcp", "host": "localhost", "port": "10112"})
		},
		miss: func(t testing.TB, b *testenv.SignalKBrowser) {
			// the seed's AIS receiver's port in place of the goal's
			b.AddConnection(t, "wind-mux", "NMEA0183", map[string]any{"type": "tcp", "host": "localhost", "port": "10110"})
		},
	},
	{
		name: "enable the AIS plugin, send self data",
		phrasings: [3]string{
			`{signin}, click "Server", click "Plugin Config", type "AIS" into "Search", click "N2K AIS to NMEA0183", check "Send self data", click "Save Configuration"`,
			`{signin}, then open Server > Plugin Config from the left menu, search for AIS in the Search box, click N2K AIS to NMEA0183 in the list (not AIS Status Manager), tick Send self data and press Save Configuration.`,
			`{signin} Next click "Server" in the sidebar and then "Plugin Config". Type AIS into the field labelled Search, open the plugin "N2K AIS to NMEA0183" from the results, turn on the "Send self data" checkbox and hit the Save Configuration button.`,
		},
		done: func(t testing.TB, w *testenv.SignalK) string {
			// The form fills NMEA 0183 Out Events in with its default, which the goal
			// leaves as it is (or leaves out).
			events := signalkAISPlugin + ".configuration.events"
			_, filled := w.State(t)["plugin"][events]
			return signalkExactly(t, w, func(want testenv.SignalKState) {
				want["plugin"][signalkAISPlugin+".enabled"] = "true"
				want["plugin"][signalkAISPlugin+".configuration.sendSelf"] = "true"
				if filled {
					want["plugin"][events] = `"nmea0183out"`
				}
			})
		},
		do: func(t testing.TB, b *testenv.SignalKBrowser) {
			b.SavePlugin(t, signalkAISPlugin, map[string]any{"configuration": map[string]any{"events": "nmea0183out", "sendSelf": true}, "enabled": true})
		},
		miss: func(t testing.TB, b *testenv.SignalKBrowser) {
			// saved, and so enabled, with Send self data left unticked
			b.SavePlugin(t, signalkAISPlugin, map[string]any{"configuration": map[string]any{"events": "nmea0183out", "sendSelf": false}, "enabled": true})
		},
	},
	{
		name: "allow readonly access",
		phrasings: [3]string{
			`{signin}, click "Security", click "Settings", switch on "Allow Readonly Access", click "Save"`,
			`{signin}, then go to Security > Settings in the left menu, turn on Allow Readonly Access and press Save.`,
			`{signin} Then open "Security" in the sidebar and choose Settings (the one under Security, not under Server). Flip the switch labelled Allow Readonly Access to Yes and click Save.`,
		},
		done: func(t testing.TB, w *testenv.SignalK) string {
			return signalkExactly(t, w, func(want testenv.SignalKState) { want["security"]["allow_readonly"] = "true" })
		},
		do: func(t testing.TB, b *testenv.SignalKBrowser) {
			b.SaveSecurity(t, func(form map[string]any) { form["allow_readonly"] = true })
		},
		miss: func(t testing.TB, b *testenv.SignalKBrowser) {
			// the switch below it
			b.SaveSecurity(t, func(form map[string]any) { form["allowNewUserRegistration"] = true })
		},
	},
}
