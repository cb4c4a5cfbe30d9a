package skills

import (
	"slices"

	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/skillcheck"
	"github.com/webagent-dev/webagent/plan"
)

// The caps on a skill (skillcheck).
const (
	MaxSkillSteps     = skillcheck.MaxSkillSteps
	MaxSkillGoalBytes = skillcheck.MaxSkillGoalBytes
)

// Check says what is wrong with a skill before it is saved, naming the skill, or nil
// (skillcheck.Check).
func Check(s Skill) error { return skillcheck.Check(s) }

// CheckAll checks every skill, so that an import saves all of them or none.
func CheckAll(all []Skill) error { return skillcheck.CheckAll(all) }

// refused makes a refusal final: no retry mends a skill, and a save retried for a day
// would only be refused again.
func refused(err error) error {
	return temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrBadInput, err)
}

// retarget reads every step's target again from its description, as Parameterize does:
// a saved skill's target is always its description's, so that the plan shown is the plan
// run, and no larger.
func retarget(steps []plan.Step) []plan.Step {
	out := slices.Clone(steps)
	for i := range out {
		out[i].Target = nil
		out[i] = out[i].WithTarget()
	}
	return out
}
