package planning

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/skills"
)

// goneSkills is a library whose skills were all deleted, or which is down.
type goneSkills struct {
	skills.Skills
	err error
}

func (g goneSkills) Get(context.Context, string) (skills.Skill, error) { return skills.Skill{}, g.err }

// TestSaveSkillErrors: what no retry can mend is not retried for a day — no library on
// the worker, a skill deleted meanwhile — and a library that is down is.
func TestSaveSkillErrors(t *testing.T) {
	ctx := context.Background()
	in := activities.SaveSkillInput{Op: activities.SkillSuccess, SkillID: "s1", RunID: "run-1"}
	down := errors.New("weaviate: connection refused")
	for _, c := range []struct {
		name      string
		a         *Activities
		retryable bool
	}{
		{"no library", &Activities{}, false},
		{"skill deleted", &Activities{Skills: &skills.Library{Store: goneSkills{err: fmt.Errorf("%w: s1", skills.ErrNotFound)}}}, false},
		{"library down", &Activities{Skills: &skills.Library{Store: goneSkills{err: down}}}, true},
	} {
		_, err := c.a.SaveSkill(ctx, in)
		var ae *temporal.ApplicationError
		nonRetryable := errors.As(err, &ae) && ae.NonRetryable()
		if err == nil || nonRetryable == c.retryable {
			t.Errorf("%s: %v (non-retryable %v)", c.name, err, nonRetryable)
		}
	}
}
