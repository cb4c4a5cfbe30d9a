// Command workers is the agent's worker process. It runs goal workflows and planning on
// the shared task queue, and holds up to WEBAGENT_MAX_BROWSERS browsers whose steps reach
// it on a task queue of its own. Start as many as you like, on as many machines.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/worker"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser"
	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/dataset"
	"github.com/webagent-dev/webagent/activities/model"
	"github.com/webagent-dev/webagent/activities/planning"
	"github.com/webagent-dev/webagent/activities/skills"
	"github.com/webagent-dev/webagent/activities/store"
	"github.com/webagent-dev/webagent/internal/codec"
	"github.com/webagent-dev/webagent/internal/sites"
	"github.com/webagent-dev/webagent/workflows"
)

func main() {
	cfg, err := FromEnv()
	if err != nil {
		fmt.Fprintf(os.Stderr, "worker: bad configuration:\n%v\n", err)
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, log); err != nil {
		log.Error("worker stopped", "err", err)
		os.Exit(1)
	}
}

// run is the worker until ctx ends: it opens what the activities use (the object store,
// the browser pool, the Temporal client), builds the worker of each task queue, and serves
// them.
func run(ctx context.Context, cfg Config, log *slog.Logger) error {
	st, sealer, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	pool, err := driver.NewPool(cfg.Browser, log)
	if err != nil {
		return err
	}
	defer pool.Shutdown()
	if cfg.MetricsAddr != "" {
		h, stopMetrics, err := metricsEndpoint(cfg.MetricsAddr, log)
		if err != nil {
			return err
		}
		defer stopMetrics()
		cfg.Temporal.Metrics = h
		wctx, stopWatch := context.WithCancel(context.Background())
		defer stopWatch()
		go watchPool(wctx, h, pool, cfg.Browser.MaxSessions)
	}

	c, err := cfg.Temporal.Dial(ctx, 15*time.Second, log)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := ensureSearchAttributes(ctx, c, cfg.Temporal.Namespace, log); err != nil {
		return err
	}

	own := ownQueue(cfg.TaskQueue)
	b := &browser.Activities{Pool: pool, Store: st, TaskQueue: own, StateSealer: sealer, Dataset: &dataset.Recorder{Store: st, Threshold: cfg.StateThreshold}, Secrets: cfg.Secrets,
		Notify: func(ctx context.Context, workflowID, runID string, n activities.ActingNotice) error {
			sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			return c.SignalWorkflow(sctx, workflowID, runID, activities.ActingSignal, n)
		}}
	shared := sharedWorker(c, cfg.TaskQueue, cfg.StopTimeout, b, st)
	registerNotify(shared, cfg.Notify, cfg.Temporal)
	thinker, err := modelWorker(ctx, c, cfg, st, log)
	if err != nil {
		return err
	}
	local := browserWorker(c, own, cfg.Browser.MaxSessions, cfg.StopTimeout, b)
	admit, err := admissionWorker(c, cfg.TaskQueue, cfg.StopTimeout, b)
	if err != nil {
		return err
	}
	return serve(ctx, cfg, own, b, log, queues{local: local, thinker: thinker, shared: shared, admit: admit})
}

// openStore opens the object store and the sealer of the browser state saved in it, and
// logs what the operator should know of the settings: the unsafe defaults, what runs are
// granted, saved state that will not expire, a state key derived from MinIO's.
func openStore(ctx context.Context, cfg Config, log *slog.Logger) (*store.MinIO, *codec.Sealer, error) {
	st, err := store.Open(ctx, cfg.Store)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range unsafeDefaults(cfg) {
		log.Warn(w)
	}
	log.Info("what runs are granted", "secrets", len(cfg.Secrets.Names()), "internalAddresses", cfg.Browser.Internal.String())
	if st.LifecycleErr != nil {
		log.Warn("saved browser state will not expire by itself; runs still delete theirs at the end", "err", st.LifecycleErr)
	}
	sealer, err := codec.NewSealer(cfg.StateKey)
	if err != nil {
		return nil, nil, err
	}
	if cfg.StateKeyFrom == "MINIO_SECRET_KEY" {
		log.Info("browser state is sealed with a key derived from MINIO_SECRET_KEY; set WEBAGENT_STATE_KEY (the same on every worker) for a key of its own")
	}
	return st, sealer, nil
}

// options are the options of every worker of the process: heartbeats go to the server
// at most once a second, so that a cancelled run reaches its browser activity within
// about a second (the SDK's default waits up to 0.8 x the heartbeat timeout), and a
// stopping worker waits for the steps it runs to finish.
func options(stop time.Duration) worker.Options {
	return worker.Options{MaxHeartbeatThrottleInterval: browser.HeartbeatEvery, DefaultHeartbeatThrottleInterval: browser.HeartbeatEvery, WorkerStopTimeout: stop}
}

// sharedWorker is the worker of the shared task queue: every workflow, and the activities
// any worker can run (opening a browser here, the worker's grants, sharing a run).
func sharedWorker(c client.Client, queue string, stop time.Duration, b *browser.Activities, st *store.MinIO) worker.Worker {
	opts := options(stop)
	opts.Interceptors = []interceptor.WorkerInterceptor{&alive{own: map[string]bool{activities.OpenBrowser.Name: true}}}
	w := worker.New(c, queue, opts)
	workflows.RegisterAll(w)
	register(w, b.OpenBrowser, activities.OpenBrowser.Name)
	register(w, b.WorkerGrants, activities.WorkerGrants.Name)
	register(w, b.PutRunFiles, activities.PutRunFiles.Name)
	register(w, b.Intended, activities.Intended.Name)
	register(w, (&dataset.Sharing{Store: st, Runs: c}).ShareRun, activities.ShareRun.Name)
	return w
}

// modelWorker is the worker of planning and of every model call: a queue of their own,
// rate-limited across workers. Without Gemini credentials it plans offline, from explicit
// goals; without Weaviate it plans without skills.
func modelWorker(ctx context.Context, c client.Client, cfg Config, st *store.MinIO, log *slog.Logger) (worker.Worker, error) {
	planner := &planning.Activities{}
	opts := options(cfg.StopTimeout)
	opts.TaskQueueActivitiesPerSecond, opts.Interceptors = cfg.ModelRate, []interceptor.WorkerInterceptor{&alive{}}
	w := worker.New(c, workflows.ModelTaskQueue, opts)
	var embedder skills.Embedder = skills.Offline{}
	if model.Configured() {
		mc, err := model.New(ctx, cfg.Model)
		if err != nil {
			return nil, err
		}
		mc.Log = log
		if err := checkModels(ctx, mc, cfg.ModelCheckCache, log); err != nil {
			return nil, err
		}
		m := &model.Activities{Client: mc, Store: st}
		register(w, m.DecideTarget, activities.DecideTarget.Name)
		register(w, m.EvaluateStep, activities.EvaluateStep.Name)
		register(w, m.JudgeGoal, activities.JudgeGoal.Name)
		register(w, m.Summarize, activities.Summarize.Name)
		register(w, m.ExtractData, activities.ExtractData.Name)
		planner.Model = &model.Planner{Client: mc, Store: st}
		embedder = skills.Gemini{Client: mc.GenAI(), Name: cfg.Model.Role(model.RoleEmbed).Model}
	} else {
		log.Info("no Gemini credentials: the offline planner reads explicit goals; set GEMINI_API_KEY for open-ended ones")
	}
	if cfg.Weaviate.Host != "" {
		useSkillsLibrary(ctx, planner, cfg.Weaviate, embedder, log)
	}
	register(w, planner.PlanGoal, activities.PlanGoal.Name)
	register(w, planner.Replan, activities.Replan.Name)
	register(w, planner.SaveSkill, activities.SaveSkill.Name)
	register(w, planner.ManageSkills, activities.ManageSkills.Name)
	return w, nil
}

// useSkillsLibrary gives the planner the skills library in Weaviate, and creates its
// Skill collection now if Weaviate is up; if not, runs plan without skills and the
// collection is created on first use.
func useSkillsLibrary(ctx context.Context, planner *planning.Activities, cfg WeaviateConfig, embedder skills.Embedder, log *slog.Logger) {
	sw := skills.NewWeaviate(cfg.Host)
	planner.Skills = &skills.Library{Store: sw, Embedder: embedder, Threshold: cfg.Threshold}
	planner.Catalog, planner.Library = sw, cfg.Host
	log.Info("skills library", "weaviate", cfg.Host, "embedder", embedder.Model(), "threshold", cfg.Threshold)
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := sw.Ready(wctx); err != nil {
		log.Warn("the skills library is not reachable yet; runs will plan without it until it is", "err", err)
	}
}

// browserWorker is the worker of this process's own queue: the browser steps of the runs
// whose browser lives here come to it only, two at a time per browser at most.
func browserWorker(c client.Client, own string, maxBrowsers int, stop time.Duration, b *browser.Activities) worker.Worker {
	opts := options(stop)
	opts.MaxConcurrentActivityExecutionSize = 2 * maxBrowsers
	w := worker.New(c, own, opts)
	register(w, b.RunStep, activities.RunStep.Name)
	register(w, b.ValidateGoal, activities.ValidateGoal.Name)
	register(w, b.CloseBrowser, activities.CloseBrowser.Name)
	register(w, b.Observe, activities.Observe.Name)
	return w
}

// queues are the process's workers, one per task queue.
type queues struct {
	// local runs the steps of the browsers this process holds; thinker, planning and
	// model calls; shared, the workflows; admit, the opening of browsers.
	local, thinker, shared, admit worker.Worker
}

// serve starts the workers, the browser's first, and runs until ctx ends; then it stops
// gracefully (stop).
func serve(ctx context.Context, cfg Config, own string, b *browser.Activities, log *slog.Logger, q queues) error {
	var started []worker.Worker
	for _, w := range []worker.Worker{q.local, q.thinker, q.shared, q.admit} {
		if err := w.Start(); err != nil {
			for _, s := range started {
				s.Stop()
			}
			return fmt.Errorf("start a worker: %w", err)
		}
		started = append(started, w)
	}
	log.Info("worker ready", "temporal", cfg.Temporal.Address, "taskQueue", cfg.TaskQueue, "browserQueue", own, "maxBrowsers", cfg.Browser.MaxSessions)
	<-ctx.Done()
	stop(cfg.StopTimeout, b, log, q)
	return nil
}

// stop is the graceful stop of a deploy (SIGTERM): the worker takes no new run and opens
// no browser; the steps under way finish and save their state; each run's next browser
// step here hands the run on to another worker, which rebuilds its browser at that step
// (no step in doubt, nobody asked); once no browser is left here, or none has been used
// for a few seconds with no step under way, or the stop timeout passes, the workers stop
// and the browsers are closed. A run that does not come back for its browser in time is
// noticed as a lost worker (WorkerLossTimeout), its last step done.
func stop(timeout time.Duration, b *browser.Activities, log *slog.Logger, q queues) {
	started := time.Now()
	log.Info("worker stopping: finishing its steps, handing its runs on", "stopTimeout", timeout)
	b.Drain()
	q.admit.Stop()
	q.shared.Stop()
	left := b.Drained(timeout - time.Since(started))
	q.local.Stop()
	q.thinker.Stop()
	b.Wait()
	log.Info("worker stopped", "browsersLeft", left, "took", time.Since(started).Round(time.Millisecond))
}

// register registers an activity function under its name in the contract.
func register(w worker.Worker, fn any, name string) {
	w.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: name})
}

// ownQueue names this process's own task queue: unique per process, so that a restarted
// worker never receives the steps of a browser it no longer has.
func ownQueue(shared string) string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s-browser-%s-%d-%s", shared, host, os.Getpid(), hex.EncodeToString(b))
}

// checkModels asks the API about every configured model before the worker takes work: a
// model that does not exist stops it, with the variable to change; a deprecated one, or
// one with a shutdown date, is a warning with the date.
func checkModels(ctx context.Context, mc *model.Client, cacheFile string, log *slog.Logger) error {
	res, err := mc.Check(ctx, cacheFile)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		log.Warn("model deprecated: " + w)
	}
	for _, u := range res.Unchecked {
		log.Warn("could not check a model at start; runs that use it will say if it is wrong", "model", u)
	}
	cfg := mc.Config()
	for _, r := range model.Roles {
		if r == model.RoleComputerUse && !cfg.ComputerUse {
			continue
		}
		rc := cfg.Role(r)
		log.Info("gemini role", "role", r, "model", rc.Model, "thinking", rc.Thinking, "media", rc.Media, "from", rc.From)
	}
	log.Info("gemini on", "models", len(cfg.Models()), "checkedFromCache", res.Cached, "pricesRead", cfg.Prices.Read, "computerUse", cfg.ComputerUse)
	return nil
}

// unsafeDefaults says which of the worker's settings are fine on a laptop and dangerous
// elsewhere: MinIO's well-known default credentials, or an anonymous Weaviate, on an
// address other than loopback.
func unsafeDefaults(cfg Config) []string {
	var out []string
	if (cfg.Store.AccessKey == "minioadmin" || cfg.Store.SecretKey == "minioadmin") && !loopback(cfg.Store.Endpoint) {
		out = append(out, "MinIO at "+cfg.Store.Endpoint+" is used with its default credentials (minioadmin): anyone who can reach it reads every screenshot; set MINIO_ACCESS_KEY and MINIO_SECRET_KEY")
	}
	if cfg.Weaviate.Host != "" && !loopback(cfg.Weaviate.Host) {
		out = append(out, "the skills library at "+cfg.Weaviate.Host+" is reached without credentials: put it on a private network or behind authentication")
	}
	if cfg.Browser.Internal.Allows("169.254.169.254") {
		out = append(out, sites.InternalEnv+" grants link-local addresses: a run's browser can read the cloud metadata service (169.254.169.254), which hands out the machine's credentials on most clouds")
	}
	if cfg.Browser.Internal.Allows("100.100.100.200") {
		out = append(out, sites.InternalEnv+" grants the shared address space (100.64.0.0/10): a run's browser can read the cloud metadata service some clouds serve at 100.100.100.200")
	}
	return out
}

// loopback reports an address (host, host:port or URL) on this machine.
func loopback(addr string) bool {
	host := addr
	if u, err := url.Parse(addr); err == nil && u.Host != "" {
		host = u.Host
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ensureSearchAttributes checks that the server has the search attributes every run
// keeps (workflows.SearchAttributes), and adds the missing ones. A run that sets an
// attribute the server does not have fails its workflow tasks, so a worker that can
// neither find nor add them does not start: it says how to register them.
func ensureSearchAttributes(ctx context.Context, c client.Client, namespace string, log *slog.Logger) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	have, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		log.Warn("could not list the server's search attributes; runs fail if these are missing", "error", err, "register", registerCommand(workflows.SearchAttributes))
		return nil
	}
	missing := map[string]enumspb.IndexedValueType{}
	var names []struct{ Name, Type string }
	for _, a := range workflows.SearchAttributes {
		if _, ok := have.GetCustomAttributes()[a.Name]; ok {
			continue
		}
		missing[a.Name] = enumspb.IndexedValueType(enumspb.IndexedValueType_value["INDEXED_VALUE_TYPE_"+strings.ToUpper(a.Type)])
		names = append(names, a)
	}
	if len(missing) == 0 {
		return nil
	}
	if _, err := c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: namespace, SearchAttributes: missing}); err != nil {
		return fmt.Errorf("the Temporal namespace %q lacks the search attributes runs set, and the worker may not add them (%v); register them once:\n  %s", namespace, err, registerCommand(names))
	}
	log.Info("registered the runs' search attributes", "namespace", namespace, "count", len(missing))
	return nil
}

func registerCommand(attrs []struct{ Name, Type string }) string {
	var b strings.Builder
	b.WriteString("temporal operator search-attribute create")
	for _, a := range attrs {
		fmt.Fprintf(&b, " --name %s --type %s", a.Name, a.Type)
	}
	return b.String()
}
