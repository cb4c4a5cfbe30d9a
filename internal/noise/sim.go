package noise

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"log/slog"

	"go.temporal.io/sdk/activity"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/model"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/activities/planning"
	"github.com/webagent-dev/webagent/activities/store"
	"github.com/webagent-dev/webagent/internal/geminitest"
	"github.com/webagent-dev/webagent/workflows"
)

// SimURL is where the simulated demo app is.
const SimURL = "http://demo.test/projects"

// simBrowser is the browser activities over the simulated app: each observation is
// stored as the browser stores it (element list, screenshot, text), DOM-first resolution
// is the real resolver's, and every attempt is logged for the measurement.
type simBrowser struct {
	app   *simApp
	store *store.Memory
	mu    sync.Mutex
	trail []Event
}

func (b *simBrowser) log(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.trail = append(b.trail, e)
}

// lastActed is the element the last attempt acted on.
func (b *simBrowser) lastActed() (Ref, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.trail) - 1; i >= 0; i-- {
		if e := b.trail[i]; !e.Evaluated {
			if e.Acted == nil {
				return Ref{}, false
			}
			return *e.Acted, true
		}
	}
	return Ref{}, false
}

func (b *simBrowser) snap(prefix, name string, obs page.Observation, text string) activities.Snapshot {
	key := prefix + "/" + name
	els, _ := json.Marshal(obs)
	ctx := context.Background()
	_ = b.store.Put(ctx, key+".png", "image/png", blank)
	_ = b.store.Put(ctx, key+".json", "application/json", els)
	_ = b.store.Put(ctx, key+".txt", "text/plain", []byte(text))
	return activities.Snapshot{URL: obs.URL, Title: obs.Title, ScreenshotKey: key + ".png", ElementsKey: key + ".json", TextKey: key + ".txt",
		Fingerprint: obs.Fingerprint, Elements: len(obs.Elements)}
}

func (b *simBrowser) OpenBrowser(_ context.Context, in activities.OpenBrowserInput) (activities.OpenBrowserResult, error) {
	return activities.OpenBrowserResult{SessionID: in.SessionID, TaskQueue: "sim-browser", URL: in.URL, Title: "Projects · Tracker", Status: 200}, nil
}

func (b *simBrowser) CloseBrowser(context.Context, activities.CloseBrowserInput) (activities.CloseBrowserResult, error) {
	return activities.CloseBrowserResult{Closed: true}, nil
}

func (b *simBrowser) Observe(_ context.Context, in activities.ObserveInput) (activities.Snapshot, error) {
	b.app.mu.Lock()
	defer b.app.mu.Unlock()
	return b.snap(in.KeyPrefix, in.Name, b.app.observe(), b.app.text()), nil
}

// ValidateGoal is the browser's verdict: the plan's closing checks on the final page.
func (b *simBrowser) ValidateGoal(_ context.Context, in activities.ValidateGoalInput) (activities.ValidateGoalResult, error) {
	b.app.mu.Lock()
	defer b.app.mu.Unlock()
	text := b.app.text()
	res := activities.ValidateGoalResult{Final: b.snap(in.KeyPrefix, "final", b.app.observe(), text)}
	switch {
	case in.StepsCompleted < in.StepsPlanned:
		res.Reason, res.Confidence = fmt.Sprintf("only %d of %d steps completed", in.StepsCompleted, in.StepsPlanned), 0.95
	case len(in.Checks) == 0:
		res.Success, res.Confidence, res.Reason = true, 0.6, "all steps completed; the goal states no final check"
	default:
		res.Success, res.Confidence, res.Reason = true, 0.9, "the closing checks hold"
		for _, c := range in.Checks {
			c = c.Bind(in.Params)
			if page.ContainsText(page.NormalizeText(text), c.Value) == c.Negated {
				res.Success, res.Reason = false, fmt.Sprintf("%s does not hold", c.String())
			}
		}
	}
	return res, nil
}

func refOf(e page.Element) *Ref {
	return &Ref{Role: e.Role, Name: e.Name, Row: e.Row, Container: e.Container}
}

// NoiseSeed is the seed of a scenario's noise for a run's seed: each scenario draws its
// own, so that one seed does not perturb every scenario alike.
func NoiseSeed(sc Scenario, seed int64) int64 {
	h := int64(0)
	for _, c := range sc.Name {
		h = h*31 + int64(c)
	}
	return seed*7919 + h
}

// Sim runs scenarios in Temporal's test workflow environment: the real Goal workflow, the
// real planning and model activities against a stand-in whose script is the noisy oracle,
// and the simulated demo app in the browser's place.
type Sim struct {
	t      testing.TB
	gemini *geminitest.Server
}

// NewSim starts the stand-in the sim's runs share (one run at a time).
func NewSim(t testing.TB) *Sim {
	if os.Getenv("GEMINI_API_KEY") == "" {
		// The model client reads its key from the environment; the stand-in takes any.
		os.Setenv("GEMINI_API_KEY", "noise-sim")
	}
	return &Sim{t: t, gemini: geminitest.New(t, nil)}
}

// Run runs one scenario at a noise level with a seed.
func (s *Sim) Run(sc Scenario, level float64, seed int64) Run {
	app := newSimApp(SimURL, sc.Seed)
	oracle := NewOracle(sc, app.State)
	oracle.Screen = app.screen
	script, rec := NoisyOn(oracle.Script, app.screen, level, NoiseSeed(sc, seed))
	oracle.Follow(rec)
	st := &store.Memory{}
	br := &simBrowser{app: app, store: st}
	oracle.Acted = br.lastActed
	s.gemini.Reset()
	s.gemini.SetScript(script)

	// Each run has its own client; a computer-use scenario's has the tool on.
	mc, err := model.New(context.Background(), model.Config{BaseURL: s.gemini.URL, Timeout: 10 * time.Second, ComputerUse: sc.ComputerUse})
	if err != nil {
		return Run{Level: level, Scenario: sc.Name, Seed: seed, Err: err.Error()}
	}
	m := &model.Activities{Client: mc, Store: st}
	p := &planning.Activities{Model: &model.Planner{Client: mc, Store: st}}

	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := suite.NewTestWorkflowEnvironment()
	env.SetTestTimeout(2 * time.Minute)
	env.RegisterWorkflowWithOptions(workflows.Goal, workflow.RegisterOptions{Name: workflows.GoalWorkflowName})
	reg := func(fn any, name string) { env.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: name}) }
	reg(p.PlanGoal, activities.PlanGoal.Name)
	reg(p.Replan, activities.Replan.Name)
	reg(m.DecideTarget, activities.DecideTarget.Name)
	reg(func(ctx context.Context, in activities.EvaluateStepInput) (activities.EvaluateStepResult, error) {
		res, err := m.EvaluateStep(ctx, in)
		if err == nil {
			br.log(Event{Evaluated: true, Vetoed: !res.Success && res.Confidence >= 0.7 && res.Feedback != nil})
		}
		return res, err
	}, activities.EvaluateStep.Name)
	reg(m.JudgeGoal, activities.JudgeGoal.Name)
	reg(m.Summarize, activities.Summarize.Name)
	reg(m.ExtractData, activities.ExtractData.Name)
	reg(br.OpenBrowser, activities.OpenBrowser.Name)
	reg(br.RunStep, activities.RunStep.Name)
	reg(br.Observe, activities.Observe.Name)
	reg(br.ValidateGoal, activities.ValidateGoal.Name)
	reg(br.CloseBrowser, activities.CloseBrowser.Name)

	env.ExecuteWorkflow(workflows.GoalWorkflowName, workflows.GoalInput{Goal: sc.Goal, StartURL: SimURL})
	var res workflows.GoalResult
	run := Run{Level: level, Scenario: sc.Name, Seed: seed}
	if !env.IsWorkflowCompleted() {
		run.Err = "the workflow did not complete"
		return run
	}
	werr := env.GetWorkflowError()
	if err := workflows.ResultOf(&res, werr); err != nil {
		run.Err = err.Error()
	} else if werr == nil {
		if err := env.GetWorkflowResult(&res); err != nil {
			run.Err = err.Error()
		}
	}
	out := Measure(sc, level, seed, res, app.State(), app.Effects(), rec, br.trail)
	out.Err = run.Err
	return out
}
