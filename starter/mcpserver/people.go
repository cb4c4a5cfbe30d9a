package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent-dev/webagent/client"
)

// StepArgs answer the step a run waits on.
type StepArgs struct {
	WorkflowID string `json:"workflowId" jsonschema:"the run's workflow ID"`
	Step       int    `json:"step,omitempty" jsonschema:"the step the answer is for (default: the one the run waits on)"`
	Note       string `json:"note,omitempty" jsonschema:"a note for the run's record"`
}

// HintArgs advise a stuck run.
type HintArgs struct {
	WorkflowID string `json:"workflowId" jsonschema:"the run's workflow ID"`
	Text       string `json:"text" jsonschema:"what to do first, in the goal's words: click \"Advanced\", then ..."`
	Step       int    `json:"step,omitempty" jsonschema:"the stuck step (default: the one the run waits on)"`
}

// ResolveArgs answer for a step in doubt.
type ResolveArgs struct {
	WorkflowID string `json:"workflowId" jsonschema:"the run's workflow ID"`
	Decision   string `json:"decision" jsonschema:"done: the step happened, go on; repeat: it did not, do it again; abort: end the run"`
	Step       int    `json:"step,omitempty" jsonschema:"the step in doubt (default: the one the run waits on)"`
	Note       string `json:"note,omitempty" jsonschema:"a note for the run's record"`
}

// ControlArgs pause, resume or cancel a run.
type ControlArgs struct {
	WorkflowID string `json:"workflowId" jsonschema:"the run's workflow ID"`
	Note       string `json:"note,omitempty" jsonschema:"a note for the run's record"`
}

func (s *server) addPeopleTools(srv *mcp.Server) {
	answer := func(a StepArgs) client.Answer { return client.Answer{Step: a.Step, By: s.opts.By, Note: a.Note} }
	addTool(srv, "approve_step", "Approve the waiting step",
		"Let the step a run waits on (get_run's waitingFor) act. Refused when the run waits for no approval.", false,
		func(ctx context.Context, _ *mcp.CallToolRequest, a StepArgs) (*mcp.CallToolResult, any, error) {
			return outcome(a.WorkflowID, "approve")(s.c.Run(a.WorkflowID).Approve(ctx, answer(a)))
		})
	addTool(srv, "reject_step", "Reject the waiting step",
		"Refuse the step a run waits on: the run ends without doing it. Refused when the run waits for no approval.", false,
		func(ctx context.Context, _ *mcp.CallToolRequest, a StepArgs) (*mcp.CallToolResult, any, error) {
			return outcome(a.WorkflowID, "reject")(s.c.Run(a.WorkflowID).Reject(ctx, answer(a)))
		})
	addTool(srv, "send_hint", "Advise a stuck run",
		"Give a run whose step is stuck (it failed after its attempts and replans, and waits for a hint) what to do first; the replanner follows it.", false,
		func(ctx context.Context, _ *mcp.CallToolRequest, a HintArgs) (*mcp.CallToolResult, any, error) {
			return outcome(a.WorkflowID, "hint")(s.c.Run(a.WorkflowID).Hint(ctx, a.Text, client.Answer{Step: a.Step, By: s.opts.By}))
		})
	addTool(srv, "resolve_doubt", "Say whether a step in doubt happened",
		"A step whose effect cannot be told (it may have sent its request) waits for a person: done, repeat or abort.", false,
		func(ctx context.Context, _ *mcp.CallToolRequest, a ResolveArgs) (*mcp.CallToolResult, any, error) {
			return outcome(a.WorkflowID, "resolve")(s.c.Run(a.WorkflowID).Resolve(ctx, a.Decision, client.Answer{Step: a.Step, By: s.opts.By, Note: a.Note}))
		})
	addTool(srv, "pause_run", "Pause a run",
		"Stop a run before its next step, its browser released, until resume_run.", false,
		func(ctx context.Context, _ *mcp.CallToolRequest, a ControlArgs) (*mcp.CallToolResult, any, error) {
			return outcome(a.WorkflowID, "pause")(s.c.Run(a.WorkflowID).Pause(ctx, client.Answer{By: s.opts.By, Note: a.Note}))
		})
	addTool(srv, "resume_run", "Resume a paused run",
		"Let a paused run go on from the step it stopped before.", false,
		func(ctx context.Context, _ *mcp.CallToolRequest, a ControlArgs) (*mcp.CallToolResult, any, error) {
			return outcome(a.WorkflowID, "resume")(s.c.Run(a.WorkflowID).Resume(ctx, client.Answer{By: s.opts.By, Note: a.Note}))
		})
}
