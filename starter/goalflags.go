package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/config"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// runFlags hold the flags of `starter run`; schedule create shares those that describe
// the goal (goalFlags).
type runFlags struct {
	url      string
	params   params
	secrets  params
	domains  domains
	attach   domains
	private  bool
	planFile string
	schema   string
	asJSON   bool
	noWait   bool
	mode     string
	noSkills bool
	approve  string
	alone    bool
	file     string
	notify   string
	limits   workflows.Limits
}

// goalFlags registers the flags that describe a goal run, for run and schedule create.
func (f *runFlags) goalFlags(fs *flag.FlagSet) {
	fs.StringVar(&f.url, "url", config.Get("WEBAGENT_START_URL", "http://127.0.0.1:8090/projects"), "start URL")
	fs.Var(f.params, "param", "a named parameter for {{name}} in the plan, as name=value (repeatable)")
	fs.Var(f.secrets, "secret", "no longer taken: the workers' operator grants secrets by name (`starter secrets` lists them); write {{secret:name}} in the goal")
	fs.Var(&f.domains, "allow-domain", "a site the browser may go to besides the start URL's, with its subdomains (repeatable)")
	fs.Var(&f.attach, "attach", `a file the run's UPLOAD steps may give a page, by its name (upload "report.pdf" into "Attachment"); sent with the run (repeatable; 1 MiB in all)`)
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
	fs.StringVar(&f.notify, "notify", "", "a webhook `URL` told (a signed POST) when the run waits for a person and when it ends; the workers' operator must allow it (WEBAGENT_NOTIFY_URLS)")
	fs.BoolVar(&f.alone, "unattended", false, "nobody answers this run (a schedule, a pipeline): a step that would wait for a person's approval, confirmation or answer fails instead, saying what it would have asked")
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
		Mode: workflows.Mode(f.mode), SkipSkills: f.noSkills, Approve: workflows.ApprovalPolicy(f.approve), Unattended: f.alone, Notify: f.notify}
	for _, path := range f.attach {
		data, err := os.ReadFile(path)
		if err != nil {
			return in, fmt.Errorf("--attach %s: %v", path, err)
		}
		in.Files = append(in.Files, activities.RunFile{Name: filepath.Base(path), Data: data})
	}
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
