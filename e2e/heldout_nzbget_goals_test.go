//go:build heldout

package e2e

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// nzbgetGoal is one everyday goal on NZBGet's web control panel: its phrasings (three ways
// of asking for the same thing, {signin} standing for the sign-in), its judge (done: what
// NZBGet's configuration file and queue lack, "" when they hold exactly the goal's effect),
// the goal's effect made through the panel's own requests (do), and a near miss (miss):
// the same kind of change, of the wrong thing or with the wrong value.
type nzbgetGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, w *testenv.NZBGet) string
	do        func(t *testing.T, b *testenv.NZBGetBrowser)
	miss      func(t *testing.T, b *testenv.NZBGetBrowser)
}

// nzbgetWithItem is the seed's state with the fields in set ("priority" → "100") of the
// download named name changed.
func nzbgetWithItem(w *testenv.NZBGet, name string, set map[string]string) testenv.NZBGetState {
	want := w.Seed()
	id := w.SeedID(name)
	parts := strings.Split(want["queue"][id], "; ")
	for i, p := range parts {
		k, _, _ := strings.Cut(p, "=")
		if v, ok := set[k]; ok {
			parts[i] = k + "=" + v
		}
	}
	want["queue"][id] = strings.Join(parts, "; ")
	return want
}

var nzbgetGoals = []nzbgetGoal{
	{
		name: "add a category",
		phrasings: [3]string{
			`{signin}, click "Settings", click "CATEGORIES", click "Add another Category", type "Documentaries" into "Category4.Name", click "Save all changes", check that "Configuration has been saved successfully" appears`,
			`{signin}. Then go to Settings, open the CATEGORIES section in the menu on the left, press Add another Category at the bottom, enter Documentaries as the new category's name (the Category4.Name field) and hit "Save all changes".`,
			`{signin} After that click Settings, pick CATEGORIES on the left, click the "Add another Category" button, type "Documentaries" in the field labelled Category4.Name and save with Save all changes.`,
		},
		done: func(t *testing.T, w *testenv.NZBGet) string {
			want := w.Seed()
			maps.Copy(want["conf"], testenv.NZBGetCategory(4, "Documentaries"))
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.NZBGetBrowser) { b.AddCategory(t, "Documentaries") },
		miss: func(t *testing.T, b *testenv.NZBGetBrowser) { b.AddCategory(t, "Documentary") },
	},
	{
		name: "lower a news server's connections",
		phrasings: [3]string{
			`{signin}, click "Settings", click "NEWS-SERVERS", type "2" into "Server2.Connections", click "Save all changes", check that "Configuration has been saved successfully" appears`,
			`{signin}, then open Settings and the NEWS-SERVERS section on the left; the Backup News server is Server2: set its Connections (the Server2.Connections field) to 2 and press "Save all changes".`,
			`{signin} Next click Settings, choose NEWS-SERVERS in the menu on the left, scroll to Server2 (Backup News), put 2 into the field labelled "Server2.Connections", then click Save all changes.`,
		},
		done: func(t *testing.T, w *testenv.NZBGet) string {
			want := w.Seed()
			want["conf"]["Server2.Connections"] = "2"
			return w.Differs(t, want)
		},
		do: func(t *testing.T, b *testenv.NZBGetBrowser) {
			b.SaveSettings(t, map[string]string{"Server2.Connections": "2"})
		},
		miss: func(t *testing.T, b *testenv.NZBGetBrowser) {
			b.SaveSettings(t, map[string]string{"Server1.Connections": "2"})
		},
	},
	{
		name: "set a speed limit",
		phrasings: [3]string{
			`{signin}, click "--- MB/s", type "500" into "Speed limit", click "Set limit"`,
			`{signin}, then click the current speed at the top of the page (it reads --- MB/s) to open the Speed Limit dialog, enter 500 in the Speed limit box (KB/s) and press "Set limit".`,
			`{signin} Then set a download speed limit of 500 KB/s: click "--- MB/s" in the bar at the top, type 500 into the field labelled Speed limit and hit Set limit.`,
		},
		done: func(t *testing.T, w *testenv.NZBGet) string {
			want := w.Seed()
			want["runtime"]["DownloadLimit"] = fmt.Sprint(500 * 1024)
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.NZBGetBrowser) { b.SetSpeedLimit(t, 500) },
		miss: func(t *testing.T, b *testenv.NZBGetBrowser) { b.SetSpeedLimit(t, 5000) },
	},
	{
		name: "delete a download found by search",
		phrasings: [3]string{
			`{signin}, type "Handbook" into "Search downloads", click "Debian Admin Handbook", click "Actions", click "Delete", click "Delete"`,
			`{signin}. Then search the downloads for Handbook (the "Search downloads" box at the top), open Debian Admin Handbook — not the Errata one — and in its dialog press Actions, then Delete, and confirm with Delete.`,
			`{signin} After that type Handbook in the Search downloads field, click the download "Debian Admin Handbook" in the list, hit "Actions" at the bottom of the dialog, choose Delete and press Delete again to confirm.`,
		},
		done: func(t *testing.T, w *testenv.NZBGet) string {
			want, now := w.Seed(), w.State(t)
			id := w.SeedID("Debian.Admin.Handbook")
			delete(want["queue"], id)
			want["order"]["queue"] = strings.Join(slices.DeleteFunc(strings.Split(want["order"]["queue"], ","),
				func(x string) bool { return x == id }), ",")
			// Deleted as the dialog recommends, the download is kept in the history; deleted
			// without history tracking, it is not: either is the goal done.
			if h, ok := now["history"][id]; ok && strings.HasPrefix(h, "name=Debian.Admin.Handbook;") {
				want["history"][id] = h
			}
			return now.Diff(want)
		},
		do: func(t *testing.T, b *testenv.NZBGetBrowser) {
			b.Edit(t, "GroupParkDelete", "", "Debian.Admin.Handbook")
		},
		miss: func(t *testing.T, b *testenv.NZBGetBrowser) {
			b.Edit(t, "GroupParkDelete", "", "Debian.Admin.Handbook.Errata")
		},
	},
	{
		name: "raise a download's priority",
		phrasings: [3]string{
			`{signin}, click "Ubuntu Server Guide", select "very high" in "Priority", click "Save"`,
			`{signin}, then in the Downloads list click Ubuntu Server Guide, change the Priority drop-down to very high and press Save.`,
			`{signin} Then open the download "Ubuntu Server Guide" from the Downloads list, pick very high in the field labelled Priority, then hit "Save".`,
		},
		done: func(t *testing.T, w *testenv.NZBGet) string {
			return w.Differs(t, nzbgetWithItem(w, "Ubuntu.Server.Guide", map[string]string{"priority": "100"}))
		},
		do: func(t *testing.T, b *testenv.NZBGetBrowser) {
			b.Edit(t, "GroupSetPriority", "100", "Ubuntu.Server.Guide")
		},
		miss: func(t *testing.T, b *testenv.NZBGetBrowser) {
			b.Edit(t, "GroupSetPriority", "50", "Ubuntu.Server.Guide")
		},
	},
	{
		name: "change a download's category",
		phrasings: [3]string{
			`{signin}, click "Debian Install Guide", select "Software" in "Category", click "Save"`,
			`{signin}. Next click Debian Install Guide in the Downloads list, set its Category to Software and click Save.`,
			`{signin} Then open "Debian Install Guide" in the list of downloads, choose "Software" in the Category field and hit Save.`,
		},
		done: func(t *testing.T, w *testenv.NZBGet) string {
			return w.Differs(t, nzbgetWithItem(w, "Debian.Install.Guide", map[string]string{"category": "Software"}))
		},
		do: func(t *testing.T, b *testenv.NZBGetBrowser) {
			b.Edit(t, "GroupSetCategory", "Software", "Debian.Install.Guide")
		},
		miss: func(t *testing.T, b *testenv.NZBGetBrowser) {
			b.Edit(t, "GroupSetCategory", "Software", "Debian.Admin.Handbook")
		},
	},
	{
		name: "rename a download",
		phrasings: [3]string{
			`{signin}, click "Big Buck Bunny 1080p", type "Big Buck Bunny (2008)" into "Name", click "Save"`,
			`{signin}, then click Big Buck Bunny 1080p in the Downloads list, replace what the Name field holds with "Big Buck Bunny (2008)" and press Save.`,
			`{signin} After that open the download Big Buck Bunny 1080p, type Big Buck Bunny (2008) into the field labelled Name, then hit the Save button.`,
		},
		done: func(t *testing.T, w *testenv.NZBGet) string {
			return w.Differs(t, nzbgetWithItem(w, "Big.Buck.Bunny.1080p", map[string]string{"name": "Big Buck Bunny (2008)"}))
		},
		do: func(t *testing.T, b *testenv.NZBGetBrowser) {
			b.Edit(t, "GroupSetName", "Big Buck Bunny (2008)", "Big.Buck.Bunny.1080p")
		},
		miss: func(t *testing.T, b *testenv.NZBGetBrowser) {
			b.Edit(t, "GroupSetName", "Big Buck Bunny 2008", "Big.Buck.Bunny.1080p")
		},
	},
}
