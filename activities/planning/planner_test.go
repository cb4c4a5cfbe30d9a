package planning

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

func TestPlanGoalRejectsOpenEndedGoals(t *testing.T) {
	_, err := (&Activities{}).PlanGoal(context.Background(), activities.PlanGoalInput{Goal: "Archive my Q4 bugs project"})
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != activities.ErrGoalNotUnderstood || !ae.NonRetryable() {
		t.Fatalf("want a non-retryable %s error, got %v", activities.ErrGoalNotUnderstood, err)
	}
}

func TestOfflineReplan(t *testing.T) {
	failed := plan.Step{Step: 2, Action: plan.Click, TargetDescription: "Import"}
	rest := []plan.Step{{Step: 3, Action: plan.Assert, Value: "Imported"}}
	notThere := []plan.Feedback{{Type: plan.NotVisible, Details: "no Import"}, {Type: plan.Timing, Details: "detached"}}
	p := &Activities{}

	res, err := p.Replan(context.Background(), activities.ReplanInput{Failed: failed, Feedback: notThere, Remaining: rest})
	if err != nil || res.Strategy != activities.StrategyWaitAndRetry || len(res.Steps) != 3 || res.Steps[0].Action != plan.Wait || res.Steps[1] != failed || res.Steps[2] != rest[0] {
		t.Fatalf("a target that never appeared: want wait, the step, the rest; got %+v %v", res, err)
	}
	res, _ = p.Replan(context.Background(), activities.ReplanInput{Failed: failed, Feedback: notThere, Strategies: []string{activities.StrategyWaitAndRetry}})
	if res.Strategy != activities.StrategyAbort || !strings.Contains(res.Reason, "GEMINI_API_KEY") {
		t.Fatalf("waiting twice: want abort naming the key, got %+v", res)
	}
	res, _ = p.Replan(context.Background(), activities.ReplanInput{Failed: failed, Feedback: []plan.Feedback{{Type: plan.NotVisible, Details: "no Import"}, {Type: plan.NotVisible, Details: "no Import"}}})
	if res.Strategy != activities.StrategyAbort || !strings.Contains(res.Reason, "not on the page: no Import") {
		t.Fatalf("a target never there, with every attempt waiting for it: want abort at once, got %+v", res)
	}
	res, _ = p.Replan(context.Background(), activities.ReplanInput{Failed: failed, Feedback: []plan.Feedback{{Type: plan.WrongElement, Details: "2 match"}}})
	if res.Strategy != activities.StrategyAbort || !strings.Contains(res.Reason, "ambiguous") {
		t.Fatalf("an ambiguous target: want abort saying so, got %+v", res)
	}
}
