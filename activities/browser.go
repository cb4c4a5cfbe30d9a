package activities

import (
	"fmt"
	"github.com/webagent-dev/webagent/activities/timing"
	"slices"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/internal/secret"
	"github.com/webagent-dev/webagent/internal/sites"
	"github.com/webagent-dev/webagent/plan"
)

// Phase is how far an attempt has got, as it reports in its heartbeat. A lost attempt
// whose last phase was PhaseActing or later may have changed the page.
type Phase string

// The phases of an attempt, in order.
const (
	PhaseStarting  Phase = "starting"
	PhaseObserving Phase = "observing"
	PhaseWaiting   Phase = "waiting"
	PhaseActing    Phase = "acting"
	PhaseChecking  Phase = "checking"
	PhaseStoring   Phase = "storing"
)

// MayHaveActed reports whether an attempt last seen in this phase may have acted.
func (p Phase) MayHaveActed() bool {
	return p == PhaseActing || p == PhaseChecking || p == PhaseStoring
}

// Purpose says why a RunStep runs.
type Purpose string

// The purposes of a RunStep call.
const (
	// PurposeAttempt is an attempt at the step.
	PurposeAttempt Purpose = "attempt"
	// PurposeRestore replays a completed, side-effect-free step to rebuild UI state (a
	// dialog, a half-filled form) that a lost browser took with it.
	PurposeRestore Purpose = "restore"
)

// OpenBrowserInput asks a worker for a browser session.
type OpenBrowserInput struct {
	SessionID string `json:"sessionId"`
	URL       string `json:"url"`
	// StorageStateKey, when set, names the saved cookies and local storage to restore.
	StorageStateKey string `json:"storageStateKey,omitempty"`
	// Sites is where the browser may go; nil allows any http(s) address (internal ones
	// only as far as the worker grants them).
	Sites *sites.Policy `json:"sites,omitempty"`
	// Secrets are the secrets the goal and its given plan name: the worker refuses to
	// open a browser for a run that names one it does not grant.
	Secrets []secret.Use `json:"secrets,omitempty"`
}

// OpenBrowserResult says which worker holds the session: every later browser activity
// of the run goes to TaskQueue.
type OpenBrowserResult struct {
	SessionID string `json:"sessionId"`
	TaskQueue string `json:"taskQueue"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	// Status is the HTTP status the page answered with when the browser opened there.
	Status int `json:"status,omitempty"`
	// Times is where opening it went (zero when the session was open already).
	Times timing.Open `json:"times,omitzero"`
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

// RunStepInput is one attempt at one step.
type RunStepInput struct {
	SessionID string `json:"sessionId"`
	// KeyPrefix is where this run's objects go in the store.
	KeyPrefix string `json:"keyPrefix"`
	// Seq is the step's position in the run (1-based), for object keys.
	Seq     int               `json:"seq"`
	Attempt int               `json:"attempt"`
	Purpose Purpose           `json:"purpose"`
	Step    plan.Step         `json:"step"`
	Params  map[string]string `json:"params,omitempty"`
	// WaitBudget is how long to wait for the target or an asserted text to appear.
	WaitBudget time.Duration `json:"waitBudget"`
	// ChangeWithin, when set, bounds how long a click that changed nothing waits for a
	// late change: the step before a timed WAIT must not eat into the wait.
	ChangeWithin time.Duration `json:"changeWithin,omitempty"`
	// PaceNext, on a WAIT, says the step after it acts: the wait may leave the last part
	// of its time to that step, so that the action comes exactly on time.
	PaceNext bool `json:"paceNext,omitempty"`
	// Feedback is the evaluator's feedback on the step's earlier attempts.
	Feedback []plan.Feedback `json:"feedback,omitempty"`
	// Decision, when set, is the model's choice of element or point, which replaces
	// DOM-first resolution.
	Decision *Decision `json:"decision,omitempty"`
	// Avoid are the elements the step's earlier attempts acted on and found wrong (the
	// evaluator vetoed, the checks failed): DOM-first resolution passes over them, and a
	// decision for one of them is refused, not acted on.
	Avoid []ElementRef `json:"avoid,omitempty"`
	// CheckState: the page must be in the step's learned State before acting.
	CheckState bool `json:"checkState,omitempty"`
	// Numbered asks for the numbered copy of the "before" screenshot as evidence (runs
	// with a model; the model's own activities draw the copy they send).
	Numbered bool `json:"numbered,omitempty"`
	// Intent: right before it acts, the attempt stores its intent object (IntentKey), the
	// record that it may have acted. Without, it signals the run instead (ActingSignal),
	// as runs begun before the object did.
	Intent bool `json:"intent,omitempty"`
	// BeforeText asks for the page's text before the action too (Before.TextKey), where
	// the run has no page's text from before the step (its first step): what the page
	// says after the step is judged against it.
	BeforeText bool `json:"beforeText,omitempty"`
}

// Decision is what the model chose to act on: an element of the observation it saw
// (and the element as it saw it, to find it again if the page moved), or a point.
type Decision struct {
	Element    *int        `json:"element,omitempty"`
	ElementWas *ElementRef `json:"elementWas,omitempty"`
	Point      *[2]float64 `json:"point,omitempty"`
	// Call is the computer-use tool's action, when the tool chose the point.
	Call *ComputerUseCall `json:"call,omitempty"`
	// Confirm, when not empty, is the tool's reason why a person must confirm the action
	// before it is done (its require_confirmation safety decision).
	Confirm string `json:"confirm,omitempty"`
}

// ComputerUseCall is a function call of Gemini's computer-use tool, kept to be sent back
// with what came of it when the step is tried again.
type ComputerUseCall struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
	// Signature is the thought signature the call came with; the API wants it back.
	Signature []byte `json:"signature,omitempty"`
}

// String is the call as people read it: click_at(x=500, y=300).
func (c ComputerUseCall) String() string {
	keys := make([]string, 0, len(c.Args))
	//workflowcheck:ignore the keys are sorted before use
	for k := range c.Args {
		if k != "safety_decision" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	args := make([]string, len(keys))
	for i, k := range keys {
		args[i] = fmt.Sprintf("%s=%v", k, c.Args[k])
	}
	return c.Name + "(" + strings.Join(args, ", ") + ")"
}

// ComputerUseTurn is an earlier computer-use action of the same step and what came of
// it, which the next decision sends back to the tool as the call's function response.
type ComputerUseTurn struct {
	Call ComputerUseCall `json:"call"`
	// Acknowledged says a person confirmed the action the tool asked confirmation for.
	Acknowledged bool `json:"acknowledged,omitempty"`
	// After is the page the action left.
	After Snapshot `json:"after"`
	// Result is what the step's checks said of it.
	Result string `json:"result"`
}

// RunStepResult is what one attempt did and whether it worked.
type RunStepResult struct {
	OK       bool           `json:"ok"`
	Feedback *plan.Feedback `json:"feedback,omitempty"`
	Acted    bool           `json:"acted"`
	// Mutated reports that the page sent a state-changing request: the step has side
	// effects and is never replayed.
	Mutated bool `json:"mutated"`
	// ActedInPart reports that a step on every element so named acted on some of them
	// and then failed: it is never tried again as if nothing happened.
	ActedInPart bool     `json:"actedInPart,omitempty"`
	Before      Snapshot `json:"before"`
	After       Snapshot `json:"after"`
	Target      string   `json:"target,omitempty"`
	// Element is the element the attempt acted on (Target, as the page had it), when it
	// acted on one: what the run keeps from later attempts if it was the wrong one.
	Element    *ElementRef    `json:"element,omitempty"`
	Candidates []string       `json:"candidates,omitempty"`
	Actions    []string       `json:"actions"`
	Extracted  map[string]any `json:"extracted,omitempty"`
	// StorageStateKey names the cookies and local storage saved after the step.
	StorageStateKey string        `json:"storageStateKey,omitempty"`
	Duration        time.Duration `json:"duration"`
	Warnings        []string      `json:"warnings,omitempty"`
	// States are the files of the new UI states the attempt reached, in the run's dataset.
	States []string `json:"states,omitempty"`
	// BeforeState is the page's state before acting, kept with the step when it is
	// learned as part of a skill.
	BeforeState string `json:"beforeState,omitempty"`
	// Unchanged says the action's only check, that the page changed, found nothing
	// changed: the action may still have worked (a form that clears, an effect elsewhere),
	// so it is not simply done again.
	Unchanged bool `json:"unchanged,omitempty"`
	// Downloads are the files the page downloaded while the step acted.
	Downloads []Download `json:"downloads,omitempty"`
	// Times is where the attempt's time went, as the worker measured it.
	Times timing.Step `json:"times,omitzero"`
}

// Download is a file the page downloaded during a step, stored with the run's evidence.
type Download struct {
	Step int    `json:"step"`
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
	// Key is the object-store key of the file; empty when it could not be kept (Error).
	Key   string `json:"key,omitempty"`
	Bytes int    `json:"bytes"`
	Error string `json:"error,omitempty"`
}

// ObserveInput asks for a look at the page without acting.
type ObserveInput struct {
	SessionID string `json:"sessionId"`
	// Name is the object key's name under the run's prefix.
	Name      string `json:"name"`
	KeyPrefix string `json:"keyPrefix"`
}

// CloseBrowserInput ends a session.
type CloseBrowserInput struct {
	SessionID string `json:"sessionId"`
	// KeyPrefix is the run's; its dataset state is forgotten.
	KeyPrefix string `json:"keyPrefix,omitempty"`
	// Final says the run is over: its saved cookies and storage are deleted.
	Final bool `json:"final,omitempty"`
}

// CloseBrowserResult says whether there was a session to close.
type CloseBrowserResult struct {
	Closed bool `json:"closed"`
}

// ShareRunInput asks for links to the objects one finished run stored: a run, never an
// arbitrary key prefix, so that no answer spans runs.
type ShareRunInput struct {
	// WorkflowID and RunID name the run as its keys do (runs/<workflowId>/<runId>/): a
	// run continued as new keeps its first run's ID (GoalResult's Metadata.RunID).
	WorkflowID string `json:"workflowId"`
	RunID      string `json:"runId"`
	// Folder, when set, narrows the answer to one folder of the run, e.g. "dataset".
	Folder string `json:"folder,omitempty"`
	// TTL is how long the links work.
	TTL time.Duration `json:"ttl"`
	// Prefix is what starters sent before sharing was per run; it is kept only to be
	// refused with a message that says what to send instead.
	Prefix string `json:"prefix,omitempty"`
}

// ShareRunResult lists the run's objects in key order, each with a time-limited link
// that needs no credentials.
type ShareRunResult struct {
	Objects []SharedObject `json:"objects"`
	// Truncated says the run holds more objects than one answer carries: the ones
	// listed are the first.
	Truncated bool `json:"truncated,omitempty"`
}

// SharedObject is one stored object and a link to read it.
type SharedObject struct {
	Key string `json:"key"`
	URL string `json:"url"`
}

// WorkerGrantsInput asks a worker what its operator grants runs.
type WorkerGrantsInput struct{}

// WorkerGrantsResult is what a worker grants: secret names with their sites, never a
// value or where it is read, and the internal addresses its browsers may reach.
type WorkerGrantsResult struct {
	Secrets []GrantedSecret `json:"secrets"`
	// Internal is the grant of internal addresses as the operator wrote it, or "none".
	Internal string `json:"internal"`
}

// GrantedSecret is one secret a worker grants: written {{secret:Name}} in a goal, or
// {{totp:Name}} for the current code of a TOTP seed.
type GrantedSecret struct {
	Name  string   `json:"name"`
	Sites []string `json:"sites"`
	TOTP  bool     `json:"totp,omitempty"`
}

// RunFile is a file given to a run, for its UPLOAD steps: the run's caller gives it, and a
// step can upload only a file the run was given, by its name — never a path on a worker.
type RunFile struct {
	// Name is the file's name as the goal writes it ("report.pdf"): a base name.
	Name string `json:"name"`
	// Data is the file's content.
	Data []byte `json:"data"`
}

// PutRunFilesInput stores a run's files beside its other objects.
type PutRunFilesInput struct {
	KeyPrefix string    `json:"keyPrefix"`
	Files     []RunFile `json:"files"`
}

// PutRunFilesResult says where each file went.
type PutRunFilesResult struct {
	Keys map[string]string `json:"keys"`
}

// RunFileKey is where a run's file named name is kept.
func RunFileKey(prefix, name string) string { return prefix + "/files/" + keySegment(name) }

// SessionName is the ID of the browser session a run of a workflow opens, the gen-th of
// its run: "<workflowID>/<runID>/<gen>".
func SessionName(workflowID, runID string, gen int) string {
	return fmt.Sprintf("%s/%s/%d", workflowID, runID, gen)
}

// SessionOf says whether session ID id is one a run of workflow workflowID named
// (SessionName). A run ID holds no slash, so a workflow whose ID begins another's cannot
// pass for it.
func SessionOf(id, workflowID string) bool {
	rest, ok := strings.CutPrefix(id, workflowID+"/")
	if !ok {
		return false
	}
	runID, gen, ok := strings.Cut(rest, "/")
	if !ok || runID == "" || gen == "" {
		return false
	}
	for _, c := range gen {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
