package e2e

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser/driver"
	agent "github.com/webagent-dev/webagent/client"
	"github.com/webagent-dev/webagent/plan"

	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/egress"
	"github.com/webagent-dev/webagent/internal/geminitest"
	"github.com/webagent-dev/webagent/internal/sites"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// BenchmarkDemoGoal runs the five-step demo goal through the whole system — Temporal dev
// server, worker process, Chromium, MinIO — and reports the time per run and per step:
//
//	go test -run '^$' -bench DemoGoal -benchtime 10x ./e2e/
func BenchmarkDemoGoal(b *testing.B) {
	c, srv, _ := benchStack(b, demoapp.New())

	var steps, stepMs int64
	for i := 0; b.Loop(); i++ {
		run, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{TaskQueue: workflows.TaskQueue},
			workflows.GoalWorkflowName, workflows.GoalInput{Goal: demoGoal, StartURL: srv.URL + "/projects"})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var res workflows.GoalResult
		err = workflows.ResultOf(&res, run.Get(ctx, &res))
		cancel()
		if err != nil || res.Execution.Status != workflows.StatusSuccess {
			b.Fatalf("run %d: %v %+v", i, err, res.Execution)
		}
		for _, s := range res.Steps {
			steps++
			stepMs += s.DurationMs
		}
	}
	b.ReportMetric(float64(stepMs)/float64(steps), "ms/step")
}

// BenchmarkProductVsBare runs the demo goal five ways in one process run, alternating: the
// product (through Temporal, the worker process, MinIO, with the network boundary on: every
// request through the run's egress proxy); the product's browser layer in-process
// (Session.Do per step, nothing else); a bare playwright-go loop a script would be (rawDemo:
// per step a screenshot, the list of controls, the action, Playwright's load wait, a
// screenshot), once straight and once through an egress proxy like a run's (what the
// network boundary costs); and the actions-only floor (floorDemo: a new context, the start
// page and the five actions, nothing else). It reports the medians and the product's
// ratios to each, and the product's time by part, from its account (client.Account):
//
//	go test -run '^$' -bench ProductVsBare -benchtime 10x ./e2e/
func BenchmarkProductVsBare(b *testing.B) {
	c, srv, _ := benchStack(b, demoapp.New())
	start := srv.URL + "/projects"
	steps, err := plan.Parse(demoGoal)
	if err != nil {
		b.Fatal(err)
	}
	pool, err := driver.NewPool(driver.Config{DriverDir: testenv.DriverDir(b), ExecutablePath: testenv.Chromium(b), Headless: true, MaxSessions: 2, Internal: testenv.Loopback(),
		Width: 1280, Height: 800}, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Shutdown)

	layer := func(i int) time.Duration {
		t0 := time.Now()
		id := fmt.Sprintf("bare-%d", i)
		s, _, err := pool.Open(context.Background(), id, driver.OpenOptions{URL: start})
		if err != nil {
			b.Fatal(err)
		}
		for _, st := range steps {
			out, err := s.Do(context.Background(), st, driver.DoOptions{WaitBudget: 3 * time.Second})
			if err != nil || !out.OK {
				b.Fatalf("layer run %d, step %s: %v %+v", i, st, err, out.Feedback)
			}
		}
		if _, err := pool.Close(id); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	chromium := rawChromium(b)
	raw := func(i int) time.Duration { return rawDemo(b, chromium, start, nil, i) }
	// The same loop with every request through an egress proxy like the run's: what the
	// network boundary costs, in the same table.
	proxied := egressFor(b, srv.URL, start)
	rawProxied := func(i int) time.Duration { return rawDemo(b, chromium, start, proxied, i) }
	floor := func(i int) time.Duration { return floorDemo(b, chromium, start, i) }
	accounts := agent.New(c, "default", "")
	parts := map[string][]time.Duration{}
	product := func(i int) time.Duration {
		t0 := time.Now()
		run, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{TaskQueue: workflows.TaskQueue},
			workflows.GoalWorkflowName, workflows.GoalInput{Goal: demoGoal, StartURL: start})
		if err != nil {
			b.Fatal(err)
		}
		var res workflows.GoalResult
		if err := run.Get(context.Background(), &res); err != nil || res.Execution.Status != workflows.StatusSuccess {
			b.Fatalf("product run %d: %v %+v", i, err, res.Execution)
		}
		took := time.Since(t0)
		a, err := accounts.RunOf(run.GetID(), run.GetRunID()).Account(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range a.Parts() {
			parts[partName(p.What)] = append(parts[partName(p.What)], p.Took)
		}
		parts["run (history: start to end)"] = append(parts["run (history: start to end)"], a.Total)
		return took
	}
	var p, q, r, x, f []time.Duration
	layer(-1) // warm all up
	raw(-1)
	rawProxied(-1)
	floor(-1)
	product(-1)
	clear(parts)
	// Each run starts on a quiet machine: what the run before left to do in the
	// background (a closed context's teardown, the worker's spare context) is done.
	quiet := func() { time.Sleep(1500 * time.Millisecond) }
	for i := 0; b.Loop(); i++ {
		quiet()
		p = append(p, product(i))
		quiet()
		q = append(q, layer(i))
		quiet()
		r = append(r, raw(i))
		quiet()
		x = append(x, rawProxied(i))
		quiet()
		f = append(f, floor(i))
	}
	mp, mq, mr, mx, mf := median(p), median(q), median(r), median(x), median(f)
	b.ReportMetric(float64(mp.Milliseconds()), "product-ms")
	b.ReportMetric(float64(mq.Milliseconds()), "layer-ms")
	b.ReportMetric(float64(mr.Milliseconds()), "raw-ms")
	b.ReportMetric(float64(mf.Milliseconds()), "floor-ms")
	b.ReportMetric(float64(mx.Milliseconds()), "raw-proxied-ms")
	b.ReportMetric(float64(mx)/float64(mr), "proxied/direct")
	b.ReportMetric(float64(mp)/float64(mq), "product/layer")
	b.ReportMetric(float64(mp)/float64(mr), "product/raw")
	b.ReportMetric(float64(mp)/float64(mf), "product/floor")
	names := make([]string, 0, len(parts))
	for k := range parts {
		names = append(names, k)
	}
	sort.Strings(names)
	var table strings.Builder
	for _, k := range names {
		// A part a run did not have counts as zero in the median.
		d := parts[k]
		for len(d) < len(p) {
			d = append(d, 0)
		}
		fmt.Fprintf(&table, "\n  %-48s median %v", k, median(d).Round(time.Millisecond))
	}
	fmt.Printf("BenchmarkProductVsBare: the product's parts (medians of %d runs):%s\n", len(p), table.String())
}

// partName is an account's part without the counts that differ from run to run.
func partName(what string) string {
	name, _, _ := strings.Cut(what, " (")
	if strings.HasPrefix(what, "between activities") {
		return "between activities"
	}
	if strings.HasPrefix(what, "steps: ") || strings.HasPrefix(what, "open: ") {
		return what
	}
	return name
}

// machineCPU is the CPU time every process on the machine has used since boot (user,
// nice, system, interrupts), from /proc/stat.
func machineCPU(b *testing.B) time.Duration {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		b.Fatal(err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(line) // cpu user nice system idle iowait irq softirq steal
	if len(f) < 8 || f[0] != "cpu" {
		b.Fatalf("/proc/stat: unexpected first line %q", line)
	}
	var ticks int64
	for _, i := range []int{1, 2, 3, 6, 7} {
		n, _ := strconv.ParseInt(f[i], 10, 64)
		ticks += n
	}
	return testenv.Ticks(ticks)
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkConcurrentGoals runs one demo goal alone (median of three), the same goal eight
// times one after another, then eight at once on one worker, and reports how much faster
// the eight at once finish than one after another (speedup-x) and than eight times one run
// alone (throughput-x); beside it, the
// machine's CPU a run alone uses (every process: the worker, Chromium, the driver,
// Temporal, MinIO), the throughput the machine's cores allow at that cost (ceiling-x:
// cores × one run's time / its CPU), and how many cores were busy while the eight ran.
// It also splits a run's CPU by process (<kind>-cpu-s/run: Chromium, the Playwright
// driver, the worker, Temporal, MinIO, the rest) and gives the ceiling of a machine that
// runs only the worker and its browser (worker-machine-ceiling-x), as deployed. With
// -benchtime Nx each figure is the median of N rounds, each on a quiet machine (one round
// swings by a fifth from sitting to sitting on a small machine):
//
//	go test -run '^$' -bench ConcurrentGoals -benchtime 3x ./e2e/
//
// WEBAGENT_MAX_BROWSERS on the benchmark's environment sets the worker's browsers.
func BenchmarkConcurrentGoals(b *testing.B) {
	c, srv, w := benchStack(b, demoapp.New())
	start := srv.URL + "/projects"
	const n = 8
	run := func(i int) (workflows.GoalResult, time.Duration) {
		t0 := time.Now()
		r, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{TaskQueue: workflows.TaskQueue},
			workflows.GoalWorkflowName, workflows.GoalInput{Goal: createGoal(fmt.Sprintf("Concurrent-%d", i)), StartURL: start})
		if err != nil {
			b.Fatal(err)
		}
		var res workflows.GoalResult
		if err := r.Get(context.Background(), &res); err != nil {
			b.Fatal(err)
		}
		return res, time.Since(t0)
	}
	var rounds []map[string]float64
	for round := 0; b.Loop(); round++ {
		m := map[string]float64{}
		run(-1 - round) // warm up
		var alone []time.Duration
		cpu0, procs := machineCPU(b), readProcs()
		for i := range 3 {
			_, d := run(1000*round + 100 + i)
			alone = append(alone, d)
		}
		perRun, by := (machineCPU(b)-cpu0)/3, readProcs().since(procs)
		one := median(alone)
		for _, k := range []string{"chromium", "driver", "worker", "temporal", "minio", "other"} {
			m[k+"-cpu-s/run"] = by[k].Seconds() / 3
		}
		// The worker's machine alone: its process, the Playwright driver and Chromium,
		// with Temporal and MinIO elsewhere, as they are deployed.
		own := (by["chromium"] + by["driver"] + by["worker"]) / 3
		m["worker-machine-ceiling-x"] = float64(runtime.NumCPU()) * one.Seconds() / own.Seconds()
		// Each part starts on a quiet machine: what the runs before left to do in the
		// background (closed contexts' teardown, the spare context) is done.
		time.Sleep(1500 * time.Millisecond)
		cpu0 = machineCPU(b)
		t0 := time.Now()
		results := make(chan workflows.GoalResult, n)
		for i := range n {
			go func() {
				res, _ := run(1000*round + i)
				results <- res
			}()
		}
		ok, recoveries := 0, 0
		for range n {
			res := <-results
			if res.Execution.Status == workflows.StatusSuccess {
				ok++
			}
			recoveries += res.Execution.BrowserRecoveries
		}
		wall := time.Since(t0)
		busy := (machineCPU(b) - cpu0).Seconds() / wall.Seconds()
		// The same eight one after another, as a person would run them without the
		// worker's parallelism: the wall time of all eight, each run's teardown included.
		time.Sleep(1500 * time.Millisecond)
		t0 = time.Now()
		for i := range n {
			run(1000*round + 200 + i)
		}
		serial := time.Since(t0)
		m["one-ms"] = float64(one.Milliseconds())
		m["eight-ms"] = float64(wall.Milliseconds())
		m["throughput-x"] = float64(n) * float64(one) / float64(wall)
		m["serial-ms"] = float64(serial.Milliseconds())
		m["speedup-x"] = float64(serial) / float64(wall)
		m["succeeded"] = float64(ok)
		m["recoveries"] = float64(recoveries)
		// A run alone keeps perRun/one of the machine's cores busy; eight at once can go
		// no faster than the machine's cores allow.
		m["cpu-s/run"] = perRun.Seconds()
		m["ceiling-x"] = float64(runtime.NumCPU()) * one.Seconds() / perRun.Seconds()
		m["cores-busy"] = busy
		b.Logf("round %d: speedup %.2f× (one after another %v, eight at once %v), %.2f core-s a run, ceiling %.2f×",
			round+1, m["speedup-x"], serial.Round(time.Millisecond), wall.Round(time.Millisecond), m["cpu-s/run"], m["ceiling-x"])
		rounds = append(rounds, m)
		time.Sleep(1500 * time.Millisecond)
	}
	for k := range rounds[0] {
		v := make([]float64, len(rounds))
		for i, m := range rounds {
			v[i] = m[k]
		}
		slices.Sort(v)
		b.ReportMetric(v[len(v)/2], k)
	}
	b.Logf("runs that waited in line for a browser: %d", strings.Count(w.Output(), "waiting for a free browser"))
}

// BenchmarkModelLatency runs an open-ended goal with the Gemini stand-in answering every
// call after one second: cold (the model plans, decides, replans, evaluates, judges and
// summarises), then the same goal again as a skill cache hit (replayed, no planning or
// decide calls). It reports both times, their ratio and the model calls:
//
//	go test -run '^$' -bench ModelLatency -benchtime 3x ./e2e/
func BenchmarkModelLatency(b *testing.B) {
	weaviate := testenv.Weaviate(b)
	slow := func(call geminitest.Call, n int) geminitest.Reply {
		r := archiveScript(call, n)
		r.Delay = time.Second
		return r
	}
	gemini := geminitest.New(b, slow)
	c, srv, _ := benchStack(b, demoapp.New(tracker...), "GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL="+gemini.URL, "WEAVIATE_URL="+weaviate.Addr)
	start := srv.URL + "/projects"
	// cold plans afresh (skipSkills: the library may know the goal from an earlier round).
	run := func(cold bool) (workflows.GoalResult, time.Duration) {
		t0 := time.Now()
		r, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{TaskQueue: workflows.TaskQueue},
			workflows.GoalWorkflowName, workflows.GoalInput{Goal: archiveGoal, StartURL: start, SkipSkills: cold, Limits: workflows.Limits{WaitBudget: 300 * time.Millisecond}})
		if err != nil {
			b.Fatal(err)
		}
		var res workflows.GoalResult
		if err := r.Get(context.Background(), &res); err != nil || res.Execution.Status != workflows.StatusSuccess {
			b.Fatalf("%v %+v", err, res.Execution)
		}
		return res, time.Since(t0)
	}
	reset := func() {
		resp, err := http.Post(srv.URL+"/api/reset", "application/json",
			strings.NewReader(`{"projects": [{"name": "Website relaunch", "priority": "High"}, {"name": "Q4-bugs", "priority": "Medium"}]}`))
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("reset the demo app: %v %v", err, resp)
		}
		resp.Body.Close()
		gemini.Reset()
	}
	var colds, hits []time.Duration
	var coldCalls, hitCalls int
	for b.Loop() {
		cold, coldTime := run(true)
		coldCalls = len(gemini.Calls(""))
		if cold.Skill.SaveWorkflowID == "" {
			b.Fatalf("the cold run saved no skill: %+v", cold.Skill)
		}
		var saved activities.SaveSkillResult
		if err := c.GetWorkflow(context.Background(), cold.Skill.SaveWorkflowID, "").Get(context.Background(), &saved); err != nil {
			b.Fatal(err)
		}
		reset()
		hit, hitTime := run(false)
		hitCalls = len(gemini.Calls(""))
		colds, hits = append(colds, coldTime), append(hits, hitTime)
		if !hit.Skill.CacheHit || len(gemini.Calls("planner"))+len(gemini.Calls("decider")) != 0 {
			b.Fatalf("the second run should replay the skill with no planning or decide calls: %+v, %d planner, %d decider", hit.Skill, len(gemini.Calls("planner")), len(gemini.Calls("decider")))
		}
		reset()
	}
	mc, mh := median(colds), median(hits)
	b.ReportMetric(float64(mc.Milliseconds()), "cold-ms")
	b.ReportMetric(float64(mh.Milliseconds()), "hit-ms")
	b.ReportMetric(float64(mh)/float64(mc), "hit/cold")
	b.ReportMetric(float64(coldCalls), "cold-calls")
	b.ReportMetric(float64(hitCalls), "hit-calls")
}

// listControls lists the page's controls by role and name, as a script would.
const listControls = `() => [...document.querySelectorAll("a, button, input, select, textarea, [role]")].map(e => [e.tagName, e.getAttribute("role"), (e.innerText || e.getAttribute("aria-label") || e.name || "").slice(0, 60)])`

// benchStack starts Temporal, MinIO, the app and one worker (with env) for a benchmark.
func benchStack(b *testing.B, app *demoapp.Server, env ...string) (client.Client, *httptest.Server, *testenv.Worker) {
	b.Helper()
	addr, c := testenv.Temporal(b, workflows.SearchAttributes)
	minioAddr, _ := testenv.MinIO(b)
	at := testenv.Stack{TemporalAddr: addr, Namespace: "default", MinIOAddr: minioAddr, Bucket: testenv.MinIOBucket}
	srv := httptest.NewServer(app)
	b.Cleanup(srv.Close)
	return c, srv, testenv.StartWorker(b, workerBin, at, env...)
}

// rawChromium is the same Chromium driven by playwright-go alone, for rawDemo.
func rawChromium(b *testing.B) playwright.Browser {
	pw, err := playwright.Run(&playwright.RunOptions{DriverDirectory: testenv.DriverDir(b), SkipInstallBrowsers: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = pw.Stop() })
	chromium, err := pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{ExecutablePath: playwright.String(testenv.Chromium(b)), Headless: playwright.Bool(true)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = chromium.Close() })
	return chromium
}

// rawDemo is the loop a script would be: playwright-go alone, the same Chromium, each step
// a screenshot, the page's controls listed, the action by role and name, Playwright's own
// wait for the page to load, and a screenshot; through proxy when one is given.
func rawDemo(b *testing.B, chromium playwright.Browser, start string, proxy *playwright.Proxy, i int) time.Duration {
	t0 := time.Now()
	pg, done := demoPage(b, chromium, start, proxy)
	defer done()
	for k, act := range demoActions(pg) {
		if _, err := pg.Screenshot(); err != nil {
			b.Fatal(err)
		}
		if _, err := pg.Evaluate(listControls); err != nil {
			b.Fatal(err)
		}
		if err := act(); err != nil {
			b.Fatalf("raw run %d, step %d: %v", i, k+1, err)
		}
		if err := pg.WaitForLoadState(); err != nil {
			b.Fatal(err)
		}
		if _, err := pg.Screenshot(); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(t0)
}

// floorDemo is the least a script does for the demo goal: a new context and page, the
// start page, and the five actions by role and name, nothing else (no screenshot, no
// listing, no wait beyond Playwright's own before it acts).
func floorDemo(b *testing.B, chromium playwright.Browser, start string, i int) time.Duration {
	t0 := time.Now()
	pg, done := demoPage(b, chromium, start, nil)
	defer done()
	for k, act := range demoActions(pg) {
		if err := act(); err != nil {
			b.Fatalf("floor run %d, step %d: %v", i, k+1, err)
		}
	}
	return time.Since(t0)
}

// demoPage opens a new context and page at start, as a script would (through proxy when
// one is given); done closes the context.
func demoPage(b *testing.B, chromium playwright.Browser, start string, proxy *playwright.Proxy) (playwright.Page, func()) {
	bctx, err := chromium.NewContext(playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 800}, Proxy: proxy})
	if err != nil {
		b.Fatal(err)
	}
	done := func() { _ = bctx.Close() }
	pg, err := bctx.NewPage()
	if err != nil {
		done()
		b.Fatal(err)
	}
	if _, err := pg.Goto(start); err != nil {
		done()
		b.Fatal(err)
	}
	return pg, done
}

// demoActions are the demo goal's five actions as a script writes them.
func demoActions(pg playwright.Page) []func() error {
	return []func() error{
		func() error {
			return pg.GetByRole("button", playwright.PageGetByRoleOptions{Name: "New project", Exact: playwright.Bool(true)}).Click()
		},
		func() error { return pg.GetByLabel("Project name").Fill("Apollo") },
		func() error {
			_, err := pg.GetByLabel("Priority").SelectOption(playwright.SelectOptionValues{Labels: &[]string{"High"}})
			return err
		},
		func() error {
			return pg.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Create", Exact: playwright.Bool(true)}).Click()
		},
		func() error { return pg.GetByText("Apollo").First().WaitFor() },
	}
}

// egressFor is the worker's egress proxy for a run at start, granted the app at appURL
// (its address and port): one lookup and one policy check per connection, as a run's.
func egressFor(b *testing.B, appURL, start string) *playwright.Proxy {
	grant, err := sites.ParseInternal(strings.TrimPrefix(appURL, "http://"))
	if err != nil {
		b.Fatal(err)
	}
	policy := sites.For(start, nil, false)
	px, err := egress.Start(egress.Options{Check: policy.Granted(grant).CheckDial})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = px.Close() })
	return &playwright.Proxy{Server: px.Server(), Bypass: playwright.String("<-loopback>")}
}

// BenchmarkEgressProxy is what the network boundary costs the demo goal: the same browser
// loop (rawDemo) with every request through the worker's egress proxy, granted the demo
// app's address and port, and without it, alternating in one run, medians and their ratio:
//
//	go test -run '^$' -bench EgressProxy -benchtime 15x ./e2e/
func BenchmarkEgressProxy(b *testing.B) {
	srv := httptest.NewServer(demoapp.New())
	b.Cleanup(srv.Close)
	start := srv.URL + "/projects"
	chromium := rawChromium(b)
	proxied := egressFor(b, srv.URL, start)
	rawDemo(b, chromium, start, nil, -1)
	rawDemo(b, chromium, start, proxied, -1)
	var direct, through []time.Duration
	for i := 0; b.Loop(); i++ {
		time.Sleep(500 * time.Millisecond)
		direct = append(direct, rawDemo(b, chromium, start, nil, i))
		time.Sleep(500 * time.Millisecond)
		through = append(through, rawDemo(b, chromium, start, proxied, i))
	}
	md, mt := median(direct), median(through)
	b.ReportMetric(float64(md.Milliseconds()), "direct-ms")
	b.ReportMetric(float64(mt.Milliseconds()), "proxied-ms")
	b.ReportMetric(float64(mt)/float64(md), "proxied/direct")
}
