package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/activities"
	agent "github.com/webagent-dev/webagent/client"
	"github.com/webagent-dev/webagent/workflows"
)

// runCommand runs `starter run`: it starts a goal run and, unless --no-wait, follows its
// steps and prints its result; with --file it runs the goals of a file as one suite.
func runCommand(args []string, stdout, stderr io.Writer) int {
	f := runFlags{params: params{}, secrets: params{}}
	fs, parallel := f.runFlagSet(stderr)
	if wantsSuite(args) {
		// A suite: the goals are in the file; the flags are their defaults.
		if err := fs.Parse(args); err != nil {
			return exitBadInput
		}
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "error: with --file the goals are in the file; unexpected %q\n", strings.Join(fs.Args(), " "))
			return exitBadInput
		}
		return runSuite(&f, *parallel, stdout, stderr)
	}
	in, ok := parseGoalArgs(fs, &f, args, stderr)
	if !ok {
		return exitBadInput
	}
	return runGoal(in, &f, stdout, stderr)
}

// runFlagSet is the flag set of `starter run`: the goal's flags, how to print and wait,
// and the suite's file; parallel is --parallel's value once it is parsed.
func (f *runFlags) runFlagSet(stderr io.Writer) (fs *flag.FlagSet, parallel *int) {
	fs = flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f.goalFlags(fs)
	fs.BoolVar(&f.asJSON, "json", false, "print the result as JSON (the standard output)")
	fs.BoolVar(&f.noWait, "no-wait", false, "start the run and return at once")
	fs.StringVar(&f.file, "file", "", "run the goals of a file as one suite: one goal a line, or a YAML/JSON list of entries (goal, startUrl, params, plan, expect, id, dependsOn, onFailure)")
	parallel = fs.Int("parallel", 0, "with --file: how many goals run at once (default 3)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: starter run [flags] "GOAL"  |  starter run --file GOALS [--parallel N] [flags]`)
		fs.PrintDefaults()
	}
	return fs, parallel
}

// wantsSuite reports whether args name a suite's file, which decides how they are parsed
// before they are: a suite takes no goal words.
func wantsSuite(args []string) bool {
	return slices.Contains(args, "--file") || slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--file=") || a == "-file" })
}

// runGoal starts the goal run and says so; unless --no-wait, it follows the run's steps
// until it ends (on the standard error with --json, so that the standard output is the
// JSON alone) and reports how it ended.
func runGoal(in workflows.GoalInput, f *runFlags, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	c, err := agent.Dial(ctx)
	if err != nil {
		return badInputf(stderr, "%v", err)
	}
	defer c.Close()
	run, err := c.Start(ctx, in)
	if err != nil {
		return badInputf(stderr, "%v", err)
	}
	if f.noWait {
		if f.asJSON {
			_ = json.NewEncoder(stdout).Encode(run)
		} else {
			fmt.Fprintf(stdout, "started %s\n%s\n", run.ID, run.URL)
		}
		return exitOK
	}
	progress := stderr
	if !f.asJSON {
		progress = stdout
	}
	fmt.Fprintf(progress, "started %s\n  %s\n", run.ID, run.URL)
	res, err := run.Wait(ctx, follower(progress))
	return reportGoal(res, err, run.URL, f.asJSON, stdout, stderr)
}

// reportGoal prints how a run ended and returns the exit status: success, a failure, or
// bad input when the workers could not plan the goal for a reason the caller is to fix.
func reportGoal(res workflows.GoalResult, err error, link string, asJSON bool, stdout, stderr io.Writer) int {
	if agent.IsBadInput(err) {
		// The workers decide what they can plan: a goal they cannot read, or a plan
		// missing its parameters, is the caller's to fix.
		return badInputf(stderr, "%v\n  %s", err, link)
	}
	if err != nil {
		fmt.Fprintf(stderr, "the run ended with an error: %v\n  %s\n", err, link)
		return exitFailed
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
	} else {
		printResult(stdout, &res, link)
	}
	if res.Execution.Status == workflows.StatusSuccess {
		return exitOK
	}
	return exitFailed
}

// follower prints each step's progress as it changes.
func follower(w io.Writer) func(workflows.Progress) {
	seen := map[int]string{}
	phase := workflows.Phase("")
	var asked time.Time
	return func(p workflows.Progress) {
		for _, s := range p.Steps {
			key := fmt.Sprintf("%s/%d", s.Status, s.Attempts)
			if seen[s.Order] == key || s.Status == workflows.StepPending {
				continue
			}
			seen[s.Order] = key
			line := fmt.Sprintf("  %2d/%d %-10s %s", s.Order, len(p.Steps), s.Status, s.Description)
			if s.Attempts > 1 || (s.Status != workflows.StepCompleted && s.LastFeedback != "") {
				line += fmt.Sprintf("  (attempt %d: %s)", s.Attempts, s.LastFeedback)
			}
			fmt.Fprintln(w, line)
		}
		if p.Phase != phase && p.Phase != "running" && p.Phase != "done" {
			fmt.Fprintf(w, "  … %s\n", p.Phase)
		}
		phase = p.Phase
		if a := p.BrowserAsked; a != nil && !a.Equal(asked) && time.Since(*a) > browserWaitShown {
			asked = *a
			fmt.Fprintf(w, "  … waiting since %s for a free browser: every worker's are in use\n", a.Local().Format("15:04:05"))
		}
	}
}

// browserWaitShown is how long an open goes on before the starter says the run waits for
// a browser (an open itself takes a fraction of a second).
const browserWaitShown = 2 * time.Second

func printResult(w io.Writer, r *workflows.GoalResult, link string) {
	fmt.Fprintf(w, "\n%s: %s\n", strings.ToUpper(string(r.Execution.Status)), r.Summary.Brief)
	ex := r.Execution
	fmt.Fprintf(w, "  steps: %d completed, %d failed, %d skipped of %d; retries %d; replans %d; browser recoveries %d\n",
		ex.StepsCompleted, ex.StepsFailed, ex.StepsSkipped, ex.StepsPlanned, ex.TotalRetries, ex.Replans, ex.BrowserRecoveries)
	verified := "verified"
	if !r.Validation.Verified {
		verified = "NOT verified"
	}
	fmt.Fprintf(w, "  validation: %v, %s (%.2f) %s\n", r.Validation.Success, verified, r.Validation.Confidence, r.Validation.Reason)
	fmt.Fprintf(w, "  planner: %s; model: %d calls, %d input and %d output tokens%s\n", r.Metadata.Planner, r.Usage.Calls, r.Usage.InputTokens, r.Usage.OutputTokens, cost(r.Usage.Usage))
	if sk := r.Skill; sk.CacheHit {
		fmt.Fprintf(w, "  skill: cache hit, %s v%d (similarity %.3f, %s mode), %d model calls saved", sk.ID, sk.Version, sk.Similarity, sk.Mode, sk.ModelCallsSaved)
		if sk.Saved != "" {
			fmt.Fprintf(w, "; %s", sk.Saved)
		}
		fmt.Fprintln(w)
	} else if sk.Saved != "" || sk.MissReason != "" {
		fmt.Fprintf(w, "  skill: %s\n", skillMiss(sk))
	}
	if r.Summary.Detailed != "" {
		fmt.Fprintf(w, "  %s\n", r.Summary.Detailed)
	}
	fmt.Fprintf(w, "  final URL: %s\n", r.Metadata.FinalURL)
	for k, v := range r.ExtractedData.Structured {
		fmt.Fprintf(w, "  extracted %s = %q\n", k, v)
	}
	for _, d := range r.Downloads {
		if d.Key == "" {
			fmt.Fprintf(w, "  download (step %d): %s, not kept: %s\n", d.Step, d.Name, d.Error)
			continue
		}
		fmt.Fprintf(w, "  download (step %d): %s, %d bytes, stored as %s\n", d.Step, d.Name, d.Bytes, d.Key)
	}
	for _, warn := range r.Summary.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn)
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "  error (step %d, %s): %s\n", e.Step, e.Type, e.Message)
	}
	fmt.Fprintf(w, "  run: %s\n", link)
}

// cost says what the model calls cost, at the prices of the day the worker's table was
// read; a lower bound when some model had no price.
func cost(u activities.Usage) string {
	if u.Calls == 0 {
		return ""
	}
	s := fmt.Sprintf(", $%.4f at prices read %s", u.CostUSD, u.PricesRead)
	if u.UnpricedCalls > 0 {
		s += fmt.Sprintf(" (at least: %d calls to models without a price)", u.UnpricedCalls)
	}
	return s
}
