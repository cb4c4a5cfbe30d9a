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

// Monit is a private monit daemon — Debian's Monit 5.33, a process and service monitor,
// whose own web interface (its httpd: a home page listing the services it checks in a
// table of each kind, System, Process, Program, File and Directory, each name a link to
// the service's page, whose buttons Start service, Stop service, Restart service and
// Disable monitoring or Enable monitoring act on it) is what a person uses — run as the
// test's own process in the foreground (monit -I): a monitrc of its own (mode 0600) in a
// temporary folder, its id, state, pid and log files there, a 15 s cycle (its pages
// reload themselves at that pace; the buttons act at once) and its web interface on a
// free loopback port. Monit's web interface can only ask for credentials by HTTP Basic
// (it has no sign-in page), and asks for none unless an "allow user:password" line is
// set: so, as Cloud Commander's and Supervisor's instances are, it is open to localhost
// ("allow localhost" and "allow 127.0.0.1", no accounts) and the goals have no sign-in.
//
// The services are a small web shop's server (MonitSeedServices): processes the harness
// itself starts before monit (shell scripts under bin/ that note each start in their log
// under logs/ and wait, ending by themselves once the monit daemon is gone, or after an
// hour), with the start and stop programs monit runs (bin/ctl), two configuration files,
// three folders and two check programs; some are not monitored from the start (onreboot
// nostart), two of them stopped. What a run did is read back through monit's own status report (its
// /_status?format=xml, which monit -c monitrc status reads too) and from the processes
// themselves (their pid files, /proc and their logs).
type Monit struct {
	URL  string // the web interface's home page, where a person starts: http://127.0.0.1:PORT/
	Dir  string // the instance's folder
	RC   string // its monitrc
	seed MonitState
	p    *process
}

// The package's daemon.
const monitBin = "/usr/bin/monit"

// MonitInstalled says whether Debian's monit is here (deploy/setup.sh heldout installs
// it).
func MonitInstalled() bool { return exists(monitBin) }

// MonitService is one service every instance's monit checks: its name as the pages show
// it, its kind ("process", "file", "directory" or "program"), the path of a file or
// folder (under the instance's folder) or a program's output line, whether the harness
// runs it (a process) and whether monit monitors it from the start.
type MonitService struct {
	Name      string
	Kind      string
	Path      string // a file's or folder's path; a program's output; a process's start line
	Running   bool   // a process the harness starts before monit
	Monitored bool   // false: "onreboot nostart", shown as Not monitored
}

// MonitSystem is the name of the instance's system service (check system), which the
// home page also shows as the host monit runs on.
const MonitSystem = "shop-web-01"

// MonitSeedServices are the seed's services, in the order of the monitrc (each kind's
// table lists its services in that order).
var MonitSeedServices = []MonitService{
	{Name: "report-worker", Kind: "process", Path: "building the scheduled sales reports", Running: true, Monitored: true},
	{Name: "export-worker", Kind: "process", Path: "exporting orders to the warehouse", Running: true, Monitored: true},
	{Name: "import-worker", Kind: "process", Path: "importing supplier price lists", Running: true, Monitored: true},
	{Name: "search-indexer", Kind: "process", Path: "indexing the product catalogue", Running: true, Monitored: true},
	{Name: "invoice-mailer", Kind: "process", Path: "mailing invoices of paid orders"},
	{Name: "newsletter-mailer", Kind: "process", Path: "mailing the weekly newsletter"},
	{Name: "thumbnail-worker", Kind: "process", Path: "resizing product images", Running: true},
	{Name: "cache-warmer", Kind: "process", Path: "warming the category pages", Running: true},
	{Name: "nginx-config", Kind: "file", Path: "etc/nginx/sites-enabled/shop.conf", Monitored: true},
	{Name: "php-fpm-config", Kind: "file", Path: "etc/php/8.2/fpm/pool.d/shop.conf", Monitored: true},
	{Name: "uploads", Kind: "directory", Path: "srv/shop/uploads", Monitored: true},
	{Name: "backups", Kind: "directory", Path: "srv/shop/backups"},
	{Name: "log-archive", Kind: "directory", Path: "srv/shop/log-archive"},
	{Name: "disk-usage-report", Kind: "program", Path: "/srv/shop: 41% of 50G used", Monitored: true},
	{Name: "backup-check", Kind: "program", Path: "last backup 03:00, 1.8G, verified", Monitored: true},
}

// MonitSeedService is the seed's service called name.
func MonitSeedService(name string) (MonitService, bool) {
	for _, s := range MonitSeedServices {
		if s.Name == name {
			return s, true
		}
	}
	return MonitService{}, false
}

// StartMonit writes a private monitrc and the services' files into a temporary folder,
// starts the processes the seed runs, runs monit in the foreground until the test ends
// (then stopped, and every process of the instance with it), waits until its web
// interface answers and every service is in its seed state, and keeps that state as the
// seed. It skips the test when Monit is missing.
func StartMonit(t testing.TB) *Monit {
	t.Helper()
	if !MonitInstalled() {
		t.Skip("Monit is not installed: run `deploy/setup.sh monit` (it installs Debian's monit)")
	}
	// Not t.TempDir: its name holds the test's, spaces and all, and the monitrc's paths and
	// start programs are split at spaces.
	root, err := os.MkdirTemp("", "heldout-monit-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(root) })
	port := FreePort(t)
	w := &Monit{URL: "http://" + Addr(port) + "/", Dir: root, RC: filepath.Join(root, "monitrc")}
	t.Cleanup(w.endProcesses) // last: after monit is gone
	w.writeServices(t)
	if err := os.WriteFile(w.RC, []byte(monitConfig(root, port)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, s := range MonitSeedServices {
		if s.Running {
			if out, err := exec.Command(filepath.Join(root, "bin", "ctl"), "start", s.Name).CombinedOutput(); err != nil {
				t.Fatalf("monit: start %s: %v\n%s", s.Name, err, out)
			}
		}
	}
	cmd := exec.Command(monitBin, "-c", w.RC, "-I")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+root, "TZ=UTC", "LANG=C.UTF-8")
	began := time.Now()
	w.p = start(t, "monit", cmd)
	t.Cleanup(w.stop)
	waitHTTP(t, "monit", w.URL, 30*time.Second, w.p)
	if why := w.settle(); why != "" {
		data, _ := os.ReadFile(filepath.Join(root, "monit.log"))
		t.Fatalf("monit's services did not settle in %s: %s\n%s%s", time.Since(began).Round(time.Second), why, data, w.p.out.String())
	}
	return w
}

// settle waits up to 30 s until every service is in its seed state, waking the daemon
// each second as its own "Force validate now" does (a check program's first result is
// read at the validation after the one that ran it), and keeps that state as the seed.
func (w *Monit) settle() string {
	deadline := time.Now().Add(30 * time.Second)
	why := ""
	for time.Now().Before(deadline) {
		_ = w.p.cmd.Process.Signal(syscall.SIGUSR1)
		why = Eventually(time.Second, func() string {
			s, err := w.State()
			if err != nil {
				return err.Error()
			}
			w.seed = s
			return s.unsettled()
		})
		if why == "" {
			return ""
		}
	}
	return why
}

// monitConfig is the instance's monitrc: the daemon's files in root, a 15 s cycle, the web
// interface on 127.0.0.1:port open to localhost without accounts (so without HTTP
// Basic), the system and the seed's services.
func monitConfig(root string, port int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `set daemon 15
set logfile %[1]s/monit.log
set pidfile %[1]s/monit.pid
set idfile %[1]s/monit.id
set statefile %[1]s/monit.state
set httpd port %[2]d and
    use address 127.0.0.1
    allow localhost
    allow 127.0.0.1

check system %[3]s
`, root, port, MonitSystem)
	for _, s := range MonitSeedServices {
		b.WriteString(monitServiceConfig(root, s))
	}
	return b.String()
}

// monitServiceConfig is a service's check: a process by its pid file with bin/ctl as its
// start and stop programs, a file or folder by its path, a program by its command (an
// echo of its output line, exiting 0); "onreboot nostart" for one not monitored from the
// start.
func monitServiceConfig(root string, s MonitService) string {
	var b strings.Builder
	ctl := filepath.Join(root, "bin", "ctl")
	switch s.Kind {
	case "process":
		fmt.Fprintf(&b, "\ncheck process %s with pidfile %s\n", s.Name, filepath.Join(root, "run", s.Name+".pid"))
		fmt.Fprintf(&b, "    start program = \"%s start %s\" with timeout 10 seconds\n", ctl, s.Name)
		fmt.Fprintf(&b, "    stop program = \"%s stop %s\" with timeout 10 seconds\n", ctl, s.Name)
	case "file":
		fmt.Fprintf(&b, "\ncheck file %s with path %s\n    if failed permission 644 then alert\n", s.Name, filepath.Join(root, s.Path))
	case "directory":
		fmt.Fprintf(&b, "\ncheck directory %s with path %s\n    if failed permission 755 then alert\n", s.Name, filepath.Join(root, s.Path))
	case "program":
		fmt.Fprintf(&b, "\ncheck program %s with path \"/bin/echo %s\"\n    if status != 0 then alert\n", s.Name, s.Path)
	}
	if !s.Monitored {
		b.WriteString("    onreboot nostart\n")
	}
	return b.String()
}

// writeServices writes the services' files into the instance's folder: bin/ctl (start:
// runs a process's script in the background; stop: ends it by its pid file), each
// process's script, the files and folders, and run/ and logs/.
func (w *Monit) writeServices(t testing.TB) {
	t.Helper()
	for _, d := range []string{"bin", "run", "logs"} {
		if err := os.MkdirAll(filepath.Join(w.Dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := func(name, text string) {
		if err := os.WriteFile(filepath.Join(w.Dir, "bin", name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script("ctl", fmt.Sprintf(`#!/bin/sh
# ctl start|stop NAME: the shop's service control (what monit's start and stop programs run).
dir=%s
case "$1" in
start) "$dir/bin/$2" </dev/null >/dev/null 2>&1 & ;;
stop) if [ -s "$dir/run/$2.pid" ]; then kill "$(cat "$dir/run/$2.pid")" 2>/dev/null; fi ;;
esac
exit 0
`, shellQuote(w.Dir)))
	for _, s := range MonitSeedServices {
		switch s.Kind {
		case "process":
			script(s.Name, fmt.Sprintf(`#!/bin/sh
# %[2]s: %[3]s (waits while the monit daemon of its folder runs, an hour at most).
dir=%[1]s
echo $$ >"$dir/run/%[2]s.pid"
echo "%[2]s started: %[3]s" >>"$dir/logs/%[2]s.log"
n=0
while [ $n -lt 3600 ] && [ -e "$dir/monitrc" ] && { [ ! -s "$dir/monit.pid" ] || kill -0 "$(cat "$dir/monit.pid")" 2>/dev/null; }; do
	sleep 1
	n=$((n + 1))
done
`, shellQuote(w.Dir), s.Name, s.Path))
		case "file":
			if err := os.MkdirAll(filepath.Dir(filepath.Join(w.Dir, s.Path)), 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(w.Dir, s.Path), "# "+s.Name+" of the shop\n")
			if err := os.Chmod(filepath.Join(w.Dir, s.Path), 0o644); err != nil {
				t.Fatal(err)
			}
		case "directory":
			if err := os.MkdirAll(filepath.Join(w.Dir, s.Path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(filepath.Join(w.Dir, s.Path), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// stop ends monit as its service would (SIGTERM: it stops checking, leaving the services
// as they are), waiting up to 10 s.
func (w *Monit) stop() {
	select {
	case <-w.p.done:
		return
	default:
	}
	_ = w.p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-w.p.done:
	case <-time.After(10 * time.Second):
	}
}

// endProcesses ends, by their ids, the instance's processes still running (its services'
// scripts, which would end by themselves within a second of monit).
func (w *Monit) endProcesses() {
	for _, pid := range monitProcesses(w.Dir, "") {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
}

// Seed is the state the fresh instance held (a copy, to change into what a goal should
// leave).
func (w *Monit) Seed() MonitState {
	out := MonitState{}
	for k, v := range w.seed {
		out[k] = v
	}
	return out
}
