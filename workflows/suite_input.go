package workflows

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/plan"
)

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
