//go:build heldout

package e2e

import (
	"strconv"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// monitGoal is an everyday goal on Monit's web interface, written three ways as a person
// writes it from what its pages show (there is no sign-in: the interface is open to
// localhost, see testenv.Monit); done reads monit's own status report and the processes
// themselves and says "" when the goal's effect is there and nothing else changed, else
// what it found; do makes the effect through the pages' own links and buttons, and miss a
// near miss the judge must not take for it (a neighbouring service, the other button).
type monitGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.Monit) string
	do, miss  func(t testing.TB, b *testenv.MonitBrowser)
}

var monitGoals = []monitGoal{
	{
		name: "stop a process",
		phrasings: [3]string{
			`click "export-worker", click "Stop service"`,
			`In Monit open export-worker from the Process table and hit Stop service.`,
			`The warehouse export has to pause for a while, so please stop the export-worker process in Monit: click its name in the list of processes and press the "Stop service" button on its page. Leave import-worker running.`,
		},
		done: func(t testing.TB, w *testenv.Monit) string { return monitExactly(t, w, monitStop("export-worker")) },
		do:   func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "export-worker", "Stop service") },
		miss: func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "import-worker", "Stop service") },
	},
	{
		name: "start a stopped process",
		phrasings: [3]string{
			`click "invoice-mailer", click "Start service"`,
			`invoice-mailer is not monitored and not running; open it in Monit and press Start service`,
			`Invoices of paid orders aren't going out. Could you start the invoice-mailer process from Monit's page? Click invoice-mailer in the Process list, then the "Start service" button. Don't start the newsletter-mailer.`,
		},
		done: func(t testing.TB, w *testenv.Monit) string { return monitExactly(t, w, monitStart("invoice-mailer")) },
		do:   func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "invoice-mailer", "Start service") },
		miss: func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "newsletter-mailer", "Start service") },
	},
	{
		name: "restart a process",
		phrasings: [3]string{
			`click "report-worker", click "Restart service"`,
			`Restart report-worker in Monit: open it from the Process table and press Restart service (not the export-worker).`,
			`The sales reports look stuck. On the Monit Service Manager page, click the process called "report-worker" and hit the Restart service button on its page so that it starts afresh.`,
		},
		done: func(t testing.TB, w *testenv.Monit) string { return monitExactly(t, w, monitStart("report-worker")) },
		do:   func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "report-worker", "Restart service") },
		miss: func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "export-worker", "Restart service") },
	},
	{
		name: "disable monitoring of a process",
		phrasings: [3]string{
			`click "search-indexer", click "Disable monitoring"`,
			`Open search-indexer in Monit and turn off its monitoring with Disable monitoring; keep it running.`,
			`We're reindexing the catalogue by hand tonight, so Monit should leave the search-indexer alone: click search-indexer in the Process list and press "Disable monitoring". Please don't stop the process itself.`,
		},
		done: func(t testing.TB, w *testenv.Monit) string {
			return monitExactly(t, w, monitMonitoring("search-indexer", "not monitored"))
		},
		do:   func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "search-indexer", "Disable monitoring") },
		miss: func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "search-indexer", "Stop service") },
	},
	{
		name: "enable monitoring of a process",
		phrasings: [3]string{
			`click "thumbnail-worker", click "Enable monitoring"`,
			`thumbnail-worker shows Not monitored in Monit's Process table; open it and press Enable monitoring.`,
			`Monit stopped watching the thumbnail-worker after last week's maintenance. Please click thumbnail-worker on the Monit page and hit the "Enable monitoring" button so it is monitored again (cache-warmer can stay as it is).`,
		},
		done: func(t testing.TB, w *testenv.Monit) string {
			return monitExactly(t, w, monitMonitoring("thumbnail-worker", "monitored"))
		},
		do:   func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "thumbnail-worker", "Enable monitoring") },
		miss: func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "cache-warmer", "Enable monitoring") },
	},
	{
		name: "disable monitoring of a file",
		phrasings: [3]string{
			`click "nginx-config", click "Disable monitoring"`,
			`In Monit's File table open nginx-config and press Disable monitoring.`,
			`I'm about to rework the nginx site config, so switch off Monit's check of it for now: click "nginx-config" under File on the Monit page, then the Disable monitoring button. The php-fpm-config check stays on.`,
		},
		done: func(t testing.TB, w *testenv.Monit) string {
			return monitExactly(t, w, monitMonitoring("nginx-config", "not monitored"))
		},
		do:   func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "nginx-config", "Disable monitoring") },
		miss: func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "php-fpm-config", "Disable monitoring") },
	},
	{
		name: "enable monitoring of a directory",
		phrasings: [3]string{
			`click "backups", click "Enable monitoring"`,
			`Turn monitoring of the backups directory back on: open backups in Monit's Directory table, then Enable monitoring.`,
			`The backups folder check has been off since the disk move. Could you open "backups" from the Directory section of the Monit page and click Enable monitoring? Leave log-archive unmonitored.`,
		},
		done: func(t testing.TB, w *testenv.Monit) string {
			return monitExactly(t, w, monitMonitoring("backups", "monitored"))
		},
		do:   func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "backups", "Enable monitoring") },
		miss: func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "log-archive", "Enable monitoring") },
	},
	{
		name: "disable monitoring of a program",
		phrasings: [3]string{
			`click "disk-usage-report", click "Disable monitoring"`,
			`Open the disk-usage-report check in Monit's Program table and hit Disable monitoring.`,
			`The disk usage report runs every cycle and we don't need it while the volume is being resized. Please click disk-usage-report in the Program list on the Monit page and press "Disable monitoring"; the backup-check stays monitored.`,
		},
		done: func(t testing.TB, w *testenv.Monit) string {
			return monitExactly(t, w, monitMonitoring("disk-usage-report", "not monitored"))
		},
		do:   func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "disk-usage-report", "Disable monitoring") },
		miss: func(t testing.TB, b *testenv.MonitBrowser) { b.Act(t, "backup-check", "Disable monitoring") },
	},
}

// monitExactly says whether monit and the processes hold the seed changed by change and
// nothing else.
func monitExactly(t testing.TB, w *testenv.Monit, change func(testenv.MonitState)) string {
	want := w.Seed()
	change(want)
	return w.Differs(t, want)
}

// monitMonitoring is the change of a service's monitoring alone (to "monitored" or "not
// monitored"): its process, if it has one, runs on as it was.
func monitMonitoring(name, to string) func(testenv.MonitState) {
	return func(s testenv.MonitState) { s["monitoring of "+name] = to }
}

// monitStop is the change of the process service name stopped: not monitored (Stop
// service ends monitoring too) and no process left.
func monitStop(name string) func(testenv.MonitState) {
	return func(s testenv.MonitState) {
		s["monitoring of "+name], s["pid of "+name], s["copies of "+name] = "not monitored", "", "0"
	}
}

// monitStart is the change of the process service name started, or restarted: monitored,
// one process running with a pid other than the seed's, its script started once more.
func monitStart(name string) func(testenv.MonitState) {
	return func(s testenv.MonitState) {
		n, _ := strconv.Atoi(s["starts of "+name])
		s["monitoring of "+name], s["pid of "+name], s["copies of "+name] = "monitored", testenv.MonitNewPid, "1"
		s["starts of "+name] = strconv.Itoa(n + 1)
	}
}
