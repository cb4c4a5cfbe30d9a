//go:build heldout

package e2e

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// delugeGoal is an everyday goal on Deluge's web interface, written three ways as a person
// writes it from what the pages show ({signin} is filled in per phrasing); done reads what
// the daemon holds (its torrents and preferences, through its JSON-RPC API) and the
// download folder, and says "" when the goal's effect is there and nothing else it checks
// changed, else what it found; do makes the effect through the JSON-RPC calls the web
// interface's own grid, menus and dialogs send, signed in, and miss a near miss the judge
// must not take for it (what a run gone a little wrong leaves: the neighbouring torrent,
// the other section's fields, a box left unticked, the other button of a dialog).
type delugeGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.Deluge) string
	do, miss  func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser)
}

const (
	delugeMagnetHash = "d8a871a2e1f3c5b7094e6f2a3b1c5d7e9f0a2b4c"
	delugeMagnetName = "openSUSE-Tumbleweed-DVD-x86_64.iso"
	delugeMagnet     = "magnet:?xt=urn:btih:" + delugeMagnetHash + "&dn=" + delugeMagnetName
	delugeUbuntu     = "ubuntu-24.04-desktop-amd64.iso"
	delugeBunny      = "big-buck-bunny-1080p.mp4"
	delugeArch       = "archlinux-2024.05.01-x86_64.iso"
	delugeDebian     = "debian-12.5.0-amd64-netinst.iso"
	delugeFedora     = "fedora-workstation-40-x86_64.iso"
	delugeSintel     = "sintel-2010-4k.mkv"
	delugeFolder     = "/srv/torrents/incoming"
)

var delugeGoals = []delugeGoal{
	{
		name: "add a magnet link, paused",
		phrasings: [3]string{
			`{signin}, click "Add", click "Url", type "` + delugeMagnet + `" into "Url", click "Add", click "Options", tick "Add In Paused State", click "Add", then check that "` + delugeMagnetName + `" is visible`,
			`{signin}, then press Add and then Url, fill the Url field with ` + delugeMagnet + ` and press Add; in the Add Torrents window open the Options tab, check "Add In Paused State" and press "Add"`,
			`Sign in: {signin}. Click the Add button in the toolbar, then click Url in the Add Torrents window and paste the magnet link "` + delugeMagnet + `" into the field labelled "Url" and click Add. On the Options tab, tick the checkbox labelled "Add In Paused State", then click the Add button at the bottom of the window and make sure "` + delugeMagnetName + `" is shown in the torrent list.`,
		},
		done: func(t testing.TB, w *testenv.Deluge) string {
			return delugeExactly(w, map[string]*testenv.DelugeTorrent{delugeMagnetName: {Hash: delugeMagnetHash, Name: delugeMagnetName, State: "Paused", DownloadLocation: w.Downloads}})
		},
		do:   func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) { delugeAddMagnet(t, b, true) },
		miss: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) { delugeAddMagnet(t, b, false) },
	},
	{
		name: "limit a torrent's speeds",
		phrasings: [3]string{
			`{signin}, click "` + delugeUbuntu + `", click the "Options" tab, type "250" into "Max Download Speed", type "20" into "Max Upload Speed", click "Apply"`,
			`{signin}, then select ` + delugeUbuntu + ` in the list, open the Options tab at the bottom, set Max Download Speed to 250 and Max Upload Speed to 20 KiB/s and press Apply`,
			`Sign in first: {signin}. Select the torrent "` + delugeUbuntu + `" in the torrent list and open the Options tab in the panel below it. Change the field labelled "Max Download Speed" to 250 and the Max Upload Speed field to 20, then click the Apply button.`,
		},
		done: func(t testing.TB, w *testenv.Deluge) string {
			return delugeExactly(w, map[string]*testenv.DelugeTorrent{delugeUbuntu: delugeSeedWith(w, delugeUbuntu, func(x *testenv.DelugeTorrent) {
				x.MaxDownloadSpeed, x.MaxUploadSpeed = 250, 20
			})})
		},
		do: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) {
			b.Call(t, "core.set_torrent_options", []string{testenv.DelugeSeedHash(delugeUbuntu)}, map[string]any{"max_download_speed": 250, "max_upload_speed": 20})
		},
		miss: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) {
			b.Call(t, "core.set_torrent_options", []string{testenv.DelugeSeedHash(delugeBunny)}, map[string]any{"max_download_speed": 250, "max_upload_speed": 20})
		},
	},
	{
		name: "change the download folder, add paused",
		phrasings: [3]string{
			`{signin}, click "Preferences", replace "Download to" with "` + delugeFolder + `", tick "Add torrents in Paused state", click "OK"`,
			`{signin}, then press Preferences; on the Downloads page change the "Download to" field to ` + delugeFolder + `, check "Add torrents in Paused state" and press OK`,
			`Sign in: {signin}. Click Preferences in the toolbar. On the Downloads page, clear the field labelled "Download to" and type "` + delugeFolder + `", tick the checkbox labelled "Add torrents in Paused state", then click the OK button.`,
		},
		done: func(t testing.TB, w *testenv.Deluge) string {
			return delugeSettings(w, map[string]string{"download_location": fmt.Sprintf("%q", delugeFolder), "add_paused": "true"})
		},
		do: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) {
			b.Call(t, "core.set_config", map[string]any{"download_location": delugeFolder, "add_paused": true})
		},
		miss: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) {
			b.Call(t, "core.set_config", map[string]any{"download_location": delugeFolder})
		},
	},
	{
		name: "set the global speed limits",
		phrasings: [3]string{
			`{signin}, click "Preferences", click "Bandwidth", under "Global Bandwidth Usage" type "2048" into "Maximum Download Speed (KiB/s)" and "256" into "Maximum Upload Speed (KiB/s)", click "OK"`,
			`{signin}, then press Preferences and go to Bandwidth; in the Global Bandwidth Usage section set Maximum Download Speed to 2048 and Maximum Upload Speed to 256, then press OK`,
			`Sign in first: {signin}. Open Preferences from the toolbar and choose the Bandwidth page. In the Global Bandwidth Usage section, enter 2048 in the field labelled "Maximum Download Speed (KiB/s)" and 256 in the Maximum Upload Speed (KiB/s) field, then click OK.`,
		},
		done: func(t testing.TB, w *testenv.Deluge) string {
			return delugeSettings(w, map[string]string{"max_download_speed": "2048", "max_upload_speed": "256"})
		},
		do: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) {
			b.Call(t, "core.set_config", map[string]any{"max_download_speed": 2048, "max_upload_speed": 256})
		},
		miss: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) {
			b.Call(t, "core.set_config", map[string]any{"max_download_speed_per_torrent": 2048, "max_upload_speed_per_torrent": 256})
		},
	},
	{
		name: "remove a torrent with its data",
		phrasings: [3]string{
			`{signin}, click "` + delugeArch + `", click "Remove", click "Remove With Data"`,
			`{signin}, then select ` + delugeArch + `, press the Remove button in the toolbar and choose "Remove With Data" so that the downloaded file is deleted too`,
			`Sign in: {signin}. Right-click the torrent "` + delugeArch + `" and choose Remove Torrent, then click the Remove With Data button in the window that asks whether to remove it, and make sure "` + delugeArch + `" is no longer in the list.`,
		},
		done: func(t testing.TB, w *testenv.Deluge) string {
			if w.HasData(delugeArch) {
				return "the download folder still holds " + delugeArch
			}
			return delugeExactly(w, map[string]*testenv.DelugeTorrent{delugeArch: nil}, delugeArch)
		},
		do: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) {
			b.Call(t, "core.remove_torrents", []string{testenv.DelugeSeedHash(delugeArch)}, true)
		},
		miss: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) {
			b.Call(t, "core.remove_torrents", []string{testenv.DelugeSeedHash(delugeArch)}, false)
		},
	},
	{
		name: "pause every seeding torrent",
		phrasings: [3]string{
			`{signin}, click "Seeding" under "Filters", select all the torrents shown, click "Pause"`,
			`{signin}, then press "Seeding" in the States filter on the left, select every torrent listed and press Pause`,
			`Sign in first: {signin}. In the Filters panel on the left, click Seeding so that only the seeding torrents are shown. Select each of the torrents shown, then click the Pause button in the toolbar so that none of them is seeding any more.`,
		},
		done: func(t testing.TB, w *testenv.Deluge) string {
			changes := map[string]*testenv.DelugeTorrent{}
			for _, name := range []string{delugeDebian, delugeArch} {
				changes[name] = delugeSeedWith(w, name, func(x *testenv.DelugeTorrent) { x.State = "Paused" })
			}
			return delugeExactly(w, changes)
		},
		do: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) {
			b.Call(t, "core.pause_torrent", delugeFiltered(t, b, "Seeding"))
		},
		miss: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) {
			b.Call(t, "core.pause_torrent", delugeFiltered(t, b, "Seeding")[:1])
		},
	},
	{
		name: "move a torrent to the top of the queue",
		phrasings: [3]string{
			`{signin}, right-click "` + delugeSintel + `", click "Queue", click "Top"`,
			`{signin}, then right-click ` + delugeSintel + ` in the torrent list and choose Queue, then Top, so that it moves to the top of the queue`,
			`Sign in: {signin}. Right-click the torrent "` + delugeSintel + `", point to Queue in the menu that opens and click Top, then make sure "` + delugeSintel + `" shows 1 in the # column.`,
		},
		done: func(t testing.TB, w *testenv.Deluge) string {
			changes := map[string]*testenv.DelugeTorrent{}
			for i, name := range []string{delugeSintel, delugeBunny, delugeUbuntu, delugeFedora} {
				changes[name] = delugeSeedWith(w, name, func(x *testenv.DelugeTorrent) { x.Queue = float64(i) })
			}
			return delugeExactly(w, changes)
		},
		do: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) {
			b.Call(t, "core.queue_top", []string{testenv.DelugeSeedHash(delugeSintel)})
		},
		miss: func(t testing.TB, w *testenv.Deluge, b *testenv.DelugeBrowser) {
			b.Call(t, "core.queue_up", []string{testenv.DelugeSeedHash(delugeSintel)})
		},
	},
}

// delugeAddMagnet adds the magnet link as the Add Torrents window does: its Url window asks
// the web interface to read the link (web.get_magnet_info), the Options tab starts from
// the daemon's preferences, and the window's Add button sends the link with those options,
// "Add In Paused State" ticked or not.
func delugeAddMagnet(t testing.TB, b *testenv.DelugeBrowser, paused bool) {
	t.Helper()
	var info struct {
		Name string `json:"name"`
		Hash string `json:"info_hash"`
	}
	b.Into(t, &info, "web.get_magnet_info", delugeMagnet)
	if info.Name != delugeMagnetName || info.Hash != delugeMagnetHash {
		t.Fatalf("the Url window read the magnet link as %+v", info)
	}
	var conf map[string]any
	b.Into(t, &conf, "core.get_config_values", []string{"add_paused", "pre_allocate_storage", "download_location",
		"max_connections_per_torrent", "max_download_speed_per_torrent", "move_completed", "move_completed_path",
		"max_upload_slots_per_torrent", "max_upload_speed_per_torrent", "prioritize_first_last_pieces", "sequential_download"})
	options := map[string]any{"file_priorities": []int{}, "add_paused": paused, "sequential_download": conf["sequential_download"],
		"pre_allocate_storage": conf["pre_allocate_storage"], "download_location": conf["download_location"],
		"move_completed": conf["move_completed"], "move_completed_path": conf["move_completed_path"],
		"max_connections": conf["max_connections_per_torrent"], "max_download_speed": conf["max_download_speed_per_torrent"],
		"max_upload_slots": conf["max_upload_slots_per_torrent"], "max_upload_speed": conf["max_upload_speed_per_torrent"],
		"prioritize_first_last_pieces": conf["prioritize_first_last_pieces"], "seed_mode": false, "super_seeding": false}
	b.Call(t, "web.add_torrents", []map[string]any{{"path": delugeMagnet, "options": options}})
}

// delugeFiltered are the torrents the grid lists once the sidebar's States filter is set to
// state (web.update_ui with that filter, as the grid asks), sorted by name.
func delugeFiltered(t testing.TB, b *testenv.DelugeBrowser, state string) []string {
	t.Helper()
	var ui struct {
		Torrents map[string]struct {
			Name string `json:"name"`
		} `json:"torrents"`
	}
	b.Into(t, &ui, "web.update_ui", []string{"name", "state"}, map[string]any{"state": state})
	var ids []string
	for id := range ui.Torrents {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ui.Torrents[ids[i]].Name < ui.Torrents[ids[j]].Name })
	if len(ids) == 0 {
		t.Fatalf("the %s filter lists no torrent", state)
	}
	return ids
}

// delugeSeedWith is a copy of the seed's torrent named name as the instance holds it,
// changed by change.
func delugeSeedWith(w *testenv.Deluge, name string, change func(*testenv.DelugeTorrent)) *testenv.DelugeTorrent {
	x, ok := testenv.DelugeFind(w.Seeded, name)
	if !ok {
		panic("no seed torrent " + name)
	}
	change(&x)
	return &x
}

// delugeExactly says whether the daemon's torrents are the seed's with changes (see
// delugeTorrentsAre), whether the preferences are the fresh instance's, and whether the
// download folder still holds every seeding torrent's file but those named in removed.
func delugeExactly(w *testenv.Deluge, changes map[string]*testenv.DelugeTorrent, removed ...string) string {
	if why := delugeTorrentsAre(w, changes); why != "" {
		return why
	}
	if diff := w.SettingsChanged(); diff != "" {
		return "the preferences changed: " + diff
	}
	return w.DataChanged(removed...)
}

// delugeTorrentsAre says whether the daemon's torrents are exactly the seed's with changes
// — name → the torrent there instead (nil: gone; a name the seed lacks: a new torrent,
// whose info hash, download folder and pausing are compared) — compared by
// DelugeTorrent.Same.
func delugeTorrentsAre(w *testenv.Deluge, changes map[string]*testenv.DelugeTorrent) string {
	got, err := w.Torrents()
	if err != nil {
		return err.Error()
	}
	want := map[string]testenv.DelugeTorrent{}
	for _, x := range w.Seeded {
		want[x.Name] = x
	}
	for name, x := range changes {
		if x == nil {
			delete(want, name)
		} else {
			want[name] = *x
		}
	}
	if len(got) != len(want) {
		return "the daemon holds " + delugeList(got)
	}
	for name, x := range want {
		y, ok := testenv.DelugeFind(got, name)
		_, seeded := testenv.DelugeFind(w.Seeded, name)
		switch {
		case !ok:
			return fmt.Sprintf("no torrent %q: the daemon holds %s", name, delugeList(got))
		case seeded && !y.Same(x):
			return "the torrent is " + y.String() + ", not " + x.String()
		case !seeded && (y.Hash != x.Hash || y.DownloadLocation != x.DownloadLocation || y.Paused() != x.Paused()):
			return fmt.Sprintf("the new torrent is %s (%s), not %s", y.String(), y.Hash, x.String())
		}
	}
	return ""
}

// delugeSettings says whether the preferences hold values (key → the value as Settings
// flattens it, numbers compared by value) and nothing else changed: no other preference,
// no torrent, no file.
func delugeSettings(w *testenv.Deluge, values map[string]string) string {
	conf, err := w.Settings()
	if err != nil {
		return err.Error()
	}
	var keys []string
	for k, v := range values {
		x, errX := strconv.ParseFloat(conf[k], 64)
		y, errY := strconv.ParseFloat(v, 64)
		if conf[k] != v && (errX != nil || errY != nil || x != y) {
			return fmt.Sprintf("%s is %s", k, conf[k])
		}
		keys = append(keys, k)
	}
	if diff := w.SettingsChanged(keys...); diff != "" {
		return "the preferences changed: " + diff
	}
	if why := delugeTorrentsAre(w, nil); why != "" {
		return why
	}
	return w.DataChanged()
}

// delugeList is the torrents as their names, sorted, for a judge's answer.
func delugeList(ts map[string]testenv.DelugeTorrent) string {
	var names []string
	for _, x := range ts {
		names = append(names, x.Name)
	}
	sort.Strings(names)
	return fmt.Sprintf("%d torrents: %s", len(names), strings.Join(names, ", "))
}
