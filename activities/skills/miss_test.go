package skills_test

import (
	"context"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/activities/skills"
	"github.com/webagent-dev/webagent/plan"
)

// memory is a skills store in memory: Nearest answers with the matches it was given, so
// that a test sets the similarity a real store would find.
type memory struct {
	byID    map[string]skills.Skill
	matches []skills.Match
}

func (m *memory) Put(_ context.Context, s skills.Skill, _ []float32) error {
	m.byID[s.ID] = s
	return nil
}

func (m *memory) Update(_ context.Context, s skills.Skill) error {
	m.byID[s.ID] = s
	return nil
}

func (m *memory) Get(_ context.Context, id string) (skills.Skill, error) {
	if s, ok := m.byID[id]; ok {
		return s, nil
	}
	return skills.Skill{}, skills.ErrNotFound
}

func (m *memory) Nearest(context.Context, []float32, string, string, int) ([]skills.Match, error) {
	return m.matches, nil
}

const (
	site   = "http://app.test"
	apollo = `Click "New project", type "Apollo" into "Project name", select "High" from "Priority", click "Create", then check that "Apollo" is visible`
	zeus   = `Click "New project", type "Zeus" into "Project name", select "High" from "Priority", click "Create", then check that "Zeus" is visible`
)

// learnDemo learns the demo goal from the offline planner's plan, as a first run does.
func learnDemo(t *testing.T) (*skills.Library, *memory, skills.Skill) {
	t.Helper()
	steps, err := plan.Parse(apollo)
	if err != nil {
		t.Fatal(err)
	}
	store := &memory{byID: map[string]skills.Skill{}}
	lib := &skills.Library{Store: store, Embedder: skills.Offline{}}
	s, err := lib.Learn(context.Background(), apollo, site, steps, 0)
	if err != nil {
		t.Fatal(err)
	}
	return lib, store, s
}

// A goal that names its value twice reuses its skill with the new value in every place.
func TestFindBindsARepeatedValueEverywhere(t *testing.T) {
	lib, store, learned := learnDemo(t)
	store.matches = []skills.Match{{Skill: learned, Similarity: 1}}
	found, miss, err := lib.Find(context.Background(), zeus, site)
	if err != nil || found == nil {
		t.Fatalf("the demo goal with another name should be a hit: %v (miss: %s)", err, miss)
	}
	var typed, checked bool
	for _, s := range found.Skill.Plan {
		b := s.Bind(found.Params)
		if strings.Contains(b.TargetDescription+b.Value, "Apollo") {
			t.Errorf("a bound step holds the old value: %s", b)
		}
		typed = typed || (b.Action == plan.Type && b.Value == "Zeus")
		checked = checked || (b.Action == plan.Assert && strings.Contains(b.Value+b.TargetDescription, "Zeus"))
	}
	if !typed || !checked {
		t.Fatalf("Zeus should be typed and checked: %+v with %v", found.Skill.Plan, found.Params)
	}
}

// Every lookup that misses says why.
func TestFindSaysWhyItMisses(t *testing.T) {
	_, _, learned := learnDemo(t)
	withPlan := func(steps ...plan.Step) skills.Skill {
		s := learned
		s.Plan = steps
		return s
	}
	// Learned before a repeated value was one slot: the check still says "Apollo".
	leaky := withPlan(append(append([]plan.Step{}, learned.Plan[:4]...), plan.Step{Action: plan.Assert, Value: "Apollo created"})...)
	// A plan that types a fixed name: the goal's new name would be ignored.
	unbound := withPlan(learned.Plan[0], plan.Step{Action: plan.Type, TargetDescription: "{{value_3}}", Value: "Fixed"},
		learned.Plan[2], learned.Plan[3], plan.Step{Action: plan.Assert, Value: "Fixed"})
	disabled := learned
	disabled.Disabled = true
	tests := []struct {
		name    string
		goal    string
		matches []skills.Match
		stored  []skills.Skill
		want    string
	}{
		{"nothing learned", zeus, nil, nil, "no skill for this site"},
		{"too far", zeus, []skills.Match{{Skill: learned, Similarity: 0.93}}, nil, "best similarity 0.930 < 0.95"},
		{"two new values where the skill had one", strings.Replace(zeus, `check that "Zeus"`, `check that "Hera"`, 1),
			[]skills.Match{{Skill: learned, Similarity: 0.97}}, nil, "slots differ: skill " + learned.ID + " has"},
		{"a new value the plan ignores", zeus, []skills.Match{{Skill: unbound, Similarity: 1}}, nil, "does not use the goal's [value_2]"},
		{"an old value in the plan", zeus, []skills.Match{{Skill: leaky, Similarity: 1}}, nil, "an old value would be replayed: skill " + learned.ID + "'s plan still holds [Apollo]"},
		{"disabled", zeus, nil, []skills.Skill{disabled}, "skill " + learned.ID + " is disabled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := &memory{byID: map[string]skills.Skill{}, matches: tt.matches}
			for _, s := range tt.stored {
				store.byID[s.ID] = s
			}
			lib := &skills.Library{Store: store, Embedder: skills.Offline{}}
			found, miss, err := lib.Find(context.Background(), tt.goal, site)
			if err != nil || found != nil {
				t.Fatalf("want a miss, got %+v %v", found, err)
			}
			if !strings.Contains(miss, tt.want) {
				t.Fatalf("miss reason %q, want it to say %q", miss, tt.want)
			}
		})
	}
}
