package activities

import (
	"net/url"
	"time"

	"github.com/webagent-dev/webagent/plan"
)

// Planner names who wrote a run's plan.
type Planner string

// The planners.
const (
	PlannerOffline Planner = "offline"
	PlannerGiven   Planner = "given"
	PlannerModel   Planner = "gemini"
	PlannerSkill   Planner = "skill"
)

// PlanGoalInput asks for a plan.
type PlanGoalInput struct {
	Goal     string            `json:"goal"`
	StartURL string            `json:"startUrl"`
	Params   map[string]string `json:"params,omitempty"`
	// Plan, when given, is checked and used as is.
	Plan []plan.Step `json:"plan,omitempty"`
	// Observation is the first look at the page, for a model that plans.
	Observation *Snapshot `json:"observation,omitempty"`
	// SkipSkills: plan afresh, without looking for a skill.
	SkipSkills bool   `json:"skipSkills,omitempty"`
	Budget     Budget `json:"budget,omitempty"`
}

// SkillMatch is the skill a goal reuses.
type SkillMatch struct {
	ID         string  `json:"id"`
	Version    int     `json:"version"`
	Similarity float64 `json:"similarity"`
	// Params are the goal's values for the skill's slots.
	Params map[string]string `json:"params,omitempty"`
	// ModelCalls is what learning the skill cost.
	ModelCalls int `json:"modelCalls"`
}

// PlanGoalResult is the plan and who wrote it.
type PlanGoalResult struct {
	Steps   []plan.Step `json:"steps"`
	Planner Planner     `json:"planner"`
	// ModelAvailable says whether the worker can ask a model: the run then lets it decide,
	// evaluate, replan, validate and summarise.
	ModelAvailable bool `json:"modelAvailable"`
	// NeedsObservation: the goal needs the model planner, which needs to see the page
	// first; call again with an Observation.
	NeedsObservation bool  `json:"needsObservation,omitempty"`
	Usage            Usage `json:"usage,omitempty"`
	// SkillsAvailable says whether the worker has a skills library to learn into; Skill
	// is the skill the plan comes from, on a cache hit.
	SkillsAvailable bool        `json:"skillsAvailable,omitempty"`
	Skill           *SkillMatch `json:"skill,omitempty"`
	// SkillMiss says why no skill was reused when the library was asked: no skill for
	// the site, too little similarity, other slots, an old value that would be replayed,
	// a disabled skill, or the library unavailable.
	SkillMiss string   `json:"skillMiss,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
	// Parts, instead of Steps, are independent sub-goals (a goal written "In parallel:
	// ...; ..."): each runs as a goal of its own, after the parts it depends on.
	Parts []plan.Part `json:"parts,omitempty"`
}

// ReplanInput is the failure context the replanner works from.
type ReplanInput struct {
	Goal      string          `json:"goal"`
	Completed []plan.Step     `json:"completed,omitempty"`
	Failed    plan.Step       `json:"failed"`
	Feedback  []plan.Feedback `json:"feedback,omitempty"`
	Remaining []plan.Step     `json:"remaining,omitempty"`
	Current   Snapshot        `json:"current"`
	// Strategies are the ones already tried for this failed step.
	Strategies []string `json:"strategies,omitempty"`
	// Hint is a person's advice for the failed step (the hint Update).
	Hint   string `json:"hint,omitempty"`
	Budget Budget `json:"budget,omitempty"`
}

// Replanning strategies (see plan.Strategy*).
const (
	StrategyWaitAndRetry = plan.StrategyWaitAndRetry
	StrategyAbort        = plan.StrategyAbort
)

// ReplanResult is the new remainder of the plan, replacing the failed step and those
// after it, or an abort with its reason.
type ReplanResult struct {
	Strategy string      `json:"strategy"`
	Reason   string      `json:"reason"`
	Steps    []plan.Step `json:"steps,omitempty"`
	Usage    Usage       `json:"usage,omitempty"`
}

// SkillOp is what SaveSkill does to the library.
type SkillOp string

// The operations of SaveSkill.
const (
	SkillLearn   SkillOp = "learn"
	SkillHeal    SkillOp = "heal"
	SkillSuccess SkillOp = "success"
	SkillFailure SkillOp = "failure"
)

// SaveSkillInput changes the skills library after a run: learn the plan of a validated
// success, save a healed plan as a skill's next version, or count a reuse.
type SaveSkillInput struct {
	Op       SkillOp     `json:"op"`
	Goal     string      `json:"goal"`
	StartURL string      `json:"startUrl"`
	SkillID  string      `json:"skillId,omitempty"`
	Steps    []plan.Step `json:"steps,omitempty"`
	// ModelCalls is what the run cost, recorded with a learned skill.
	ModelCalls int `json:"modelCalls,omitempty"`
	// RunID is the run's workflow ID: a reuse is counted once per run.
	RunID string `json:"runId,omitempty"`
}

// SaveSkillResult says what was saved.
type SaveSkillResult struct {
	SkillID  string `json:"skillId"`
	Version  int    `json:"version"`
	Disabled bool   `json:"disabled"`
}

// SkillsCommand is what ManageSkills does.
type SkillsCommand string

// The commands of ManageSkills.
const (
	SkillsList   SkillsCommand = "list"
	SkillsShow   SkillsCommand = "show"
	SkillsDelete SkillsCommand = "delete"
	// SkillsImport embeds the given skills again with the worker's embedder and saves them.
	SkillsImport SkillsCommand = "import"
)

// ManageSkillsInput is one command on the skills library, run by a worker, which holds
// the library's address and the embedder.
type ManageSkillsInput struct {
	Command SkillsCommand `json:"command"`
	ID      string        `json:"id,omitempty"`
	// Skills are the skills to import.
	Skills []SkillRecord `json:"skills,omitempty"`
}

// ManageSkillsResult is the command's answer.
type ManageSkillsResult struct {
	Skills []SkillRecord `json:"skills,omitempty"`
	// Library names where the skills are, for people.
	Library string `json:"library"`
	// Embedder is the embedding model the worker files skills under.
	Embedder string `json:"embedder"`
}

// SkillRecord is a skill — a plan that reached a goal, kept for goals that mean the same
// — as it is listed, shown, exported and imported: everything but its vector. The skills
// library keeps exactly this (skills.Skill is this type). Goal is the goal it was learned
// from; Template, the goal with its values as {{slot}} placeholders; Params, the slots'
// names; Examples, the values it was learned with (never replayed: a run binds its own).
// SuccessCount and FailureCount count the runs that used it (a skill that keeps failing
// is disabled); Version counts the plan's versions (a plan healed by replanning is the
// next one); Suspect says the last run that reused it failed (a canary schedule's drift
// alarm), which a success clears; ModelCalls is what learning it cost, for reporting what
// reuse saves.
type SkillRecord struct {
	ID             string            `json:"id"`
	Version        int               `json:"version"`
	Goal           string            `json:"goal"`
	Template       string            `json:"goalTemplate"`
	Site           string            `json:"site"`
	Params         []string          `json:"params,omitempty"`
	Examples       map[string]string `json:"examples,omitempty"`
	Plan           []plan.Step       `json:"plan"`
	EmbeddingModel string            `json:"embeddingModel"`
	SuccessCount   int               `json:"successCount"`
	FailureCount   int               `json:"failureCount"`
	LastUsed       time.Time         `json:"lastUsed"`
	CreatedAt      time.Time         `json:"createdAt"`
	ModelCalls     int               `json:"modelCalls"`
	Disabled       bool              `json:"disabled"`
	Suspect        bool              `json:"suspect,omitempty"`
	// CountedRuns are the last runs whose reuse was counted (their workflow IDs), so that
	// a run is counted once however often its save is tried.
	CountedRuns []string `json:"countedRuns,omitempty"`
}

// Site is the origin of a start URL: skills are kept per site.
func Site(start string) string {
	u, err := url.Parse(start)
	if err != nil || u.Host == "" {
		return start
	}
	return u.Scheme + "://" + u.Host
}

// SkillDemoteAfter is how many failed reuses disable a skill, once they outnumber its
// successes.
const SkillDemoteAfter = 3
