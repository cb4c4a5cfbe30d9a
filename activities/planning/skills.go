package planning

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/fault"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/skills"
)

// Catalog is what ManageSkills needs of the skills' store: *skills.Weaviate.
type Catalog interface {
	List(ctx context.Context) ([]skills.Skill, error)
	Get(ctx context.Context, id string) (skills.Skill, error)
	Delete(ctx context.Context, id string) error
	Put(ctx context.Context, s skills.Skill, vector []float32) error
}

// SaveSkill changes the skills library after a run: it learns the plan of a validated
// success, saves a healed plan as a skill's next version, or counts a reuse (demoting a
// skill that keeps failing). It runs in a workflow of its own, so that it is retried while
// Weaviate is down without holding up the run.
func (a *Activities) SaveSkill(ctx context.Context, in activities.SaveSkillInput) (activities.SaveSkillResult, error) {
	if a.Skills == nil {
		return activities.SaveSkillResult{}, temporal.NewNonRetryableApplicationError("this worker has no skills library (set WEAVIATE_URL)", activities.ErrNoSkillsLibrary, nil)
	}
	var s skills.Skill
	var err error
	switch in.Op {
	case activities.SkillLearn:
		s, err = a.Skills.Learn(ctx, in.Goal, activities.Site(in.StartURL), in.Steps, in.ModelCalls)
	case activities.SkillHeal:
		s, err = a.Skills.Heal(ctx, in.SkillID, in.Goal, in.Steps)
	case activities.SkillSuccess, activities.SkillFailure:
		s, err = a.Skills.Record(ctx, in.SkillID, in.RunID, in.Op == activities.SkillSuccess)
	default:
		return activities.SaveSkillResult{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("unknown skill operation %q", in.Op), activities.ErrBadInput, nil)
	}
	if err != nil {
		return activities.SaveSkillResult{}, permanent(err)
	}
	return activities.SaveSkillResult{SkillID: s.ID, Version: s.Version, Disabled: s.Disabled}, nil
}

// permanent marks the library's errors that no retry can mend as non-retryable: a skill
// that is gone (deleted meanwhile), or a request Weaviate refused as it was (a 4xx other
// than a timeout or too many requests). The rest — Weaviate down, slow, overloaded — are
// retried, for up to a day.
func permanent(err error) error {
	if errors.Is(err, skills.ErrNotFound) {
		return temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrSkillNotFound, err)
	}
	var ce *fault.WeaviateClientError
	if errors.As(err, &ce) && ce.StatusCode >= 400 && ce.StatusCode < 500 && ce.StatusCode != http.StatusRequestTimeout && ce.StatusCode != http.StatusTooManyRequests {
		return temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrBadInput, err)
	}
	return err
}

// ManageSkills lists, shows, deletes or imports skills. It runs on a worker, which holds
// the library's address and the embedder, so that whoever asks needs only Temporal.
func (a *Activities) ManageSkills(ctx context.Context, in activities.ManageSkillsInput) (activities.ManageSkillsResult, error) {
	if a.Catalog == nil || a.Skills == nil {
		return activities.ManageSkillsResult{}, temporal.NewNonRetryableApplicationError(
			"the workers have no skills library (WEAVIATE_URL=off)", activities.ErrNoSkillsLibrary, nil)
	}
	res := activities.ManageSkillsResult{Library: a.Library, Embedder: a.Skills.Embedder.Model()}
	notFound := func(err error) error {
		if errors.Is(err, skills.ErrNotFound) {
			return temporal.NewNonRetryableApplicationError(fmt.Sprintf("%v: %s", err, in.ID), activities.ErrSkillNotFound, err)
		}
		return err
	}
	switch in.Command {
	case activities.SkillsList:
		all, err := a.Catalog.List(ctx)
		if err != nil {
			return res, err
		}
		res.Skills = append(res.Skills, all...)
	case activities.SkillsShow:
		s, err := a.Catalog.Get(ctx, in.ID)
		if err != nil {
			return res, notFound(err)
		}
		res.Skills = []activities.SkillRecord{s}
	case activities.SkillsDelete:
		if err := a.Catalog.Delete(ctx, in.ID); err != nil {
			return res, notFound(err)
		}
	case activities.SkillsImport:
		// All or nothing: a file with one skill refused saves none of them, whoever sent it.
		if err := skills.CheckAll(in.Skills); err != nil {
			return res, temporal.NewNonRetryableApplicationError("import: "+err.Error(), activities.ErrBadInput, nil)
		}
		emb := a.Skills.Embedder
		for _, s := range in.Skills {
			// Vectors are not exported: the skill is embedded again, by this worker's
			// embedder, and filed under its model.
			s.EmbeddingModel = emb.Model()
			s.ID = skills.ID(s.Site, s.Template, s.EmbeddingModel)
			vec, err := emb.Embed(ctx, s.Template)
			if err != nil {
				return res, err
			}
			if err := a.Catalog.Put(ctx, s, vec); err != nil {
				return res, err
			}
			res.Skills = append(res.Skills, s)
		}
	default:
		return res, temporal.NewNonRetryableApplicationError(fmt.Sprintf("unknown skills command %q (list, show, delete, import)", in.Command), activities.ErrBadInput, nil)
	}
	return res, nil
}
