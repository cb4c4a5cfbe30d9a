package skills

import (
	"context"
	"slices"
	"time"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/skillcheck"
	"github.com/webagent-dev/webagent/plan"
)

// DefaultThreshold is the similarity above which a skill is reused (the core spec's 0.95).
const DefaultThreshold = 0.95

// Demotion: a skill that has failed this often, and more often than it succeeded, is
// disabled.
const demoteAfter = activities.SkillDemoteAfter

// Skills is what the library needs of the vector store.
type Skills interface {
	Put(ctx context.Context, s Skill, vector []float32) error
	Update(ctx context.Context, s Skill) error
	Get(ctx context.Context, id string) (Skill, error)
	Nearest(ctx context.Context, vector []float32, site, model string, limit int) ([]Match, error)
}

// Library finds, learns, heals and demotes skills.
type Library struct {
	Store     Skills
	Embedder  Embedder
	Threshold float64
}

// Found is a skill to reuse for a goal, with the goal's own values for its slots.
type Found struct {
	Skill      Skill
	Similarity float64
	// Params are the new goal's slot values, to bind into the skill's plan.
	Params map[string]string
}

func (l *Library) threshold() float64 {
	if l.Threshold > 0 {
		return l.Threshold
	}
	return DefaultThreshold
}

// Find returns the skill to reuse for a goal on a site, or nil and why none was: a miss
// always says why. A skill qualifies when it is the site's, its template is similar enough, it has the same
// slots as the goal, its plan uses every slot whose value changes, and its plan, bound to
// the goal's values, holds none of the values it was learned with: an old value is never
// replayed into a new run.
func (l *Library) Find(ctx context.Context, goal, site string) (*Found, string, error) {
	tmpl, slots := Template(goal)
	vec, err := l.Embedder.Embed(ctx, tmpl)
	if err != nil {
		return nil, "", err
	}
	matches, err := l.Store.Nearest(ctx, vec, site, l.Embedder.Model(), 3)
	if err != nil {
		return nil, "", err
	}
	// A skill runs only on its own site: the store filters by it, and what it answers is
	// held to it again, since a skill replayed elsewhere would act on another site.
	matches = slices.DeleteFunc(matches, func(m Match) bool { return m.Skill.Site != site })
	params := map[string]string{}
	for _, s := range slots {
		params[s.Name] = s.Value
	}
	var reasons []string
	for _, m := range matches {
		if m.Similarity < l.threshold() {
			break
		}
		why := refuse(m.Skill, params)
		if why == "" {
			return &Found{Skill: m.Skill, Similarity: m.Similarity, Params: params}, "", nil
		}
		reasons = append(reasons, why)
	}
	return nil, l.missReason(ctx, site, tmpl, matches, reasons), nil
}

// Learn saves the plan that reached a goal, parameterised by the goal's values. Learning
// a template again (say, after its skill was disabled) makes the next version of the
// same skill.
func (l *Library) Learn(ctx context.Context, goal, site string, steps []plan.Step, modelCalls int) (Skill, error) {
	tmpl, slots := Template(goal)
	now := time.Now().UTC()
	s := Skill{
		ID: ID(site, tmpl, l.Embedder.Model()), Goal: goal, Template: tmpl, Plan: plan.Renumber(Parameterize(steps, slots), 0),
		Site: site, Examples: map[string]string{}, SuccessCount: 1, LastUsed: now, CreatedAt: now, Version: 1,
		EmbeddingModel: l.Embedder.Model(), ModelCalls: modelCalls,
	}
	for _, sl := range slots {
		s.Params = append(s.Params, sl.Name)
		s.Examples[sl.Name] = sl.Value
	}
	// A plan the library would refuse is refused before the embedder is asked.
	if err := Check(s); err != nil {
		return Skill{}, refused(err)
	}
	vec, err := l.Embedder.Embed(ctx, tmpl)
	if err != nil {
		return Skill{}, err
	}
	if old, err := l.Store.Get(ctx, s.ID); err == nil {
		s.Version, s.CreatedAt = old.Version+1, old.CreatedAt
	}
	return s, l.Store.Put(ctx, s, vec)
}

// Heal saves the plan a reused skill ended with, after its steps were partly replanned,
// as the skill's next version.
func (l *Library) Heal(ctx context.Context, id, goal string, steps []plan.Step) (Skill, error) {
	s, err := l.Store.Get(ctx, id)
	if err != nil {
		return Skill{}, err
	}
	_, slots := Template(goal)
	s.Plan = plan.Renumber(Parameterize(steps, slots), 0)
	s.Version++
	s.SuccessCount++
	s.LastUsed = time.Now().UTC()
	if err := Check(s); err != nil {
		return Skill{}, refused(err)
	}
	vec, err := l.Embedder.Embed(ctx, s.Template)
	if err != nil {
		return Skill{}, err
	}
	return s, l.Store.Put(ctx, s, vec)
}

// Record counts a run that reused a skill; one that keeps failing is disabled. It counts
// each run once (run is the run's workflow ID): a retried activity, or a save run twice,
// finds the run already counted and changes nothing. Two runs counted at once may write
// over each other (the store merges whole objects): each reads its write back, and counts
// again on the newer state when its own run is not there.
func (l *Library) Record(ctx context.Context, id, run string, success bool) (Skill, error) {
	for try := 0; ; try++ {
		s, err := l.Store.Get(ctx, id)
		if err != nil || (run != "" && slices.Contains(s.CountedRuns, run)) {
			return s, err
		}
		count(&s, run, success)
		if err := l.Store.Update(ctx, s); err != nil || run == "" || try == 4 {
			return s, err
		}
		if now, err := l.Store.Get(ctx, id); err != nil || slices.Contains(now.CountedRuns, run) {
			return s, err
		}
	}
}

// countedRuns is how many of the last runs a skill remembers having counted (skillcheck).
const countedRuns = skillcheck.CountedRuns

// count adds a run's outcome to the skill.
func count(s *Skill, run string, success bool) {
	s.LastUsed = time.Now().UTC()
	s.Suspect = !success
	if success {
		s.SuccessCount++
	} else {
		s.FailureCount++
		if s.FailureCount >= demoteAfter && s.FailureCount > s.SuccessCount {
			s.Disabled = true
		}
	}
	if run != "" {
		s.CountedRuns = append(s.CountedRuns, run)
		if n := len(s.CountedRuns); n > countedRuns {
			s.CountedRuns = s.CountedRuns[n-countedRuns:]
		}
	}
}
