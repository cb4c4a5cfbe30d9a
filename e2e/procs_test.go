package e2e

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// procKinds names the machine's processes a run costs CPU in, besides Chromium's, by
// their command name.
var procKinds = []struct{ kind, match string }{
	{"driver", "node"}, {"worker", "workers"}, {"temporal", "temporal"}, {"minio", "minio"},
}

func procKind(comm string) string {
	if testenv.IsChromium(comm) {
		return "chromium"
	}
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
	testenv.EachProcess(func(dir, name string, stat []string) {
		var ticks int64
		for _, i := range []int{11, 12, 13, 14} { // utime, stime, cutime, cstime
			n, _ := strconv.ParseInt(stat[i], 10, 64)
			ticks += n
		}
		key := filepath.Base(dir) + "/" + stat[19] // the pid and its start time
		out[key] = procTime{kind: procKind(name), cpu: testenv.Ticks(ticks)}
	})
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
