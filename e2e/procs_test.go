package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// procKinds names the machine's processes a run costs CPU in, by their command name.
var procKinds = []struct{ kind, match string }{
	{"chromium", "chrom"}, {"chromium", "headless"}, {"driver", "node"},
	{"worker", "workers"}, {"temporal", "temporal"}, {"minio", "minio"},
}

func procKind(comm string) string {
	comm = strings.ToLower(comm)
	for _, k := range procKinds {
		if strings.Contains(comm, k.match) {
			return k.kind
		}
	}
	return "other"
}

// procCPU is the CPU time of every process on the machine, by process (pid and start
// time): its own and that of the children it has reaped, so that a process that came and
// went between two readings (a run's renderer) is counted in its parent's.
type procCPU map[string]procTime

type procTime struct {
	kind string
	cpu  time.Duration
}

func readProcs() procCPU {
	out := procCPU{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		st := string(data)
		open, end := strings.IndexByte(st, '('), strings.LastIndexByte(st, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(st[end+1:])
		if len(fields) < 20 {
			continue
		}
		var ticks int64
		for _, i := range []int{11, 12, 13, 14} { // utime, stime, cutime, cstime
			n, _ := strconv.ParseInt(fields[i], 10, 64)
			ticks += n
		}
		key := filepath.Base(filepath.Dir(f)) + "/" + fields[19]
		out[key] = procTime{kind: procKind(st[open+1 : end]), cpu: time.Duration(ticks) * 10 * time.Millisecond} // USER_HZ is 100 on Linux
	}
	return out
}

// since is the CPU each kind of process used between from and p. A process gone since
// from takes its time out of its kind; its parent has it now.
func (p procCPU) since(from procCPU) map[string]time.Duration {
	out := map[string]time.Duration{}
	for k, t := range p {
		out[t.kind] += t.cpu - from[k].cpu
	}
	for k, t := range from {
		if _, ok := p[k]; !ok {
			out[t.kind] -= t.cpu
		}
	}
	return out
}

// reportProcs reports each kind's CPU per run as "<kind>-cpu-s/run".
func reportProcs(b *testing.B, by map[string]time.Duration, runs int) {
	for _, k := range []string{"chromium", "driver", "worker", "temporal", "minio", "other"} {
		b.ReportMetric(by[k].Seconds()/float64(runs), k+"-cpu-s/run")
	}
}
