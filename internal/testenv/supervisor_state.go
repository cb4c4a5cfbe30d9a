package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// SupervisorState is what a supervisord holds, flattened for the judges: for each program
// (by the name the status page shows, group:name for a program of a group) "state of
// NAME" (RUNNING, STOPPED, EXITED…, as supervisorctl status says), "pid of NAME" (its
// process's id while it runs, "" otherwise) and "log of NAME" (its log file's lines,
// joined with " | ": what Clear Log empties and each start adds to).
type SupervisorState map[string]string

// SupervisorNewPid, as a want's "pid of NAME", asks for a running process other than the
// seed's: the program was started again (Restart, Restart All, Start).
const SupervisorNewPid = "(a new pid)"

var supervisorStatusLine = regexp.MustCompile(`^(\S+)\s+([A-Z]+)\s*(.*)$`)
var supervisorPid = regexp.MustCompile(`\bpid (\d+),`)

// State reads the instance's state: supervisorctl status against its configuration (the
// RPC interface beside the web interface) and each program's log file.
func (w *Supervisor) State() (SupervisorState, error) {
	cmd := exec.Command(supervisorctl, "-c", w.Conf, "status")
	cmd.Dir = w.Dir
	out, err := cmd.CombinedOutput()
	// supervisorctl status exits 3 when a program is not running: its lines say so.
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		return nil, fmt.Errorf("supervisorctl status: %v", err)
	}
	s := SupervisorState{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		m := supervisorStatusLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			return nil, fmt.Errorf("supervisorctl status said %q: %s", line, out)
		}
		s["state of "+m[1]] = m[2]
		s["pid of "+m[1]] = ""
		if p := supervisorPid.FindStringSubmatch(m[3]); p != nil && m[2] == "RUNNING" {
			s["pid of "+m[1]] = p[1]
		}
	}
	for _, p := range SupervisorSeedPrograms {
		data, err := os.ReadFile(filepath.Join(w.Dir, "logs", p.Name+".log"))
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		s["log of "+p.ShownName()] = SupervisorLog(lines)
	}
	return s, nil
}

// SupervisorLog is what the log of a program that printed lines once, and then again
// each time of again, holds (as the state shows it).
func SupervisorLog(lines ...[]string) string {
	var all []string
	for _, l := range lines {
		all = append(all, l...)
	}
	return strings.Join(all, " | ")
}

// unsettled says which program is not yet as a fresh instance has it ("" when each is):
// running, stopped ("Not started") or, for a Once program, exited, each with its lines
// in its log (none for a stopped one).
func (s SupervisorState) unsettled() string {
	for _, p := range SupervisorSeedPrograms {
		name := p.ShownName()
		want, log := "RUNNING", SupervisorLog(p.Lines)
		switch {
		case p.Once:
			want = "EXITED"
		case !p.AutoStart:
			want, log = "STOPPED", ""
		}
		if s["state of "+name] != want || s["log of "+name] != log {
			return fmt.Sprintf("%s is %s with the log %q, not yet %s with %q", name, orNone(s["state of "+name]), s["log of "+name], want, log)
		}
	}
	return ""
}

// Differs says how the instance's state differs from want, "" when it holds exactly
// that (a want's pid SupervisorNewPid asks for a running process other than the seed's).
func (w *Supervisor) Differs(t testing.TB, want SupervisorState) string {
	got, err := w.State()
	if err != nil {
		return err.Error()
	}
	return pidStateDiff(got, want, w.seed, SupervisorNewPid)
}
