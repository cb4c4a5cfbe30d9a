package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent-dev/webagent/client"
	"github.com/webagent-dev/webagent/workflows"
)

// RunGoalArgs are run_goal's arguments.
type RunGoalArgs struct {
	Goal           string            `json:"goal" jsonschema:"what to do, in plain language, naming what a person sees: Click \"New project\", type \"Apollo\" into \"Project name\", then check that \"Apollo\" is visible. {{name}} stands for a parameter, {{secret:name}} for a secret the workers grant"`
	StartURL       string            `json:"startUrl,omitempty" jsonschema:"the page the browser starts on (default: the server's)"`
	Params         map[string]string `json:"params,omitempty" jsonschema:"values for the goal's {{name}} placeholders"`
	Secrets        []string          `json:"secrets,omitempty" jsonschema:"names of the secrets the goal types ({{secret:name}}); each must be granted by the workers' operator, or nothing starts"`
	AllowedDomains []string          `json:"allowedDomains,omitempty" jsonschema:"sites the browser may go to besides the start URL's (each with its subdomains)"`
	Approve        string            `json:"approve,omitempty" jsonschema:"state-changing: every step that may send a request waits for approve_step; empty: only the steps the plan marks"`
	Unattended     bool              `json:"unattended,omitempty" jsonschema:"nobody answers: a step that would wait for a person fails instead"`
	Limits         *LimitArgs        `json:"limits,omitempty" jsonschema:"bounds on the run; each has a default"`
	Notify         string            `json:"notify,omitempty" jsonschema:"a webhook URL told (a POST signed with HMAC-SHA256) when the run waits for a person and when it ends; the workers' operator must allow it"`
	Wait           bool              `json:"wait,omitempty" jsonschema:"wait for the run to end and return its output, with a progress notification per step; otherwise return at once with its workflow ID"`
}

// LimitArgs bound a run; durations are written "90s", "5m".
type LimitArgs struct {
	AttemptsPerStep int     `json:"attemptsPerStep,omitempty" jsonschema:"attempts per step before replanning (default 3)"`
	Replans         int     `json:"replans,omitempty" jsonschema:"replans allowed (default 3)"`
	MaxSteps        int     `json:"maxSteps,omitempty" jsonschema:"steps allowed, replanned ones included (default 50)"`
	Deadline        string  `json:"deadline,omitempty" jsonschema:"time the run may take, e.g. 5m (default 30m)"`
	ApprovalTimeout string  `json:"approvalTimeout,omitempty" jsonschema:"how long a step waits for a person's approval or answer (default 10m)"`
	HintTimeout     string  `json:"hintTimeout,omitempty" jsonschema:"how long a stuck step waits for send_hint (default: it does not wait)"`
	MaxModelCalls   int     `json:"maxModelCalls,omitempty" jsonschema:"model calls the run may make"`
	MaxCostUSD      float64 `json:"maxCostUsd,omitempty" jsonschema:"estimated model cost in USD the run may spend"`
}

// input is the run's input from the arguments.
func (s *server) input(a RunGoalArgs) (workflows.GoalInput, error) {
	in := workflows.GoalInput{Goal: a.Goal, StartURL: a.StartURL, Params: a.Params, AllowedDomains: a.AllowedDomains,
		Approve: workflows.ApprovalPolicy(a.Approve), Unattended: a.Unattended, Notify: a.Notify}
	if in.StartURL == "" {
		in.StartURL = s.opts.StartURL
	}
	if a.Limits != nil {
		b, _ := json.Marshal(a.Limits)
		if err := json.Unmarshal(b, &in.Limits); err != nil {
			return in, fmt.Errorf("limits: %v", err)
		}
	}
	return in, client.Check(in)
}

func (s *server) addRunTools(srv *mcp.Server) {
	addTool(srv, "run_goal", "Run a goal in the browser",
		"Start a goal run: the workers drive a real browser from the start URL until the goal is done, durably. "+
			"Returns the workflow ID and its Web UI link; with wait, also the standard output (status success, unverified, partial or failed; each step; the validation). "+
			"A bad input, a goal over its caps or a secret the workers do not grant is refused and nothing starts.", false, s.runGoal)
	addTool(srv, "get_run", "How a run stands",
		"A run's status, its steps so far and what it waits for: a step waiting for your approval (approve_step/reject_step), "+
			"a step in doubt (resolve_doubt), a stuck step (send_hint), or a pause (resume_run); once ended, its output.", true, s.getRun)
	addTool(srv, "list_runs", "Find runs",
		"Goal runs, newest first, chosen by status (running, waiting, success, unverified, partial, failed), site (the start URL's host) or schedule.", true, s.listRuns)
	addTool(srv, "cancel_run", "Cancel a run",
		"Stop a run before its next step; it ends partial (or failed, with nothing done), saying who cancelled it.", false,
		func(ctx context.Context, _ *mcp.CallToolRequest, a ControlArgs) (*mcp.CallToolResult, any, error) {
			return outcome(a.WorkflowID, "cancel")(s.c.Run(a.WorkflowID).Cancel(ctx, client.Answer{By: s.opts.By, Note: a.Note}))
		})
}

func (s *server) runGoal(ctx context.Context, req *mcp.CallToolRequest, a RunGoalArgs) (*mcp.CallToolResult, any, error) {
	in, err := s.input(a)
	if err != nil {
		return nil, nil, err
	}
	if err := s.c.CheckSecrets(ctx, in, a.Secrets...); err != nil {
		return nil, nil, err
	}
	run, err := s.c.Start(ctx, in)
	if err != nil {
		return nil, nil, err
	}
	if !a.Wait {
		return jsonResult(run)
	}
	res, err := run.Wait(ctx, s.notifier(ctx, req))
	if err != nil {
		return nil, nil, fmt.Errorf("run %s (%s): %w", run.ID, run.URL, err)
	}
	return jsonResult(map[string]any{"workflowId": run.ID, "runId": run.RunID, "uiUrl": run.URL, "result": res})
}

// notifier sends a progress notification each time a step's status changes, when the
// caller asked for them (a progress token).
func (s *server) notifier(ctx context.Context, req *mcp.CallToolRequest) func(client.Progress) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil
	}
	seen := map[int]string{}
	return func(p client.Progress) {
		done := 0
		for _, st := range p.Steps {
			if st.Status == workflows.StepCompleted || st.Status == workflows.StepSkipped {
				done++
			}
			if seen[st.Order] == string(st.Status) || st.Status == workflows.StepPending {
				continue
			}
			seen[st.Order] = string(st.Status)
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token,
				Message:  fmt.Sprintf("step %d/%d %s: %s", st.Order, len(p.Steps), st.Status, st.Description),
				Progress: float64(done), Total: float64(len(p.Steps))})
		}
	}
}

// RunArgs name a run.
type RunArgs struct {
	WorkflowID string `json:"workflowId" jsonschema:"the run's workflow ID, as run_goal or list_runs gave it"`
}

func (s *server) getRun(ctx context.Context, _ *mcp.CallToolRequest, a RunArgs) (*mcp.CallToolResult, any, error) {
	run := s.c.Run(a.WorkflowID)
	info, err := run.Info(ctx)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]any{"run": info}
	if p, err := run.Progress(ctx); err == nil {
		out["progress"] = p
		if w := waitingFor(p); w != "" {
			out["waitingFor"] = w
		}
	}
	if info.Execution != "running" {
		if res, err := run.Result(ctx); err == nil {
			out["result"] = res
		}
	}
	return jsonResult(out)
}

// waitingFor says what a run waits for, and which tool answers it.
func waitingFor(p client.Progress) string {
	switch {
	case p.Approval != nil:
		return fmt.Sprintf("your approval of step %d: %s (%s), until %s: approve_step or reject_step", p.Approval.Step, p.Approval.Action, p.Approval.Reason, p.Approval.Until.Format("15:04:05 MST"))
	case p.Doubt != nil:
		return fmt.Sprintf("your word on whether step %d happened: %s, until %s: resolve_doubt", p.Doubt.Step, p.Doubt.Reason, p.Doubt.Until.Format("15:04:05 MST"))
	case p.Stuck != nil:
		return fmt.Sprintf("a hint: %s, until %s: send_hint", p.Stuck.Reason, p.Stuck.Until.Format("15:04:05 MST"))
	case p.Paused != nil:
		return fmt.Sprintf("resume_run: paused by %s", p.Paused.By)
	}
	return ""
}

// ListArgs choose runs.
type ListArgs struct {
	Status   string `json:"status,omitempty" jsonschema:"running, waiting, success, unverified, partial or failed"`
	Site     string `json:"site,omitempty" jsonschema:"the start URL's host"`
	Schedule string `json:"schedule,omitempty" jsonschema:"the ID of the schedule that started the runs"`
	Limit    int    `json:"limit,omitempty" jsonschema:"at most this many (default 20)"`
}

func (s *server) listRuns(ctx context.Context, _ *mcp.CallToolRequest, a ListArgs) (*mcp.CallToolResult, any, error) {
	runs, err := s.c.ListRuns(ctx, client.RunFilter{Status: a.Status, Site: a.Site, Schedule: a.Schedule, Limit: a.Limit})
	if err != nil {
		return nil, nil, err
	}
	if runs == nil {
		runs = []client.RunInfo{}
	}
	return jsonResult(map[string]any{"runs": runs})
}
