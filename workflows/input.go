package workflows

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/secret"
	"github.com/webagent-dev/webagent/internal/sites"
	"github.com/webagent-dev/webagent/plan"
)

// GoalInput is everything a goal run needs; nothing else is read.
type GoalInput struct {
	// Goal is what to do, in natural language.
	Goal string `json:"goal"`
	// StartURL is where the browser starts.
	StartURL string `json:"startUrl"`
	// Params fill the {{name}} placeholders of the plan's targets and values.
	Params map[string]string `json:"params,omitempty"`
	// AllowedDomains are sites the browser may go to besides the start URL's (each with its
	// subdomains); AllowPrivate lets it reach internal addresses (loopback, link-local,
	// private ranges) when the start URL is not one.
	AllowedDomains []string `json:"allowedDomains,omitempty"`
	AllowPrivate   bool     `json:"allowPrivate,omitempty"`
	// Secrets is refused: runs started before the worker's operator granted secrets by
	// name said here where the worker read each {{secret:name}}. It is kept so that such
	// an input still decodes, and is refused with the reason.
	Secrets map[string]string `json:"secrets,omitempty"`
	// Plan, when given, is used as written: no planning.
	Plan []plan.Step `json:"plan,omitempty"`
	// ExtractSchema is the JSON schema of what EXTRACT steps read, for the model.
	ExtractSchema map[string]any `json:"extractSchema,omitempty"`
	// Mode is how a plan reused from a skill runs: "replay" (the default) — DOM-first,
	// no model calls, replanning the rest on the first mismatch — or "guided" — the model
	// decides each step with the skill's plan as hints.
	Mode Mode `json:"mode,omitempty"`
	// SkipSkills plans afresh without looking for a skill (the run is still learned).
	SkipSkills bool   `json:"skipSkills,omitempty"`
	Limits     Limits `json:"limits,omitempty"`
	// Approve says which steps wait for a person's approval besides those the plan marks
	// requires_approval: "state-changing" — every step that may send a request.
	Approve ApprovalPolicy `json:"approve,omitempty"`
	// Unattended says no person waits for this run (a schedule, another agent): a step
	// that would wait for a person's approval, confirmation or answer fails instead,
	// saying what it would have asked, and a stuck step fails without waiting for a hint.
	// A pause a person sends is still honoured.
	Unattended bool `json:"unattended,omitempty"`
	// Files are the files the run's UPLOAD steps may give a page, by name: the caller's
	// own, sent with the run and kept in the run's folder of the store (at most
	// MaxRunFiles, MaxRunFileBytes in all). A step can upload no other file.
	Files []activities.RunFile `json:"files,omitempty"`
	// Notify is a webhook told when the run waits for a person and when it ends: a URL
	// the workers' operator allows (WEBAGENT_NOTIFY_URLS), or the post is refused.
	Notify string `json:"notify,omitempty"`
	// Continued is the state of the run this one continues as new: set by the run itself,
	// never by a caller. A run that was not begun by its workflow's continue-as-new, or
	// that names a browser of another workflow, is refused with it (checkContinued).
	Continued *Carry `json:"continued,omitempty"`

	// unreadable says why the input as sent did not decode (see UnmarshalJSON).
	unreadable error
}

// UnmarshalJSON reads the input. An input that does not decode — a field of the wrong
// type, a duration that is not one — is kept with the reason, which Validate reports: a
// run started by hand (the temporal CLI, the Web UI) with a wrong field ends failed,
// saying which, instead of failing its workflow task over and over.
func (in *GoalInput) UnmarshalJSON(b []byte) error {
	type plain GoalInput
	var p plain
	err := json.Unmarshal(b, &p)
	*in = GoalInput(p)
	if err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			err = fmt.Errorf("the input's field %q is a JSON %s; it must be a %s", te.Field, te.Value, jsonKind(te.Type.Kind()))
		}
		in.unreadable = fmt.Errorf("the input cannot be read: %w", err)
	}
	return nil
}

// jsonKind names a Go kind as a person writing JSON would.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "list"
	case reflect.Map, reflect.Struct:
		return "object"
	case reflect.Float32, reflect.Float64:
		return "number"
	default:
		return "whole number"
	}
}

// Mode is how a skill's plan runs.
type Mode string

// Modes of running a skill's plan.
const (
	ModeReplay Mode = "replay"
	ModeGuided Mode = "guided"
)

// Limits bound a run. Zero values take the defaults.
type Limits struct {
	// AttemptsPerStep is how often a step is tried, with the evaluator's feedback,
	// before the plan is rewritten. Default 3.
	AttemptsPerStep int `json:"attemptsPerStep,omitempty"`
	// Replans is how often the plan may be rewritten. Default 3.
	Replans int `json:"replans,omitempty"`
	// MaxSteps caps the steps run, replanned ones included. Default 50.
	MaxSteps int `json:"maxSteps,omitempty"`
	// Deadline is how long the run may take; past it, the run ends with what it has.
	// Default 30 minutes.
	Deadline time.Duration `json:"deadline,omitempty"`
	// WaitBudget is how long an attempt waits for its target to appear; later attempts
	// wait longer. Default 3 seconds.
	WaitBudget time.Duration `json:"waitBudget,omitempty"`
	// WorkerLossTimeout is how long a browser step may go without news from its worker
	// before the worker is taken for dead and the browser is rebuilt elsewhere. Default 10s.
	WorkerLossTimeout time.Duration `json:"workerLossTimeout,omitempty"`
	// MaxRecoveries caps browser rebuilds after lost workers. Default 5.
	MaxRecoveries int `json:"maxRecoveries,omitempty"`
	// ApprovalTimeout is how long the run waits for a person to approve an action the
	// model asks confirmation for (the approve Update); past it, the run ends partial
	// without acting. Default 10 minutes, and never past the deadline.
	ApprovalTimeout time.Duration `json:"approvalTimeout,omitempty"`
	// ModelTimeout is how long one model call may take before it is given up and tried
	// again. A slow model is a model failure, never a lost worker. Default 3 minutes.
	ModelTimeout time.Duration `json:"modelTimeout,omitempty"`
	// MaxModelCalls and MaxCostUSD are the run's model budget: once spent, no further
	// step starts and the run ends with the reason. Zero is no ceiling.
	MaxModelCalls int     `json:"maxModelCalls,omitempty"`
	MaxCostUSD    float64 `json:"maxCostUsd,omitempty"`
	// MaxTokens caps the tokens the run's model calls use: input, output and thinking.
	MaxTokens int `json:"maxTokens,omitempty"`
	// StepsPerRun makes the run continue as new every so many steps. Zero (the default)
	// continues only when the history nears its bound (HistoryEventsPerRun).
	StepsPerRun int `json:"stepsPerRun,omitempty"`
	// HintTimeout is how long a run whose step failed after its attempts and replans
	// waits for a person's hint (the hint Update) before it ends. Zero: it does not wait.
	HintTimeout time.Duration `json:"hintTimeout,omitempty"`
}

// Caps on a run's input: refused up front, by the starter and the workflow alike.
const (
	MaxGoalBytes    = 20_000
	MaxParams       = 50
	MaxRunFiles     = 20
	MaxRunFileBytes = 1 << 20
)

// limitCaps are the largest limits a run may ask for.
var limitCaps = Limits{
	AttemptsPerStep: 10, Replans: 10, MaxSteps: 500, MaxRecoveries: 20,
	Deadline: 24 * time.Hour, WaitBudget: time.Minute, WorkerLossTimeout: 10 * time.Minute,
	ApprovalTimeout: 7 * 24 * time.Hour, ModelTimeout: 10 * time.Minute,
	MaxModelCalls: 10_000, MaxCostUSD: 1_000, StepsPerRun: 500, MaxTokens: 1_000_000_000, HintTimeout: 7 * 24 * time.Hour,
}

// check says which limits are negative or above their caps.
func (l Limits) check() []error {
	c := limitCaps
	errs := []error{
		capped("attemptsPerStep", l.AttemptsPerStep, c.AttemptsPerStep), capped("replans", l.Replans, c.Replans),
		capped("maxSteps", l.MaxSteps, c.MaxSteps), capped("maxRecoveries", l.MaxRecoveries, c.MaxRecoveries),
		capped("maxModelCalls", l.MaxModelCalls, c.MaxModelCalls), capped("stepsPerRun", l.StepsPerRun, c.StepsPerRun),
		capped("maxTokens", l.MaxTokens, c.MaxTokens),
		capped("deadline", l.Deadline, c.Deadline), capped("waitBudget", l.WaitBudget, c.WaitBudget),
		capped("workerLossTimeout", l.WorkerLossTimeout, c.WorkerLossTimeout), capped("approvalTimeout", l.ApprovalTimeout, c.ApprovalTimeout),
		capped("modelTimeout", l.ModelTimeout, c.ModelTimeout), capped("hintTimeout", l.HintTimeout, c.HintTimeout),
	}
	if l.MaxCostUSD < 0 || l.MaxCostUSD > limitCaps.MaxCostUSD {
		errs = append(errs, fmt.Errorf("limits.maxCostUsd is %g; it must be between 0 (no ceiling) and %g", l.MaxCostUSD, limitCaps.MaxCostUSD))
	}
	return slices.DeleteFunc(errs, func(err error) bool { return err == nil })
}

// capped says what is wrong with a limit that is negative or above its cap.
func capped[T int | time.Duration](name string, v, limit T) error {
	if v < 0 || v > limit {
		return fmt.Errorf("limits.%s is %v; it must be between 0 (the default) and %v", name, v, limit)
	}
	return nil
}

// WithDefaults fills the zero limits.
func (l Limits) WithDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defd := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.AttemptsPerStep, 3)
	def(&l.Replans, 3)
	def(&l.MaxSteps, 50)
	def(&l.MaxRecoveries, 5)
	defd(&l.Deadline, 30*time.Minute)
	defd(&l.WaitBudget, 3*time.Second)
	defd(&l.WorkerLossTimeout, 10*time.Second)
	defd(&l.ApprovalTimeout, 10*time.Minute)
	defd(&l.ModelTimeout, 3*time.Minute)
	return l
}

// Validate says what is wrong with the input, in words that say what to do. A caller's
// input carries no run's state (Continued): only a run's own continue-as-new sets it.
func (in GoalInput) Validate() error {
	return errors.Join(in.validate(false), in.checkContinued(origin{}))
}

// validate is Validate but for the carried state, which the run judges by where it came
// from (checkContinued); legacySecrets accepts the "secrets" of a run started before the
// worker's operator granted secrets (its references are ignored: the worker types only
// what it grants).
func (in GoalInput) validate(legacySecrets bool) error {
	if in.unreadable != nil {
		return in.unreadable
	}
	var errs []error
	if strings.TrimSpace(in.Goal) == "" && len(in.Plan) == 0 {
		errs = append(errs, errors.New("the goal is empty: say what to do, e.g. \"Click 'New project', then ...\""))
	}
	if err := ValidateURL(in.StartURL); err != nil {
		errs = append(errs, err)
	}
	if len(in.Plan) > 0 {
		if err := plan.Validate(in.Plan); err != nil {
			errs = append(errs, fmt.Errorf("the plan is invalid: %w", err))
		}
		if err := plan.CheckParams(in.Plan, in.Params); err != nil {
			errs = append(errs, err)
		}
	}
	if in.Approve != ApproveMarked && in.Approve != ApproveStateChanging {
		errs = append(errs, fmt.Errorf("approve is %q; it must be empty (only the steps the plan marks) or %q", in.Approve, ApproveStateChanging))
	}
	errs = append(errs, checkFiles(in.Files)...)
	if len(in.Plan) > 0 {
		if err := uploadsGiven(in.Plan, in.Files); err != nil {
			errs = append(errs, err)
		}
	}
	for _, d := range in.AllowedDomains {
		if err := sites.CheckDomain(d); err != nil {
			errs = append(errs, err)
		}
	}
	if len(in.Plan) > 0 {
		p := in.Sites()
		for _, st := range in.Plan {
			// An address with a scheme is checked here; one without is made absolute
			// against the page, and checked by the browser.
			if st.Action == plan.Navigate && reScheme.MatchString(st.URL) && !strings.Contains(st.URL, "{{") {
				if err := p.Check(st.URL); err != nil {
					errs = append(errs, fmt.Errorf("step %d: %w", st.Step, err))
				}
			}
		}
	}
	if len(in.Secrets) > 0 && !legacySecrets {
		errs = append(errs, fmt.Errorf(`"secrets" (%s): a run no longer says where the worker reads a secret; the worker's operator grants secrets by name (%s), and a run only writes {{secret:name}} or {{totp:name}} with a name the worker grants (`+"`starter secrets`"+` lists them): remove "secrets" from the input`,
			strings.Join(sortedKeys(in.Secrets), ", "), secret.Env))
	}
	for _, n := range sortedKeys(in.Params) {
		if v := in.Params[n]; strings.Contains(v, "{{") {
			errs = append(errs, fmt.Errorf("parameter %q holds a placeholder; a secret is written {{secret:name}} in the goal or plan, with a name the worker grants, never passed as a parameter", n))
		}
	}
	if in.Mode != "" && in.Mode != ModeReplay && in.Mode != ModeGuided {
		errs = append(errs, fmt.Errorf("mode %q is neither %q nor %q", in.Mode, ModeReplay, ModeGuided))
	}
	if n := len(in.Goal); n > MaxGoalBytes {
		errs = append(errs, fmt.Errorf("the goal is %d bytes; at most %d are allowed: split it into several runs, or pass a plan", n, MaxGoalBytes))
	}
	if len(in.Params) > MaxParams {
		errs = append(errs, fmt.Errorf("%d parameters; at most %d are allowed", len(in.Params), MaxParams))
	}
	for _, n := range sortedKeys(in.Params) {
		if len(in.Params[n]) > plan.MaxFieldLen {
			errs = append(errs, fmt.Errorf("parameter %q is %d bytes; at most %d are allowed", n, len(in.Params[n]), plan.MaxFieldLen))
		}
	}
	errs = append(errs, in.Limits.check()...)
	if err := checkNotify(in.Notify); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// ValidateURL accepts an absolute http or https URL.
func ValidateURL(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("the start URL is empty: pass one, e.g. --url http://127.0.0.1:8090/projects")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("the start URL %q is not an absolute http(s) URL, e.g. http://127.0.0.1:8090/projects", s)
	}
	return nil
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	//workflowcheck:ignore the keys are sorted before use
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

var reScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:(//|[^0-9])`)

// Sites is where the run's browser may go.
func (in GoalInput) Sites() sites.Policy {
	return sites.For(in.StartURL, in.AllowedDomains, in.AllowPrivate)
}
