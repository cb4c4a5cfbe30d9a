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
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser"
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

func run(ctx context.Context, cfg Config, log *slog.Logger) error {
	st, err := store.Open(ctx, cfg.Store)
	if err != nil {
		return err
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
		return err
	}
	if cfg.StateKeyFrom == "MINIO_SECRET_KEY" {
		log.Info("browser state is sealed with a key derived from MINIO_SECRET_KEY; set WEBAGENT_STATE_KEY (the same on every worker) for a key of its own")
	}
	pool, err := browser.NewPool(cfg.Browser, log)
	if err != nil {
		return err
	}
	defer pool.Shutdown()

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
	// Heartbeats go to the server at most once a second, so that a cancelled run reaches
	// its browser activity within about a second (the SDK's default waits up to 0.8 x the
	// heartbeat timeout).
	heartbeats := worker.Options{MaxHeartbeatThrottleInterval: browser.HeartbeatEvery, DefaultHeartbeatThrottleInterval: browser.HeartbeatEvery}

	shared := worker.New(c, cfg.TaskQueue, heartbeats)
	shared.RegisterWorkflowWithOptions(workflows.Goal, workflow.RegisterOptions{Name: workflows.GoalWorkflowName})
	shared.RegisterWorkflowWithOptions(workflows.SaveSkill, workflow.RegisterOptions{Name: workflows.SaveSkillWorkflowName})
	shared.RegisterWorkflowWithOptions(workflows.ManageSkills, workflow.RegisterOptions{Name: workflows.ManageSkillsWorkflowName})
	shared.RegisterWorkflowWithOptions(workflows.ShareRun, workflow.RegisterOptions{Name: workflows.ShareRunWorkflowName})
	shared.RegisterWorkflowWithOptions(workflows.Suite, workflow.RegisterOptions{Name: workflows.SuiteWorkflowName})
	shared.RegisterWorkflowWithOptions(workflows.Grants, workflow.RegisterOptions{Name: workflows.GrantsWorkflowName})
	register(shared, b.OpenBrowser, activities.OpenBrowser.Name)
	register(shared, b.WorkerGrants, activities.WorkerGrants.Name)
	register(shared, (&dataset.Sharing{Store: st, Runs: c}).ShareRun, activities.ShareRun.Name)

	// Planning and every model call: a queue of their own, rate-limited across workers.
	planner := &planning.Activities{}
	thinker := worker.New(c, workflows.ModelTaskQueue, worker.Options{TaskQueueActivitiesPerSecond: cfg.ModelRate})
	var embedder skills.Embedder = skills.Offline{}
	if model.Configured() {
		mc, err := model.New(ctx, cfg.Model)
		if err != nil {
			return err
		}
		mc.Log = log
		if err := checkModels(ctx, mc, cfg.ModelCheckCache, log); err != nil {
			return err
		}
		m := &model.Activities{Client: mc, Store: st}
		register(thinker, m.DecideTarget, activities.DecideTarget.Name)
		register(thinker, m.EvaluateStep, activities.EvaluateStep.Name)
		register(thinker, m.JudgeGoal, activities.JudgeGoal.Name)
		register(thinker, m.Summarize, activities.Summarize.Name)
		register(thinker, m.ExtractData, activities.ExtractData.Name)
		planner.Model = &model.Planner{Client: mc, Store: st}
		embedder = skills.Gemini{Client: mc.GenAI(), Name: cfg.Model.Role(model.RoleEmbed).Model}
	} else {
		log.Info("no Gemini credentials: the offline planner reads explicit goals; set GEMINI_API_KEY for open-ended ones")
	}
	if cfg.Weaviate.Host != "" {
		sw := skills.NewWeaviate(cfg.Weaviate.Host)
		planner.Skills = &skills.Library{Store: sw, Embedder: embedder, Threshold: cfg.Weaviate.Threshold}
		planner.Catalog, planner.Library = sw, cfg.Weaviate.Host
		log.Info("skills library", "weaviate", cfg.Weaviate.Host, "embedder", embedder.Model(), "threshold", cfg.Weaviate.Threshold)
		// Create the Skill collection now if Weaviate is up; if not, runs plan without
		// skills and the collection is created on first use.
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		if err := sw.Ready(wctx); err != nil {
			log.Warn("the skills library is not reachable yet; runs will plan without it until it is", "err", err)
		}
		cancel()
	}
	register(thinker, planner.PlanGoal, activities.PlanGoal.Name)
	register(thinker, planner.Replan, activities.Replan.Name)
	register(thinker, planner.SaveSkill, activities.SaveSkill.Name)
	register(thinker, planner.ManageSkills, activities.ManageSkills.Name)

	// The browser steps of the runs whose browser lives here come to this process only.
	lopts := heartbeats
	lopts.MaxConcurrentActivityExecutionSize = 2 * cfg.Browser.MaxSessions
	local := worker.New(c, own, lopts)
	register(local, b.RunStep, activities.RunStep.Name)
	register(local, b.ValidateGoal, activities.ValidateGoal.Name)
	register(local, b.CloseBrowser, activities.CloseBrowser.Name)
	register(local, b.Observe, activities.Observe.Name)

	if err := local.Start(); err != nil {
		return fmt.Errorf("start the browser worker: %w", err)
	}
	// Deferred calls run last first: the workers stop, then ended runs' clean-up finishes.
	defer b.Wait()
	defer local.Stop()
	if err := thinker.Start(); err != nil {
		return fmt.Errorf("start the model worker: %w", err)
	}
	defer thinker.Stop()
	if err := shared.Start(); err != nil {
		return fmt.Errorf("start the worker: %w", err)
	}
	defer shared.Stop()
	log.Info("worker ready", "temporal", cfg.Temporal.Address, "taskQueue", cfg.TaskQueue, "browserQueue", own, "maxBrowsers", cfg.Browser.MaxSessions)
	<-ctx.Done()
	log.Info("worker stopping")
	return nil
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
