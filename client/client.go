package client

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	tclient "go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/webagent-dev/webagent/internal/codec"
	"github.com/webagent-dev/webagent/internal/config"
	"github.com/webagent-dev/webagent/internal/textcut"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// The run's input and output, and what a run says of itself while it goes on.
type (
	// GoalInput is a run's input: the goal, its start URL, and how it may run.
	GoalInput = workflows.GoalInput
	// Limits bound a run: attempts, replans, steps, time, waits for people, model use.
	Limits = workflows.Limits
	// Result is the standard output of a run that ended.
	Result = workflows.GoalResult
	// Progress is a running run's phase, its steps, and what it waits for.
	Progress = workflows.Progress
)

// Client starts and follows runs. It is safe for concurrent use.
type Client struct {
	tc        tclient.Client
	namespace string
	ui        string
	owned     bool
	// dc reads what the history holds (encrypted with WEBAGENT_CODEC_KEYS when set);
	// nil: the SDK's default.
	dc converter.DataConverter
}

// converter is what reads the run's history.
func (c *Client) converter() converter.DataConverter {
	if c.dc == nil {
		return converter.GetDefaultDataConverter()
	}
	return c.dc
}

// Dial connects to the Temporal service the environment names (TEMPORAL_ADDRESS and the
// rest, as the starter reads them). An unreachable service is a [*BadInputError]: the
// caller is to fix the address or start the stack.
func Dial(ctx context.Context) (*Client, error) {
	t := config.TemporalFromEnv()
	tc, err := t.Dial(ctx, 10*time.Second, nil)
	if err != nil {
		return nil, &BadInputError{Err: err}
	}
	cl := &Client{tc: tc, namespace: t.Namespace, ui: t.UIURL, owned: true}
	if cd, err := codec.FromEnv(); err == nil && cd != nil {
		cl.dc = cd.DataConverter()
	}
	return cl, nil
}

// New wraps a Temporal client the caller holds (and closes) in the given namespace;
// uiURL is the Web UI's base URL for the runs' links ("" for none).
func New(tc tclient.Client, namespace, uiURL string) *Client {
	return &Client{tc: tc, namespace: namespace, ui: strings.TrimRight(uiURL, "/")}
}

// Close closes the connection Dial opened; a client from New leaves its Temporal client open.
func (c *Client) Close() {
	if c.owned {
		c.tc.Close()
	}
}

// Temporal is the Temporal client underneath, for what this package does not cover.
func (c *Client) Temporal() tclient.Client { return c.tc }

// RunURL is the Web UI page of a workflow's run ("" without a Web UI).
func (c *Client) RunURL(workflowID, runID string) string {
	if c.ui == "" {
		return ""
	}
	return fmt.Sprintf("%s/namespaces/%s/workflows/%s/%s/history", c.ui, c.namespace, workflowID, runID)
}

// Start checks the input as the workflow would and starts the run, with the goal as
// its summary in the Web UI. A [*BadInputError] says what to fix; nothing was started.
func (c *Client) Start(ctx context.Context, in GoalInput) (*Run, error) {
	if err := Check(in); err != nil {
		return nil, err
	}
	summary, details := Describe(in)
	wr, err := c.tc.ExecuteWorkflow(ctx, tclient.StartWorkflowOptions{
		ID:            workflows.GoalRunID(in.Goal, time.Now(), randomSuffix()),
		TaskQueue:     workflows.TaskQueue,
		StaticSummary: summary,
		StaticDetails: details,
	}, workflows.GoalWorkflowName, in)
	if err != nil {
		return nil, &BadInputError{Err: fmt.Errorf("start the run: %w", err)}
	}
	return c.run(wr.GetID(), wr.GetRunID()), nil
}

// Check is what Start checks before it starts anything: the input as the workflow
// checks it, and values for the goal's own {{name}} placeholders.
func Check(in GoalInput) error {
	if err := in.Validate(); err != nil {
		return &BadInputError{Err: err}
	}
	if err := plan.CheckParams([]plan.Step{{Value: in.Goal}}, in.Params); err != nil {
		return &BadInputError{Err: err}
	}
	return nil
}

// Run is a run the caller already knows by its workflow ID: the latest execution of
// that workflow, the one it continued as if it did.
func (c *Client) Run(workflowID string) *Run { return c.run(workflowID, "") }

// RunOf is one execution of a workflow: runID "" is its latest.
func (c *Client) RunOf(workflowID, runID string) *Run { return c.run(workflowID, runID) }

func (c *Client) run(id, runID string) *Run {
	return &Run{c: c, ID: id, RunID: runID, URL: c.RunURL(id, runID)}
}

// Describe is what the Web UI shows of a run the product starts: the goal in one line,
// and the start URL, the planner and the limits.
func Describe(in GoalInput) (summary, details string) {
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
	goal := strings.Join(strings.Fields(in.Goal), " ")
	if len(goal) > 200 {
		goal = textcut.Cut(goal, 197, "...")
	}
	return goal, details
}

// BadInputError is an error the caller is to fix — an input the workflow would refuse,
// an answer a run refuses, an unreachable Temporal, a goal the workers cannot plan —
// with the reason to show as it is.
type BadInputError struct{ Err error }

func (e *BadInputError) Error() string { return e.Err.Error() }
func (e *BadInputError) Unwrap() error { return e.Err }

// IsBadInput reports whether err is, or wraps, a [*BadInputError].
func IsBadInput(err error) bool {
	var b *BadInputError
	return errors.As(err, &b)
}

func badInputf(format string, a ...any) error {
	return &BadInputError{Err: fmt.Errorf(format, a...)}
}

func randomSuffix() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
