// Package planning holds the planning activities: PlanGoal (a skill from the library,
// the offline planner, or the model), Replan, and the skills library's activities,
// SaveSkill and ManageSkills.
package planning

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/model"
	"github.com/webagent-dev/webagent/activities/skills"
	"github.com/webagent-dev/webagent/plan"
)

// Model is what planning asks of the model: *model.Planner.
type Model interface {
	Plan(ctx context.Context, in activities.PlanGoalInput) (model.PlanOutput, activities.Usage, error)
	Replan(ctx context.Context, in activities.ReplanInput) (model.ReplanOutput, activities.Usage, error)
}

// Activities write and rewrite plans. An explicit, step-by-step goal is read by the
// offline planner even when a model is configured: it is exactly what the user asked for,
// costs nothing and cannot be misread. Open-ended goals go to the model, which plans from
// a first look at the page. Without a model, replanning can only wait and retry. Register
// them under the names in the activities package.
type Activities struct {
	// Model is nil when no Gemini credentials are configured.
	Model Model
	// Skills is nil when no skills library is configured.
	Skills *skills.Library
	// Catalog is the skills library's store, for ManageSkills; nil with no library.
	Catalog Catalog
	// Library names the skills library's place, for people (e.g. Weaviate's address).
	Library string
}

// PlanGoal turns the goal into a plan, or checks the plan it was given.
func (a *Activities) PlanGoal(ctx context.Context, in activities.PlanGoalInput) (activities.PlanGoalResult, error) {
	res := activities.PlanGoalResult{ModelAvailable: a.Model != nil}
	if len(in.Plan) > 0 {
		if err := plan.Validate(in.Plan); err != nil {
			return res, temporal.NewNonRetryableApplicationError("the plan is invalid: "+err.Error(), activities.ErrBadInput, err)
		}
		res.Steps, res.Planner = in.Plan, activities.PlannerGiven
		return res, nil
	}
	// A goal written as independent parts runs them as goals of their own.
	if parts, ok, err := plan.Parallel(in.Goal); ok {
		if err != nil {
			return res, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrGoalNotUnderstood, err)
		}
		res.Parts, res.Planner = parts, activities.PlannerOffline
		return res, nil
	}
	res.SkillsAvailable = a.Skills != nil
	if a.Skills != nil && !in.SkipSkills && in.Observation == nil {
		found, miss, err := a.Skills.Find(ctx, in.Goal, activities.Site(in.StartURL))
		res.SkillMiss = miss
		switch {
		case err != nil:
			// A run never fails because its memory is unavailable: plan instead.
			res.SkillMiss = "the skills library is unavailable (" + err.Error() + ")"
			res.Warnings = append(res.Warnings, res.SkillMiss+"; planning afresh")
			activity.GetLogger(ctx).Warn("skills lookup", "err", err)
		case found != nil:
			res.Steps, res.Planner = found.Skill.Plan, activities.PlannerSkill
			res.Skill = &activities.SkillMatch{ID: found.Skill.ID, Version: found.Skill.Version, Similarity: found.Similarity,
				Params: found.Params, ModelCalls: found.Skill.ModelCalls}
			return res, nil
		}
	}
	steps, err := plan.Parse(in.Goal)
	if err == nil {
		res.Steps, res.Planner = steps, activities.PlannerOffline
		return res, nil
	}
	var pe *plan.ParseError
	if !errors.As(err, &pe) {
		return res, err
	}
	if a.Model == nil {
		return res, temporal.NewNonRetryableApplicationError(err.Error()+" (the workers have no model for open-ended goals: set GEMINI_API_KEY on them)", activities.ErrGoalNotUnderstood, err)
	}
	if in.Observation == nil {
		res.NeedsObservation = true
		return res, nil
	}
	out, u, err := a.Model.Plan(ctx, in)
	res.Usage = u
	if err != nil {
		// What the failed plan cost is in the error already (the model's planner puts it there).
		return res, err
	}
	res.Steps, res.Planner = out.Steps, activities.PlannerModel
	return res, nil
}

// Replan rewrites the rest of the plan from the failure context. The model, when there is
// one, sees the numbered page and every attempt's feedback and picks a strategy. The
// offline planner knows one remedy: when the target never appeared or the page was not
// ready, wait and try the step once more.
func (a *Activities) Replan(ctx context.Context, in activities.ReplanInput) (activities.ReplanResult, error) {
	if a.Model != nil {
		out, u, err := a.Model.Replan(ctx, in)
		if err != nil {
			return activities.ReplanResult{Usage: u}, err
		}
		res := activities.ReplanResult{Strategy: out.Strategy, Reason: out.Reasoning, Steps: out.Steps, Usage: u}
		if out.Strategy == activities.StrategyAbort {
			res.Reason = fmt.Sprintf("the model gave up: %s", out.Reasoning)
		}
		return res, nil
	}
	if in.Hint != "" {
		return offlineHint(in)
	}
	var last plan.Feedback
	if len(in.Feedback) > 0 {
		last = in.Feedback[len(in.Feedback)-1]
	}
	// Waiting again helps a page that was still busy (timing), not a target that was
	// never there: every attempt already waited for it.
	busy, other := false, false
	for _, f := range in.Feedback {
		switch f.Type {
		case plan.Timing:
			busy = true
		case plan.NotVisible:
		default:
			other = true
		}
	}
	timing := busy && !other
	if timing && !slices.Contains(in.Strategies, activities.StrategyWaitAndRetry) {
		wait := plan.Step{Action: plan.Wait, Wait: 3 * time.Second, SemanticRole: plan.Confirmation,
			ExpectedOutcome: "the page finishes loading"}
		steps := append([]plan.Step{wait, in.Failed}, in.Remaining...)
		return activities.ReplanResult{Strategy: activities.StrategyWaitAndRetry, Reason: "the target was not there in time; wait for the page, then try again", Steps: steps}, nil
	}
	reason := "the offline planner has no other way to do this step; set GEMINI_API_KEY so the model can replan"
	if last.Type == plan.NotVisible {
		reason = "the target is not on the page: " + last.Details + "; describe it as the page names it, add the step that shows it first, or set GEMINI_API_KEY so the model can replan"
	}
	if last.Type == plan.WrongElement {
		reason = "the target is ambiguous and the offline planner cannot choose; describe it more precisely (by its row or position) or set GEMINI_API_KEY so the model can replan"
	}
	return activities.ReplanResult{Strategy: activities.StrategyAbort, Reason: reason}, nil
}

// offlineHint reads a person's hint as the steps to do before the failed step is tried
// again ('click "Advanced"', 'wait 5 seconds'), exactly as a goal is read: a hint it
// cannot read exactly is refused, never guessed at.
func offlineHint(in activities.ReplanInput) (activities.ReplanResult, error) {
	steps, err := plan.Parse(in.Hint)
	if err != nil {
		return activities.ReplanResult{Strategy: activities.StrategyAbort,
			Reason: fmt.Sprintf("the offline planner cannot read the hint as steps (%v); write it as steps, e.g. 'click \"Advanced\"', or set GEMINI_API_KEY", err)}, nil
	}
	again := in.Failed
	again.Step = 0
	steps = append(append(steps, again), in.Remaining...)
	return activities.ReplanResult{Strategy: "hint", Reason: "a person's hint: " + in.Hint, Steps: steps}, nil
}
