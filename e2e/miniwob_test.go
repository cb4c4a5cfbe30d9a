package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// TestMiniWoB runs the MiniWoB++ benchmark's task pages through the whole system and
// prints, per task, how many episodes the page itself rewarded. The pages are not part of
// the project: WEBAGENT_MINIWOB names a MiniWoB++ folder (the one holding miniwob/, core/
// and common/), and the test is skipped without it. `make miniwob MINIWOB=DIR` runs it.
//
// Each episode is one task page at one seed, served from that folder with a small script
// added that seeds Math.random, starts the episode at once (no START cover) with a long
// time limit, hides the reward display, and, when the episode ends, reports the page's raw
// reward to the test and starts no next episode. The test reads the instruction from the
// same page in a browser of its own first, then runs it as a Goal with the same URL: the
// same seed shows the agent the same instance. An episode counts as a success only when
// the page reported reward 1.
//
// Settings (environment):
//
//	WEBAGENT_MINIWOB           the MiniWoB++ folder (absolute path); required
//	WEBAGENT_MINIWOB_TASKS     comma-separated task names to run (default: every miniwob/*.html)
//	WEBAGENT_MINIWOB_SKIP      comma-separated task names to leave out
//	WEBAGENT_MINIWOB_SEEDS     episodes per task, seeds 1..N (default 3)
//	WEBAGENT_MINIWOB_PLANS     a folder of <task>.json plans run instead of planning: the
//	                           plan a model would write from the instruction, with its
//	                           values read out of it (taskPlan; testdata/miniwob-plans)
//	WEBAGENT_MINIWOB_PARALLEL  episodes run at once on the one worker (default 1)
//	WEBAGENT_MINIWOB_OUT       also write the table as Markdown to this file
func TestMiniWoB(t *testing.T) {
	root := os.Getenv("WEBAGENT_MINIWOB")
	if root == "" {
		t.Skip("the MiniWoB++ benchmark needs the task pages, which are not part of the project: " +
			"run `make miniwob MINIWOB=/path/to/miniwob-folder [SEEDS=3]`, or set WEBAGENT_MINIWOB to the folder " +
			"holding miniwob/ and core/ (optionally WEBAGENT_MINIWOB_TASKS, _SEEDS, _SKIP, _PLANS, _OUT)")
	}
	cfg := miniwobSettings(t, root)
	t.Logf("MiniWoB++: %d tasks × %d seeds, %d at a time", len(cfg.tasks), cfg.seeds, cfg.parallel)

	rewards := newRewardBoard()
	srv := httptest.NewServer(miniwobHandler(root, rewards))
	t.Cleanup(srv.Close)
	reader := newUtteranceReader(t)

	s := newStack(t)
	s.worker(t)

	type job struct {
		task string
		seed int
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var episodes []miniwobEpisode
	var wg sync.WaitGroup
	for range cfg.parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				ep := runEpisode(t, s, srv.URL, reader, rewards, cfg, j.task, j.seed)
				t.Log(ep.line())
				mu.Lock()
				episodes = append(episodes, ep)
				mu.Unlock()
			}
		}()
	}
	for _, task := range cfg.tasks {
		for seed := 1; seed <= cfg.seeds; seed++ {
			jobs <- job{task, seed}
		}
	}
	close(jobs)
	wg.Wait()

	table := miniwobTable(cfg, episodes)
	fmt.Print("\n" + table.text() + "\n")
	if cfg.out != "" {
		if err := os.WriteFile(cfg.out, []byte(table.markdown()), 0o644); err != nil {
			t.Errorf("write %s: %v", cfg.out, err)
		} else {
			t.Logf("wrote %s", cfg.out)
		}
	}
}

// miniwobConfig is the benchmark's settings, from the environment.
type miniwobConfig struct {
	tasks    []string
	seeds    int
	parallel int
	plans    map[string]taskPlan
	out      string
	limits   workflows.Limits
}

func miniwobSettings(t *testing.T, root string) miniwobConfig {
	t.Helper()
	if !filepath.IsAbs(root) {
		t.Fatalf("WEBAGENT_MINIWOB=%s: give an absolute path (go test runs in the package's folder)", root)
	}
	pages, err := filepath.Glob(filepath.Join(root, "miniwob", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("WEBAGENT_MINIWOB=%s holds no task pages (miniwob/*.html): it should name the MiniWoB++ folder with miniwob/, core/ and common/", root)
	}
	var all []string
	for _, p := range pages {
		all = append(all, strings.TrimSuffix(filepath.Base(p), ".html"))
	}
	slices.Sort(all)

	cfg := miniwobConfig{
		seeds: envInt(t, "WEBAGENT_MINIWOB_SEEDS", 3), parallel: envInt(t, "WEBAGENT_MINIWOB_PARALLEL", 1),
		out: os.Getenv("WEBAGENT_MINIWOB_OUT"), plans: map[string]taskPlan{},
		// A hopeless episode ends soon: a short deadline, two attempts a step, one rewrite.
		limits: workflows.Limits{Deadline: 90 * time.Second, AttemptsPerStep: 2, Replans: 1, MaxSteps: 20},
	}
	cfg.tasks = all
	if list := envList("WEBAGENT_MINIWOB_TASKS"); len(list) > 0 {
		cfg.tasks = nil
		for _, name := range list {
			if !slices.Contains(all, name) {
				t.Fatalf("WEBAGENT_MINIWOB_TASKS: there is no task %q (no miniwob/%s.html)", name, name)
			}
			cfg.tasks = append(cfg.tasks, name)
		}
	}
	skip := envList("WEBAGENT_MINIWOB_SKIP")
	cfg.tasks = slices.DeleteFunc(cfg.tasks, func(name string) bool { return slices.Contains(skip, name) })
	if len(cfg.tasks) == 0 {
		t.Fatal("no MiniWoB++ task left to run (WEBAGENT_MINIWOB_TASKS / WEBAGENT_MINIWOB_SKIP)")
	}
	if dir := os.Getenv("WEBAGENT_MINIWOB_PLANS"); dir != "" {
		for _, task := range cfg.tasks {
			data, err := os.ReadFile(filepath.Join(dir, task+".json"))
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil {
				t.Fatalf("read the plan for %s: %v", task, err)
			}
			p, err := parseTaskPlan(data)
			if err != nil {
				t.Fatalf("the plan %s/%s.json: %v", dir, task, err)
			}
			cfg.plans[task] = p
		}
		if len(cfg.plans) == 0 {
			t.Logf("WEBAGENT_MINIWOB_PLANS=%s has no plan for the tasks run (<task>.json)", dir)
		}
	}
	return cfg
}

func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive whole number", name, v)
	}
	return n
}

func envList(name string) []string {
	var out []string
	for _, f := range strings.Split(os.Getenv(name), ",") {
		if f = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f), ".html")); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// miniwobEpisodeScript is added at the end of every task page. The page's own onload
// calls core.startEpisode(), which puts up the START cover; the script waits for that,
// then seeds Math.random, starts the episode itself with a 10-minute limit, and keeps
// the next episode from starting: core.endEpisode calls core.startEpisode() again at once,
// which would cover the finished task and, on a click, start another instance. It reports
// the raw reward once, when WOB_DONE_GLOBAL turns true, to /reward with a keepalive GET —
// not navigator.sendBeacon, which POSTs: the agent counts a POST as a state-changing
// request, and the report would change how it treats the step that ended the episode.
// window.WOB_HARNESS_STARTED says the episode has begun (the instruction can be read).
const miniwobEpisodeScript = `
<script>
(function () {
  var task = %s, seed = %s, reported = false;
  function report() {
    if (reported || typeof WOB_DONE_GLOBAL === 'undefined' || !WOB_DONE_GLOBAL) return;
    reported = true;
    var url = '/reward?task=' + encodeURIComponent(task) + '&seed=' + encodeURIComponent(seed) +
      '&reward=' + encodeURIComponent(String(WOB_RAW_REWARD_GLOBAL)) +
      '&reason=' + encodeURIComponent(String(WOB_REWARD_REASON == null ? '' : WOB_REWARD_REASON));
    try { fetch(url, {method: 'GET', keepalive: true, cache: 'no-store'}); } catch (e) { new Image().src = url; }
  }
  function hide() {
    ['reward-display', 'click-canvas'].forEach(function (id) {
      var el = document.getElementById(id);
      if (el) el.style.display = 'none';
    });
  }
  if (Math.seedrandom) Math.seedrandom(String(seed));
  var waited = 0;
  function begin() {
    if (typeof core === 'undefined' || core.cover_div == null) {
      if ((waited += 20) < 30000) setTimeout(begin, 20);
      return;
    }
    core.EPISODE_MAX_TIME = 10 * 60 * 1000;
    core.startEpisode = function () {
      if (core.cover_div) core.cover_div.style.display = 'none';
      hide();
    };
    Math.seedrandom(String(seed));
    core.startEpisodeReal();
    hide();
    window.WOB_HARNESS_STARTED = true;
    setInterval(report, 50);
  }
  window.addEventListener('load', function () { setTimeout(begin, 0); });
  window.addEventListener('pagehide', report);
})();
</script>
`

var miniwobTaskPath = regexp.MustCompile(`^/miniwob/([A-Za-z0-9_.-]+)\.html$`)

// miniwobHandler serves the MiniWoB++ folder, with the episode script in task pages, and
// takes the pages' reward reports at /reward.
func miniwobHandler(root string, rewards *rewardBoard) http.Handler {
	files := http.FileServer(http.Dir(root))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if r.URL.Path == "/reward" {
			q := r.URL.Query()
			reward, err := strconv.ParseFloat(q.Get("reward"), 64)
			if err != nil {
				http.Error(w, "bad reward", http.StatusBadRequest)
				return
			}
			rewards.put(q.Get("task"), q.Get("seed"), reward, q.Get("reason"))
			w.WriteHeader(http.StatusNoContent)
			return
		}
		m := miniwobTaskPath.FindStringSubmatch(r.URL.Path)
		if m == nil {
			files.ServeHTTP(w, r)
			return
		}
		page, err := os.ReadFile(filepath.Join(root, "miniwob", m[1]+".html"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		task, _ := json.Marshal(m[1])
		seed, _ := json.Marshal(r.URL.Query().Get("seed"))
		script := []byte(fmt.Sprintf(miniwobEpisodeScript, task, seed))
		if i := bytes.LastIndex(bytes.ToLower(page), []byte("</body>")); i >= 0 {
			page = slices.Concat(page[:i], script, page[i:])
		} else {
			page = append(page, script...)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	})
}

func miniwobURL(base, task string, seed int) string {
	return fmt.Sprintf("%s/miniwob/%s.html?seed=%d", base, task, seed)
}

// rewardBoard holds the rewards the pages reported, by task and seed.
type rewardBoard struct {
	mu sync.Mutex
	m  map[string]pageReward
}

type pageReward struct {
	reward float64
	reason string
}

func newRewardBoard() *rewardBoard { return &rewardBoard{m: map[string]pageReward{}} }

func (b *rewardBoard) put(task, seed string, reward float64, reason string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[task+"?"+seed] = pageReward{reward, reason}
}

func (b *rewardBoard) get(task string, seed int) (pageReward, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r, ok := b.m[task+"?"+strconv.Itoa(seed)]
	return r, ok
}

func (b *rewardBoard) forget(task string, seed int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.m, task+"?"+strconv.Itoa(seed))
}

// utteranceReader reads a task's instruction in a headless Chromium of the test's own.
type utteranceReader struct {
	browser playwright.Browser
}

func newUtteranceReader(t *testing.T) *utteranceReader {
	t.Helper()
	pw, err := playwright.Run(&playwright.RunOptions{DriverDirectory: testenv.DriverDir(t), SkipInstallBrowsers: true})
	if err != nil {
		t.Fatalf("start the playwright driver: %v", err)
	}
	t.Cleanup(func() { _ = pw.Stop() })
	b, err := pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
		ExecutablePath: playwright.String(testenv.Chromium(t)), Headless: playwright.Bool(true),
		Args: []string{"--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run"},
	})
	if err != nil {
		t.Fatalf("launch chromium: %v", err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return &utteranceReader{browser: b}
}

// read opens the page, waits for the episode to start and returns core.getUtterance().
func (u *utteranceReader) read(pageURL string) (string, error) {
	ctx, err := u.browser.NewContext(playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 800}})
	if err != nil {
		return "", err
	}
	defer ctx.Close()
	page, err := ctx.NewPage()
	if err != nil {
		return "", err
	}
	if _, err := page.Goto(pageURL, playwright.PageGotoOptions{Timeout: playwright.Float(30000)}); err != nil {
		return "", fmt.Errorf("open: %w", err)
	}
	if _, err := page.WaitForFunction(`() => window.WOB_HARNESS_STARTED === true`, nil, playwright.PageWaitForFunctionOptions{Timeout: playwright.Float(30000)}); err != nil {
		return "", fmt.Errorf("the episode did not start: %w", err)
	}
	v, err := page.Evaluate(`() => {
		const u = core.getUtterance();
		if (typeof u === 'string') return u;
		if (u && typeof u.utterance === 'string') return u.utterance;
		return JSON.stringify(u);
	}`)
	if err != nil {
		return "", fmt.Errorf("core.getUtterance(): %w", err)
	}
	s, _ := v.(string)
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "", errors.New("core.getUtterance() is empty")
	}
	return s, nil
}

var quoted = regexp.MustCompile(`"([^"]*)"`)

// quotedParams are the instruction's double-quoted strings as q1, q2, ...: what a plan
// file refers to as {{q1}}, {{q2}}.
func quotedParams(utterance string) map[string]string {
	params := map[string]string{}
	for i, m := range quoted.FindAllStringSubmatch(utterance, -1) {
		params[fmt.Sprintf("q%d", i+1)] = m[1]
	}
	return params
}

// Outcomes of an episode.
const (
	outcomeSuccess      = "success"       // the page rewarded it (raw reward >= 1)
	outcomeFalseSuccess = "false success" // the run said success; the page did not reward it
	outcomeRefused      = "refused"       // the run did not get past planning
	outcomeFailed       = "failed"        // the run ended unverified, partial or failed, unrewarded
	outcomeError        = "error"         // the harness or the run broke (no result)
)

type miniwobEpisode struct {
	task      string
	seed      int
	planned   bool // ran the plan file's steps
	utterance string
	outcome   string
	status    workflows.Status
	rewarded  bool
	verified  bool // a false success the run called verified
	reward    float64
	reason    string
	steps     string // completed/planned
	detail    string
	elapsed   time.Duration
}

func (e miniwobEpisode) line() string {
	r := "no reward"
	if e.rewarded {
		r = fmt.Sprintf("reward %g", e.reward)
		if e.reason != "" {
			r += " (" + e.reason + ")"
		}
	}
	s := fmt.Sprintf("%s seed %d: %s — %s, run %s, steps %s, %.1fs — %q", e.task, e.seed, e.outcome, r, e.status, e.steps, e.elapsed.Seconds(), e.utterance)
	if e.detail != "" {
		s += " — " + e.detail
	}
	return s
}

func runEpisode(t *testing.T, s *stack, base string, reader *utteranceReader, rewards *rewardBoard, cfg miniwobConfig, task string, seed int) miniwobEpisode {
	ep := miniwobEpisode{task: task, seed: seed, outcome: outcomeError}
	pageURL := miniwobURL(base, task, seed)
	utt, err := reader.read(pageURL)
	if err != nil {
		ep.detail = "reading the instruction: " + err.Error()
		return ep
	}
	ep.utterance = utt
	rewards.forget(task, seed)

	in := workflows.GoalInput{Goal: utt, StartURL: pageURL, Limits: cfg.limits, SkipSkills: true}
	if p, ok := cfg.plans[task]; ok {
		ep.planned = true
		if in.Plan, in.Params, err = p.plan(utt); err != nil {
			ep.detail = err.Error()
			return ep
		}
	}
	if err := in.Validate(); err != nil {
		ep.outcome, ep.detail = outcomeRefused, "bad input: "+err.Error()
		return ep
	}

	start := time.Now()
	run, err := s.client.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{
		ID: workflows.GoalWorkflowID(start, fmt.Sprintf("miniwob-%s-%d", task, seed)), TaskQueue: workflows.TaskQueue,
	}, workflows.GoalWorkflowName, in)
	if err != nil {
		ep.detail = "start: " + err.Error()
		return ep
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.limits.Deadline+5*time.Minute)
	defer cancel()
	var res workflows.GoalResult
	runErr := workflows.ResultOf(&res, run.Get(ctx, &res))
	ep.elapsed = time.Since(start)

	// The page reports when its episode ends; the browser is closed by the time the run
	// returns, so the report is sent — allow it a moment to arrive.
	var pr pageReward
	for wait := time.Now().Add(2 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if pr, ep.rewarded = rewards.get(task, seed); ep.rewarded || time.Now().After(wait) {
			break
		}
	}
	ep.reward, ep.reason = pr.reward, pr.reason

	if runErr != nil {
		var ae *temporal.ApplicationError
		if errors.As(runErr, &ae) && ae.Type() == workflows.ErrBadInput {
			ep.outcome = outcomeRefused
		}
		ep.detail = "run: " + runErr.Error()
		if ep.rewarded && ep.reward >= 1 {
			ep.outcome = outcomeSuccess
		}
		return ep
	}
	ex := res.Execution
	ep.status, ep.steps = ex.Status, fmt.Sprintf("%d/%d", ex.StepsCompleted, ex.StepsPlanned)
	if len(res.Errors) > 0 {
		e := res.Errors[0]
		ep.detail = fmt.Sprintf("%s: %s", e.Type, oneLineCut(e.Message, 200))
	} else if ex.Status == workflows.StatusUnverified {
		ep.detail = "unverified: " + oneLineCut(res.Validation.Reason, 200)
	}
	switch {
	case ep.rewarded && ep.reward >= 1:
		ep.outcome = outcomeSuccess
	case ex.Status == workflows.StatusSuccess:
		ep.outcome, ep.verified = outcomeFalseSuccess, res.Validation.Verified
	case refusedUpFront(res):
		ep.outcome = outcomeRefused
	default:
		ep.outcome = outcomeFailed
	}
	if ep.outcome == outcomeFalseSuccess || ep.outcome == outcomeFailed {
		// What the run did, to see where it went wrong.
		var did []string
		for _, st := range res.Steps {
			did = append(did, fmt.Sprintf("%d. %s", st.Order, strings.Join(st.Actions, "; ")))
		}
		ep.detail += " — did: " + oneLineCut(strings.Join(did, " | "), 400)
	}
	return ep
}

// refusedUpFront reports whether the run ended at planning, before any step ran.
func refusedUpFront(res workflows.GoalResult) bool {
	if res.Execution.StepsPlanned == 0 {
		return true
	}
	if len(res.Errors) == 0 || res.Execution.StepsCompleted+res.Execution.StepsFailed > 0 {
		return false
	}
	switch res.Errors[0].Type {
	case workflows.ErrorGoalNotUnderstood, workflows.ErrorBadInput, "planning":
		return true
	}
	return false
}

func oneLineCut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// miniwobRow is one line of the results table.
type miniwobRow struct {
	name                                                  string
	episodes, success, falseSuccess, refused, failed, err int
	verifiedFalse                                         int
	total                                                 time.Duration
	// byStatus counts the runs' own statuses, and rewarded those of them the page rewarded.
	byStatus, rewarded map[workflows.Status]int
}

type miniwobResults struct {
	rows  []miniwobRow
	total miniwobRow
	seeds int
}

func miniwobTable(cfg miniwobConfig, episodes []miniwobEpisode) miniwobResults {
	res := miniwobResults{total: miniwobRow{name: "total"}, seeds: cfg.seeds}
	for _, task := range cfg.tasks {
		row := miniwobRow{name: task}
		if _, ok := cfg.plans[task]; ok {
			row.name += " (plan)"
		}
		for _, e := range episodes {
			if e.task != task {
				continue
			}
			row.add(e)
			res.total.add(e)
		}
		res.rows = append(res.rows, row)
	}
	return res
}

func (r *miniwobRow) add(e miniwobEpisode) {
	r.episodes++
	if r.byStatus == nil {
		r.byStatus, r.rewarded = map[workflows.Status]int{}, map[workflows.Status]int{}
	}
	if e.status != "" {
		r.byStatus[e.status]++
		if e.outcome == outcomeSuccess {
			r.rewarded[e.status]++
		}
	}
	if e.verified {
		r.verifiedFalse++
	}
	r.total += e.elapsed
	switch e.outcome {
	case outcomeSuccess:
		r.success++
	case outcomeFalseSuccess:
		r.falseSuccess++
	case outcomeRefused:
		r.refused++
	case outcomeFailed:
		r.failed++
	default:
		r.err++
	}
}

func (r miniwobRow) cells() []string {
	mean := "-"
	if r.episodes > 0 {
		mean = fmt.Sprintf("%.1fs", r.total.Seconds()/float64(r.episodes))
	}
	return []string{r.name, strconv.Itoa(r.episodes), strconv.Itoa(r.success), strconv.Itoa(r.falseSuccess),
		strconv.Itoa(r.refused), strconv.Itoa(r.failed), strconv.Itoa(r.err), mean}
}

var miniwobHeader = []string{"task", "episodes", "success", "false success", "refused", "failed", "error", "mean time"}

func (res miniwobResults) percentages() string {
	n := res.total.episodes
	if n == 0 {
		return "no episodes"
	}
	pct := func(k int) string { return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n)) }
	tasksSolved := 0
	for _, r := range res.rows {
		if r.episodes > 0 && r.success == r.episodes {
			tasksSolved++
		}
	}
	return fmt.Sprintf("%d episodes (%d tasks × %d seeds): success %s, false success %s (%d of them called verified by the run), refused %s, failed %s, error %s; tasks solved at every seed: %d of %d",
		n, len(res.rows), res.seeds, pct(res.total.success), pct(res.total.falseSuccess), res.total.verifiedFalse, pct(res.total.refused),
		pct(res.total.failed), pct(res.total.err), tasksSolved, len(res.rows)) + "; " + res.statuses()
}

// statuses says what the runs themselves said, and how many of each the page rewarded: a
// success the page did not reward is a false claim, an unverified run the page rewarded
// is a success the run could not confirm.
func (res miniwobResults) statuses() string {
	var parts []string
	for _, st := range []workflows.Status{workflows.StatusSuccess, workflows.StatusUnverified, workflows.StatusPartial, workflows.StatusFailed} {
		parts = append(parts, fmt.Sprintf("%s %d (%d rewarded)", st, res.total.byStatus[st], res.total.rewarded[st]))
	}
	return "the runs said: " + strings.Join(parts, ", ")
}

func (res miniwobResults) text() string {
	lines := [][]string{miniwobHeader}
	for _, r := range res.rows {
		lines = append(lines, r.cells())
	}
	lines = append(lines, res.total.cells())
	width := make([]int, len(miniwobHeader))
	for _, l := range lines {
		for i, c := range l {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for k, l := range lines {
		if k == len(lines)-1 {
			for i := range width {
				b.WriteString(strings.Repeat("-", width[i]) + "  ")
			}
			b.WriteString("\n")
		}
		for i, c := range l {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			if i == 0 {
				b.WriteString(c + pad + "  ")
			} else {
				b.WriteString(pad + c + "  ")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString(res.percentages() + "\n")
	return b.String()
}

func (res miniwobResults) markdown() string {
	var b strings.Builder
	row := func(cells []string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	b.WriteString("# MiniWoB++ results\n\n")
	row(miniwobHeader)
	sep := []string{"---"}
	for range miniwobHeader[1:] {
		sep = append(sep, "---:")
	}
	row(sep)
	for _, r := range res.rows {
		row(r.cells())
	}
	total := res.total.cells()
	for i, c := range total {
		total[i] = "**" + c + "**"
	}
	row(total)
	b.WriteString("\n" + res.percentages() + "\n\n" +
		"A success is an episode the page itself rewarded (raw reward 1). A false success is a run that " +
		"reported success on an episode the page did not reward; a run that said unverified (done, not confirmed) " +
		"never counts as a success of the run. Refused: the run stopped at planning. " +
		"\"(plan)\": the task ran a plan file instead of planning.\n")
	return b.String()
}
