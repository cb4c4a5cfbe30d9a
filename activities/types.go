// Package activities holds every piece of I/O the goal workflow does, as Temporal
// activities: planning, the browser (observe, decide, act, check in one activity per
// attempt) and the object store behind it.
package activities

import (
	"time"

	"github.com/webagent-dev/webagent/activities/browser"
	"github.com/webagent-dev/webagent/activities/model"
	"github.com/webagent-dev/webagent/plan"
)

// Error types that cross into the workflow, which decides on them.
const (
	// ErrSessionLost: the worker holds no browser for the session (it restarted, or the
	// browser died). The workflow opens a new browser and restores the run's state.
	ErrSessionLost = "SessionLost"
	// ErrGoalNotUnderstood: the offline planner cannot read the goal.
	ErrGoalNotUnderstood = "GoalNotUnderstood"
	// ErrBadInput: the input cannot work however often it is retried.
	ErrBadInput = "BadInput"
)

// Phases an attempt reports in its heartbeat. A lost attempt whose last phase was
// PhaseActing or later may have changed the page.
const (
	PhaseObserving = "observing"
	PhaseActing    = "acting"
	PhaseChecking  = "checking"
	PhaseWaiting   = "waiting"
)

// OpenBrowserInput asks a worker for a browser session.
type OpenBrowserInput struct {
	SessionID string
	URL       string
	// StorageStateKey, when set, names the saved cookies and local storage to restore.
	StorageStateKey string
}

// OpenBrowserResult says which worker holds the session: every later browser activity
// of the run goes to TaskQueue.
type OpenBrowserResult struct {
	SessionID string
	TaskQueue string
	URL       string
	Title     string
}

// Snapshot is one observation as history keeps it: the screenshot and the element list
// are in the object store, under their keys.
type Snapshot struct {
	URL           string `json:"url"`
	Title         string `json:"title"`
	ScreenshotKey string `json:"screenshotKey,omitempty"`
	ElementsKey   string `json:"elementsKey,omitempty"`
	Fingerprint   string `json:"fingerprint,omitempty"`
	Elements      int    `json:"elements"`
	// TextKey names the page's visible text, stored when a model is to read the page.
	TextKey string `json:"textKey,omitempty"`
	// MarkedKey names the copy of the screenshot with the elements' numbers drawn on it.
	MarkedKey string `json:"markedKey,omitempty"`
}

// Purposes of a RunStep call.
const (
	PurposeAttempt = "attempt"
	// PurposeRestore replays a completed, side-effect-free step to rebuild UI state (a
	// dialog, a half-filled form) that a lost browser took with it.
	PurposeRestore = "restore"
)

// RunStepInput is one attempt at one step.
type RunStepInput struct {
	SessionID string
	// KeyPrefix is where this run's objects go in the store.
	KeyPrefix string
	// Seq is the step's position in the run (1-based), for object keys.
	Seq     int
	Attempt int
	Purpose string
	Step    plan.Step
	Params  map[string]string
	// WaitBudget is how long to wait for the target or an asserted text to appear.
	WaitBudget time.Duration
	// Feedback is the evaluator's feedback on the step's earlier attempts.
	Feedback []plan.Feedback `json:",omitempty"`
	// Decision, when set, is the model's choice of element or point, which replaces
	// DOM-first resolution.
	Decision *Decision `json:",omitempty"`
	// CheckState: the page must be in the step's learned State before acting.
	CheckState bool `json:",omitempty"`
}

// Decision is what the model chose to act on: an element of the observation it saw
// (and the element as it saw it, to find it again if the page moved), or a point.
type Decision struct {
	Element    *int             `json:",omitempty"`
	ElementWas *browser.Element `json:",omitempty"`
	Point      *[2]float64      `json:",omitempty"`
}

// RunStepResult is what one attempt did and whether it worked.
type RunStepResult struct {
	OK       bool
	Feedback *plan.Feedback `json:",omitempty"`
	Acted    bool
	// Mutated reports that the page sent a state-changing request: the step has side
	// effects and is never replayed.
	Mutated    bool
	Before     Snapshot
	After      Snapshot
	Target     string   `json:",omitempty"`
	Candidates []string `json:",omitempty"`
	Actions    []string
	Extracted  map[string]any `json:",omitempty"`
	// StorageStateKey names the cookies and local storage saved after the step.
	StorageStateKey string `json:",omitempty"`
	Duration        time.Duration
	Warnings        []string `json:",omitempty"`
	// States are the files of the new UI states the attempt reached, in the run's dataset.
	States []string `json:",omitempty"`
	// BeforeState is the page's state before acting (Observation.State), kept with the
	// step when it is learned as part of a skill.
	BeforeState string `json:",omitempty"`
}

// ValidateGoalInput asks whether the goal was reached, on the final page.
type ValidateGoalInput struct {
	SessionID string
	KeyPrefix string
	Goal      string
	// Checks are the plan's closing ASSERT steps, looked at again on the final page.
	Checks []plan.Step
	Params map[string]string
	// StepsCompleted and StepsPlanned say how far the run got.
	StepsCompleted, StepsPlanned int
}

// ValidateGoalResult is the verdict.
type ValidateGoalResult struct {
	Success    bool
	Confidence float64
	Reason     string
	Final      Snapshot
}

// CloseBrowserInput ends a session.
type CloseBrowserInput struct {
	SessionID string
	// KeyPrefix is the run's; its dataset state is forgotten.
	KeyPrefix string `json:",omitempty"`
}

// PlanGoalInput asks for a plan.
type PlanGoalInput struct {
	Goal     string
	StartURL string
	Params   map[string]string `json:",omitempty"`
	// Plan, when given, is checked and used as is.
	Plan []plan.Step `json:",omitempty"`
	// Observation is the first look at the page, for a model that plans.
	Observation *Snapshot `json:",omitempty"`
	// SkipSkills: plan afresh, without looking for a skill.
	SkipSkills bool `json:",omitempty"`
}

// SkillMatch is the skill a goal reuses.
type SkillMatch struct {
	ID         string
	Version    int
	Similarity float64
	// Params are the goal's values for the skill's slots.
	Params map[string]string
	// ModelCalls is what learning the skill cost.
	ModelCalls int
}

// PlanGoalResult is the plan and who wrote it.
type PlanGoalResult struct {
	Steps   []plan.Step
	Planner string
	// ModelAvailable says whether the worker can ask a model: the run then lets it decide,
	// evaluate, replan, validate and summarise.
	ModelAvailable bool
	// NeedsObservation: the goal needs the model planner, which needs to see the page
	// first; call again with an Observation.
	NeedsObservation bool        `json:",omitempty"`
	Usage            model.Usage `json:",omitempty"`
	// SkillsAvailable says whether the worker has a skills library to learn into; Skill
	// is the skill the plan comes from, on a cache hit.
	SkillsAvailable bool        `json:",omitempty"`
	Skill           *SkillMatch `json:",omitempty"`
	Warnings        []string    `json:",omitempty"`
}

// Skill operations of SaveSkill.
const (
	SkillLearn   = "learn"
	SkillHeal    = "heal"
	SkillSuccess = "success"
	SkillFailure = "failure"
)

// SaveSkillInput changes the skills library after a run: learn the plan of a validated
// success, save a healed plan as a skill's next version, or count a reuse.
type SaveSkillInput struct {
	Op       string
	Goal     string
	StartURL string
	SkillID  string      `json:",omitempty"`
	Steps    []plan.Step `json:",omitempty"`
	// ModelCalls is what the run cost, recorded with a learned skill.
	ModelCalls int `json:",omitempty"`
}

// SaveSkillResult says what was saved.
type SaveSkillResult struct {
	SkillID  string
	Version  int
	Disabled bool
}

// ObserveInput asks for a look at the page without acting.
type ObserveInput struct {
	SessionID string
	// Name is the object key's name under the run's prefix.
	Name      string
	KeyPrefix string
}

// ReplanInput is the failure context the replanner works from.
type ReplanInput struct {
	Goal      string
	Completed []plan.Step
	Failed    plan.Step
	Feedback  []plan.Feedback
	Remaining []plan.Step
	Current   Snapshot
	// Strategies are the ones already tried for this failed step.
	Strategies []string
}

// Replanning strategies (see plan.Strategy*).
const (
	StrategyWaitAndRetry = plan.StrategyWaitAndRetry
	StrategyAbort        = plan.StrategyAbort
)

// ReplanResult is the new remainder of the plan, replacing the failed step and those
// after it, or an abort with its reason.
type ReplanResult struct {
	Strategy string
	Reason   string
	Steps    []plan.Step
	Usage    model.Usage `json:",omitempty"`
}

// DecideInput asks the model which element a step means, after DOM-first resolution
// found none or several.
type DecideInput struct {
	Goal     string
	Step     plan.Step
	Params   map[string]string
	Attempt  int
	Feedback []plan.Feedback
	// Page is the attempt's "before" observation, which the model sees numbered.
	Page Snapshot
}

// DecideResult is the model's decision: Decision when it chose, Failure when it did not.
type DecideResult struct {
	Decision *Decision      `json:",omitempty"`
	Failure  *plan.Feedback `json:",omitempty"`
	// Reason is the model's reason, for the step's actions.
	Reason    string
	MarkedKey string
	Usage     model.Usage
}

// EvaluateStepInput asks the model whether an attempt did what the step should.
type EvaluateStepInput struct {
	Goal          string
	Step          plan.Step
	Params        map[string]string
	Actions       []string
	ChecksPassed  bool
	CheckDetails  string
	Before, After Snapshot
}

// EvaluateStepResult is the model's verdict.
type EvaluateStepResult struct {
	Success    bool
	Confidence float64
	Reasoning  string
	Feedback   *plan.Feedback `json:",omitempty"`
	Usage      model.Usage
}

// JudgeGoalInput asks the model whether the goal was reached, on the final page.
type JudgeGoalInput struct {
	Goal   string
	Steps  []string
	Checks string
	Final  Snapshot
}

// JudgeGoalResult is the model's verdict on the goal.
type JudgeGoalResult struct {
	Success    bool
	Confidence float64
	Reason     string
	Usage      model.Usage
}

// SummarizeInput is what the closing summary is written from.
type SummarizeInput struct {
	Goal      string
	Status    string
	Steps     []string
	Errors    []string
	Extracted string
}

// SummarizeResult is the closing summary.
type SummarizeResult struct {
	Summary model.Summary
	Usage   model.Usage
}

// ExtractInput asks the model to read data off the page, shaped by a JSON schema.
type ExtractInput struct {
	Goal   string
	Step   plan.Step
	Params map[string]string
	Schema map[string]any `json:",omitempty"`
	Page   Snapshot
}

// ExtractResult is the data read.
type ExtractResult struct {
	Data  map[string]any
	Usage model.Usage
}
