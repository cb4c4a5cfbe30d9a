package planning

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.temporal.io/sdk/testsuite"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/skills"
)

// emptyLibrary is a skills store with nothing learned; down, it answers nothing at all.
type emptyLibrary struct{ down bool }

func (e emptyLibrary) err() error {
	if e.down {
		return errors.New("connection refused")
	}
	return nil
}

func (e emptyLibrary) Put(context.Context, skills.Skill, []float32) error { return e.err() }
func (e emptyLibrary) Update(context.Context, skills.Skill) error         { return e.err() }
func (e emptyLibrary) Get(context.Context, string) (skills.Skill, error) {
	return skills.Skill{}, errors.Join(skills.ErrNotFound, e.err())
}
func (e emptyLibrary) Nearest(context.Context, []float32, string, string, int) ([]skills.Match, error) {
	return nil, e.err()
}

// TestPlanGoalSaysWhySkillsMissed: a goal planned afresh says why no skill was reused,
// whether the library had none or could not be asked.
func TestPlanGoalSaysWhySkillsMissed(t *testing.T) {
	for _, tt := range []struct {
		down bool
		want string
	}{
		{false, "no skill for this site"},
		{true, "the skills library is unavailable (connection refused)"},
	} {
		a := &Activities{Skills: &skills.Library{Store: emptyLibrary{tt.down}, Embedder: skills.Offline{}}}
		var suite testsuite.WorkflowTestSuite
		env := suite.NewTestActivityEnvironment()
		env.RegisterActivity(a.PlanGoal)
		var res activities.PlanGoalResult
		v, err := env.ExecuteActivity(a.PlanGoal, activities.PlanGoalInput{Goal: `click "A"`, StartURL: "http://app.test/"})
		if err == nil {
			err = v.Get(&res)
		}
		if err != nil || res.Planner != activities.PlannerOffline || !strings.HasPrefix(res.SkillMiss, tt.want) {
			t.Errorf("down=%v: planner %s, miss %q (want %q...), err %v", tt.down, res.Planner, res.SkillMiss, tt.want, err)
		}
	}
}
