//go:build heldout

package e2e

import (
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// backuppcGoal is an everyday goal on BackupPC's web interface, written three ways as a
// person writes it from what the pages show (there is no sign-in: the web server passes
// every request as an administrator); done reads BackupPC's storage (config.pl, the hosts
// file, the hosts' own configs, the backups files and the server's status) and says ""
// when the goal's effect is there and nothing else changed, else what it found; do makes
// the effect through the CGI's own forms, and miss a near miss the judge must not take for
// it (a neighbouring host or setting, another user, value or button).
type backuppcGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, b *testenv.BackupPC) string
	do, miss  func(t testing.TB, w *testenv.BackupPCBrowser)
}

// backuppcRow is a row of a table of BackupPCState.
type backuppcRow = map[string]map[string]string

var backuppcGoals = []backuppcGoal{
	{
		name: "add a host",
		phrasings: [3]string{
			`click "Edit Hosts", click "Add", type "web-03" into the "host" field of the new empty row, type "akim" into the "user" field of that row, click "Save"`,
			`Open Edit Hosts, press Add, fill in the new row with host web-03 and user akim, then Save`,
			`We have a new web server to back up. In BackupPC go to Edit Hosts in the menu on the left, hit the Add button to get an empty row at the bottom of the hosts table, put web-03 as the host and akim as the user (leave dhcp unticked and moreUsers empty), and save.`,
		},
		done: func(t testing.TB, b *testenv.BackupPC) string {
			return b.Differs(t, testenv.BackupPCState{
				"hosts":  backuppcRow{"web-03": {"dhcp": "0", "user": "akim", "moreUsers": ""}},
				"status": backuppcRow{"web-03": {"state": "Status_idle"}},
			})
		},
		do:   func(t testing.TB, w *testenv.BackupPCBrowser) { w.AddHost(t, "web-03", "akim") },
		miss: func(t testing.TB, w *testenv.BackupPCBrowser) { w.AddHost(t, "web-03", "jsmith") },
	},
	{
		name: "delete a host",
		phrasings: [3]string{
			`click "Edit Hosts", click "Delete" in the row of the host "old-laptop", click "Save"`,
			`In Edit Hosts delete the host old-laptop with the Delete button of its row and save the change`,
			`The old laptop was returned, so please remove it from BackupPC: open Edit Hosts, press Delete on the row whose host is old-laptop, and then press Save so it sticks. Its existing backups can stay on disk.`,
		},
		done: func(t testing.TB, b *testenv.BackupPC) string {
			return b.Differs(t, testenv.BackupPCState{"hosts": backuppcRow{"old-laptop": nil}, "status": backuppcRow{"old-laptop": nil}})
		},
		do:   func(t testing.TB, w *testenv.BackupPCBrowser) { w.DeleteHost(t, "old-laptop") },
		miss: func(t testing.TB, w *testenv.BackupPCBrowser) { w.DeleteHost(t, "web-02") },
	},
	{
		name: "change a host's user",
		phrasings: [3]string{
			`click "Edit Hosts", in the row of the host "web-01" replace "akim" in the "user" field with "rpatel", click "Save"`,
			`Edit Hosts: change the user of web-01 from akim to rpatel and save`,
			`Ravi Patel is taking over the shop server. In Edit Hosts find the line for web-01 and change its user from akim to rpatel, nothing else, then click Save.`,
		},
		done: func(t testing.TB, b *testenv.BackupPC) string {
			return b.Differs(t, testenv.BackupPCState{"hosts": backuppcRow{"web-01": {"user": "rpatel"}}})
		},
		do:   func(t testing.TB, w *testenv.BackupPCBrowser) { w.SetHostUser(t, "web-01", "rpatel") },
		miss: func(t testing.TB, w *testenv.BackupPCBrowser) { w.SetHostUser(t, "web-02", "rpatel") },
	},
	{
		name: "switch a host to rsync",
		phrasings: [3]string{
			`select "files-02" in "Select a host...", click the "Edit Config" link under the "files-02" heading of the menu, click "Xfer", tick "Override" under "XferMethod", select "rsync" in "XferMethod", click "Save"`,
			`Switch files-02 to rsync: open the host files-02, its Edit Config, the Xfer tab, override XferMethod with rsync and Save`,
			`For the host files-02 we want to use rsync instead of tar from now on. Pick files-02 from the host list on the left, open that host's Edit Config, go to the Xfer tab, tick Override next to XferMethod, choose rsync there and press Save. Only files-02 should change.`,
		},
		done: func(t testing.TB, b *testenv.BackupPC) string {
			return b.Differs(t, testenv.BackupPCState{"host config": backuppcRow{"files-02 / XferMethod": {"value": "rsync"}}})
		},
		do: func(t testing.TB, w *testenv.BackupPCBrowser) {
			w.SetHost(t, "files-02", "xfer", "XferMethod", "rsync")
		},
		miss: func(t testing.TB, w *testenv.BackupPCBrowser) {
			w.SetHost(t, "files-01", "xfer", "XferMethod", "rsync")
		},
	},
	{
		name: "set a host's full backup period",
		phrasings: [3]string{
			`select "web-02" in "Select a host...", click the "Edit Config" link under the "web-02" heading of the menu, click "Schedule", tick "Override" under "FullPeriod", type "13.97" into "FullPeriod", click "Save"`,
			`Give web-02 a full backup only every two weeks: in its host Edit Config, Schedule tab, override FullPeriod with 13.97 and save`,
			`web-02 doesn't change much, so a full backup every other week is plenty. Go to the host web-02, then Edit Config for that host, open the Schedule tab, check the Override box of FullPeriod, set it to 13.97 and click Save.`,
		},
		done: func(t testing.TB, b *testenv.BackupPC) string {
			return b.Differs(t, testenv.BackupPCState{"host config": backuppcRow{"web-02 / FullPeriod": {"value": "13.97"}}})
		},
		do: func(t testing.TB, w *testenv.BackupPCBrowser) {
			w.SetHost(t, "web-02", "schedule", "FullPeriod", "13.97")
		},
		miss: func(t testing.TB, w *testenv.BackupPCBrowser) {
			w.SetHost(t, "web-01", "schedule", "FullPeriod", "13.97")
		},
	},
	{
		name: "disable a host's backups",
		phrasings: [3]string{
			`select "db-02" in "Select a host...", click the "Edit Config" link under the "db-02" heading of the menu, click "Schedule", tick "Override" under "BackupsDisable", type "2" into "BackupsDisable", click "Save"`,
			`Turn off every backup of db-02: host db-02, Edit Config, Schedule tab, override BackupsDisable with 2, Save`,
			`db-02 is being decommissioned, so BackupPC should stop backing it up entirely, manual backups included. Open db-02's own Edit Config, on the Schedule tab tick Override for BackupsDisable and enter 2 (not 1), then save it.`,
		},
		done: func(t testing.TB, b *testenv.BackupPC) string {
			return b.Differs(t, testenv.BackupPCState{"host config": backuppcRow{"db-02 / BackupsDisable": {"value": "2"}}})
		},
		do: func(t testing.TB, w *testenv.BackupPCBrowser) {
			w.SetHost(t, "db-02", "schedule", "BackupsDisable", "2")
		},
		miss: func(t testing.TB, w *testenv.BackupPCBrowser) {
			w.SetHost(t, "db-02", "schedule", "BackupsDisable", "1")
		},
	},
	{
		name: "lower the number of simultaneous backups",
		phrasings: [3]string{
			`click "Edit Config", click "Server", replace "4" in "MaxBackups" with "2", click "Save"`,
			`In the main Edit Config, on the Server tab, set MaxBackups to 2 and save`,
			`The backup server is getting overloaded. Please open the server's Edit Config (the main configuration, not a host's), go to the Server tab and lower MaxBackups from 4 to 2 so only two backups run at once. Leave MaxUserBackups alone and click Save.`,
		},
		done: func(t testing.TB, b *testenv.BackupPC) string {
			return b.Differs(t, testenv.BackupPCState{"config": backuppcRow{"MaxBackups": {"value": "2"}}})
		},
		do:   func(t testing.TB, w *testenv.BackupPCBrowser) { w.SetMain(t, "server", "MaxBackups", "2") },
		miss: func(t testing.TB, w *testenv.BackupPCBrowser) { w.SetMain(t, "server", "MaxUserBackups", "2") },
	},
	{
		name: "start a full backup",
		phrasings: [3]string{
			`select "files-01" in "Select a host...", click "Start Full Backup", click "Start Full Backup" on the "Are you sure?" page`,
			`Start a full backup of files-01 from its host page and confirm it`,
			`Could you kick off a full backup (not an incremental one) of the host files-01 right now? Open files-01 from the host list on the left, press Start Full Backup and confirm on the next page.`,
		},
		done: func(t testing.TB, b *testenv.BackupPC) string {
			return b.Differs(t, testenv.BackupPCState{"backups": backuppcRow{"files-01 #1": {"type": "full"}}})
		},
		do:   func(t testing.TB, w *testenv.BackupPCBrowser) { w.StartBackup(t, "files-01", true) },
		miss: func(t testing.TB, w *testenv.BackupPCBrowser) { w.StartBackup(t, "files-01", false) },
	},
}
