package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/config"
	"github.com/webagent-dev/webagent/internal/textcut"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

type runFlags struct {
	url      string
	params   params
	secrets  params
	domains  domains
	private  bool
	planFile string
	schema   string
	asJSON   bool
	noWait   bool
	mode     string
	noSkills bool
	approve  string
	file     string
	limits   workflows.Limits
}

// goalFlags registers the flags that describe a goal run, for run and schedule create.
func (f *runFlags) goalFlags(fs *flag.FlagSet) {
	fs.StringVar(&f.url, "url", config.Get("WEBAGENT_START_URL", "http://127.0.0.1:8090/projects"), "start URL")
	fs.Var(f.params, "param", "a named parameter for {{name}} in the plan, as name=value (repeatable)")
	fs.Var(f.secrets, "secret", "no longer taken: the workers' operator grants secrets by name (`starter secrets` lists them); write {{secret:name}} in the goal")
	fs.Var(&f.domains, "allow-domain", "a site the browser may go to besides the start URL's, with its subdomains (repeatable)")
	fs.BoolVar(&f.private, "allow-private", false, "let the browser reach internal addresses (loopback, link-local, private ranges) when the start URL is not one")
	fs.StringVar(&f.planFile, "plan", "", "a JSON file with a ready-made plan (a list of steps): no planning")
	fs.StringVar(&f.schema, "extract-schema", "", "a JSON Schema file: the shape of what EXTRACT steps read (with a model)")
	fs.StringVar(&f.mode, "mode", "", "how a plan reused from a skill runs: replay (no model calls; the default) or guided (the model decides each step)")
	fs.BoolVar(&f.noSkills, "no-skills", false, "plan afresh, without looking for a skill")
	fs.IntVar(&f.limits.AttemptsPerStep, "attempts", 0, "attempts per step before replanning (default 3)")
	fs.IntVar(&f.limits.Replans, "replans", 0, "replans allowed (default 3)")
	fs.IntVar(&f.limits.MaxSteps, "max-steps", 0, "steps allowed, replanned ones included (default 50)")
	fs.DurationVar(&f.limits.Deadline, "deadline", 0, "time the run may take (default 30m)")
	fs.IntVar(&f.limits.MaxModelCalls, "max-model-calls", 0, "model calls the run may make (default: no ceiling)")
	fs.Float64Var(&f.limits.MaxCostUSD, "max-cost", 0, "estimated model cost in USD the run may spend (default: no ceiling)")
	fs.IntVar(&f.limits.MaxTokens, "max-tokens", 0, "model tokens (input, output, thinking) the run may use (default: no ceiling)")
	fs.IntVar(&f.limits.StepsPerRun, "steps-per-run", 0, "continue as new every N steps (default: when the history nears 8,000 events)")
	f.waitFlags(fs)
	fs.StringVar(&f.approve, "approve", "", `which steps wait for a person's approval besides those the plan marks: "state-changing" (every click, select, check or key press that may send a request)`)
}

// parseWords parses args whose flags may come before, between or after the words, and
// returns the words; ok is false after the flag set reported an error.
func parseWords(fs *flag.FlagSet, args []string) (words []string, ok bool) {
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return nil, false
		}
		if fs.NArg() == 0 {
			return words, true
		}
		words = append(words, fs.Arg(0))
		rest = fs.Args()[1:]
	}
}

// parseGoalArgs parses args — flags before or after the goal's words — into the run's
// input, checked; ok is false after the error was written.
func parseGoalArgs(fs *flag.FlagSet, f *runFlags, args []string, stderr io.Writer) (workflows.GoalInput, bool) {
	goalWords, ok := parseWords(fs, args)
	if !ok {
		return workflows.GoalInput{}, false
	}
	in, err := f.input(strings.TrimSpace(strings.Join(goalWords, " ")))
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return in, false
	}
	return in, true
}

// errSecretFlag refuses the --secret of older starters, which let a run say where the
// worker reads a secret; the reference given is not repeated.
var errSecretFlag = errors.New("--secret is no longer taken: a run does not say where the worker reads a secret. The workers' operator grants secrets by name (WEBAGENT_SECRETS on the worker), and the goal writes {{secret:name}} (or {{totp:name}}) with a name they grant; `starter secrets` lists them")

// input is the run's input from the flags and the goal, checked as the workflow checks it.
func (f *runFlags) input(goal string) (workflows.GoalInput, error) {
	if len(f.secrets) > 0 {
		return workflows.GoalInput{}, errSecretFlag
	}
	in := workflows.GoalInput{Goal: goal, StartURL: f.url, Params: f.params, AllowedDomains: f.domains, AllowPrivate: f.private, Limits: f.limits,
		Mode: workflows.Mode(f.mode), SkipSkills: f.noSkills, Approve: workflows.ApprovalPolicy(f.approve)}
	if f.planFile != "" {
		steps, err := readPlan(f.planFile)
		if err != nil {
			return in, err
		}
		in.Plan = steps
		if in.Goal == "" {
			in.Goal = "run the plan in " + f.planFile
		}
	}
	if f.schema != "" {
		data, err := os.ReadFile(f.schema)
		if err != nil {
			return in, fmt.Errorf("read the extract schema: %w", err)
		}
		if err := json.Unmarshal(data, &in.ExtractSchema); err != nil {
			return in, fmt.Errorf("the extract schema %s is not a JSON object: %v", f.schema, err)
		}
	}
	if err := in.Validate(); err != nil {
		return in, err
	}
	// The goal's own {{name}} placeholders need values, whoever plans it.
	if err := plan.CheckParams([]plan.Step{{Value: in.Goal}}, in.Params); err != nil {
		return in, err
	}
	return in, nil
}

func runCommand(args []string, stdout, stderr io.Writer) int {
	f := runFlags{params: params{}, secrets: params{}}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f.goalFlags(fs)
	fs.BoolVar(&f.asJSON, "json", false, "print the result as JSON (the standard output)")
	fs.BoolVar(&f.noWait, "no-wait", false, "start the run and return at once")
	fs.StringVar(&f.file, "file", "", "run the goals of a file as one suite: one goal a line, or a YAML/JSON list of entries (goal, startUrl, params, plan, expect, id, depends_on, on_failure)")
	parallel := fs.Int("parallel", 0, "with --file: how many goals run at once (default 3)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: starter run [flags] "GOAL"  |  starter run --file GOALS [--parallel N] [flags]`)
		fs.PrintDefaults()
	}
	if slices.Contains(args, "--file") || slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--file=") || a == "-file" }) {
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
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "error: "+format+"\n", a...)
		return exitBadInput
	}

	tc := config.TemporalFromEnv()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	c, err := tc.Dial(ctx, 5*time.Second, nil)
	if err != nil {
		return bad("%v", err)
	}
	defer c.Close()

	id := workflows.GoalRunID(in.Goal, time.Now(), randomSuffix())
	summary, details := describeRun(in)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:            id,
		TaskQueue:     workflows.TaskQueue,
		StaticSummary: summary,
		StaticDetails: details,
	}, workflows.GoalWorkflowName, in)
	if err != nil {
		return bad("start the run: %v", err)
	}
	link := tc.RunURL(run.GetID(), run.GetRunID())
	if f.noWait {
		if f.asJSON {
			_ = json.NewEncoder(stdout).Encode(map[string]string{"workflowId": run.GetID(), "runId": run.GetRunID(), "uiUrl": link})
		} else {
			fmt.Fprintf(stdout, "started %s\n%s\n", run.GetID(), link)
		}
		return exitOK
	}
	progress := stderr
	if !f.asJSON {
		progress = stdout
	}
	fmt.Fprintf(progress, "started %s\n  %s\n", run.GetID(), link)

	done, followed := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(followed)
		follow(ctx, c, run, progress, done)
	}()
	var res workflows.GoalResult
	err = run.Get(ctx, &res)
	close(done)
	<-followed // the steps that ended since the last look are printed too
	if err != nil {
		// The workers decide what they can plan: a goal they cannot read, or a plan
		// missing its parameters, is the caller's to fix.
		if typ, msg, ok := appError(err); ok && (typ == workflows.ErrBadInput || typ == workflows.ErrGoalNotUnderstood) {
			return bad("%s", msg)
		}
		fmt.Fprintf(stderr, "the run ended with an error: %v\n  %s\n", err, link)
		return exitFailed
	}
	if res.Execution.StepsPlanned == 0 {
		// The workers could not plan the goal: the reason is the caller's to fix.
		for _, e := range res.Errors {
			if e.Type == workflows.ErrorGoalNotUnderstood || e.Type == workflows.ErrorBadInput {
				return bad("%s\n  %s", e.Message, link)
			}
		}
	}
	if f.asJSON {
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

// readPlan reads a plan file: a JSON list of steps, or an object with a "steps" list.
func readPlan(path string) ([]plan.Step, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the plan: %w", err)
	}
	var steps []plan.Step
	if err := json.Unmarshal(data, &steps); err != nil {
		var wrapped struct {
			Steps []plan.Step `json:"steps"`
		}
		if err2 := json.Unmarshal(data, &wrapped); err2 != nil || wrapped.Steps == nil {
			return nil, fmt.Errorf("the plan %s is not a JSON list of steps: %v", path, err)
		}
		steps = wrapped.Steps
	}
	for i := range steps {
		if steps[i].Step == 0 {
			steps[i].Step = i + 1
		}
	}
	if err := plan.Validate(steps); err != nil {
		return nil, fmt.Errorf("the plan %s: %w", path, err)
	}
	return steps, nil
}

// follow prints each step's progress as it changes, from the workflow's progress query.
func follow(ctx context.Context, c client.Client, run client.WorkflowRun, w io.Writer, done <-chan struct{}) {
	seen := map[int]string{}
	phase := workflows.Phase("")
	watch(ctx, c, run.GetID(), workflows.ProgressQuery, 250*time.Millisecond, done, func(p workflows.Progress) {
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
	})
}

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

// describeRun is what the Web UI shows of a run the product starts: the goal in one line,
// and the start URL, the planner and the limits.
func describeRun(in workflows.GoalInput) (summary, details string) {
	planner := "the offline planner, or a model, or a skill"
	if len(in.Plan) > 0 {
		planner = fmt.Sprintf("a given plan of %d steps", len(in.Plan))
	} else if in.SkipSkills {
		planner = "the offline planner or a model (no skills)"
	}
	l := in.Limits.WithDefaults()
	details = fmt.Sprintf("**Start URL:** %s\n\n**Planner:** %s\n\n**Limits:** %d attempts a step, %d replans, %d steps, deadline %s",
		in.StartURL, planner, l.AttemptsPerStep, l.Replans, l.MaxSteps, l.Deadline)
	if in.Approve != "" {
		details += fmt.Sprintf("\n\n**Approval:** %s steps wait for a person", in.Approve)
	}
	return summaryLine(in.Goal), details
}

func summaryLine(goal string) string {
	goal = strings.Join(strings.Fields(goal), " ")
	if len(goal) > 200 {
		goal = textcut.Cut(goal, 197, "...")
	}
	return goal
}

func randomSuffix() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
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
