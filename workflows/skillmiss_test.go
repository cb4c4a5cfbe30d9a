package workflows_test

import (
	"testing"

	"github.com/stretchr/testify/mock"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/workflows"
)

// TestSkillMissIsShown: why the library had no skill for the goal is in the run's output
// and its progress query, so that a miss can be acted on.
func TestSkillMissIsShown(t *testing.T) {
	const why = "best similarity 0.930 < 0.95 (skill s1, \"Click {{value}}\")"
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
	env := newEnv(t, f)
	validates(env, true)
	env.OnActivity("PlanGoal", mock.Anything, mock.Anything).Return(activities.PlanGoalResult{
		Planner: activities.PlannerOffline, Steps: steps(t, `click "A", then check that "A" is visible`), SkillMiss: why,
	}, nil)
	res := execute(t, env, workflows.GoalInput{Goal: `click "A", then check that "A" is visible`, StartURL: startURL})
	if res.Skill.CacheHit || res.Skill.MissReason != why {
		t.Fatalf("the output's skill should say why it missed: %+v", res.Skill)
	}
	v, err := env.QueryWorkflow(workflows.ProgressQuery)
	var p workflows.Progress
	if err == nil {
		err = v.Get(&p)
	}
	if err != nil || p.Skill == nil || p.Skill.MissReason != why {
		t.Fatalf("the progress query should say why the skill missed: %+v %v", p.Skill, err)
	}
}
