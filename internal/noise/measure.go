package noise

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/workflows"
)

// Run is what one run of a scenario at a noise level came to, measured against the app.
type Run struct {
	Level    float64
	Scenario string
	Seed     int64
	Status   workflows.Status
	Planner  string
	// Miss is what the app's state says is wrong ("" when the goal was reached and
	// nothing else changed); Unwanted, what changed that the goal did not ask for.
	Miss     string
	Unwanted string
	// Twice counts the state-changing requests the app accepted more than once (the same
	// endpoint and body), over the first.
	Twice int
	// VetoRetries counts the attempts that acted on an element an earlier attempt of the
	// same step acted on and that failed or was vetoed.
	VetoRetries int
	// Calls and Tokens are what the stand-in served; Counted*, what the run's result says.
	Calls, Tokens               int
	CountedCalls, CountedTokens int
	Noise                       []Perturbation
	Errors                      []string
	// Verdict is what the run's validation said of the goal.
	Verdict string
	// Err is an error that kept the run from ending with a result.
	Err string
}

// Success says the run ended a success.
func (r Run) Success() bool { return r.Status == workflows.StatusSuccess }

// FalseSuccess says the run ended a success that the app's state says is not one.
func (r Run) FalseSuccess() bool { return r.Success() && r.Miss != "" }

// UsageEqual says the run counted the calls and tokens the stand-in served.
func (r Run) UsageEqual() bool { return r.Calls == r.CountedCalls && r.Tokens == r.CountedTokens }

// Measure fills a run's numbers from its result, the app's state and effects, the
// stand-in's record and the run's attempts.
func Measure(sc Scenario, level float64, seed int64, res workflows.GoalResult, st demoapp.State, effects map[string]int, rec *Record, trail []Event) Run {
	r := Run{Level: level, Scenario: sc.Name, Seed: seed, Status: res.Execution.Status, Planner: string(res.Metadata.Planner)}
	r.Miss = sc.Check(st, res.ExtractedData.Structured)
	r.Unwanted = sc.Unwanted(st)
	for _, n := range effects {
		if n > 1 {
			r.Twice += n - 1
		}
	}
	r.VetoRetries = VetoRetries(trail)
	r.Calls, r.Tokens = rec.Usage()
	u := res.Usage
	r.CountedCalls, r.CountedTokens = u.Calls, u.InputTokens+u.OutputTokens+u.ThinkingTokens
	r.Noise = rec.Perturbed()
	r.Verdict = res.Validation.Reason
	for _, e := range res.Errors {
		r.Errors = append(r.Errors, e.Type+": "+e.Message)
	}
	return r
}

// Ref is an element as an attempt acted on it: what makes two elements the same one.
type Ref struct {
	Role, Name, Row, Container string
}

func (r Ref) String() string {
	s := fmt.Sprintf("%s %q", r.Role, r.Name)
	if r.Row != "" {
		s += fmt.Sprintf(" row=%q", r.Row)
	}
	if r.Container != "" {
		s += " in " + r.Container
	}
	return s
}

// Event is one attempt at a step, or the evaluator's verdict on the attempt before it.
type Event struct {
	Seq, Attempt int
	// Acted is the element the attempt acted on (nil: none); OK, its checks' verdict.
	Acted *Ref
	OK    bool
	// Evaluated: the evaluator judged the attempt; Vetoed: it said no, confidently
	// enough (0.7) for the run to take its word.
	Evaluated, Vetoed bool
}

// VetoRetries counts, within each step, the attempts that acted on an element an earlier
// attempt of the step acted on and that failed (its checks) or was vetoed (the
// evaluator).
func VetoRetries(trail []Event) int {
	type att struct {
		acted *Ref
		bad   bool
	}
	bySeq := map[int][]*att{}
	var last *att
	n := 0
	for _, e := range trail {
		if e.Evaluated {
			if last != nil && e.Vetoed {
				last.bad = true
			}
			continue
		}
		a := &att{acted: e.Acted, bad: !e.OK}
		if a.acted != nil {
			for _, prev := range bySeq[e.Seq] {
				if prev.bad && prev.acted != nil && *prev.acted == *a.acted {
					n++
					break
				}
			}
		}
		bySeq[e.Seq] = append(bySeq[e.Seq], a)
		last = a
	}
	return n
}

func percentile(xs []int, p float64) int {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	i := int(p*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

// Table writes the runs' numbers per noise level.
func Table(title string, runs []Run) string {
	var levels []float64
	by := map[float64][]Run{}
	for _, r := range runs {
		if _, ok := by[r.Level]; !ok {
			levels = append(levels, r.Level)
		}
		by[r.Level] = append(by[r.Level], r)
	}
	sort.Float64s(levels)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", title)
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "noise\truns\tsuccess\tfalse success\teffects twice\tretries on vetoed\tunwanted changes\tcalls p50/p95\ttokens p50/p95\tusage equal\t")
	for _, l := range levels {
		rs := by[l]
		var ok, fs, twice, retries, unwanted, differ int
		var calls, tokens []int
		for _, r := range rs {
			if r.Success() {
				ok++
			}
			if r.FalseSuccess() {
				fs++
			}
			twice += r.Twice
			retries += r.VetoRetries
			if r.Unwanted != "" {
				unwanted++
			}
			if !r.UsageEqual() {
				differ++
			}
			calls = append(calls, r.Calls)
			tokens = append(tokens, r.Tokens)
		}
		eq := "yes"
		if differ > 0 {
			eq = fmt.Sprintf("no (%d differ)", differ)
		}
		fmt.Fprintf(w, "%.0f%%\t%d\t%.0f%%\t%d\t%d\t%d\t%d\t%d/%d\t%d/%d\t%s\t\n", l*100, len(rs), 100*float64(ok)/float64(len(rs)), fs, twice, retries, unwanted,
			percentile(calls, 0.5), percentile(calls, 0.95), percentile(tokens, 0.5), percentile(tokens, 0.95), eq)
	}
	w.Flush()
	return b.String()
}

// Findings lists every run with a false success, an effect done twice, a retry on a
// vetoed element, an unwanted change or usage counted wrong, with its noise, for people.
func Findings(runs []Run) string {
	var b strings.Builder
	for _, r := range runs {
		var what []string
		if r.FalseSuccess() {
			what = append(what, "FALSE SUCCESS ("+r.Miss+")")
		}
		if r.Twice > 0 {
			what = append(what, fmt.Sprintf("%d effect(s) twice", r.Twice))
		}
		if r.VetoRetries > 0 {
			what = append(what, fmt.Sprintf("%d retry(ies) on a vetoed element", r.VetoRetries))
		}
		if r.Unwanted != "" {
			what = append(what, "unwanted change ("+r.Unwanted+")")
		}
		if !r.UsageEqual() {
			what = append(what, fmt.Sprintf("usage counted %d calls/%d tokens, the stand-in served %d/%d", r.CountedCalls, r.CountedTokens, r.Calls, r.Tokens))
		}
		if r.Err != "" {
			what = append(what, "error: "+r.Err)
		}
		if len(what) == 0 {
			continue
		}
		b.WriteString(r.line(strings.Join(what, "; ")))
	}
	return b.String()
}

// AssertBar fails t unless the runs at the highest noise level among them meet the
// issue's bar: no false success, no effect done twice, no retry on a vetoed element, and
// usage counted as the stand-in served it, in every run.
func AssertBar(t testing.TB, runs []Run) {
	t.Helper()
	top := 0.0
	for _, r := range runs {
		top = max(top, r.Level)
	}
	var fs, twice, retries, differ, erred int
	for _, r := range runs {
		if r.Level != top {
			continue
		}
		if r.FalseSuccess() {
			fs++
		}
		twice += r.Twice
		retries += r.VetoRetries
		if !r.UsageEqual() {
			differ++
		}
		if r.Err != "" {
			erred++
		}
	}
	if fs+twice+retries+differ+erred > 0 {
		t.Errorf("at %.0f%% noise: %d false successes, %d effects done twice, %d retries on a vetoed element, %d runs whose counted usage differs from the stand-in's, %d runs that ended in an error (want 0 of each)", top*100, fs, twice, retries, differ, erred)
	}
}

// Failures lists the runs that did not end a success, each with its last error and the
// noise it met: what the success rate is lost to.
func Failures(runs []Run) string {
	var b strings.Builder
	for _, r := range runs {
		if r.Success() {
			continue
		}
		last := r.Err
		if n := len(r.Errors); n > 0 && last == "" {
			last = r.Errors[n-1]
		}
		if last == "" {
			// Done, not verified: no error, and the validation says why.
			last = r.Verdict
		}
		b.WriteString(r.line(last))
	}
	return b.String()
}

// line is the run in one line, with what is said of it and the noise it met: "20%
// archive seed 8, success: ...; noise [planner#1:wrong_row ...]".
func (r Run) line(said string) string {
	var noise []string
	for _, p := range r.Noise {
		noise = append(noise, fmt.Sprintf("%s#%d:%s", p.Role, p.N, p.Kind))
	}
	return fmt.Sprintf("%.0f%% %s seed %d, %s: %s; noise [%s]\n", r.Level*100, r.Scenario, r.Seed, r.Status, said, strings.Join(noise, " "))
}
