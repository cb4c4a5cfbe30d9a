package workflows

import (
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// SaveSkillWorkflowName is the SaveSkill workflow's registered type name.
const SaveSkillWorkflowName = "SaveSkill"

// aliveTimeout is how long an activity on the model queue of a workflow with no run's
// limits may go without its worker's heartbeat (every worker heartbeats for every
// activity there, workers/alive.go): a worker killed in the middle of one is noticed this
// soon, and another takes it.
const aliveTimeout = 10 * time.Second

// SaveSkill changes the skills library after a goal run: learn, heal, or count a reuse.
// It is a workflow of its own, started by the goal run and left to finish after it, so
// that a library that is down is retried for as long as a day without holding up the run.
func SaveSkill(ctx workflow.Context, in activities.SaveSkillInput) (activities.SaveSkillResult, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:              ModelTaskQueue,
		StartToCloseTimeout:    2 * time.Minute,
		HeartbeatTimeout:       aliveTimeout,
		ScheduleToCloseTimeout: 24 * time.Hour,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval: 2 * time.Second, BackoffCoefficient: 2, MaximumInterval: 5 * time.Minute,
			NonRetryableErrorTypes: activities.ModelNonRetryable,
		},
		Summary: string(in.Op) + " a skill",
	})
	return activities.SaveSkill.Execute(ctx, in)
}

// learn tells the skills library what the run taught it: the plan of a validated success
// not run from a skill is learned; a skill's plan healed by replanning is saved as its
// next version; a plain reuse is counted, as a success or a failure.
func (r *run) learn(ctx workflow.Context) {
	if !r.skills || r.parts {
		return
	}
	// Only a verified success teaches the library anything: a plan nothing checked could
	// be learned wrong, and then replayed.
	success := r.res.Execution.Status == StatusSuccess && r.res.Validation.Verified
	in := activities.SaveSkillInput{Goal: r.in.Goal, StartURL: r.in.StartURL, RunID: r.res.Metadata.WorkflowID}
	switch {
	case r.skill == nil && success:
		in.Op, in.Steps, in.ModelCalls = activities.SkillLearn, learnedSteps(r.steps), r.res.Usage.Calls
		r.res.Skill.Saved = "learned"
	case r.skill != nil && success && r.res.Execution.Replans > 0:
		in.Op, in.SkillID, in.Steps = activities.SkillHeal, r.skill.ID, learnedSteps(r.steps)
		r.res.Skill.Saved = "healed"
	case r.skill != nil:
		in.Op, in.SkillID = activities.SkillSuccess, r.skill.ID
		if !success {
			in.Op = activities.SkillFailure
			what := "did not reach the goal on this run"
			if r.res.Execution.Status == StatusUnverified {
				what = "was not confirmed to reach the goal on this run (nothing checked it)"
			}
			r.res.warn(fmt.Sprintf("the reused skill %s %s: it is marked suspect (and disabled once its failures reach %d and outnumber its successes); the site may have changed", r.skill.ID, what, activities.SkillDemoteAfter))
		}
		r.res.Skill.Saved = "counted"
	default:
		return // a failure with no skill teaches nothing
	}
	if r.skill != nil {
		r.res.Skill.ModelCallsSaved = max(0, r.skill.ModelCalls-r.res.Usage.Calls)
	}
	id := fmt.Sprintf("%s-skill", r.res.Metadata.WorkflowID)
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:        id,
		ParentClosePolicy: enumspb.PARENT_CLOSE_POLICY_ABANDON,
		StaticSummary:     fmt.Sprintf("%s the skill for: %s", in.Op, oneLine(r.in.Goal)),
	})
	child := workflow.ExecuteChildWorkflow(cctx, SaveSkillWorkflowName, in)
	var started workflow.Execution
	if err := child.GetChildWorkflowExecution().Get(ctx, &started); err != nil {
		r.res.warn("could not start saving the skill: " + rootMessage(err))
		r.res.Skill.Saved = ""
		return
	}
	r.res.Skill.SaveWorkflowID = id
}

// learnedSteps are the steps of records that reached the goal, each with the page state
// it was taken in, for replay.
func learnedSteps(records []StepRecord) []plan.Step {
	var steps []plan.Step
	for _, s := range records {
		if s.Status == StepCompleted {
			st := s.Step
			st.State = s.State
			steps = append(steps, st)
		}
	}
	return steps
}
