package workflows

import (
	"fmt"

	"github.com/webagent-dev/webagent/plan"
	"go.temporal.io/sdk/workflow"
)

// runParts runs a goal written as independent parts ("In parallel: ...; ...") as a child
// Suite: each part a Goal run of its own, with its own browser, side by side as their
// dependencies allow. The parent's steps are the parts, and its verdict theirs: success
// when every part succeeded, unverified when every part was done and one of them was not
// confirmed.
func (r *run) runParts(ctx workflow.Context, parts []plan.Part) error {
	r.parts = true
	r.phase = PhaseRunning
	in := SuiteInput{Name: oneLine(r.in.Goal), Parallel: min(len(parts), 5)}
	for _, p := range parts {
		in.Entries = append(in.Entries, SuiteEntry{ID: p.ID, Goal: p.Goal, StartURL: r.in.StartURL, Params: r.in.Params,
			Limits: r.in.Limits, DependsOn: p.DependsOn})
		r.steps = append(r.steps, StepRecord{Order: len(r.steps) + 1, Description: fmt.Sprintf("%s: %s", p.ID, p.Goal), Status: StepRunning})
	}
	r.report(ctx)
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:        workflow.GetInfo(ctx).WorkflowExecution.ID + "-parts",
		TaskQueue:         TaskQueue,
		ParentClosePolicy: childClosePolicy(ctx),
		StaticSummary:     fmt.Sprintf("%d parts of: %s", len(parts), oneLine(r.in.Goal)),
	})
	var res SuiteResult
	if err := workflow.ExecuteChildWorkflow(cctx, SuiteWorkflowName, in).Get(ctx, &res); err != nil {
		r.res.addError(ctx, 0, "parts", "the parts could not run: "+rootMessage(err), false)
		for i := range r.steps {
			r.steps[i].Status = StepSkipped
		}
		return err
	}
	verified, ok := true, res.NotRun == 0
	for i, e := range res.Entries {
		rec := &r.steps[i]
		rec.DurationMs, rec.Attempts = e.DurationMs, e.Attempts
		rec.Actions = append(rec.Actions, fmt.Sprintf("ran as %s: %s — %s", e.WorkflowID, e.Status, e.Reason))
		switch {
		case e.Passed:
			rec.Status = StepCompleted
		case e.Status == StatusUnverified:
			// Done, not confirmed: the part is done, and the whole is unverified.
			rec.Status, rec.Unverified = StepCompleted, true
		case e.Status == StatusNotRun:
			rec.Status = StepSkipped
		default:
			rec.Status = StepFailed
			r.res.addError(ctx, rec.Order, "part_failed", fmt.Sprintf("%s (%s) ended %s: %s", e.ID, e.Goal, e.Status, e.Reason), false)
		}
		verified = verified && e.Verified
		ok = ok && rec.Status == StepCompleted
	}
	r.res.Validation = Validation{Success: ok, Verified: ok && verified, Confidence: 0.5,
		Reason: fmt.Sprintf("%d of %d parts reached their goals", res.Passed, len(res.Entries))}
	if ok && verified {
		r.res.Validation.Confidence = 0.9
		r.res.Validation.Reason += ", each verified on its own final page"
	}
	r.phase = PhaseDone
	return nil
}
