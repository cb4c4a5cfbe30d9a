//go:build heldout

package e2e

import (
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// supervisorGoal is an everyday goal on Supervisor's web interface, written three ways as
// a person writes it from what the status page shows (there is no sign-in: the interface
// is open to loopback); done reads supervisord's state (supervisorctl status) and the
// programs' log files and says "" when the goal's effect is there and nothing else
// changed, else what it found; do makes the effect through the status page's links, and
// miss a near miss the judge must not take for it (a neighbouring program, the other
// button).
type supervisorGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.Supervisor) string
	do, miss  func(t testing.TB, b *testenv.SupervisorBrowser)
}

var supervisorGoals = []supervisorGoal{
	{
		name: "stop a program",
		phrasings: [3]string{
			`click "Stop" in the row of "queue-worker-2", check that "Process queue-worker-2 stopped" appears`,
			`In the Supervisor status table, find queue-worker-2 in the Name column and hit Stop in its row.`,
			`Please stop the program "queue-worker-2": in its row of the table, under Action, click the Stop link. Leave queue-worker-1 and queue-worker-3 running.`,
		},
		done: func(t testing.TB, w *testenv.Supervisor) string { return supervisorStopped(t, w, "queue-worker-2") },
		do:   func(t testing.TB, b *testenv.SupervisorBrowser) { b.Act(t, "queue-worker-2", "Stop", "stopped") },
		miss: func(t testing.TB, b *testenv.SupervisorBrowser) { b.Act(t, "queue-worker-3", "Stop", "stopped") },
	},
	{
		name: "start a stopped program",
		phrasings: [3]string{
			`click "Start" in the row of "report-weekly", check that "Process report-weekly started" appears`,
			`report-weekly shows as stopped (Not started) in the status table; press Start in its row`,
			`The weekly report job isn't running. In the list of programs, go to the row named report-weekly and click "Start" there, then wait for the page to say it started. Don't touch report-monthly.`,
		},
		done: func(t testing.TB, w *testenv.Supervisor) string { return supervisorStarted(t, w, "report-weekly") },
		do:   func(t testing.TB, b *testenv.SupervisorBrowser) { b.Act(t, "report-weekly", "Start", "started") },
		miss: func(t testing.TB, b *testenv.SupervisorBrowser) { b.Act(t, "report-monthly", "Start", "started") },
	},
	{
		name: "restart a program of a group",
		phrasings: [3]string{
			`click "Restart" in the row of "billing:invoice-sync", check that "Process billing:invoice-sync restarted" appears`,
			`Restart billing:invoice-sync: in the table, click Restart in the row of billing:invoice-sync (not billing:payment-sync).`,
			`The invoice sync of the billing group is stuck. On the Supervisor status page, look for "billing:invoice-sync" in the Name column and hit the Restart link in that row.`,
		},
		done: func(t testing.TB, w *testenv.Supervisor) string {
			return supervisorStarted(t, w, "billing:invoice-sync")
		},
		do: func(t testing.TB, b *testenv.SupervisorBrowser) {
			b.Act(t, "billing:invoice-sync", "Restart", "restarted")
		},
		miss: func(t testing.TB, b *testenv.SupervisorBrowser) {
			b.Act(t, "billing:payment-sync", "Restart", "restarted")
		},
	},
	{
		name: "clear a program's log",
		phrasings: [3]string{
			`click "Clear Log" in the row of "api-gateway", check that "Log for api-gateway cleared" appears`,
			`clear the log of api-gateway (the Clear Log link in its row of the status table)`,
			`Then empty api-gateway's log. Find the program called api-gateway in the table and press the link labelled "Clear Log" in its row, so that its log is cleared while it keeps running.`,
		},
		done: func(t testing.TB, w *testenv.Supervisor) string {
			return supervisorExactly(t, w, func(s testenv.SupervisorState) { s["log of api-gateway"] = "" })
		},
		do:   func(t testing.TB, b *testenv.SupervisorBrowser) { b.Act(t, "api-gateway", "Clear Log", "cleared") },
		miss: func(t testing.TB, b *testenv.SupervisorBrowser) { b.Act(t, "mail-sender", "Clear Log", "cleared") },
	},
	{
		name: "stop all programs",
		phrasings: [3]string{
			`click "Stop All", check that "All stopped at" appears`,
			`Stop every program at once with the Stop All button at the top of the Supervisor page.`,
			`We're going down for maintenance: on the status page, hit "Stop All" (the button above the table, next to Refresh and Restart All) and wait until the page says all were stopped.`,
		},
		done: func(t testing.TB, w *testenv.Supervisor) string { return supervisorAllStopped(t, w) },
		do:   func(t testing.TB, b *testenv.SupervisorBrowser) { supervisorButton(t, b, "Stop All") },
		miss: func(t testing.TB, b *testenv.SupervisorBrowser) { supervisorButton(t, b, "Restart All") },
	},
	{
		name: "restart all programs",
		phrasings: [3]string{
			`click "Restart All", check that "All restarted at" appears`,
			`press Restart All above the table on the status page`,
			`Restart everything Supervisor runs: click the button labelled Restart All (between Refresh and Stop All at the top), then check the page says all restarted.`,
		},
		done: func(t testing.TB, w *testenv.Supervisor) string { return supervisorAllRestarted(t, w) },
		do:   func(t testing.TB, b *testenv.SupervisorBrowser) { supervisorButton(t, b, "Restart All") },
		miss: func(t testing.TB, b *testenv.SupervisorBrowser) { supervisorButton(t, b, "Stop All") },
	},
	{
		name: "start the program that exited",
		phrasings: [3]string{
			`find the row whose State is "exited", click "Start" in that row`,
			`One program in the table has the state exited (not stopped). Find it and click Start in its row.`,
			`Look through the State column of the status page for the program that has exited and press "Start" in that row. Leave the programs that show stopped alone.`,
		},
		done: func(t testing.TB, w *testenv.Supervisor) string { return supervisorStarted(t, w, "cache-warmer") },
		do:   func(t testing.TB, b *testenv.SupervisorBrowser) { b.Act(t, "cache-warmer", "Start", "started") },
		miss: func(t testing.TB, b *testenv.SupervisorBrowser) { b.Act(t, "report-monthly", "Start", "started") },
	},
}

// supervisorExactly says whether supervisord holds the seed changed by change and nothing
// else.
func supervisorExactly(t testing.TB, w *testenv.Supervisor, change func(testenv.SupervisorState)) string {
	want := w.Seed()
	change(want)
	return w.Differs(t, want)
}

// supervisorStopped says whether the program name alone was stopped: STOPPED, no pid, its
// log as it was.
func supervisorStopped(t testing.TB, w *testenv.Supervisor, name string) string {
	return supervisorExactly(t, w, func(s testenv.SupervisorState) { supervisorStop(s, name) })
}

// supervisorStop is the state s with the program name stopped.
func supervisorStop(s testenv.SupervisorState, name string) {
	if s["state of "+name] == "RUNNING" {
		s["state of "+name], s["pid of "+name] = "STOPPED", ""
	}
}

// supervisorStart is the state s with the program name started (again): RUNNING with a
// new pid, its lines (a Once program's second-start line) added to its log.
func supervisorStart(s testenv.SupervisorState, name string) {
	p, _ := testenv.SupervisorSeedProgram(name)
	lines := p.Lines
	if p.Once {
		lines = []string{testenv.SupervisorOnceAgain}
	}
	log := s["log of "+name]
	if log != "" {
		log += " | "
	}
	s["state of "+name], s["pid of "+name], s["log of "+name] = "RUNNING", testenv.SupervisorNewPid, log+testenv.SupervisorLog(lines)
}

// supervisorStarted says whether the program name alone was started, or restarted:
// RUNNING with a pid other than the seed's, its start lines added to its log.
func supervisorStarted(t testing.TB, w *testenv.Supervisor, name string) string {
	return supervisorExactly(t, w, func(s testenv.SupervisorState) { supervisorStart(s, name) })
}

// supervisorAllStopped says whether every running program was stopped (the stopped and
// exited ones stay so) and nothing else changed.
func supervisorAllStopped(t testing.TB, w *testenv.Supervisor) string {
	return supervisorExactly(t, w, func(s testenv.SupervisorState) {
		for _, p := range testenv.SupervisorSeedPrograms {
			supervisorStop(s, p.ShownName())
		}
	})
}

// supervisorAllRestarted says whether every program was started anew, as Restart All
// does (it stops those running and then starts all, the stopped and exited ones too).
func supervisorAllRestarted(t testing.TB, w *testenv.Supervisor) string {
	return supervisorExactly(t, w, func(s testenv.SupervisorState) {
		for _, p := range testenv.SupervisorSeedPrograms {
			supervisorStart(s, p.ShownName())
		}
	})
}

// supervisorButton opens the status page and clicks the button text above the table
// (Stop All, Restart All), as a person does, and fails the test unless the page it comes
// back to says it was done.
func supervisorButton(t testing.TB, b *testenv.SupervisorBrowser, text string) {
	t.Helper()
	b.Open(t, "/")
	b.Click(t, text)
	if msg := b.Message(); msg == "" {
		t.Fatalf("supervisor: %s came back with no message: %s", text, b.Page())
	}
}
