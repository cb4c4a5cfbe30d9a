package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// A long run continues as new before its history grows past a bound: between two steps,
// never inside one, it hands its whole state (Carry) to a new run of the same workflow
// ID, which goes on with the same browser from the next step. The output, the progress
// query and the recovery state (the steps, their saved cookies and checkpoints) are the
// same as if it had been one run; Execution.Continuations counts the hand-overs.
//
// The bound: HistoryEventsPerRun events or HistoryBytesPerRun bytes of history, or when
// the server suggests it, or every Limits.StepsPerRun steps when a run asks for that.
// A step costs 6 to 15 events (the most in runs begun before the intent object, with
// their acting signal), up to ~40 with retries and model calls (measured, README "Long
// runs"), so the default
// bound lets a run go 200 to 500 steps before it continues; Temporal itself warns at
// 10,240 events and stops a run at 51,200.
const (
	HistoryEventsPerRun = 8000
	HistoryBytesPerRun  = 8 << 20
)

// Carry is a run's state handed to the run it continues as.
type Carry struct {
	// Next is the index of the step the new run starts with.
	Next       int                          `json:"next"`
	Started    time.Time                    `json:"started"`
	Steps      []StepRecord                 `json:"steps"`
	Result     GoalResult                   `json:"result"`
	Params     map[string]string            `json:"params,omitempty"`
	Model      bool                         `json:"model,omitempty"`
	Planned    bool                         `json:"modelPlanned,omitempty"`
	Skills     bool                         `json:"skills,omitempty"`
	Skill      *activities.SkillMatch       `json:"skill,omitempty"`
	Session    activities.OpenBrowserResult `json:"session"`
	Gen        int                          `json:"gen"`
	Last       activities.Snapshot          `json:"last"`
	Strategies map[string][]string          `json:"strategies,omitempty"`
}

// notCarried is the refusal of a carried state a caller sent: it would hand the run
// another run's browser, or steps no planner wrote.
const notCarried = "continued is set only by a run's own continue-as-new; start a goal without it"

// origin is what a run knows of where it came from, to judge the state it carries.
type origin struct {
	// workflowID is the run's workflow; continued says a continue-as-new began the run
	// (not a retry or a cron run, which start again from a caller's input).
	workflowID string
	continued  bool
}

// checkContinued says what is wrong with the state the run carries, if any: only the
// run's own continue-as-new sets it, with the run's own browser; a caller never does.
func (in GoalInput) checkContinued(o origin) error {
	c := in.Continued
	if c == nil {
		return nil
	}
	if !o.continued {
		return errors.New(notCarried)
	}
	if !activities.SessionOf(c.Session.SessionID, o.workflowID) {
		return fmt.Errorf("continued.session %q is not a browser of this workflow: %s", c.Session.SessionID, notCarried)
	}
	return c.check(in.Limits.WithDefaults())
}

// check says what is wrong with a carried state. Its steps are held to the rules of any
// plan, step by step: they are every plan the run had, each checked when it came, so
// together they may be longer than one plan (a replan at step i keeps the i steps before
// it), up to the steps the run may take and one plan more.
func (c *Carry) check(l Limits) error {
	var errs []error
	if c.Next < 0 || c.Next > len(c.Steps) {
		errs = append(errs, fmt.Errorf("continued.next is %d; it must be between 0 and the %d carried steps", c.Next, len(c.Steps)))
	}
	if c.Session.SessionID == "" || c.Session.TaskQueue == "" {
		errs = append(errs, errors.New("continued.session names no browser: a run continues only with the browser it had"))
	}
	if n, most := len(c.Steps), l.MaxSteps+plan.MaxPlanSteps; n > most {
		errs = append(errs, fmt.Errorf("continued.steps holds %d steps; a run has at most %d", n, most))
	}
	for _, s := range c.Steps {
		if err := s.Step.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("continued.steps: %w", err))
		}
	}
	return errors.Join(errs...)
}

// carryOn takes the state a run carried over.
func (r *run) carryOn(c *Carry) {
	r.started, r.steps, r.res = c.Started, c.Steps, draft{GoalResult: c.Result}
	r.model, r.modelPlanned, r.skills, r.skill = c.Model, c.Planned, c.Skills, c.Skill
	r.browser.session, r.browser.gen, r.last, r.from = c.Session, c.Gen, c.Last, c.Next
	// The browser's state is saved in the folder of the run this one continues: its last
	// close deletes it there.
	r.browser.keyPrefix = r.res.Metadata.keyPrefix()
	if c.Params != nil {
		r.params = c.Params
	}
	if c.Strategies != nil {
		r.strategies = c.Strategies
	}
	if r.res.ExtractedData.Structured == nil {
		r.res.ExtractedData.Structured = map[string]any{}
	}
}

// mayContinue says whether this run continues as new, by its version: runs begun before
// the change never do.
func mayContinue(ctx workflow.Context) bool {
	return patched(ctx, "continue-as-new")
}

// dueToContinue reports whether the run should hand over before step i.
func (r *run) dueToContinue(ctx workflow.Context, i int) bool {
	if i <= r.from {
		return false // at least one step per run
	}
	if n := r.limits.StepsPerRun; n > 0 && i-r.from >= n {
		return true
	}
	info := workflow.GetInfo(ctx)
	return info.GetContinueAsNewSuggested() || info.GetCurrentHistoryLength() >= HistoryEventsPerRun || info.GetCurrentHistorySize() >= HistoryBytesPerRun
}

// continueAsNew hands the run over to a new run that starts with step i, once every
// Update being handled has finished.
func (r *run) continueAsNew(ctx workflow.Context, i int) error {
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return err
	}
	r.res.Execution.Continuations++
	in := r.in
	in.Continued = &Carry{
		Next: i, Started: r.started, Steps: r.steps, Result: r.res.GoalResult, Params: r.params,
		Model: r.model, Planned: r.modelPlanned, Skills: r.skills, Skill: r.skill,
		Session: r.browser.session, Gen: r.browser.gen, Last: r.last, Strategies: r.strategies,
	}
	return workflow.NewContinueAsNewError(ctx, Goal, in)
}
