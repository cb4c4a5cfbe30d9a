//go:build heldout

package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// syncthingGoal is an everyday goal in Syncthing's GUI, written three ways as a person
// writes it from what the page shows (its buttons, its dialogs' field labels and tabs);
// done reads config.xml and the folders on disk and says "" when the goal's effect is
// there and nothing else it checks changed, else what it found; do makes the effect
// through the REST API the GUI's dialogs call, and miss a near miss the judge must not
// take for it (another value, a field appended to rather than replaced, another folder).
type syncthingGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, st *testenv.Syncthing) string
	do, miss  func(t testing.TB, st *testenv.Syncthing)
}

const (
	stNewFolderLabel = "Photos"
	stNewFolderDir   = "Photos" // under the instance's HOME, written "~/Photos" in the goals
	stRenamedLabel   = "Work Documents"
	stNewDeviceID    = "O5DA7PN-RAKRBE4-T22XOAV-VT3NEI2-P7P7ZI7-PEGU2VQ-ZAOKGE4-YGYA5QI"
	stNewDeviceName  = "Backup Server"
	stNewName        = "Design Laptop"
)

var syncthingGoals = []syncthingGoal{
	{
		name: "add a folder",
		phrasings: [3]string{
			`click "Add Folder", type "Photos" into "Folder Label", type "~/Photos" into "Folder Path", click "Save", then check that "Photos" is visible`,
			`press "Add Folder", fill "Folder Label" with "Photos", fill "Folder Path" with "~/Photos" and press "Save", and verify that "Photos" is visible`,
			`Click the Add Folder button. Type Photos into the field labelled "Folder Label", then type "~/Photos" into the Folder Path field and click the Save button. Make sure "Photos" is visible.`,
		},
		done: stFolderAdded,
		do: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "POST", "rest/config/folders", map[string]any{"id": "u7kqz-3mxwp", "label": stNewFolderLabel, "path": "~/" + stNewFolderDir})
		},
		miss: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "POST", "rest/config/folders", map[string]any{"id": "u7kqz-3mxwp", "label": stNewFolderLabel, "path": "~/Pictures"})
		},
	},
	{
		name: "rename a folder's label",
		phrasings: [3]string{
			`click "Documents", click "Edit", type "Work Documents" into "Folder Label", click "Save", then check that "Work Documents" is visible`,
			`open the "Documents" folder and press "Edit"; fill "Folder Label" with "Work Documents", press "Save" and verify that "Work Documents" is visible`,
			`Click Documents, then click the Edit button. Clear the field labelled "Folder Label", type Work Documents into the Folder Label field and click Save. Make sure "Work Documents" is visible.`,
		},
		done: func(t testing.TB, st *testenv.Syncthing) string {
			c := st.Config(t)
			if why := stFolderIs(st, c, testenv.SyncthingDocsID, stRenamedLabel, false, st.DeviceID); why != "" {
				return why
			}
			return stCounts(st, c, 2, 2, testenv.SyncthingDocsID)
		},
		do: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "PATCH", "rest/config/folders/"+testenv.SyncthingDocsID, map[string]any{"label": stRenamedLabel})
		},
		miss: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "PATCH", "rest/config/folders/"+testenv.SyncthingDocsID, map[string]any{"label": testenv.SyncthingDocsLabel + stRenamedLabel})
		},
	},
	{
		name: "add a remote device",
		phrasings: [3]string{
			`click "Add Remote Device", type "O5DA7PN-RAKRBE4-T22XOAV-VT3NEI2-P7P7ZI7-PEGU2VQ-ZAOKGE4-YGYA5QI" into "Device ID", type "Backup Server" into "Device Name", click "Save", then check that "Backup Server" is visible`,
			`press "Add Remote Device", fill "Device ID" with "O5DA7PN-RAKRBE4-T22XOAV-VT3NEI2-P7P7ZI7-PEGU2VQ-ZAOKGE4-YGYA5QI", then fill "Device Name" with "Backup Server"; press "Save" and verify that "Backup Server" is visible`,
			`Click the Add Remote Device button. Enter "O5DA7PN-RAKRBE4-T22XOAV-VT3NEI2-P7P7ZI7-PEGU2VQ-ZAOKGE4-YGYA5QI" in the field labelled "Device ID", then enter Backup Server in the Device Name field and click the Save button. Make sure "Backup Server" is visible.`,
		},
		done: func(t testing.TB, st *testenv.Syncthing) string {
			c := st.Config(t)
			if d, ok := c.Device(stNewDeviceID); !ok || d.Name != stNewDeviceName || d.Paused {
				return fmt.Sprintf("the device %s is %+v (there: %v)", stNewDeviceID, d, ok)
			}
			return stCounts(st, c, 2, 3, "")
		},
		do: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "POST", "rest/config/devices", map[string]any{"deviceID": stNewDeviceID, "name": stNewDeviceName})
		},
		miss: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "POST", "rest/config/devices", map[string]any{"deviceID": stNewDeviceID, "name": ""})
		},
	},
	{
		name: "pause a folder",
		phrasings: [3]string{
			`click "Music", click "Pause", then check that "Paused" is visible`,
			`open the "Music" folder, press "Pause" and verify that "Resume" is visible`,
			`Click Music. Then click the Pause button in the Music panel and make sure "Paused" is visible.`,
		},
		done: func(t testing.TB, st *testenv.Syncthing) string {
			c := st.Config(t)
			if why := stFolderIs(st, c, testenv.SyncthingMusicID, testenv.SyncthingMusicLabel, true, st.DeviceID); why != "" {
				return why
			}
			return stCounts(st, c, 2, 2, testenv.SyncthingMusicID)
		},
		do: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "PATCH", "rest/config/folders/"+testenv.SyncthingMusicID, map[string]any{"paused": true})
		},
		miss: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "PATCH", "rest/config/folders/"+testenv.SyncthingDocsID, map[string]any{"paused": true})
		},
	},
	{
		name: "change this device's name",
		phrasings: [3]string{
			`click "Actions", click "Settings", type "Design Laptop" into "Device Name", click "Save", then check that "Design Laptop" is visible`,
			`open the "Actions" menu, click "Settings"; fill "Device Name" with "Design Laptop" and press "Save", then verify that "Design Laptop" is visible`,
			`Click Actions, then click Settings. Type Design Laptop into the field labelled "Device Name" and click the Save button. Make sure "Design Laptop" is visible.`,
		},
		done: func(t testing.TB, st *testenv.Syncthing) string {
			c := st.Config(t)
			if d, _ := c.Device(st.DeviceID); d.Name != stNewName {
				return fmt.Sprintf("this device is named %q", d.Name)
			}
			return stCounts(st, c, 2, 2, st.DeviceID)
		},
		do: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "PATCH", "rest/config/devices/"+st.DeviceID, map[string]any{"name": stNewName})
		},
		miss: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "PATCH", "rest/config/devices/"+st.DeviceID, map[string]any{"name": testenv.SyncthingDeviceName + stNewName})
		},
	},
	{
		name: "remove a folder",
		phrasings: [3]string{
			`click "Music", click "Edit", click "Remove", click "Yes", then check that "Music" is not visible`,
			`open the "Music" folder, press "Edit" and press "Remove"; then press "Yes" and verify that "Music" is not visible`,
			`Click Music, then click the Edit button. Click the Remove button and then click Yes. Make sure "Music" is not visible.`,
		},
		done: func(t testing.TB, st *testenv.Syncthing) string {
			c := st.Config(t)
			if _, ok := c.Folder(testenv.SyncthingMusicID); ok {
				return "the folder Music is still there"
			}
			return stCounts(st, c, 1, 2, testenv.SyncthingMusicID)
		},
		do: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "DELETE", "rest/config/folders/"+testenv.SyncthingMusicID, nil)
		},
		miss: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "DELETE", "rest/config/folders/"+testenv.SyncthingDocsID, nil)
		},
	},
	{
		name: "share a folder with a device",
		phrasings: [3]string{
			`click "Documents", click "Edit", click "Sharing", check "Home NAS", then click "Save"`,
			`open the "Documents" folder and press "Edit"; open the "Sharing" tab, tick "Home NAS" and press "Save"`,
			`Click Documents, then click the Edit button. Click the Sharing tab, tick the checkbox for Home NAS and then click the Save button.`,
		},
		done: func(t testing.TB, st *testenv.Syncthing) string {
			c := st.Config(t)
			if why := stFolderIs(st, c, testenv.SyncthingDocsID, testenv.SyncthingDocsLabel, false, st.DeviceID, testenv.SyncthingNASID); why != "" {
				return why
			}
			return stCounts(st, c, 2, 2, testenv.SyncthingDocsID)
		},
		do: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "PATCH", "rest/config/folders/"+testenv.SyncthingDocsID, map[string]any{"devices": []map[string]string{{"deviceID": st.DeviceID}, {"deviceID": testenv.SyncthingNASID}}})
		},
		miss: func(t testing.TB, st *testenv.Syncthing) {
			st.MustAPI(t, "PATCH", "rest/config/folders/"+testenv.SyncthingMusicID, map[string]any{"devices": []map[string]string{{"deviceID": st.DeviceID}, {"deviceID": testenv.SyncthingNASID}}})
		},
	},
}

// stFolderAdded says whether a third folder, labelled Photos at ~/Photos, is there, shared
// with no other device, running, with its marker made on disk, and the seed as it was.
func stFolderAdded(t testing.TB, st *testenv.Syncthing) string {
	c := st.Config(t)
	var added []testenv.SyncthingFolder
	for _, f := range c.Folders {
		if f.ID != testenv.SyncthingDocsID && f.ID != testenv.SyncthingMusicID {
			added = append(added, f)
		}
	}
	if len(added) != 1 {
		return fmt.Sprintf("the folders added: %+v", added)
	}
	f, want := added[0], filepath.Join(st.Root, stNewFolderDir)
	switch {
	case f.Label != stNewFolderLabel:
		return fmt.Sprintf("the new folder is labelled %q", f.Label)
	case st.Resolve(f.Path) != want:
		return fmt.Sprintf("the new folder's path is %q", f.Path)
	case f.Paused || f.Type != "sendreceive" || !slices.Equal(f.SharedWith(), []string{st.DeviceID}):
		return fmt.Sprintf("the new folder is %+v", f)
	}
	if why := stMarked(st, want); why != "" {
		return why
	}
	return stCounts(st, c, 3, 2, "")
}

func stMarked(st *testenv.Syncthing, dir string) string {
	if !st.Marked(dir) {
		return fmt.Sprintf("%s has no .stfolder marker on disk", dir)
	}
	return ""
}

// stFolderIs says whether the folder id has this label, its seeded path, this paused
// state and is shared with exactly these devices (in config.xml's order: this device
// first).
func stFolderIs(st *testenv.Syncthing, c testenv.SyncthingConfig, id, label string, paused bool, devices ...string) string {
	f, ok := c.Folder(id)
	switch {
	case !ok:
		return fmt.Sprintf("no folder %q", id)
	case f.Label != label:
		return fmt.Sprintf("the folder %q is labelled %q", id, f.Label)
	case f.Paused != paused:
		return fmt.Sprintf("the folder %q is paused: %v", label, f.Paused)
	case !slices.Equal(stSorted(f.SharedWith()), stSorted(devices)):
		return fmt.Sprintf("the folder %q is shared with %v", label, f.SharedWith())
	case filepath.Base(st.Resolve(f.Path)) != map[string]string{testenv.SyncthingDocsID: testenv.SyncthingDocsLabel, testenv.SyncthingMusicID: testenv.SyncthingMusicLabel}[id]:
		return fmt.Sprintf("the folder %q's path is %q", label, f.Path)
	}
	return ""
}

func stSorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// stCounts says whether config.xml holds this many folders and devices and the seed is as
// seeded but for the one folder or device named by except.
func stCounts(st *testenv.Syncthing, c testenv.SyncthingConfig, folders, devices int, except string) string {
	if len(c.Folders) != folders || len(c.Devices) != devices {
		return fmt.Sprintf("%d folders and %d devices, not %d and %d", len(c.Folders), len(c.Devices), folders, devices)
	}
	return syncthingSeedIntact(st, c, except)
}

// syncthingSeedIntact says whether the seed is as seeded, but for the folder or device
// whose ID is except: both folders (labels, paths, running, shared with this device
// alone), both devices (names, running) and both seed files on disk, which no goal
// changes (removing a folder in Syncthing deletes no files).
func syncthingSeedIntact(st *testenv.Syncthing, c testenv.SyncthingConfig, except string) string {
	for id, label := range map[string]string{testenv.SyncthingDocsID: testenv.SyncthingDocsLabel, testenv.SyncthingMusicID: testenv.SyncthingMusicLabel} {
		if id != except {
			if why := stFolderIs(st, c, id, label, false, st.DeviceID); why != "" {
				return why
			}
		}
	}
	for id, name := range map[string]string{st.DeviceID: testenv.SyncthingDeviceName, testenv.SyncthingNASID: testenv.SyncthingNASName} {
		if d, ok := c.Device(id); id != except && (!ok || d.Name != name || d.Paused) {
			return fmt.Sprintf("the device %q is %+v (there: %v)", name, d, ok)
		}
	}
	for rel, text := range map[string]string{
		filepath.Join(testenv.SyncthingDocsLabel, testenv.SyncthingDocsFile):   testenv.SyncthingDocsText,
		filepath.Join(testenv.SyncthingMusicLabel, testenv.SyncthingMusicFile): testenv.SyncthingMusicText,
	} {
		if got, ok := st.FileText(rel); !ok || got != text {
			return fmt.Sprintf("the file %s holds %q (there: %v)", rel, got, ok)
		}
	}
	return ""
}
