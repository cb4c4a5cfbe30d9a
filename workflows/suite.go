package workflows

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/plan"
)

// SuiteWorkflowName is the Suite workflow's registered type name.
const SuiteWorkflowName = "Suite"

// A suite runs several goals as one parent workflow with a child Goal run per entry, N at
// a time, in the order their dependencies allow: an entry runs once every entry it
// dependsOn has passed, so independent entries run in parallel, each with its own
// browser (on whichever worker takes it). The parent decides what a failed entry means
// (onFailure): try it again (retry, or wait a cooldown first, or replan — plan afresh,
// without skills), skip it (what depends on it runs anyway), fail it (the default: what
// depends on it does not run) or abort (nothing more starts). It is how a team runs its
// test instructions, and how a plan whose parts are independent runs them side by side.

// SuiteInput is a suite of goals.
type SuiteInput struct {
	Name    string       `json:"name,omitempty"`
	Entries []SuiteEntry `json:"entries"`
	// Parallel is how many entries run at once. Default 3.
	Parallel int `json:"parallel,omitempty"`
}

// OnFailure is what the suite does with an entry that did not end as expected.
type OnFailure string

// What a suite does with a failed entry.
const (
	OnFailureFail   OnFailure = "fail"
	OnFailureRetry  OnFailure = "retry"
	OnFailureWait   OnFailure = "wait"
	OnFailureReplan OnFailure = "replan"
	OnFailureSkip   OnFailure = "skip"
	OnFailureAbort  OnFailure = "abort"
)

// SuiteEntry is one goal of a suite, a node of its graph.
type SuiteEntry struct {
	// ID names the entry for dependsOn; default "g1", "g2"... in order.
	ID       string            `json:"id,omitempty"`
	Goal     string            `json:"goal"`
	StartURL string            `json:"startUrl,omitempty"`
	Params   map[string]string `json:"params,omitempty"`
	Secrets  map[string]string `json:"secrets,omitempty"`
	Plan     []plan.Step       `json:"plan,omitempty"`
	Limits   Limits            `json:"limits,omitempty"`
	// Expect is the status the entry should end with: success (the default: done and
	// verified), unverified (done, with nothing to confirm it), partial or failed (a test
	// that a goal is refused, say). An unverified run never passes as a success, and is
	// not tried again: its steps are done.
	Expect    Status    `json:"expect,omitempty"`
	DependsOn []string  `json:"dependsOn,omitempty"`
	OnFailure OnFailure `json:"onFailure,omitempty"`
	// Retries is how often retry, wait and replan try again (default 1); Cooldown, how
	// long wait waits first (default 30s).
	Retries  int      `json:"retries,omitempty"`
	Cooldown Duration `json:"cooldown,omitempty"`
}

// OldEntryNames are the names suite entries had before they took the camelCase of the
// rest of the entry; they are still read, from files and from suites begun before.
var OldEntryNames = map[string]string{"depends_on": "dependsOn", "on_failure": "onFailure"}

// UnmarshalJSON reads an entry, with dependsOn and onFailure also under their old names.
func (e *SuiteEntry) UnmarshalJSON(b []byte) error {
	type entry SuiteEntry
	var v struct {
		entry
		OldDependsOn []string  `json:"depends_on"`
		OldOnFailure OnFailure `json:"on_failure"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*e = SuiteEntry(v.entry)
	if len(e.DependsOn) == 0 {
		e.DependsOn = v.OldDependsOn
	}
	if e.OnFailure == "" {
		e.OnFailure = v.OldOnFailure
	}
	return nil
}

// Input is the entry's Goal input, started at startURL when it names none.
func (e SuiteEntry) Input() GoalInput {
	return GoalInput{Goal: e.Goal, StartURL: e.StartURL, Params: e.Params, Secrets: e.Secrets, Plan: e.Plan, Limits: e.Limits}
}

// MaxSuiteEntries caps a suite.
const MaxSuiteEntries = 200

// Normalize fills the defaults (IDs, expected status, policy) in place.
func (in *SuiteInput) Normalize() {
	if in.Parallel == 0 {
		in.Parallel = 3
	}
	for i := range in.Entries {
		e := &in.Entries[i]
		if e.ID == "" {
			e.ID = fmt.Sprintf("g%d", i+1)
		}
		if e.Expect == "" {
			e.Expect = StatusSuccess
		}
		if e.OnFailure == "" {
			e.OnFailure = OnFailureFail
		}
		if e.Retries == 0 && (e.OnFailure == OnFailureRetry || e.OnFailure == OnFailureWait || e.OnFailure == OnFailureReplan) {
			e.Retries = 1
		}
		if e.Cooldown == 0 && e.OnFailure == OnFailureWait {
			e.Cooldown = Duration(30 * time.Second)
		}
	}
}

// Validate says what is wrong with a suite, entry by entry: an input a Goal run would
// refuse, an unknown or cyclic dependency, a policy that is none. A suite that cannot run
// fails before anything starts.
func (in SuiteInput) Validate() error { return in.validate(false) }

// validate is Validate; legacySecrets accepts the "secrets" of entries of a suite started
// before the worker's operator granted secrets (see GoalInput.validate).
func (in SuiteInput) validate(legacySecrets bool) error {
	var errs []error
	switch {
	case len(in.Entries) == 0:
		errs = append(errs, errors.New("the suite has no goals"))
	case len(in.Entries) > MaxSuiteEntries:
		errs = append(errs, fmt.Errorf("the suite has %d goals; at most %d", len(in.Entries), MaxSuiteEntries))
	}
	if in.Parallel < 1 || in.Parallel > 20 {
		errs = append(errs, fmt.Errorf("parallel is %d; it must be between 1 and 20", in.Parallel))
	}
	ids := map[string]int{}
	for i, e := range in.Entries {
		if _, dup := ids[e.ID]; dup {
			errs = append(errs, fmt.Errorf("entry %d: the id %q is used twice", i+1, e.ID))
		}
		ids[e.ID] = i
		if err := e.Input().validate(legacySecrets); err != nil {
			errs = append(errs, fmt.Errorf("entry %s: %w", e.ID, err))
		}
		switch e.OnFailure {
		case OnFailureFail, OnFailureRetry, OnFailureWait, OnFailureReplan, OnFailureSkip, OnFailureAbort:
		default:
			errs = append(errs, fmt.Errorf("entry %s: onFailure %q: one of fail, retry, wait, replan, skip, abort", e.ID, e.OnFailure))
		}
		switch e.Expect {
		case StatusSuccess, StatusUnverified, StatusPartial, StatusFailed:
		default:
			errs = append(errs, fmt.Errorf("entry %s: expect %q: one of success, unverified, partial, failed", e.ID, e.Expect))
		}
		if e.Retries < 0 || e.Retries > 5 {
			errs = append(errs, fmt.Errorf("entry %s: retries is %d; at most 5", e.ID, e.Retries))
		}
	}
	for _, e := range in.Entries {
		for _, d := range e.DependsOn {
			if _, ok := ids[d]; !ok {
				errs = append(errs, fmt.Errorf("entry %s depends on %q, which is not in the suite", e.ID, d))
			}
		}
	}
	if len(errs) == 0 {
		if cycle := findCycle(in.Entries); cycle != nil {
			errs = append(errs, fmt.Errorf("the dependencies go round in a circle: %s", strings.Join(cycle, " → ")))
		}
	}
	return errors.Join(errs...)
}

// findCycle returns a dependency cycle, or nil.
func findCycle(entries []SuiteEntry) []string {
	deps := map[string][]string{}
	for _, e := range entries {
		deps[e.ID] = e.DependsOn
	}
	state := map[string]int{} // 1 visiting, 2 done
	var path []string
	var visit func(id string) []string
	visit = func(id string) []string {
		switch state[id] {
		case 1:
			i := slices.Index(path, id)
			return append(slices.Clone(path[i:]), id)
		case 2:
			return nil
		}
		state[id] = 1
		path = append(path, id)
		for _, d := range deps[id] {
			if c := visit(d); c != nil {
				return c
			}
		}
		path = path[:len(path)-1]
		state[id] = 2
		return nil
	}
	for _, e := range entries {
		if c := visit(e.ID); c != nil {
			return c
		}
	}
	return nil
}

// SuiteResult is the suite's outcome, entry by entry.
type SuiteResult struct {
	Name    string        `json:"name,omitempty"`
	Passed  int           `json:"passed"`
	Failed  int           `json:"failed"`
	NotRun  int           `json:"notRun"`
	Entries []EntryResult `json:"entries"`
}

// EntryResult is one entry's outcome: a node of the graph.
type EntryResult struct {
	ID        string   `json:"id"`
	Goal      string   `json:"goal"`
	DependsOn []string `json:"dependsOn,omitempty"`
	// Status is the run's status, or "not run" (with Reason).
	Status     Status    `json:"status"`
	Expect     Status    `json:"expect"`
	Passed     bool      `json:"passed"`
	Verified   bool      `json:"verified,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	Attempts   int       `json:"attempts"`
	Steps      int       `json:"steps"`
	Retries    int       `json:"retries"`
	DurationMs int64     `json:"duration"`
	WorkflowID string    `json:"workflowId,omitempty"`
	RunID      string    `json:"runId,omitempty"`
	Started    time.Time `json:"started,omitempty"`
	Ended      time.Time `json:"ended,omitempty"`
}

// StatusNotRun marks an entry the suite never started.
const StatusNotRun Status = "not run"

// Suite runs a suite of goals; see SuiteInput.
func Suite(ctx workflow.Context, in SuiteInput) (*SuiteResult, error) {
	in.Normalize()
	hasSecrets := slices.ContainsFunc(in.Entries, func(e SuiteEntry) bool { return len(e.Secrets) > 0 })
	if err := in.validate(legacySecrets(ctx, hasSecrets)); err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrBadInput, nil)
	}
	s := &suiteRun{in: in, res: SuiteResult{Name: in.Name}, done: map[string]bool{}, index: map[string]int{}}
	for i, e := range in.Entries {
		s.index[e.ID] = i
		s.res.Entries = append(s.res.Entries, EntryResult{ID: e.ID, Goal: e.Goal, DependsOn: e.DependsOn, Expect: e.Expect, Status: StatusNotRun})
	}
	if err := workflow.SetQueryHandler(ctx, SuiteQuery, func() (SuiteResult, error) { return s.res, nil }); err != nil {
		return nil, err
	}
	s.run(ctx)
	for _, e := range s.res.Entries {
		switch {
		case e.Passed:
			s.res.Passed++
		case e.Status == StatusNotRun:
			s.res.NotRun++
		default:
			s.res.Failed++
		}
	}
	return &s.res, nil
}

// SuiteQuery returns the suite's SuiteResult so far.
const SuiteQuery = "suite"

type suiteRun struct {
	in      SuiteInput
	res     SuiteResult
	index   map[string]int
	done    map[string]bool // finished, passed or not
	aborted string
	running int
}

// ready says whether entry i may start now, and when it never may, why not.
func (s *suiteRun) ready(i int) (ok bool, never string) {
	for _, d := range s.in.Entries[i].DependsOn {
		if !s.done[d] {
			return false, ""
		}
		r := s.res.Entries[s.index[d]]
		if !r.Passed && s.in.Entries[s.index[d]].OnFailure != OnFailureSkip {
			return false, fmt.Sprintf("it depends on %s, which did not pass", d)
		}
	}
	return true, ""
}

func (s *suiteRun) run(ctx workflow.Context) {
	started := map[string]bool{}
	sel := workflow.NewSelector(ctx)
	for {
		// Start what may start, in the suite's order, up to Parallel at once.
		for i, e := range s.in.Entries {
			if started[e.ID] || s.running >= s.in.Parallel || s.aborted != "" {
				continue
			}
			ok, never := s.ready(i)
			if never != "" {
				started[e.ID], s.done[e.ID] = true, true
				s.res.Entries[i].Reason = never
				continue
			}
			if !ok {
				continue
			}
			started[e.ID] = true
			s.running++
			i := i
			f := s.start(ctx, i)
			sel.AddFuture(f, func(f workflow.Future) {
				s.running--
				s.done[s.in.Entries[i].ID] = true
			})
		}
		if s.running == 0 {
			break
		}
		sel.Select(ctx)
	}
	for i, e := range s.in.Entries {
		if !started[e.ID] && s.res.Entries[i].Reason == "" {
			s.res.Entries[i].Reason = "the suite was aborted: " + s.aborted
		}
	}
}

// start runs entry i, with the tries its policy allows, in a goroutine of the workflow; the
// future is ready when the entry is settled.
func (s *suiteRun) start(ctx workflow.Context, i int) workflow.Future {
	f, set := workflow.NewFuture(ctx)
	workflow.Go(ctx, func(ctx workflow.Context) {
		e := s.in.Entries[i]
		r := &s.res.Entries[i]
		in := e.Input()
	tries:
		for try := 0; ; try++ {
			r.Attempts++
			s.runEntry(ctx, i, in, try)
			if r.Passed || try >= e.Retries || ctx.Err() != nil || r.Status == StatusUnverified {
				// An unverified run did every step: another try would do them again,
				// and a side effect is never done twice.
				break
			}
			switch e.OnFailure {
			case OnFailureWait:
				_ = workflow.Sleep(ctx, time.Duration(e.Cooldown))
			case OnFailureReplan:
				in.SkipSkills = true
			case OnFailureRetry:
			default:
				break tries
			}
		}
		if !r.Passed && e.OnFailure == OnFailureAbort && s.aborted == "" {
			s.aborted = fmt.Sprintf("entry %s did not pass (%s)", e.ID, r.Status)
		}
		set.Set(nil, nil)
	})
	return f
}

// runEntry runs one try of entry i as a child Goal run.
func (s *suiteRun) runEntry(ctx workflow.Context, i int, in GoalInput, try int) {
	e := s.in.Entries[i]
	r := &s.res.Entries[i]
	info := workflow.GetInfo(ctx)
	id := fmt.Sprintf("%s-%s", info.WorkflowExecution.ID, e.ID)
	if try > 0 {
		id += fmt.Sprintf("-try%d", try+1)
	}
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:        id,
		TaskQueue:         TaskQueue,
		ParentClosePolicy: enumspb.PARENT_CLOSE_POLICY_TERMINATE,
		StaticSummary:     oneLine(e.Goal),
		StaticDetails:     fmt.Sprintf("**Suite:** %s, entry %s\n\n**Start URL:** %s", info.WorkflowExecution.ID, e.ID, in.StartURL),
	})
	r.Started = workflow.Now(ctx)
	child := workflow.ExecuteChildWorkflow(cctx, GoalWorkflowName, in)
	var exec workflow.Execution
	if err := child.GetChildWorkflowExecution().Get(ctx, &exec); err == nil {
		r.WorkflowID, r.RunID = exec.ID, exec.RunID
	}
	var res GoalResult
	err := child.Get(ctx, &res)
	r.Ended = workflow.Now(ctx)
	r.DurationMs = r.Ended.Sub(r.Started).Milliseconds()
	if err != nil {
		r.Status, r.Reason = StatusFailed, rootMessage(err)
	} else {
		r.Status, r.Steps, r.Retries = res.Execution.Status, res.Execution.StepsCompleted, res.Execution.TotalRetries
		r.Verified = res.Validation.Verified
		r.Reason = res.Summary.Brief
		if n := len(res.Errors); n > 0 && r.Status != StatusSuccess {
			r.Reason = res.Errors[n-1].Message
		}
	}
	r.Passed = r.Status == e.Expect
}
