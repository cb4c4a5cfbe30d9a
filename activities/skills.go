package activities

import (
	"context"
	"fmt"
	"net/url"

	"github.com/webagent-dev/webagent/activities/skills"
)

// Site is the origin of a start URL: skills are kept per site.
func Site(start string) string {
	u, err := url.Parse(start)
	if err != nil || u.Host == "" {
		return start
	}
	return u.Scheme + "://" + u.Host
}

// SaveSkill changes the skills library after a run: it learns the plan of a validated
// success, saves a healed plan as a skill's next version, or counts a reuse (demoting a
// skill that keeps failing). It runs in a workflow of its own, so that it is retried while
// Weaviate is down without holding up the run.
func (p *Planner) SaveSkill(ctx context.Context, in SaveSkillInput) (SaveSkillResult, error) {
	if p.Skills == nil {
		return SaveSkillResult{}, fmt.Errorf("this worker has no skills library (set WEAVIATE_URL)")
	}
	var s skills.Skill
	var err error
	switch in.Op {
	case SkillLearn:
		s, err = p.Skills.Learn(ctx, in.Goal, Site(in.StartURL), in.Steps, in.ModelCalls)
	case SkillHeal:
		s, err = p.Skills.Heal(ctx, in.SkillID, in.Goal, in.Steps)
	case SkillSuccess, SkillFailure:
		s, err = p.Skills.Record(ctx, in.SkillID, in.Op == SkillSuccess)
	default:
		return SaveSkillResult{}, fmt.Errorf("unknown skill operation %q", in.Op)
	}
	if err != nil {
		return SaveSkillResult{}, err
	}
	return SaveSkillResult{SkillID: s.ID, Version: s.Version, Disabled: s.Disabled}, nil
}
