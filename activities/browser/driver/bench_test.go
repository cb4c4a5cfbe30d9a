package driver_test

import (
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
)

// The costs that make up one attempt at a step, on the demo app's project list with its
// "New project" dialog open: go test -bench . -run '^$' ./activities/browser/
func benchSession(b *testing.B) *driver.Session {
	ctx := b.Context()
	seed := make([]demoapp.Project, 20)
	for i := range seed {
		seed[i] = demoapp.Project{Name: "Project " + string(rune('A'+i)), Priority: "Low"}
	}
	srv := httptest.NewServer(demoapp.New(seed...))
	b.Cleanup(srv.Close)
	pool := newPool(b)
	s, _, err := pool.Open(b.Context(), "bench", driver.OpenOptions{URL: srv.URL + "/projects"})
	if err != nil {
		b.Fatal(err)
	}
	if out, err := s.Do(ctx, plan.Step{Action: plan.Click, TargetDescription: "New project"}, driver.DoOptions{WaitBudget: time.Second}); err != nil || !out.OK {
		b.Fatalf("open the dialog: %v %+v", err, out)
	}
	time.Sleep(2 * time.Second) // the pool's spare context is made before anything is counted
	return s
}

func BenchmarkObserve(b *testing.B) {
	ctx := b.Context()
	s := benchSession(b)
	cpu := chromiumCPU()
	defer reportCPU(b, cpu)
	for b.Loop() {
		if _, err := s.Observe(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScreenshot(b *testing.B) {
	ctx := b.Context()
	s := benchSession(b)
	cpu := chromiumCPU()
	defer reportCPU(b, cpu)
	for b.Loop() {
		if _, err := s.Screenshot(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolve(b *testing.B) {
	ctx := b.Context()
	s := benchSession(b)
	obs, err := s.Observe(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if r := page.Resolve(`the "Priority" dropdown`, plan.Select, obs.Elements); !r.Resolved() {
			b.Fatal(r.Reason)
		}
	}
}

// BenchmarkTypeStep is one whole attempt: observe, resolve, screenshot, fill, settle,
// observe, screenshot, check.
func BenchmarkTypeStep(b *testing.B) {
	ctx := b.Context()
	s := benchSession(b)
	step := plan.Step{Action: plan.Type, TargetDescription: "Project name", Value: "Apollo"}
	cpu := chromiumCPU()
	defer reportCPU(b, cpu)
	for b.Loop() {
		if out, err := s.Do(ctx, step, driver.DoOptions{WaitBudget: time.Second}); err != nil || !out.OK {
			b.Fatalf("%v %+v", err, out)
		}
	}
}

// chromiumProcs calls fn with the /proc directory and the stat fields (after the name)
// of each of Chromium's processes.
func chromiumProcs(fn func(dir string, stat []string)) {
	testenv.EachProcess(func(dir, name string, stat []string) {
		if testenv.IsChromium(name) {
			fn(dir, stat)
		}
	})
}

// chromiumCPU is the CPU time all of this machine's Chromium processes have used so far
// (Linux only; 0 elsewhere): a benchmark reports the browser's CPU per operation beside
// its wall time, since on a small machine CPU, not waiting, bounds how many runs fit.
func chromiumCPU() time.Duration {
	var ticks int64
	chromiumProcs(func(_ string, f []string) {
		u, _ := strconv.ParseInt(f[11], 10, 64)
		k, _ := strconv.ParseInt(f[12], 10, 64)
		ticks += u + k
	})
	return testenv.Ticks(ticks)
}

// chromiumMemory is the memory Chromium's processes hold, each shared page counted once
// (the sum of their proportional set sizes), in MiB.
func chromiumMemory() float64 {
	var kb int64
	chromiumProcs(func(dir string, _ []string) {
		data, err := os.ReadFile(dir + "/smaps_rollup")
		if err != nil {
			return
		}
		for l := range strings.Lines(string(data)) {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "Pss:" {
				n, _ := strconv.ParseInt(f[1], 10, 64)
				kb += n
			}
		}
	})
	return float64(kb) / 1024
}

func reportCPU(b *testing.B, from time.Duration) {
	b.ReportMetric(float64((chromiumCPU()-from).Microseconds())/1000/float64(b.N), "chromium-cpu-ms/op")
}

// BenchmarkOpenPage is what a run's fresh browser context and page cost the machine: a
// context and a page opened on the demo app and closed, the browser's CPU counted until
// it has gone quiet again (a new page's renderer process keeps working for a second or
// so after it is shown). Each open takes the spare context and its close opens the next,
// as a worker's runs do: one new page a run.
func BenchmarkOpenPage(b *testing.B) {
	srv := httptest.NewServer(demoapp.New())
	b.Cleanup(srv.Close)
	pool := newPool(b)
	time.Sleep(2 * time.Second) // the pool's own spare
	ctx := b.Context()
	var cpu time.Duration
	for i := 0; b.Loop(); i++ {
		from := chromiumCPU()
		id := "open-" + strconv.Itoa(i)
		if _, _, err := pool.Open(ctx, id, driver.OpenOptions{URL: srv.URL + "/projects"}); err != nil {
			b.Fatal(err)
		}
		if _, err := pool.Close(id); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		time.Sleep(2500 * time.Millisecond)
		cpu += chromiumCPU() - from
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "chromium-cpu-ms/op")
}

// BenchmarkSessionMemory is what the sessions a worker holds at once cost in memory
// (WEBAGENT_MAX_BROWSERS): the browser with its spare context, then eight sessions on the
// demo app's project list, each page loaded and shown.
func BenchmarkSessionMemory(b *testing.B) {
	srv := httptest.NewServer(demoapp.New())
	b.Cleanup(srv.Close)
	const n = 8
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		pool := newPool(b)
		time.Sleep(2 * time.Second) // the spare
		base := chromiumMemory()
		b.StartTimer()
		for j := range n {
			id := "mem-" + strconv.Itoa(i) + "-" + strconv.Itoa(j)
			if _, _, err := pool.Open(b.Context(), id, driver.OpenOptions{URL: srv.URL + "/projects"}); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		time.Sleep(2 * time.Second)
		all := chromiumMemory()
		pool.Shutdown()
		b.ReportMetric(base, "browser-MiB")
		b.ReportMetric((all-base)/n, "MiB/session")
		b.StartTimer()
	}
}
