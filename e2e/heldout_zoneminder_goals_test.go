//go:build heldout

package e2e

import (
	"maps"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// zoneminderGoal is an everyday goal on ZoneMinder's console, written three ways (each
// with {signin} where it signs in): done says what the database lacks ("" when it holds
// exactly the goal's effect and nothing else changed), do makes the effect through the
// console's pages, miss makes a near miss of it.
type zoneminderGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, z *testenv.ZoneMinder) string
	do, miss  func(t *testing.T, b *testenv.ZoneMinderBrowser)
}

// The goals' own values.
const (
	zmNewMonitor  = "Garage"
	zmNewPath     = "rtsp://192.0.2.16:554/stream1"
	zmRenamed     = "Back Porch"
	zmNewUser     = "nina"
	zmNewPassword = "Nina-Watch-2024"
	zmBanner      = "Camera maintenance on Friday"
	zmNewGroup    = "Front Entrances"
)

// zmNewUserPerms are the permissions the new user is given.
var zmNewUserPerms = map[string]string{"Stream": "View", "Events": "Edit", "Monitors": "View"}

// zmMonitor is the seed's row of the monitor name with changes made.
func zmMonitor(z *testenv.ZoneMinder, name string, changes map[string]string) map[string]string {
	row := maps.Clone(z.Seed()["Monitors"][name])
	maps.Copy(row, changes)
	return row
}

var zoneminderGoals = []zoneminderGoal{
	{
		name: "add a monitor",
		phrasings: [3]string{
			`{signin}, click "Add", type "Garage" into "Name", select "Record" in "Function", click "Source", type "rtsp://192.0.2.16:554/stream1" into "Source Path", select "640x480" in "Capture Resolution (pixels)", click "Save"`,
			`{signin}. On the console press Add, name the new monitor Garage and set its Function to Record, then on the Source tab put rtsp://192.0.2.16:554/stream1 in Source Path, pick 640x480 as the Capture Resolution (pixels) and hit Save.`,
			`{signin} Then add a camera: click the Add button above the monitor list, enter "Garage" in the Name field and choose Record from the Function list. Open the "Source" tab, type rtsp://192.0.2.16:554/stream1 into the field labelled Source Path and choose 640x480 under Capture Resolution (pixels). Click Save.`,
		},
		done: func(t *testing.T, z *testenv.ZoneMinder) string {
			return z.Differs(t, testenv.ZoneMinderState{"Monitors": {zmNewMonitor: {"Type": "Ffmpeg", "Function": "Record", "Path": zmNewPath,
				"Width": "640", "Height": "480", "Enabled": "*", "DecodingEnabled": "*", "Notes": "*"}}})
		},
		do: func(t *testing.T, b *testenv.ZoneMinderBrowser) {
			b.AddMonitor(t, map[string]string{"Name": zmNewMonitor, "Function": "Record", "Path": zmNewPath})
		},
		miss: func(t *testing.T, b *testenv.ZoneMinderBrowser) {
			b.AddMonitor(t, map[string]string{"Name": zmNewMonitor, "Function": "Record", "Path": "rtsp://192.0.2.61:554/stream1"})
		},
	},
	{
		name: "rename a monitor",
		phrasings: [3]string{
			`{signin}, tick the checkbox in the row of "Back Door", click "Edit", type "Back Porch" into "Name", click "Save"`,
			`{signin}, then in the monitor list tick Back Door's box and press Edit; change the Name from Back Door to "Back Porch" and click Save.`,
			`{signin} Rename the Back Door camera: select its row on the console with the checkbox at the end of the row, hit "Edit", replace the text in the Name field with Back Porch and press Save.`,
		},
		done: func(t *testing.T, z *testenv.ZoneMinder) string {
			return z.Differs(t, testenv.ZoneMinderState{"Monitors": {"Back Door": nil, zmRenamed: zmMonitor(z, "Back Door", nil)}})
		},
		do: func(t *testing.T, b *testenv.ZoneMinderBrowser) {
			b.EditMonitor(t, "Back Door", map[string]string{"Name": zmRenamed})
		},
		miss: func(t *testing.T, b *testenv.ZoneMinderBrowser) {
			b.EditMonitor(t, "Back Yard", map[string]string{"Name": zmRenamed})
		},
	},
	{
		name: "change a monitor's function",
		phrasings: [3]string{
			`{signin}, click "Monitor" in the Function column of the row of "Front Gate", select "Modect" in "Function", click "Save"`,
			`{signin}. In Front Gate's row on the console, click its function (Monitor), choose Modect in the Function list of the window that opens and press Save.`,
			`{signin} Then switch the camera "Front Gate" to motion detection: click "Monitor" under Function in the Front Gate row, pick Modect from the Function dropdown and hit Save.`,
		},
		done: func(t *testing.T, z *testenv.ZoneMinder) string {
			return z.Differs(t, testenv.ZoneMinderState{"Monitors": {"Front Gate": {"Function": "Modect"}}})
		},
		do:   func(t *testing.T, b *testenv.ZoneMinderBrowser) { b.SetFunction(t, "Front Gate", "Modect") },
		miss: func(t *testing.T, b *testenv.ZoneMinderBrowser) { b.SetFunction(t, "Front Door", "Modect") },
	},
	{
		name: "find a monitor and delete it",
		phrasings: [3]string{
			`{signin}, select "Outdoor" in the "Group" filter above the monitor list, tick the checkbox in the row of "Back Yard", click "Delete", accept the confirmation`,
			`{signin}, filter the console to the Outdoor group with the Group filter at the top, then tick the box on the Back Yard row, press Delete and confirm.`,
			`{signin} On the console, narrow the list down by choosing Outdoor under "Group" in the filters, select the Back Yard camera with the checkbox at the end of its row, click Delete and answer OK to the warning.`,
		},
		done: func(t *testing.T, z *testenv.ZoneMinder) string {
			return z.Differs(t, testenv.ZoneMinderState{"Monitors": {"Back Yard": nil}, "Groups": {testenv.ZoneMinderGroup: {"monitors": "Driveway"}}})
		},
		do: func(t *testing.T, b *testenv.ZoneMinderBrowser) {
			b.DeleteMonitors(t, testenv.ZoneMinderGroup, "Back Yard")
		},
		miss: func(t *testing.T, b *testenv.ZoneMinderBrowser) {
			b.DeleteMonitors(t, testenv.ZoneMinderGroup, "Driveway")
		},
	},
	{
		name: "add a user with permissions",
		phrasings: [3]string{
			`{signin}, click "Options", click "Users", click "Add New User", type "nina" into "Username", type "Nina-Watch-2024" into "New Password", type "Nina-Watch-2024" into "Confirm Password", select "View" in "Stream", select "Edit" in "Events", select "View" in "Monitors", click "Save"`,
			`{signin}, go to Options, open the Users tab and press Add New User. Username nina, New Password and Confirm Password both Nina-Watch-2024; set Stream to View, Events to Edit and Monitors to View, then Save.`,
			`{signin} Then create an account for Nina: Options in the top menu, the "Users" tab on the left, "Add New User". Enter nina as the Username, type Nina-Watch-2024 into New Password and again into Confirm Password, choose View for Stream, Edit for Events and View for Monitors, and click Save.`,
		},
		done: func(t *testing.T, z *testenv.ZoneMinder) string {
			if why := z.Differs(t, testenv.ZoneMinderState{"Users": {zmNewUser: testenv.ZoneMinderUserRow(zmNewUserPerms)}}); why != "" {
				return why
			}
			if !z.PasswordIs(t, zmNewUser, zmNewPassword) {
				return zmNewUser + "'s password is not the goal's"
			}
			return ""
		},
		do: func(t *testing.T, b *testenv.ZoneMinderBrowser) {
			b.AddUser(t, map[string]string{"Username": zmNewUser, "Password": zmNewPassword, "Stream": "View", "Events": "Edit", "Monitors": "View"})
		},
		miss: func(t *testing.T, b *testenv.ZoneMinderBrowser) {
			b.AddUser(t, map[string]string{"Username": zmNewUser, "Password": zmNewPassword, "Stream": "View", "Events": "View", "Monitors": "View"})
		},
	},
	{
		name: "set the console banner",
		phrasings: [3]string{
			`{signin}, click "Options", click "Web", type "Camera maintenance on Friday" into "WEB_CONSOLE_BANNER", click "Save"`,
			`{signin}, then under Options open the Web tab, put "Camera maintenance on Friday" in WEB_CONSOLE_BANNER and hit Save at the bottom.`,
			`{signin} Set the console banner: go to Options, choose the Web tab on the left, enter Camera maintenance on Friday in the field labelled WEB_CONSOLE_BANNER and press Save.`,
		},
		done: func(t *testing.T, z *testenv.ZoneMinder) string {
			return z.Differs(t, testenv.ZoneMinderState{"Config": {"ZM_WEB_CONSOLE_BANNER": {"Value": zmBanner}}})
		},
		do: func(t *testing.T, b *testenv.ZoneMinderBrowser) {
			b.SaveOptions(t, "web", map[string]string{"ZM_WEB_CONSOLE_BANNER": zmBanner})
		},
		miss: func(t *testing.T, b *testenv.ZoneMinderBrowser) {
			b.SaveOptions(t, "web", map[string]string{"ZM_WEB_CONSOLE_BANNER": "Camera maintenance on Monday"})
		},
	},
	{
		name: "create a group of monitors",
		phrasings: [3]string{
			`{signin}, click "Groups", click "New", type "Front Entrances" into "Name", select "Front Door" and "Front Gate" in "Monitor", click "Save"`,
			`{signin}. Open Groups from the top menu, press New, call the group Front Entrances, add Front Door and Front Gate in the Monitor box and click Save.`,
			`{signin} Then make a group of the two front cameras: Groups, then "New"; type Front Entrances into the Name field, pick both Front Door and Front Gate from the Monitor list, and hit Save.`,
		},
		done: func(t *testing.T, z *testenv.ZoneMinder) string {
			return z.Differs(t, testenv.ZoneMinderState{"Groups": {zmNewGroup: {"parent": "", "monitors": "Front Door, Front Gate"}}})
		},
		do: func(t *testing.T, b *testenv.ZoneMinderBrowser) {
			b.SaveGroup(t, "", zmNewGroup, "Front Door", "Front Gate")
		},
		miss: func(t *testing.T, b *testenv.ZoneMinderBrowser) { b.SaveGroup(t, "", zmNewGroup, "Front Door") },
	},
}
