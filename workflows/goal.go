package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// Activity references: their methods name the activities; the structs are never used here.
var (
	planner *activities.Planner
	browser *activities.Browser
)

// Goal runs one natural-language goal in a real browser. It plans (or takes the plan it is
// given), then runs each step as one activity per attempt that observes the page, resolves
// the target, acts and checks, in the worker that holds the run's browser. A failed attempt
// is retried with the evaluator's feedback; when the attempts run out the rest of the plan
// is rewritten from the failure context. A completed step is never run again: when the
// browser's worker is lost, a new browser is opened elsewhere and the page restored. At the
// end the goal is validated on the final page and the standard output returned.
func Goal(ctx workflow.Context, in GoalInput) (*GoalResult, error) {
	if err := in.Validate(); err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrBadInput, nil)
	}
	r := newRun(ctx, in)
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, r.progress); err != nil {
		return nil, err
	}
	err := r.run(ctx)
	r.closeBrowser(ctx)
	r.finish(ctx)
	if temporal.IsCanceledError(err) {
		return nil, err
	}
	return &r.res, nil
}

// run is the state of one goal run. It lives in the workflow, so it is rebuilt by replay.
type run struct {
	in      GoalInput
	limits  Limits
	started time.Time
	phase   string
	steps   []StepRecord
	// session is the browser the run uses now; gen counts the browsers it has had.
	session activities.OpenBrowserResult
	gen     int
	// last is the latest observation, for the replanner and the final URL.
	last       activities.Snapshot
	strategies map[string][]string
	res        GoalResult
}

func newRun(ctx workflow.Context, in GoalInput) *run {
	info := workflow.GetInfo(ctx)
	r := &run{
		in: in, limits: in.Limits.WithDefaults(), started: workflow.Now(ctx), phase: "planning",
		strategies: map[string][]string{},
	}
	r.res.Metadata = Metadata{
		WorkflowID: info.WorkflowExecution.ID, RunID: info.WorkflowExecution.RunID, Version: OutputVersion,
		Goal: in.Goal, StartURL: in.StartURL, StartedAt: r.started,
	}
	r.res.ExtractedData.Structured = map[string]string{}
	r.last.URL = in.StartURL
	return r
}

func (r *run) keyPrefix() string {
	return fmt.Sprintf("runs/%s/%s", r.res.Metadata.WorkflowID, r.res.Metadata.RunID)
}

func (r *run) run(ctx workflow.Context) error {
	if err := r.plan(ctx); err != nil {
		return err
	}
	r.phase = "starting the browser"
	if err := r.openBrowser(ctx, r.in.StartURL, ""); err != nil {
		r.addError(ctx, 0, "browser", fmt.Sprintf("could not open a browser at %s: %v", r.in.StartURL, rootMessage(err)), true)
		return err
	}
	r.phase = "running"
	if err := r.execute(ctx); err != nil {
		return err
	}
	r.phase = "validating"
	return r.validate(ctx)
}

// plan fills r.steps from the given plan or the planner.
func (r *run) plan(ctx workflow.Context) error {
	steps := r.in.Plan
	r.res.Metadata.Planner = "given"
	if len(steps) == 0 {
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: 2 * time.Minute,
			RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 5, NonRetryableErrorTypes: []string{activities.ErrGoalNotUnderstood}},
			Summary:             "plan the goal",
		})
		var pr activities.PlanGoalResult
		if err := workflow.ExecuteActivity(actx, planner.PlanGoal, activities.PlanGoalInput{Goal: r.in.Goal, StartURL: r.in.StartURL}).Get(ctx, &pr); err != nil {
			r.addError(ctx, 0, "planning", rootMessage(err), false)
			return err
		}
		steps, r.res.Metadata.Planner = pr.Steps, pr.Planner
		if err := plan.CheckParams(steps, r.in.Params); err != nil {
			r.addError(ctx, 0, "planning", err.Error(), false)
			return err
		}
	}
	r.appendSteps(steps)
	return nil
}

func (r *run) appendSteps(steps []plan.Step) {
	for _, s := range steps {
		s.Step = len(r.steps) + 1
		r.steps = append(r.steps, StepRecord{Order: s.Step, Description: s.String(), Step: s, Status: StepPending})
	}
}

// execute runs the steps in order until they are done, a step cannot be made to work, or
// a limit is reached.
func (r *run) execute(ctx workflow.Context) error {
	deadline := r.started.Add(r.limits.Deadline)
	for i := 0; i < len(r.steps); i++ {
		if reason := r.limitReached(ctx, i, deadline); reason != "" {
			r.addError(ctx, r.steps[i].Order, "limit", reason, false)
			r.skipFrom(i)
			return nil
		}
		ok, err := r.runStep(ctx, i, deadline)
		if err != nil {
			r.skipFrom(i + 1)
			return err
		}
		if ok {
			continue
		}
		if workflow.Now(ctx).After(deadline) {
			continue // the next turn reports the deadline
		}
		if !r.replan(ctx, i) {
			r.steps[i].Status = StepFailed
			r.skipFrom(i + 1)
			return nil
		}
	}
	return nil
}

func (r *run) limitReached(ctx workflow.Context, i int, deadline time.Time) string {
	if now := workflow.Now(ctx); now.After(deadline) {
		return fmt.Sprintf("the run's deadline (%s) passed before step %d", r.limits.Deadline, r.steps[i].Order)
	}
	if i >= r.limits.MaxSteps {
		return fmt.Sprintf("the run reached its limit of %d steps", r.limits.MaxSteps)
	}
	return ""
}

func (r *run) skipFrom(i int) {
	for ; i < len(r.steps); i++ {
		if r.steps[i].Status == StepPending {
			r.steps[i].Status = StepSkipped
		}
	}
}

// runStep tries step i up to the attempt limit, each attempt with the feedback of the
// ones before. A lost browser is rebuilt without using up an attempt.
func (r *run) runStep(ctx workflow.Context, i int, deadline time.Time) (bool, error) {
	rec := &r.steps[i]
	rec.Status = StepRunning
	start := workflow.Now(ctx)
	defer func() { rec.DurationMs += workflow.Now(ctx).Sub(start).Milliseconds() }()
	for rec.Attempts < r.limits.AttemptsPerStep && !workflow.Now(ctx).After(deadline) {
		attempt := rec.Attempts + 1
		r.report(ctx)
		res, err := r.attempt(ctx, rec.Step, rec.Order, attempt, activities.PurposeAttempt, rec.Feedback)
		switch {
		case err == nil:
		case temporal.IsCanceledError(err):
			return false, err
		case workerLost(err):
			if err := r.recover(ctx, i, err); err != nil {
				return false, err
			}
			continue
		default:
			rec.Attempts++
			rec.Feedback = append(rec.Feedback, plan.Feedback{Type: plan.Other, Details: "the attempt failed: " + rootMessage(err)})
			continue
		}
		rec.Attempts++
		r.last = res.After
		for _, a := range res.Actions {
			rec.Actions = append(rec.Actions, fmt.Sprintf("attempt %d: %s", attempt, a))
		}
		rec.Evidence = Evidence{
			BeforeScreenshot: res.Before.ScreenshotKey, AfterScreenshot: res.After.ScreenshotKey,
			BeforeElements: res.Before.ElementsKey, AfterElements: res.After.ElementsKey,
		}
		for _, w := range res.Warnings {
			r.warn(fmt.Sprintf("step %d: %s", rec.Order, w))
		}
		if res.OK {
			rec.Status, rec.Mutated, rec.URL, rec.StorageStateKey = StepCompleted, res.Mutated, res.After.URL, res.StorageStateKey
			for k, v := range res.Extracted {
				r.res.ExtractedData.Structured[k] = v
			}
			r.report(ctx)
			return true, nil
		}
		rec.Feedback = append(rec.Feedback, *res.Feedback)
	}
	return false, nil
}

// attempt runs one RunStep activity in the run's browser.
func (r *run) attempt(ctx workflow.Context, step plan.Step, seq, attempt int, purpose string, feedback []plan.Feedback) (activities.RunStepResult, error) {
	budget := r.limits.WaitBudget * time.Duration(attempt)
	timeout := 2*time.Minute + budget
	if step.Action == plan.Wait && step.Value != "" {
		d, _ := plan.ParseDuration(step.Value)
		timeout += d
	}
	summary := fmt.Sprintf("step %d attempt %d: %s", seq, attempt, step.String())
	if purpose == activities.PurposeRestore {
		summary = fmt.Sprintf("restore step %d: %s", seq, step.String())
	}
	actx := r.sessionOptions(ctx, timeout, summary)
	var res activities.RunStepResult
	err := workflow.ExecuteActivity(actx, browser.RunStep, activities.RunStepInput{
		SessionID: r.session.SessionID, KeyPrefix: r.keyPrefix(), Seq: seq, Attempt: attempt, Purpose: purpose,
		Step: step, Params: r.in.Params, WaitBudget: budget, Feedback: feedback,
	}).Get(ctx, &res)
	return res, err
}

// sessionOptions route an activity to the worker that holds the run's browser. No
// server-side retries: a browser step must not run twice on its own, and a worker that
// stops answering is noticed within WorkerLossTimeout (never picked up, or no heartbeat).
func (r *run) sessionOptions(ctx workflow.Context, timeout time.Duration, summary string) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:              r.session.TaskQueue,
		ScheduleToStartTimeout: r.limits.WorkerLossTimeout,
		StartToCloseTimeout:    timeout,
		HeartbeatTimeout:       r.limits.WorkerLossTimeout,
		RetryPolicy:            &temporal.RetryPolicy{MaximumAttempts: 1},
		Summary:                summary,
	})
}

// replan asks the planner to rewrite the plan from step i on; false means it could not.
func (r *run) replan(ctx workflow.Context, i int) bool {
	rec := &r.steps[i]
	if r.res.Execution.Replans >= r.limits.Replans {
		r.addError(ctx, rec.Order, "replan_limit", fmt.Sprintf("step %d failed after %s and the run has used its %d replans", rec.Order, attempts(rec.Attempts), r.limits.Replans), false)
		return false
	}
	r.phase = "replanning"
	defer func() { r.phase = "running" }()
	in := activities.ReplanInput{Goal: r.in.Goal, Failed: rec.Step, Feedback: rec.Feedback, Current: r.last, Strategies: r.strategies[rec.Description]}
	for _, s := range r.steps[:i] {
		if s.Status == StepCompleted {
			in.Completed = append(in.Completed, s.Step)
		}
	}
	for _, s := range r.steps[i+1:] {
		in.Remaining = append(in.Remaining, s.Step)
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 2 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 5},
		Summary:             fmt.Sprintf("replan after step %d failed", rec.Order),
	})
	var res activities.ReplanResult
	if err := workflow.ExecuteActivity(actx, planner.Replan, in).Get(ctx, &res); err != nil {
		r.addError(ctx, rec.Order, "replan", rootMessage(err), false)
		return false
	}
	if res.Strategy == activities.StrategyAbort || len(res.Steps) == 0 {
		last := ""
		if n := len(rec.Feedback); n > 0 {
			last = rec.Feedback[n-1].String()
		}
		r.addError(ctx, rec.Order, "step_failed", fmt.Sprintf("step %d (%s) failed after %s: %s; %s", rec.Order, rec.Description, attempts(rec.Attempts), last, res.Reason), false)
		return false
	}
	r.res.Execution.Replans++
	r.strategies[rec.Description] = append(r.strategies[rec.Description], res.Strategy)
	for _, s := range res.Steps {
		r.strategies[s.String()] = r.strategies[rec.Description]
	}
	rec.Status = StepReplanned
	r.warn(fmt.Sprintf("step %d (%s) failed after %s; replanned (%s): %s", rec.Order, rec.Description, attempts(rec.Attempts), res.Strategy, res.Reason))
	r.steps = r.steps[:i+1]
	r.appendSteps(res.Steps)
	return true
}

// validate asks, on the final page, whether the goal was reached.
func (r *run) validate(ctx workflow.Context) error {
	in := activities.ValidateGoalInput{SessionID: r.session.SessionID, KeyPrefix: r.keyPrefix(), Goal: r.in.Goal, Params: r.in.Params}
	for _, s := range r.steps {
		switch s.Status {
		case StepCompleted:
			in.StepsCompleted++
			in.StepsPlanned++
		case StepReplanned:
		default:
			in.StepsPlanned++
		}
	}
	for j := len(r.steps) - 1; j >= 0 && r.steps[j].Step.Action == plan.Assert; j-- {
		in.Checks = append([]plan.Step{r.steps[j].Step}, in.Checks...)
	}
	for try := 0; ; try++ {
		in.SessionID = r.session.SessionID
		var res activities.ValidateGoalResult
		err := workflow.ExecuteActivity(r.sessionOptions(ctx, 2*time.Minute, "validate the goal"), browser.ValidateGoal, in).Get(ctx, &res)
		if err != nil && workerLost(err) && try == 0 {
			if rerr := r.recover(ctx, len(r.steps), err); rerr != nil {
				return rerr
			}
			continue
		}
		if err != nil {
			if temporal.IsCanceledError(err) {
				return err
			}
			r.res.Validation = Validation{Reason: "could not validate: " + rootMessage(err)}
			return nil
		}
		r.res.Validation = Validation{Success: res.Success, Confidence: res.Confidence, Reason: res.Reason, FinalScreenshot: res.Final.ScreenshotKey}
		r.last = res.Final
		return nil
	}
}

// finish counts, decides the status and writes the summary.
func (r *run) finish(ctx workflow.Context) {
	r.phase = "done"
	ex := &r.res.Execution
	for _, s := range r.steps {
		switch s.Status {
		case StepCompleted:
			ex.StepsCompleted++
		case StepFailed, StepReplanned:
			ex.StepsFailed++
		case StepSkipped, StepPending, StepRunning:
			ex.StepsSkipped++
		}
		if s.Attempts > 1 {
			ex.TotalRetries += s.Attempts - 1
		}
	}
	ex.StepsPlanned = len(r.steps)
	allDone := ex.StepsCompleted > 0 && ex.StepsCompleted+countStatus(r.steps, StepReplanned) == len(r.steps)
	switch {
	case allDone && r.res.Validation.Success:
		ex.Status = StatusSuccess
	case allDone || !r.madeProgress():
		ex.Status = StatusFailed
	default:
		ex.Status = StatusPartial
	}
	now := workflow.Now(ctx)
	r.res.Metadata.FinishedAt = now
	r.res.Metadata.DurationMs = now.Sub(r.started).Milliseconds()
	r.res.Metadata.FinalURL = r.last.URL
	r.res.Steps = r.steps
	sum := &r.res.Summary
	switch ex.Status {
	case StatusSuccess:
		sum.Brief = fmt.Sprintf("Done: %s (%d steps in %.1fs)", oneLine(r.in.Goal), ex.StepsCompleted, float64(r.res.Metadata.DurationMs)/1000)
	case StatusPartial:
		sum.Brief = fmt.Sprintf("Partly done: %d of %d steps of %s", ex.StepsCompleted, ex.StepsPlanned, oneLine(r.in.Goal))
	default:
		sum.Brief = fmt.Sprintf("Failed: %s", oneLine(r.in.Goal))
		if n := len(r.res.Errors); n > 0 {
			sum.Brief += " — " + r.res.Errors[n-1].Message
		} else if r.res.Validation.Reason != "" {
			sum.Brief += " — " + r.res.Validation.Reason
		}
	}
	for _, s := range r.steps {
		if s.Status == StepCompleted {
			sum.Highlights = append(sum.Highlights, s.Description)
		}
	}
	r.report(ctx)
}

// madeProgress reports whether a step that does something (not only waits or looks)
// completed: a run that did nothing failed rather than partly succeeded.
func (r *run) madeProgress() bool {
	for _, s := range r.steps {
		if s.Status == StepCompleted && s.Step.Action != plan.Wait && s.Step.Action != plan.Assert && s.Step.Action != plan.Scroll {
			return true
		}
	}
	return false
}

func countStatus(steps []StepRecord, status string) int {
	n := 0
	for _, s := range steps {
		if s.Status == status {
			n++
		}
	}
	return n
}

func (r *run) warn(w string) { r.res.Summary.Warnings = append(r.res.Summary.Warnings, w) }

func (r *run) addError(ctx workflow.Context, step int, typ, msg string, recoverable bool) {
	r.res.Errors = append(r.res.Errors, RunError{Step: step, Type: typ, Message: msg, Recoverable: recoverable, Timestamp: workflow.Now(ctx)})
}

// progress answers ProgressQuery.
func (r *run) progress() (Progress, error) {
	p := Progress{Phase: r.phase}
	for i, s := range r.steps {
		sp := StepProgress{Order: s.Order, Description: s.Description, Status: s.Status, Attempts: s.Attempts}
		if n := len(s.Feedback); n > 0 {
			sp.LastFeedback = s.Feedback[n-1].String()
		}
		if s.Status == StepRunning {
			p.Current = i + 1
		}
		p.Steps = append(p.Steps, sp)
	}
	return p, nil
}

// report writes the run's progress where the Web UI shows it.
func (r *run) report(ctx workflow.Context) {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** — %s\n\n| # | step | status | attempts |\n|---|---|---|---|\n", r.phase, oneLine(r.in.Goal))
	for _, s := range r.steps {
		fmt.Fprintf(&b, "| %d | %s | %s | %d |\n", s.Order, strings.ReplaceAll(s.Description, "|", "\\|"), s.Status, s.Attempts)
	}
	workflow.SetCurrentDetails(ctx, b.String())
}

// workerLost reports whether an activity failed because the worker holding the browser
// is gone or no longer has it.
func workerLost(err error) bool {
	var te *temporal.TimeoutError
	if errors.As(err, &te) {
		return true
	}
	var ae *temporal.ApplicationError
	return errors.As(err, &ae) && ae.Type() == activities.ErrSessionLost
}

// rootMessage is the innermost error message, without the SDK's wrapping.
func rootMessage(err error) string {
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
		s = s[:117] + "..."
	}
	return s
}
