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
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser"
	"github.com/webagent-dev/webagent/activities/dataset"
	"github.com/webagent-dev/webagent/activities/model"
	"github.com/webagent-dev/webagent/activities/skills"
	"github.com/webagent-dev/webagent/activities/store"
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

	own := ownQueue(cfg.TaskQueue)
	b := &activities.Browser{Pool: pool, Store: st, TaskQueue: own, Dataset: &dataset.Recorder{Store: st, Threshold: cfg.StateThreshold}}

	shared := worker.New(c, cfg.TaskQueue, worker.Options{})
	shared.RegisterWorkflowWithOptions(workflows.Goal, workflow.RegisterOptions{Name: workflows.GoalWorkflowName})
	shared.RegisterWorkflowWithOptions(workflows.SaveSkill, workflow.RegisterOptions{Name: workflows.SaveSkillWorkflowName})
	shared.RegisterActivityWithOptions(b.OpenBrowser, activity.RegisterOptions{Name: "OpenBrowser"})

	// Planning and every model call: a queue of their own, rate-limited across workers.
	planner := &activities.Planner{Store: st}
	thinker := worker.New(c, workflows.ModelTaskQueue, worker.Options{TaskQueueActivitiesPerSecond: cfg.ModelRate})
	var embedder skills.Embedder = skills.Offline{}
	if model.Configured() {
		mc, err := model.New(ctx, cfg.Model)
		if err != nil {
			return err
		}
		planner.Model = &activities.Model{Client: mc, Store: st}
		thinker.RegisterActivity(planner.Model)
		embedder = skills.Gemini{Client: mc.GenAI(), Name: cfg.Model.EmbeddingModel}
		log.Info("gemini on", "planningModel", cfg.Model.PlanningModel, "decisionModel", cfg.Model.DecisionModel, "embeddingModel", cfg.Model.EmbeddingModel)
	} else {
		log.Info("no Gemini credentials: the offline planner reads explicit goals; set GEMINI_API_KEY for open-ended ones")
	}
	if cfg.Weaviate.Host != "" {
		sw := skills.NewWeaviate(cfg.Weaviate.Host)
		planner.Skills = &skills.Library{Store: sw, Embedder: embedder, Threshold: cfg.Weaviate.Threshold}
		log.Info("skills library", "weaviate", cfg.Weaviate.Host, "embedder", embedder.Model(), "threshold", cfg.Weaviate.Threshold)
		// Create the Skill collection now if Weaviate is up; if not, runs plan without
		// skills and the collection is created on first use.
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		if err := sw.Ready(wctx); err != nil {
			log.Warn("the skills library is not reachable yet; runs will plan without it until it is", "err", err)
		}
		cancel()
	}
	thinker.RegisterActivity(planner)

	// The browser steps of the runs whose browser lives here come to this process only.
	local := worker.New(c, own, worker.Options{MaxConcurrentActivityExecutionSize: 2 * cfg.Browser.MaxSessions})
	local.RegisterActivityWithOptions(b.RunStep, activity.RegisterOptions{Name: "RunStep"})
	local.RegisterActivityWithOptions(b.ValidateGoal, activity.RegisterOptions{Name: "ValidateGoal"})
	local.RegisterActivityWithOptions(b.CloseBrowser, activity.RegisterOptions{Name: "CloseBrowser"})
	local.RegisterActivityWithOptions(b.Observe, activity.RegisterOptions{Name: "Observe"})

	if err := local.Start(); err != nil {
		return fmt.Errorf("start the browser worker: %w", err)
	}
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

// ownQueue names this process's own task queue: unique per process, so that a restarted
// worker never receives the steps of a browser it no longer has.
func ownQueue(shared string) string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s-browser-%s-%d-%s", shared, host, os.Getpid(), hex.EncodeToString(b))
}
