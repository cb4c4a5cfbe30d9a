package client

import (
	"context"
	"encoding/json"

	tclient "go.temporal.io/sdk/client"

	"github.com/webagent-dev/webagent/workflows"
)

// Answer is who answers a run, and for which step. Step 0 is the step the run waits on.
type Answer struct {
	Step int
	By   string
	Note string
}

// Decisions a person may take about a step in doubt (Resolve).
const (
	DecisionDone   = "done"
	DecisionRepeat = "repeat"
	DecisionAbort  = "abort"
)

// Approve lets the step waiting for a person's approval act; it returns what the run
// did with the answer.
func (r *Run) Approve(ctx context.Context, a Answer) (string, error) {
	return r.approval(ctx, "approve", true, a)
}

// Reject refuses the step waiting for approval: the run ends without it.
func (r *Run) Reject(ctx context.Context, a Answer) (string, error) {
	return r.approval(ctx, "reject", false, a)
}

func (r *Run) approval(ctx context.Context, what string, ok bool, a Answer) (string, error) {
	if a.Step == 0 {
		p, err := r.Progress(ctx)
		if err != nil {
			return "", badInputf("ask run %s what it waits for: %v", r.ID, err)
		}
		if p.Approval == nil {
			return "", badInputf("run %s waits for no approval (phase: %s)", r.ID, p.Phase)
		}
		a.Step = p.Approval.Step
	}
	return r.update(ctx, what, workflows.ApproveUpdate, workflows.Approval{Step: a.Step, Approve: ok, By: a.By, Note: a.Note})
}

// Resolve answers for the step in doubt (it may have acted, and whether it did cannot be
// told): decision is DecisionDone, DecisionRepeat or DecisionAbort.
func (r *Run) Resolve(ctx context.Context, decision string, a Answer) (string, error) {
	if a.Step == 0 {
		p, err := r.Progress(ctx)
		if err != nil {
			return "", badInputf("ask run %s what it waits for: %v", r.ID, err)
		}
		if p.Doubt == nil {
			return "", badInputf("run %s waits for no answer about a step in doubt (phase: %s)", r.ID, p.Phase)
		}
		a.Step = p.Doubt.Step
	}
	return r.update(ctx, "resolve", workflows.ResolveUpdate, workflows.Resolution{Step: a.Step, Decision: decision, By: a.By, Note: a.Note})
}

// Hint advises a run whose step is stuck; the replanner follows the hint.
func (r *Run) Hint(ctx context.Context, text string, a Answer) (string, error) {
	return r.update(ctx, "hint", workflows.HintUpdate, workflows.Hint{Step: a.Step, Text: text, By: a.By})
}

// Pause stops the run before its next step, its browser released, until Resume.
func (r *Run) Pause(ctx context.Context, a Answer) (string, error) {
	return r.update(ctx, "pause", workflows.PauseUpdate, workflows.Control{By: a.By, Note: a.Note})
}

// Resume lets a paused run go on.
func (r *Run) Resume(ctx context.Context, a Answer) (string, error) {
	return r.update(ctx, "resume", workflows.ResumeUpdate, workflows.Control{By: a.By, Note: a.Note})
}

// Cancel stops the run before its next step; it ends partial (or failed, with nothing
// done), saying who cancelled it.
func (r *Run) Cancel(ctx context.Context, a Answer) (string, error) {
	return r.update(ctx, "cancel", workflows.CancelUpdate, workflows.Control{By: a.By, Note: a.Note})
}

// update sends an Update and waits for its outcome; a refused one is the caller's to fix.
func (r *Run) update(ctx context.Context, what, name string, arg any) (string, error) {
	h, err := r.c.tc.UpdateWorkflow(ctx, tclient.UpdateWorkflowOptions{
		WorkflowID: r.ID, UpdateName: name, Args: []any{arg}, WaitForStage: tclient.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return "", badInputf("run %s refused %s: %v", r.ID, what, err)
	}
	var out json.RawMessage
	if err := h.Get(ctx, &out); err != nil {
		return "", badInputf("run %s refused %s: %v", r.ID, what, err)
	}
	var o struct {
		Outcome string `json:"outcome"`
	}
	if json.Unmarshal(out, &o) == nil && o.Outcome != "" {
		return o.Outcome, nil
	}
	return string(out), nil
}
