package workflows

import (
	"time"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// GoalResult is the run's standard output (StandardWorkflowOutput): the same shape for
// every goal and site, for people, other agents and pipelines.
type GoalResult struct {
	Metadata      Metadata      `json:"metadata"`
	Execution     Execution     `json:"execution"`
	Steps         []StepRecord  `json:"steps"`
	ExtractedData ExtractedData `json:"extractedData"`
	Validation    Validation    `json:"validation"`
	Summary       Summary       `json:"summary"`
	Usage         Usage         `json:"usage"`
	Skill         SkillUse      `json:"skill"`
	Errors        []RunError    `json:"errors,omitempty"`
	// Downloads are the files the pages downloaded, stored with the run's evidence.
	Downloads []activities.Download `json:"downloads,omitempty"`
}

// SkillUse says whether the run reused a skill, and what it taught the library.
type SkillUse struct {
	CacheHit   bool    `json:"cacheHit"`
	ID         string  `json:"id,omitempty"`
	Version    int     `json:"version,omitempty"`
	Mode       Mode    `json:"mode,omitempty"`
	Similarity float64 `json:"similarity,omitempty"`
	// MissReason says why no skill was reused, when the library was asked and none was
	// (no skill for this site, a similarity under the threshold, other slots, an old value
	// that would be replayed, a disabled skill): a miss is never left unexplained.
	MissReason string `json:"missReason,omitempty"`
	// ModelCallsSaved is what learning the skill cost less what this run cost.
	ModelCallsSaved int `json:"modelCallsSaved,omitempty"`
	// Saved says what the run taught the library: "learned", "healed" (the next
	// version), "counted" (a reuse), "" (nothing).
	Saved string `json:"saved,omitempty"`
	// SaveWorkflowID runs the save, retried while the library is unavailable.
	SaveWorkflowID string `json:"saveWorkflowId,omitempty"`
}

// Usage is what the run cost in model calls and tokens, in all and per role (plan,
// decide, evaluate, replan, validate, summarize, extract).
type Usage struct {
	activities.Usage
	ByRole map[string]activities.Usage `json:"byRole,omitempty"`
}

// Metadata says which run this was.
type Metadata struct {
	WorkflowID string             `json:"workflowId"`
	RunID      string             `json:"runId"`
	Version    string             `json:"version"`
	Goal       string             `json:"goal"`
	StartURL   string             `json:"startUrl"`
	FinalURL   string             `json:"finalUrl"`
	Planner    activities.Planner `json:"planner"`
	StartedAt  time.Time          `json:"timestamp"`
	FinishedAt time.Time          `json:"finishedAt"`
	DurationMs int64              `json:"duration"`
}

// Status is how a run ended.
type Status string

// Run statuses.
const (
	// StatusSuccess: every step done and a check specific to the goal held (Validation.Verified).
	StatusSuccess Status = "success"
	// StatusUnverified: every step done, but nothing confirmed the goal — no closing check,
	// no model's judgement, or a step that changed nothing visible. Done, not confirmed: it
	// is never counted as a success (skills, exit status, suites, reports).
	StatusUnverified Status = "unverified"
	StatusPartial    Status = "partial"
	StatusFailed     Status = "failed"
)

// Execution counts what happened.
type Execution struct {
	Status            Status `json:"status"`
	StepsPlanned      int    `json:"stepsPlanned"`
	StepsCompleted    int    `json:"stepsCompleted"`
	StepsFailed       int    `json:"stepsFailed"`
	StepsSkipped      int    `json:"stepsSkipped"`
	TotalRetries      int    `json:"totalRetries"`
	Replans           int    `json:"replansTriggered"`
	BrowserRecoveries int    `json:"browserRecoveries"`
	// Continuations counts the times the run continued as new to keep its history short.
	Continuations int `json:"continuations,omitempty"`
}

// StepStatus is where a step is.
type StepStatus string

// Step statuses.
const (
	StepPending   StepStatus = "pending"
	StepRunning   StepStatus = "running"
	StepCompleted StepStatus = "completed"
	StepFailed    StepStatus = "failed"
	StepSkipped   StepStatus = "skipped"
	// StepReplanned: the step failed, and the replanner replaced it and what followed.
	StepReplanned StepStatus = "replanned"
)

// Phase is what a run is doing, as the progress query and the Web UI show it.
type Phase string

// The phases of a run.
const (
	PhasePlanning   Phase = "planning"
	PhaseStarting   Phase = "starting the browser"
	PhaseRunning    Phase = "running"
	PhaseReplanning Phase = "replanning"
	PhaseRestoring  Phase = "restoring the browser"
	PhaseValidating Phase = "validating"
	// PhaseAwaitingApproval waits for a person to approve an action (the approve Update).
	PhaseAwaitingApproval Phase = "awaiting approval"
	// PhasePaused waits for the resume Update; PhaseAwaitingHint, for the hint Update.
	PhasePaused       Phase = "paused"
	PhaseAwaitingHint Phase = "stuck: awaiting a hint"
	PhaseDone         Phase = "done"
)

// StepRecord is one step as it ran.
type StepRecord struct {
	Order       int        `json:"order"`
	Description string     `json:"description"`
	Step        plan.Step  `json:"plan"`
	Status      StepStatus `json:"status"`
	Attempts    int        `json:"attempts"`
	DurationMs  int64      `json:"duration"`
	// Actions say what was done, attempt by attempt.
	Actions  []string        `json:"actions,omitempty"`
	Evidence Evidence        `json:"evidence"`
	Feedback []plan.Feedback `json:"feedback,omitempty"`
	// Mutated: the step sent a state-changing request, so it is never replayed.
	Mutated bool   `json:"mutated,omitempty"`
	URL     string `json:"url,omitempty"`
	// Usage is what the step's model calls cost.
	Usage activities.Usage `json:"usage"`
	// State is the page's state before the step succeeded, kept when it is learned.
	State string `json:"state,omitempty"`
	// Cached marks a step that came from a reused skill.
	Cached bool `json:"cached,omitempty"`
	// Unverified marks a step counted done without evidence that it worked (a click that
	// changed nothing visible, with no model to judge it): the goal's validation decides.
	Unverified bool `json:"unverified,omitempty"`
	// UnverifiedWhy says why the step is unverified, when it is for another reason than
	// a click that changed nothing: a model chose what it did and no evaluation of it
	// could be had, or the evaluator was not sure.
	UnverifiedWhy string `json:"unverifiedWhy,omitempty"`
	// ModelWritten marks a step a model wrote (a replan's): what it does is the model's
	// choice, and is evaluated like one.
	ModelWritten bool `json:"modelWritten,omitempty"`
	// ModelPicked marks a step one of whose attempts acted on the element a model picked.
	ModelPicked bool `json:"modelPicked,omitempty"`
	// Avoided are the elements the step's attempts acted on and the run found wrong (the
	// evaluator vetoed them, or named them the wrong element): no later attempt of the
	// step, nor a replan's repeat of it, acts on them again.
	Avoided []activities.ElementRef `json:"avoided,omitempty"`
	// StorageStateKey names the cookies and local storage saved after the step.
	StorageStateKey string `json:"storageStateKey,omitempty"`
	// ApprovedBy is the person who approved the step, when it waited for one.
	ApprovedBy string `json:"approvedBy,omitempty"`
	// computerUse are the step's computer-use actions and what came of them, for the
	// tool's next decision on the same step.
	computerUse []activities.ComputerUseTurn
	// before is the page as it was before the step's first attempt: what an effect
	// check compares against.
	before activities.Snapshot
	// hidden marks a step that typed into a field that hides what it holds (a password):
	// no page shows what it typed.
	hidden bool
}

// Evidence holds the object-store keys of the screenshots around the step.
type Evidence struct {
	BeforeScreenshot string `json:"beforeScreenshot,omitempty"`
	AfterScreenshot  string `json:"afterScreenshot,omitempty"`
	BeforeElements   string `json:"beforeElements,omitempty"`
	AfterElements    string `json:"afterElements,omitempty"`
}

// ExtractedData is what EXTRACT steps read.
type ExtractedData struct {
	Structured map[string]any `json:"structured"`
}

// Validation is the verdict on the goal.
type Validation struct {
	Success bool `json:"success"`
	// Verified says the verdict rests on evidence that the goal holds on the final page:
	// the plan's closing checks, or the model's judgement. A run whose steps all did what
	// they were asked, with nothing to check the goal against, is not verified, says what
	// was not, and ends StatusUnverified rather than StatusSuccess.
	Verified        bool    `json:"verified"`
	Confidence      float64 `json:"confidence"`
	Reason          string  `json:"reason"`
	FinalScreenshot string  `json:"finalScreenshot,omitempty"`
}

// Summary is for people.
type Summary struct {
	Brief      string   `json:"brief"`
	Detailed   string   `json:"detailed,omitempty"`
	Highlights []string `json:"highlights,omitempty"`
	Warnings   []string `json:"warnings,omitempty"`
}

// RunError is one thing that went wrong.
type RunError struct {
	Step        int       `json:"step"`
	Type        string    `json:"type"`
	Message     string    `json:"message"`
	Recoverable bool      `json:"recoverable"`
	Timestamp   time.Time `json:"timestamp"`
}

// Progress is what ProgressQuery returns while the run goes on.
type Progress struct {
	Phase   Phase          `json:"phase"`
	Current int            `json:"current"`
	Steps   []StepProgress `json:"steps"`
	// Approval is the action waiting for a person's approval, if one is.
	Approval *PendingApproval `json:"approval,omitempty"`
	// Doubt is the step waiting for a person to say whether it happened, if one is.
	Doubt *Doubt `json:"doubt,omitempty"`
	// Paused says who paused the run; Stuck, the step waiting for a hint.
	Paused *Paused `json:"paused,omitempty"`
	Stuck  *Stuck  `json:"stuck,omitempty"`
	// Skill says, once the run is planned, whether it reuses a skill and, if not, why.
	Skill *SkillUse `json:"skill,omitempty"`
	// BrowserAsked is when the run asked for a browser it does not have yet. An open takes
	// a fraction of a second; past that, every worker's browsers are in use and the run
	// waits on the server for the first one free (its place in that line is the server's,
	// which tells no one).
	BrowserAsked *time.Time `json:"browserAsked,omitempty"`
}

// StepProgress is one step's line in Progress.
type StepProgress struct {
	Order        int        `json:"order"`
	Description  string     `json:"description"`
	Status       StepStatus `json:"status"`
	Attempts     int        `json:"attempts"`
	LastFeedback string     `json:"lastFeedback,omitempty"`
}
