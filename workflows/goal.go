package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/textcut"
	"github.com/webagent-dev/webagent/plan"
)

// Goal runs one natural-language goal in a real browser. It plans (or takes the plan it is
// given), then runs each step as one activity per attempt that observes the page, resolves
// the target, acts and checks, in the worker that holds the run's browser. When the page
// itself does not say which element a step means, and a model is configured, the model
// picks it from the numbered screenshot. A failed attempt is retried with the evaluator's
// feedback; when the attempts run out the rest of the plan is rewritten from the failure
// context. A completed step is never run again: when the browser's worker is lost, a new
// browser is opened elsewhere and the page restored. At the end the goal is validated on
// the final page and the standard output returned.
func Goal(ctx workflow.Context, in GoalInput) (*GoalResult, error) {
	ctx = withPatches(ctx)
	if msg := validated(ctx, in); msg != "" {
		return nil, temporal.NewNonRetryableApplicationError(msg, ErrBadInput, nil)
	}
	r := newRun(ctx, in)
	if in.Continued != nil {
		r.carryOn(in.Continued)
	}
	r.attrs.indexed = patched(ctx, "search-attributes")
	r.wary = patched(ctx, "model-held-to-account")
	r.acting.objects = patched(ctx, intentObject)
	r.attrs.index(ctx, StatusAttr.ValueSet(string(StatusRunning)), SiteAttr.ValueSet(Site(in.StartURL)))
	r.attrs.status = StatusRunning
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, r.progress); err != nil {
		return nil, err
	}
	if err := r.people.register(ctx); err != nil {
		return nil, err
	}
	err := r.run(ctx)
	if workflow.IsContinueAsNewError(err) {
		return nil, err // the next run goes on with the browser
	}
	r.browser.end(ctx)
	r.finish(ctx)
	if temporal.IsCanceledError(err) {
		dctx, _ := workflow.NewDisconnectedContext(ctx)
		r.attrs.set(dctx, StatusFailed)
		r.record(ctx, StatusFailed)
		return nil, err
	}
	r.attrs.set(ctx, r.res.Execution.Status)
	r.summarize(ctx)
	r.notify(ctx, activities.NotifyEnded, r.res.endSummary(), 0)
	r.learn(ctx)
	r.record(ctx, r.res.Execution.Status)
	return ended(ctx, &r.res.GoalResult)
}

// run is the state of one goal run. It lives in the workflow, so it is rebuilt by replay.
type run struct {
	in      GoalInput
	limits  Limits
	started time.Time
	phase   Phase
	steps   []StepRecord
	// model says whether the workers can ask a model; modelPlanned, whether it wrote the plan.
	model, modelPlanned bool
	// wary: the run holds the model to account — its tries counted one by one, every
	// effect it chose evaluated, a fail on a page the run did not touch replanned at
	// once, a wrong state-changing effect the end of the run (versioned: runs started
	// before make the calls they made then).
	wary bool
	// browser is the run's hold on its browser.
	browser browserLease
	// last is the latest observation, for the replanner and the final URL.
	last       activities.Snapshot
	strategies map[string][]string
	// params are the input's, with a reused skill's slots filled from the goal.
	params map[string]string
	// skill is the skill the plan was reused from; skills, whether a library is there.
	skill  *activities.SkillMatch
	skills bool
	// acting is how the run learns which attempts were about to act.
	acting acting
	// people is what people asked of the run and answered it (the Updates' state).
	people people
	// held says the run stopped for a person (who did not come, refused, or cancelled):
	// it ends partial. unattendedStop says it stopped because it would have had to wait
	// for a person and is unattended: its status is the failed step's.
	held, unattendedStop bool
	// from is the first step this run runs: past 0 when it continues an earlier run.
	from int
	// attrs are the run's search attributes.
	attrs searchAttrs
	// parts says the goal ran as independent parts, each a goal of its own.
	parts bool
	// res is the output, as the run writes it.
	res draft
}

func newRun(ctx workflow.Context, in GoalInput) *run {
	info := workflow.GetInfo(ctx)
	r := &run{
		in: in, limits: in.Limits.WithDefaults(), started: workflow.Now(ctx), phase: PhasePlanning,
		strategies: map[string][]string{}, acting: acting{},
	}
	r.people.phase = &r.phase
	r.res.Metadata = Metadata{
		WorkflowID: info.WorkflowExecution.ID, RunID: info.WorkflowExecution.RunID, Version: OutputVersion,
		Goal: in.Goal, StartURL: in.StartURL, StartedAt: r.started,
	}
	r.res.ExtractedData.Structured = map[string]any{}
	r.browser = browserLease{in: &r.in, keyPrefix: r.res.Metadata.keyPrefix(), lossTimeout: r.limits.WorkerLossTimeout}
	r.last.URL = in.StartURL
	r.params = map[string]string{}
	//workflowcheck:ignore copying one map into another is the same in any order
	for k, v := range in.Params {
		r.params[k] = v
	}
	return r
}

// mode is how a reused skill's plan runs.
func (r *run) mode() Mode {
	if r.in.Mode == "" {
		return ModeReplay
	}
	return r.in.Mode
}

func (r *run) run(ctx workflow.Context) error {
	if r.in.Continued != nil {
		return r.runSteps(ctx)
	}
	// The browser opens at the start page while the goal is planned.
	var opening workflow.Future
	stopOpening := func() {}
	if patched(ctx, "open-while-planning") {
		octx, cancel := workflow.WithCancel(ctx)
		opening, stopOpening = r.browser.start(octx, r.in.StartURL, ""), cancel
	}
	pr, err := r.planGoal(ctx, nil)
	if err != nil || len(pr.Parts) > 0 {
		if opening != nil {
			// Not needed after all: stopped, or closed if it had opened.
			stopOpening()
			if r.browser.take(ctx, opening) == nil {
				r.browser.close(ctx)
				r.browser.drop()
			}
		}
		if err != nil {
			return err
		}
		return r.runParts(ctx, pr.Parts)
	}
	r.phase = PhaseStarting
	if opening == nil {
		opening = r.browser.start(ctx, r.in.StartURL, "")
	}
	if err := r.browser.take(ctx, opening); err != nil {
		r.res.addError(ctx, 0, "browser", fmt.Sprintf("could not open a browser at %s: %v", r.in.StartURL, rootMessage(err)), true)
		return err
	}
	if st := r.browser.session.Status; st >= 400 {
		// Nothing on an error page is what the goal meant: a fast, clear failure.
		msg := fmt.Sprintf("the start page %s answered HTTP %d: check the start URL", r.in.StartURL, st)
		r.res.addError(ctx, 0, "start_page", msg, false)
		return temporal.NewNonRetryableApplicationError(msg, ErrBadInput, nil)
	}
	if pr.NeedsObservation {
		// The model plans from a first look at the page.
		r.phase = PhasePlanning
		first, err := r.observe(ctx, "start")
		if err != nil {
			r.res.addError(ctx, 0, "planning", "could not look at the start page: "+rootMessage(err), false)
			return err
		}
		if _, err := r.planGoal(ctx, &first); err != nil {
			return err
		}
	}
	if err := r.putFiles(ctx); err != nil {
		return err
	}
	return r.runSteps(ctx)
}

// runSteps runs the plan's steps from r.from, then validates the goal.
func (r *run) runSteps(ctx workflow.Context) error {
	r.phase = PhaseRunning
	if err := r.execute(ctx); err != nil || r.held {
		return err
	}
	r.phase = PhaseValidating
	return r.validate(ctx)
}

// planGoal asks for the plan (or has the given one checked) and learns whether a model is
// there. Without an observation a model planner answers NeedsObservation.
func (r *run) planGoal(ctx workflow.Context, first *activities.Snapshot) (activities.PlanGoalResult, error) {
	in := activities.PlanGoalInput{Goal: r.in.Goal, StartURL: r.in.StartURL, Params: r.params, Plan: r.in.Plan, Observation: first, SkipSkills: r.in.SkipSkills}
	summary := "plan the goal"
	if first == nil && len(r.in.Plan) == 0 && !r.in.SkipSkills {
		summary = "find a skill, or plan the goal"
	}
	pr, err := askModel(ctx, r, nil, "plan", activities.PlanGoal, summary, in)
	if err != nil {
		r.res.addError(ctx, 0, planningErrorType(err), rootMessage(err), false)
		return pr, err
	}
	r.model, r.skills = pr.ModelAvailable, r.skills || pr.SkillsAvailable
	for _, w := range pr.Warnings {
		r.res.warn(w)
	}
	if pr.SkillMiss != "" {
		r.res.Skill.MissReason = pr.SkillMiss
	}
	if pr.NeedsObservation {
		return pr, nil
	}
	r.res.Metadata.Planner = pr.Planner
	if len(pr.Parts) > 0 {
		return pr, nil
	}
	r.modelPlanned = pr.Planner == activities.PlannerModel
	r.attrs.index(ctx, PlannerAttr.ValueSet(string(pr.Planner)), CacheHitAttr.ValueSet(pr.Skill != nil))
	if sk := pr.Skill; sk != nil {
		// The goal's own values fill the skill's slots; values given as parameters win.
		r.skill = sk
		//workflowcheck:ignore copying one map into another is the same in any order
		for k, v := range sk.Params {
			if _, given := r.in.Params[k]; !given {
				r.params[k] = v
			}
		}
		r.res.Skill = SkillUse{CacheHit: true, ID: sk.ID, Version: sk.Version, Mode: r.mode(), Similarity: sk.Similarity}
		r.attrs.index(ctx, SkillAttr.ValueSet(sk.ID))
	}
	if err := plan.CheckParams(pr.Steps, r.params); err != nil {
		r.res.addError(ctx, 0, "planning", err.Error(), false)
		return pr, err
	}
	// A plan is checked before it runs, whoever wrote it: a step no activity could run
	// (an hours-long WAIT) ends the run with the reason, never loops on a failing task.
	if err := plan.Validate(pr.Steps); err != nil {
		msg := "the plan cannot be run: " + err.Error()
		r.res.addError(ctx, 0, ErrorGoalNotUnderstood, msg, false)
		return pr, temporal.NewNonRetryableApplicationError(msg, ErrBadInput, nil)
	}
	if err := uploadsGiven(pr.Steps, r.in.Files); err != nil {
		r.res.addError(ctx, 0, ErrorBadInput, err.Error(), false)
		return pr, temporal.NewNonRetryableApplicationError(err.Error(), ErrBadInput, nil)
	}
	r.appendSteps(pr.Steps)
	if r.skill != nil {
		for i := range r.steps {
			r.steps[i].Cached = true
		}
	}
	return pr, nil
}

// appendSteps adds steps to the run, each with its description read into its target: the
// one place a plan's descriptions are read, whoever wrote the plan.
func (r *run) appendSteps(steps []plan.Step) {
	for _, s := range plan.WithTargets(steps) {
		s.Step = len(r.steps) + 1
		r.steps = append(r.steps, StepRecord{Order: s.Step, Description: s.Described(r.params), Step: s, Status: StepPending})
	}
}

// modelOptions send an activity to the model task queue. Retries follow Temporal's policy
// alone (the SDK's are off): 429s after the delay the server asks for, 5xx and timeouts
// with backoff; errors no retry can fix are not retried.
func (r *run) modelOptions(ctx workflow.Context, summary string) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:           ModelTaskQueue,
		StartToCloseTimeout: r.limits.ModelTimeout,
		// The worker heartbeats for every model activity (workers/alive.go): one killed
		// during a call is noticed within the run's WorkerLossTimeout, not ModelTimeout.
		HeartbeatTimeout: r.limits.WorkerLossTimeout,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute, MaximumAttempts: 6,
			NonRetryableErrorTypes: append([]string{activities.ErrGoalNotUnderstood, activities.ErrBadInput}, activities.ModelNonRetryable...),
		},
		Summary: summary,
	})
}

// Error types in the output for a goal that could not be planned: the caller's to fix.
const (
	ErrorGoalNotUnderstood = "goal_not_understood"
	ErrorBadInput          = "bad_input"
)

// planningErrorType names a planning failure in the output: a goal the workers cannot
// read, or input no planner can use, is the caller's to fix; anything else is "planning".
func planningErrorType(err error) string {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		switch ae.Type() {
		case activities.ErrGoalNotUnderstood:
			return ErrorGoalNotUnderstood
		case activities.ErrBadInput:
			return ErrorBadInput
		}
	}
	return "planning"
}

// rootMessage is the innermost error message, without the SDK's wrapping.
func rootMessage(err error) string {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		return ae.Message()
	}
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err.Error()
		}
		err = u
	}
}

func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		s = textcut.Cut(s, 117, "...")
	}
	return s
}
