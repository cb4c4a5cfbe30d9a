package activities

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities/model"
	"github.com/webagent-dev/webagent/activities/skills"
	"github.com/webagent-dev/webagent/plan"
)

// Planner writes and rewrites plans. An explicit, step-by-step goal is read by the offline
// planner even when a model is configured: it is exactly what the user asked for, costs
// nothing and cannot be misread. Open-ended goals go to the model, which plans from a
// first look at the page. Without a model, replanning can only wait and retry.
type Planner struct {
	// Model is nil when no Gemini credentials are configured.
	Model *Model
	Store Store
	// Skills is nil when no skills library is configured.
	Skills *skills.Library
}

// Planner names in results.
const (
	PlannerOffline = "offline"
	PlannerGiven   = "given"
	PlannerModel   = "gemini"
	PlannerSkill   = "skill"
)

// PlanGoal turns the goal into a plan, or checks the plan it was given.
func (p *Planner) PlanGoal(ctx context.Context, in PlanGoalInput) (PlanGoalResult, error) {
	res := PlanGoalResult{ModelAvailable: p.Model != nil}
	if len(in.Plan) > 0 {
		if err := plan.Validate(in.Plan); err != nil {
			return res, temporal.NewNonRetryableApplicationError("the plan is invalid: "+err.Error(), ErrBadInput, err)
		}
		res.Steps, res.Planner = in.Plan, PlannerGiven
		return res, nil
	}
	res.SkillsAvailable = p.Skills != nil
	if p.Skills != nil && !in.SkipSkills && in.Observation == nil {
		found, notes, err := p.Skills.Find(ctx, in.Goal, Site(in.StartURL))
		res.Warnings = append(res.Warnings, notes...)
		switch {
		case err != nil:
			// A run never fails because its memory is unavailable: plan instead.
			res.Warnings = append(res.Warnings, "the skills library is unavailable ("+err.Error()+"); planning afresh")
			activity.GetLogger(ctx).Warn("skills lookup", "err", err)
		case found != nil:
			res.Steps, res.Planner = found.Skill.Plan, PlannerSkill
			res.Skill = &SkillMatch{ID: found.Skill.ID, Version: found.Skill.Version, Similarity: found.Similarity,
				Params: found.Params, ModelCalls: found.Skill.ModelCalls}
			return res, nil
		}
	}
	steps, err := plan.Parse(in.Goal)
	if err == nil {
		res.Steps, res.Planner = steps, PlannerOffline
		return res, nil
	}
	var pe *plan.ParseError
	if !errors.As(err, &pe) {
		return res, err
	}
	if p.Model == nil {
		return res, temporal.NewNonRetryableApplicationError(err.Error(), ErrGoalNotUnderstood, err)
	}
	if in.Observation == nil {
		res.NeedsObservation = true
		return res, nil
	}
	pg, err := p.Model.load(ctx, *in.Observation, false)
	if err != nil {
		return res, err
	}
	out, u, err := p.Model.Client.Plan(ctx, model.PlanInput{Goal: in.Goal, Params: in.Params, Page: pg.model(), Screenshot: pg.shot})
	res.Usage = u
	if err != nil {
		return res, err
	}
	res.Steps, res.Planner = out.Steps, PlannerModel
	return res, nil
}

// Replan rewrites the rest of the plan from the failure context. The model, when there is
// one, sees the numbered page and every attempt's feedback and picks a strategy. The
// offline planner knows one remedy: when the target never appeared or the page was not
// ready, wait and try the step once more.
func (p *Planner) Replan(ctx context.Context, in ReplanInput) (ReplanResult, error) {
	if p.Model != nil {
		return p.replanWithModel(ctx, in)
	}
	var last plan.Feedback
	if len(in.Feedback) > 0 {
		last = in.Feedback[len(in.Feedback)-1]
	}
	timing := len(in.Feedback) > 0
	for _, f := range in.Feedback {
		if f.Type != plan.Timing && f.Type != plan.NotVisible {
			timing = false
		}
	}
	if timing && !slices.Contains(in.Strategies, StrategyWaitAndRetry) {
		wait := plan.Step{Action: plan.Wait, Value: "3 seconds", SemanticRole: plan.Confirmation,
			ExpectedOutcome: "the page finishes loading"}
		steps := append([]plan.Step{wait, in.Failed}, in.Remaining...)
		return ReplanResult{Strategy: StrategyWaitAndRetry, Reason: "the target was not there in time; wait for the page, then try again", Steps: steps}, nil
	}
	reason := "the offline planner has no other way to do this step; set GEMINI_API_KEY so the model can replan"
	if last.Type == plan.WrongElement {
		reason = "the target is ambiguous and the offline planner cannot choose; describe it more precisely (by its row or position) or set GEMINI_API_KEY so the model can replan"
	}
	return ReplanResult{Strategy: StrategyAbort, Reason: reason}, nil
}

func (p *Planner) replanWithModel(ctx context.Context, in ReplanInput) (ReplanResult, error) {
	pg, err := p.Model.load(ctx, in.Current, false)
	if err != nil {
		return ReplanResult{}, err
	}
	img, _, err := p.Model.marked(ctx, in.Current, pg)
	if err != nil {
		return ReplanResult{}, err
	}
	out, u, err := p.Model.Client.Replan(ctx, model.ReplanInput{
		Goal: in.Goal, Completed: in.Completed, Failed: in.Failed, Feedback: in.Feedback, Remaining: in.Remaining,
		Strategies: in.Strategies, Page: pg.model(), Marked: img,
	})
	if err != nil {
		return ReplanResult{Usage: u}, err
	}
	res := ReplanResult{Strategy: out.Strategy, Reason: out.Reasoning, Steps: out.Steps, Usage: u}
	if out.Strategy == StrategyAbort {
		res.Reason = fmt.Sprintf("the model gave up: %s", out.Reasoning)
	}
	return res, nil
}
