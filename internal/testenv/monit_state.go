package testenv

import (
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// MonitState is what a monit daemon and its services hold, flattened for the judges: for
// each service (by the name its pages show) "monitoring of NAME" (monitored, not
// monitored, initializing, waiting: monit's own word for it), "status of NAME" (ok, or
// the failures monit found) and, while monit has an action of it in hand, "pending
// action of NAME"; for a process also, from the processes themselves, "pid of NAME"
// (the live process its pid file names, running its script; "" for none), "copies of
// NAME" (how many processes run its script) and "starts of NAME" (how many times its
// script started: the lines of its log).
type MonitState map[string]string

// MonitNewPid, as a want's "pid of NAME", asks for a running process other than the
// seed's: the service was started again (Start service, Restart service).
const MonitNewPid = "(a new pid)"

// monitStatus is the part of monit's status report (/_status?format=xml) the state reads.
type monitStatus struct {
	Services []struct {
		Name    string `xml:"name"`
		Status  int    `xml:"status"`
		Monitor int    `xml:"monitor"`
		Pending int    `xml:"pendingaction"`
	} `xml:"service"`
}

// monitMonitoring is monit's word for its monitor field (as its pages show it).
var monitMonitoring = map[int]string{0: "not monitored", 1: "monitored", 2: "initializing", 4: "waiting"}

// monitActions are monit's actions by their number (its pendingaction field).
var monitActions = []string{"ignore", "alert", "restart", "stop", "exec", "unmonitor", "start", "monitor"}

// State reads the instance's state: monit's own status report, through its web
// interface, and each process service's pid file, processes and log.
func (w *Monit) State() (MonitState, error) {
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(w.URL + "_status?format=xml")
	if err != nil {
		return nil, fmt.Errorf("monit's status report: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("monit's status report answered %s", resp.Status)
	}
	var st monitStatus
	dec := xml.NewDecoder(resp.Body)
	// The report says ISO-8859-1; every name in it is ASCII.
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("monit's status report: %v", err)
	}
	s := MonitState{}
	for _, v := range st.Services {
		mon, ok := monitMonitoring[v.Monitor]
		if !ok {
			mon = fmt.Sprintf("monitor state %d", v.Monitor)
		}
		s["monitoring of "+v.Name] = mon
		s["status of "+v.Name] = "ok"
		if v.Status != 0 {
			s["status of "+v.Name] = fmt.Sprintf("failed (events %#x)", v.Status)
		}
		if v.Pending != 0 {
			s["pending action of "+v.Name] = strconv.Itoa(v.Pending)
			if v.Pending < len(monitActions) {
				s["pending action of "+v.Name] = monitActions[v.Pending]
			}
		}
	}
	for _, p := range MonitSeedServices {
		if p.Kind == "process" {
			w.readProcess(s, p.Name)
		}
	}
	return s, nil
}

// Summary is what monit -c monitrc summary prints for the instance (its services, their
// status and kind, one a line): the daemon's state as its own command line reads it.
func (w *Monit) Summary() (string, error) {
	cmd := exec.Command(monitBin, "-c", w.RC, "summary")
	cmd.Dir = w.Dir
	cmd.Env = append(os.Environ(), "HOME="+w.Dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("monit summary: %v: %s", err, out)
	}
	return string(out), nil
}

// readProcess adds the process service name's pid, copies and starts to s.
func (w *Monit) readProcess(s MonitState, name string) {
	running := monitProcesses(w.Dir, name)
	s["copies of "+name] = strconv.Itoa(len(running))
	s["pid of "+name] = ""
	if data, err := os.ReadFile(filepath.Join(w.Dir, "run", name+".pid")); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			for _, r := range running {
				if r == pid {
					s["pid of "+name] = strconv.Itoa(pid)
				}
			}
		}
	}
	data, _ := os.ReadFile(filepath.Join(w.Dir, "logs", name+".log"))
	s["starts of "+name] = strconv.Itoa(strings.Count(string(data), name+" started"))
}

// monitProcesses are the live processes (not zombies) running the script bin/name of the
// instance's folder dir (any of its scripts for name ""), by their ids.
func monitProcesses(dir, name string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := strings.LastIndexByte(string(stat), ')'); i < 0 || strings.HasPrefix(string(stat[i:]), ") Z") {
			continue
		}
		script := filepath.Join(dir, "bin", name)
		for _, arg := range strings.Split(string(cmdline), "\x00") {
			if arg == script || (name == "" && strings.HasPrefix(arg, script+"/")) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// unsettled says which service is not yet as a fresh instance has it ("" when each is):
// no action pending, monitored or not as seeded, and each process running once, started
// once (not at all for a stopped one), its status ok.
func (s MonitState) unsettled() string {
	for _, v := range append([]MonitService{{Name: MonitSystem, Monitored: true}}, MonitSeedServices...) {
		mon := "not monitored"
		if v.Monitored {
			mon = "monitored"
		}
		if s["monitoring of "+v.Name] != mon || s["status of "+v.Name] != "ok" || s["pending action of "+v.Name] != "" {
			return fmt.Sprintf("%s is %s, %s (pending %s), not yet %s and ok", v.Name, orNone(s["monitoring of "+v.Name]),
				orNone(s["status of "+v.Name]), orNone(s["pending action of "+v.Name]), mon)
		}
		if v.Kind != "process" {
			continue
		}
		runs := "0"
		if v.Running {
			runs = "1"
		}
		if s["copies of "+v.Name] != runs || s["starts of "+v.Name] != runs || (v.Running && s["pid of "+v.Name] == "") {
			return fmt.Sprintf("%s runs %s copies (pid %s) started %s times, not yet %s", v.Name, s["copies of "+v.Name],
				orNone(s["pid of "+v.Name]), s["starts of "+v.Name], runs)
		}
	}
	return ""
}

// Differs says how the instance's state differs from want, "" when it holds exactly
// that (a want's pid MonitNewPid asks for a running process other than the seed's).
func (w *Monit) Differs(t testing.TB, want MonitState) string {
	got, err := w.State()
	if err != nil {
		return err.Error()
	}
	return pidStateDiff(got, want, w.seed, MonitNewPid)
}
