package workflows

import (
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
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
		ParentClosePolicy: childClosePolicy(ctx),
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
	err := ResultOf(&res, child.Get(ctx, &res))
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
