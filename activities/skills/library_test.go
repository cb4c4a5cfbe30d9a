package skills_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/webagent-dev/webagent/activities/skills"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
)

// TestLibrary learns, finds, heals and demotes skills in a real Weaviate.
func TestLibrary(t *testing.T) {
	ctx := context.Background()
	store := skills.NewWeaviate(testenv.Weaviate(t).Addr)
	lib := &skills.Library{Store: store, Embedder: skills.Offline{}}
	const site = "http://app.test"
	steps := []plan.Step{
		{Action: plan.Click, TargetDescription: "New project", State: "/projects#page"},
		{Action: plan.Type, TargetDescription: "Project name", Value: "Zeus", State: "/projects#dialog-new-project"},
		{Action: plan.Select, TargetDescription: "Priority", Value: "Low"},
		{Action: plan.Click, TargetDescription: "Create"},
		{Action: plan.Assert, Value: "Zeus"},
	}
	learned, err := lib.Learn(ctx, `Create a project named "Zeus" with priority Low`, site, steps, 4)
	if err != nil {
		t.Fatal(err)
	}
	if learned.Version != 1 || learned.Plan[1].Value != "{{name}}" || learned.Plan[2].Value != "{{priority}}" || learned.Plan[1].State == "" {
		t.Fatalf("learned %+v", learned)
	}

	found, _, err := lib.Find(ctx, `Create a project named "Apollo" with priority High`, site)
	if err != nil || found == nil {
		t.Fatalf("the same goal with other values should find the skill: %v %v", found, err)
	}
	if found.Similarity < 0.999 || found.Params["name"] != "Apollo" || found.Params["priority"] != "High" || found.Skill.ModelCalls != 4 {
		t.Fatalf("found %+v", found)
	}
	for _, miss := range []struct{ goal, site string }{
		{`Create a project named "Apollo" with priority High`, "http://other.test"}, // another site
		{`Archive the project "Apollo"`, site},                                      // another goal
		{`Make a new project called "Apollo"`, site},                                // a paraphrase: the offline embedder does not know
	} {
		if f, _, err := lib.Find(ctx, miss.goal, miss.site); err != nil || f != nil {
			t.Errorf("%q on %s should miss: %+v %v", miss.goal, miss.site, f, err)
		}
	}

	// A healed run: the skill's steps as run (templated), then a replanned one with the
	// run's own value.
	ran := append(append([]plan.Step{}, learned.Plan[:4]...), plan.Step{Action: plan.Assert, Value: "Apollo created"})
	healed, err := lib.Heal(ctx, learned.ID, `Create a project named "Apollo" with priority High`, ran)
	if err != nil || healed.Version != 2 || healed.SuccessCount != 2 || healed.Plan[4].Value != "{{name}} created" || healed.Plan[1].Value != "{{name}}" {
		t.Fatalf("healed %+v %v", healed, err)
	}
	for i := 0; i < 2; i++ {
		if _, err := lib.Record(ctx, learned.ID, fmt.Sprintf("run-%d", i), false); err != nil {
			t.Fatal(err)
		}
		// The same run counted again (a retried activity) changes nothing.
		if _, err := lib.Record(ctx, learned.ID, fmt.Sprintf("run-%d", i), false); err != nil {
			t.Fatal(err)
		}
	}
	s, err := store.Get(ctx, learned.ID)
	if err != nil || s.Disabled || s.FailureCount != 2 || !s.Suspect {
		t.Fatalf("2 failures after 2 successes should make it suspect, not disable it: %+v %v", s, err)
	}
	if s, _ = lib.Record(ctx, learned.ID, "run-2", true); s.Suspect || s.SuccessCount != 3 {
		t.Fatalf("a success clears suspect: %+v", s)
	}
	if _, err := lib.Record(ctx, learned.ID, "run-3", false); err != nil {
		t.Fatal(err)
	}
	if s, _ = lib.Record(ctx, learned.ID, "run-4", false); !s.Disabled {
		t.Fatalf("4 failures after 3 successes should disable it: %+v", s)
	}
	if f, _, _ := lib.Find(ctx, `Create a project named "Apollo" with priority High`, site); f != nil {
		t.Fatal("a disabled skill must not be found")
	}
	all, err := store.List(ctx)
	if err != nil || len(all) != 1 {
		t.Fatalf("list: %v %v", all, err)
	}
	if err := store.Delete(ctx, learned.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Get(ctx, learned.ID); !errors.Is(err, skills.ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
}
