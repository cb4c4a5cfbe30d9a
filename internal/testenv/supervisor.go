package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Supervisor is a private supervisord — Debian's Supervisor 4.2, a process control
// system, whose web interface (one status page: a table of the programs it runs with their
// state, a description and links to Start, Stop, Restart, Clear Log and Tail -f each one,
// and Refresh, Restart All and Stop All above it) is what a person uses — run as the
// test's own process in the foreground: a supervisord.conf of its own in a temporary
// folder, the web interface on a free loopback port, and its log, pid file, the programs'
// logs and their working folder in that folder. The programs are small shell loops (they
// print a few lines and wait, ending by themselves when supervisord is gone) with similar
// names: the seed of SupervisorSeedPrograms. Supervisor's web interface can only ask for
// HTTP Basic credentials (it has no sign-in page), so, as Supervisor does when no
// username is set, it is open to 127.0.0.1 without authentication and the goals have no
// sign-in. What a run did is read back with the package's supervisorctl against the
// instance's configuration (each program's state and pid) and from the programs' log
// files.
type Supervisor struct {
	URL  string // the web interface's status page, where a person starts: http://127.0.0.1:PORT/
	Dir  string // the instance's folder
	Conf string // its supervisord.conf
	// seed is the state right after start: what a judge compares what a goal must not
	// touch with.
	seed SupervisorState
	p    *process
}

const (
	supervisord   = "/usr/bin/supervisord"
	supervisorctl = "/usr/bin/supervisorctl"
	supervisorUI  = "/usr/lib/python3/dist-packages/supervisor/ui/status.html"
)

// SupervisorInstalled says whether Debian's supervisor is here (deploy/setup.sh heldout
// installs it).
func SupervisorInstalled() bool {
	return exists(supervisord) && exists(supervisorctl) && exists(supervisorUI)
}

// SupervisorProgram is one program every instance has: its name as the status page shows
// it (group:name for a program of a group), the lines it prints each time it starts, and
// whether supervisord starts it (false: STOPPED, "Not started"). Once is a program that
// finishes at its first start (EXITED), and runs like the others when started again.
type SupervisorProgram struct {
	Name      string
	Group     string // "" for none
	Lines     []string
	AutoStart bool
	Once      bool
}

// SupervisorSeedPrograms are the seed's programs, in the status page's order.
var SupervisorSeedPrograms = []SupervisorProgram{
	{Name: "api-gateway", Lines: []string{"api-gateway 2.4.1 starting", "listening on 127.0.0.1:8080"}, AutoStart: true},
	{Name: "invoice-sync", Group: "billing", Lines: []string{"invoice-sync: polling the ledger every 60s"}, AutoStart: true},
	{Name: "payment-sync", Group: "billing", Lines: []string{"payment-sync: polling the bank every 60s"}, AutoStart: true},
	{Name: "cache-warmer", Lines: []string{"cache-warmer: 1432 pages warmed"}, AutoStart: true, Once: true},
	{Name: "mail-sender", Lines: []string{"mail-sender: connected to smtp relay", "mail-sender: 0 messages queued"}, AutoStart: true},
	{Name: "queue-worker-1", Lines: []string{"queue-worker-1: waiting for jobs on queue default"}, AutoStart: true},
	{Name: "queue-worker-2", Lines: []string{"queue-worker-2: waiting for jobs on queue default"}, AutoStart: true},
	{Name: "queue-worker-3", Lines: []string{"queue-worker-3: waiting for jobs on queue exports"}, AutoStart: true},
	{Name: "report-daily", Lines: []string{"report-daily: next run at 06:00"}, AutoStart: true},
	{Name: "report-monthly", Lines: []string{"report-monthly: next run on the 1st"}},
	{Name: "report-weekly", Lines: []string{"report-weekly: next run on Monday"}},
}

// SupervisorOnceAgain is what a Once program prints when it is started again.
const SupervisorOnceAgain = "warming pages as they expire"

// ShownName is the program's name as the status page and supervisorctl show it.
func (p SupervisorProgram) ShownName() string {
	if p.Group != "" {
		return p.Group + ":" + p.Name
	}
	return p.Name
}

// StartSupervisor writes a private supervisord.conf into a temporary folder, runs
// supervisord in the foreground until the test ends (stopped cleanly, its programs with
// it), waits until its status page answers and every program is in its seed state
// (RUNNING, STOPPED or EXITED), and keeps that state as the seed. It skips the test when
// Supervisor is missing.
func StartSupervisor(t testing.TB) *Supervisor {
	t.Helper()
	if !SupervisorInstalled() {
		t.Skip("Supervisor is not installed: run `deploy/setup.sh heldout` (it installs Debian's supervisor)")
	}
	root := t.TempDir()
	port := FreePort(t)
	w := &Supervisor{URL: "http://" + Addr(port) + "/", Dir: root, Conf: filepath.Join(root, "supervisord.conf")}
	for _, d := range []string{"logs", "run"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, w.Conf, supervisorConfig(root, port))
	cmd := exec.Command(supervisord, "-n", "-c", w.Conf)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+root, "TZ=UTC", "LANG=C.UTF-8")
	began := time.Now()
	w.p = start(t, "supervisord", cmd)
	t.Cleanup(w.stop) // before start's kill: supervisord stops its programs itself
	waitHTTP(t, "supervisord", w.URL, 60*time.Second, w.p)
	why := Eventually(30*time.Second, func() string {
		var err error
		if w.seed, err = w.State(); err != nil {
			return err.Error()
		}
		return w.seed.unsettled()
	})
	if why != "" {
		t.Fatalf("supervisord's programs did not settle in %s: %s\n%s", time.Since(began).Round(time.Second), why, w.p.out.String())
	}
	return w
}

// supervisorConfig is the instance's supervisord.conf: supervisord in the foreground, its
// files in root, the web interface (and the RPC interface supervisorctl uses) on
// 127.0.0.1:port without authentication, and the seed's programs.
func supervisorConfig(root string, port int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `[supervisord]
nodaemon=true
%s
logfile=%s
pidfile=%s
childlogdir=%s
directory=%s
identifier=heldout
loglevel=info

[inet_http_server]
port=%s

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[supervisorctl]
serverurl=http://%s
`, supervisorUser(), filepath.Join(root, "supervisord.log"), filepath.Join(root, "supervisord.pid"),
		filepath.Join(root, "logs"), filepath.Join(root, "run"), Addr(port), Addr(port))
	groups := map[string][]string{}
	var order []string
	for _, p := range SupervisorSeedPrograms {
		b.WriteString(supervisorProgramConfig(root, p))
		if p.Group != "" {
			if groups[p.Group] == nil {
				order = append(order, p.Group)
			}
			groups[p.Group] = append(groups[p.Group], p.Name)
		}
	}
	for _, g := range order {
		fmt.Fprintf(&b, "\n[group:%s]\nprograms=%s\n", g, strings.Join(groups[g], ","))
	}
	return b.String()
}

// supervisorProgramConfig is a program's section: a shell loop that prints the program's
// lines and then waits, ending by itself once supervisord (its parent) is gone; a Once
// program prints its lines and exits at its first start (a marker file in run/ says it
// ran) and prints SupervisorOnceAgain and waits at the next ones.
func supervisorProgramConfig(root string, p SupervisorProgram) string {
	var script strings.Builder
	if p.Once {
		fmt.Fprintf(&script, "if [ -e %s.ran ]; then echo %s; else touch %s.ran; ", p.Name, shellQuote(SupervisorOnceAgain), p.Name)
	}
	for _, line := range p.Lines {
		fmt.Fprintf(&script, "echo %s; ", shellQuote(line))
	}
	if p.Once {
		script.WriteString("exit 0; fi; ")
	}
	script.WriteString(`while kill -0 "$PPID" 2>/dev/null; do sleep 2; done`)
	startsecs := 1
	if p.Once {
		startsecs = 0
	}
	return fmt.Sprintf(`
[program:%s]
command=/bin/sh -c %s
directory=%s
autostart=%v
autorestart=false
startsecs=%d
stopwaitsecs=5
redirect_stderr=true
stdout_logfile=%s
stdout_logfile_backups=0
`, p.Name, strings.ReplaceAll(shellQuote(script.String()), "%", "%%"), filepath.Join(root, "run"), p.AutoStart, startsecs,
		filepath.Join(root, "logs", p.Name+".log"))
}

// shellQuote is s in single quotes for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// supervisorUser is supervisord's user line: "user=root" when the test runs as root (so
// that supervisord does not warn that it has no user to drop to), none otherwise (it then
// runs as the test's user).
func supervisorUser() string {
	if os.Getuid() == 0 {
		return "user=root"
	}
	return ""
}

// stop ends supervisord as its service would (SIGTERM: it stops its programs, then
// itself), waiting up to 20 s; the programs of a supervisord that had to be killed end
// by themselves within two seconds of it.
func (w *Supervisor) stop() {
	select {
	case <-w.p.done:
		return
	default:
	}
	_ = w.p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-w.p.done:
	case <-time.After(20 * time.Second):
	}
}

// Seed is the state the fresh instance held (a copy, to change into what a goal should
// leave).
func (w *Supervisor) Seed() SupervisorState {
	out := SupervisorState{}
	for k, v := range w.seed {
		out[k] = v
	}
	return out
}

// SupervisorSeedProgram is the seed's program the status page shows as name.
func SupervisorSeedProgram(name string) (SupervisorProgram, bool) {
	for _, p := range SupervisorSeedPrograms {
		if p.ShownName() == name {
			return p, true
		}
	}
	return SupervisorProgram{}, false
}
