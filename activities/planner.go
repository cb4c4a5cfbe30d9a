package activities

import (
	"context"
	"errors"
	"slices"

	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/plan"
)

// Planner writes and rewrites plans. Without a model it is the offline planner: it reads
// explicit step-by-step goals and can only wait and retry when a step fails.
type Planner struct{}

// PlannerOffline names the offline planner in results.
const PlannerOffline = "offline"

// PlanGoal turns the goal into a plan.
func (p *Planner) PlanGoal(ctx context.Context, in PlanGoalInput) (PlanGoalResult, error) {
	steps, err := plan.Parse(in.Goal)
	if err != nil {
		var pe *plan.ParseError
		if errors.As(err, &pe) {
			return PlanGoalResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrGoalNotUnderstood, err)
		}
		return PlanGoalResult{}, err
	}
	return PlanGoalResult{Steps: steps, Planner: PlannerOffline}, nil
}

// Replan rewrites the rest of the plan from the failure context. The offline planner
// knows one remedy: when the target never appeared or the page was not ready, wait and
// try the step once more. Anything else needs a model, and it says so.
func (p *Planner) Replan(ctx context.Context, in ReplanInput) (ReplanResult, error) {
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
