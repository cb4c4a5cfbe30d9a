package skills_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities/skills"
	"github.com/webagent-dev/webagent/plan"
)

// TestCheck: a skill saved or imported is held to what a run's plan is held to, to its
// site, and to secrets written as placeholders; each refusal names the skill and says
// what is wrong.
func TestCheck(t *testing.T) {
	_, _, demo := learnDemo(t)
	if err := skills.Check(demo); err != nil {
		t.Fatalf("the learned demo skill is refused: %v", err)
	}
	with := func(change func(s *skills.Skill)) skills.Skill {
		s := demo
		s.Plan = append([]plan.Step{}, demo.Plan...)
		s.Params = append([]string{}, demo.Params...)
		change(&s)
		return s
	}
	step := func(a plan.Action, target, value string) func(s *skills.Skill) {
		return func(s *skills.Skill) {
			st := plan.Step{Step: len(s.Plan) + 1, Action: a, TargetDescription: target, Value: value}
			if a == plan.Navigate {
				st.URL, st.Value = value, ""
			} else if a == plan.Extract {
				st.Into, st.Value = value, ""
			}
			s.Plan = append(s.Plan, st)
		}
	}
	long := strings.Repeat("x", plan.MaxFieldLen+1)
	for _, c := range []struct {
		name   string
		change func(s *skills.Skill)
		want   string // "" accepted, else part of the refusal
	}{
		{"as learned", func(*skills.Skill) {}, ""},
		{"https site with a port", func(s *skills.Skill) { s.Site = "https://app.example.com:8443" }, ""},
		{"no site", func(s *skills.Skill) { s.Site = "" }, "it has no site: a skill is for one site"},
		{"site without a scheme", func(s *skills.Skill) { s.Site = "app.test" }, `its site "app.test" is not a site: write the origin`},
		{"site with a path", func(s *skills.Skill) { s.Site = "http://app.test/projects" }, "is not a site"},
		{"site with a user", func(s *skills.Skill) { s.Site = "http://ops@app.test" }, "is not a site"},
		{"ftp site", func(s *skills.Skill) { s.Site = "ftp://app.test" }, "is not a site"},
		{"site with no host", func(s *skills.Skill) { s.Site = "http://" }, "is not a site"},
		{"too many steps", func(s *skills.Skill) {
			for len(s.Plan) <= skills.MaxSkillSteps {
				s.Plan = append(s.Plan, plan.Step{Step: len(s.Plan) + 1, Action: plan.Click, TargetDescription: "Next"})
			}
		}, "the plan has 201 steps; at most 200 are allowed"},
		{"no steps", func(s *skills.Skill) { s.Plan = nil }, "the plan has no steps"},
		{"unknown action", step("RUN_SCRIPT", "", "rm -rf"), `unknown action "RUN_SCRIPT"`},
		{"long value", step(plan.Type, "Notes", long), "a target, value or expected outcome of 2001 bytes; at most 2000"},
		{"long state", func(s *skills.Skill) { s.Plan[0].State = long }, "step 1: its state is 2001 bytes"},
		{"long goal", func(s *skills.Skill) { s.Goal = strings.Repeat("g", skills.MaxSkillGoalBytes+1) }, "its goal is 20001 bytes"},
		{"navigate on its site", step(plan.Navigate, "", "http://app.test/projects?tab={{value}}"), ""},
		{"navigate to a subdomain", step(plan.Navigate, "", "http://docs.app.test/"), ""},
		{"navigate by path", step(plan.Navigate, "", "/settings"), ""},
		{"navigate elsewhere", step(plan.Navigate, "", "https://evil.test/steal"), "step 6: a skill stays on its site (http://app.test): https://evil.test/steal is not one of"},
		{"navigate without scheme elsewhere", step(plan.Navigate, "", "//evil.test/steal"), "a skill stays on its site"},
		{"navigate to a script", step(plan.Navigate, "", "javascript:alert(1)"), "only http and https"},
		{"navigate to a host a goal picks", step(plan.Navigate, "", "https://{{value}}/"), "a skill stays on its site"},
		{"navigate to an internal address", step(plan.Navigate, "", "http://169.254.169.254/latest/meta-data/"), "internal address"},
		{"a secret typed", step(plan.Type, "Password", "{{secret:app_password}}"), ""},
		{"a one-time code typed", step(plan.Type, "One-time code", "{{totp:app}}"), ""},
		{"a slot typed into a secret field", step(plan.Type, "PIN", "{{value}}"), ""},
		{"a password as a value", step(plan.Type, "Password", "hunter2"), `step 6 types a value into "Password": a skill never carries a secret; write {{secret:name}}`},
		{"an API key as a value", step(plan.Type, "the API key field", "sk-live-123"), "a skill never carries a secret"},
		{"a malformed placeholder", step(plan.Type, "Password", "{{secret: app password}}"), `"{{secret: app password}}" is not a secret placeholder`},
		{"a secret checked", step(plan.Assert, "", "{{secret:app_password}}"), "step 6: a secret is only typed"},
		{"a secret in an address", step(plan.Navigate, "", "http://app.test/?k={{secret:key}}"), "a secret is only typed"},
		{"a slot not in the template", func(s *skills.Skill) { s.Params = append(s.Params, "other") }, `slot "other" is not in its template`},
		{"a slot named twice", func(s *skills.Skill) { s.Params = append(s.Params, s.Params[0]) }, "is named twice"},
		{"a slot that is not a name", func(s *skills.Skill) { s.Params = append(s.Params, "a b") }, `slot "a b" is not a name`},
		{"an example for no slot", func(s *skills.Skill) {
			s.Examples = map[string]string{"password": "hunter2"}
		}, `example "password" is for no slot`},
		{"an unfilled placeholder", step(plan.Type, "Notes", "{{note}}"), "its plan uses placeholders that neither a slot nor an earlier EXTRACT fills: note"},
		{"a placeholder an EXTRACT fills", func(s *skills.Skill) {
			step(plan.Extract, "the project ID", "id")(s)
			step(plan.Type, "Search", "{{id}}")(s)
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := skills.Check(with(c.change))
			if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("Check: %v\nwant %q", err, c.want)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "skill "+demo.ID+": ") {
				t.Errorf("the refusal should name the skill: %v", err)
			}
		})
	}
}

// TestCheckAllNamesEachSkill: an import is checked whole, and a skill without an ID yet
// is named by its template.
func TestCheckAllNamesEachSkill(t *testing.T) {
	_, _, demo := learnDemo(t)
	noSite := demo
	noSite.ID, noSite.Site = "", ""
	err := skills.CheckAll([]skills.Skill{demo, noSite})
	if err == nil || !strings.Contains(err.Error(), "1 of 2 skills refused") || !strings.Contains(err.Error(), `skill "Click {{value}}`) {
		t.Fatalf("CheckAll: %v", err)
	}
	if err := skills.CheckAll([]skills.Skill{demo}); err != nil {
		t.Fatal(err)
	}
}

// TestRefusedSkillsAreNotSaved: whatever saves a skill — learning, healing, an import
// through the store — refuses one Check refuses, for good (no retry mends it), before it
// asks the embedder or the store.
func TestRefusedSkillsAreNotSaved(t *testing.T) {
	ctx := context.Background()
	nonRetryable := func(err error) bool {
		var ae *temporal.ApplicationError
		return errors.As(err, &ae) && ae.NonRetryable()
	}
	lib, store, demo := learnDemo(t)
	steps := []plan.Step{{Action: plan.Type, TargetDescription: "Password", Value: "hunter2"}, {Action: plan.Click, TargetDescription: "Sign in"}}
	if _, err := lib.Learn(ctx, "Sign in", site, steps, 0); err == nil || !nonRetryable(err) || !strings.Contains(err.Error(), "never carries a secret") {
		t.Errorf("learning a typed password: %v", err)
	}
	if _, err := lib.Learn(ctx, `Click "New project"`, "", []plan.Step{{Action: plan.Click, TargetDescription: "New project"}}, 0); err == nil || !strings.Contains(err.Error(), "it has no site") {
		t.Errorf("learning with no site: %v", err)
	}
	away := append(append([]plan.Step{}, demo.Plan...), plan.Step{Action: plan.Navigate, URL: "https://evil.test/"})
	if _, err := lib.Heal(ctx, demo.ID, apollo, away); err == nil || !nonRetryable(err) || !strings.Contains(err.Error(), "a skill stays on its site") {
		t.Errorf("healing into another site: %v", err)
	}
	if got := store.byID[demo.ID]; got.Version != demo.Version {
		t.Errorf("a refused heal was saved: v%d", got.Version)
	}
	// The store refuses before it connects: nothing listens at this address.
	bad := demo
	bad.Site = "app.test"
	if err := skills.NewWeaviate("127.0.0.1:1").Put(ctx, bad, []float32{1}); err == nil || !nonRetryable(err) || !strings.Contains(err.Error(), "is not a site") {
		t.Errorf("the store saved a skill with a malformed site: %v", err)
	}
}

// TestFindKeepsToTheSite: a skill of another site is never reused, even if the store
// answers with it.
func TestFindKeepsToTheSite(t *testing.T) {
	lib, store, learned := learnDemo(t)
	other := learned
	other.Site = "http://other.test"
	store.matches = []skills.Match{{Skill: other, Similarity: 1}}
	found, miss, err := lib.Find(context.Background(), zeus, site)
	if err != nil || found != nil {
		t.Fatalf("a skill of %s was reused on %s: %+v %v", other.Site, site, found, err)
	}
	if !strings.Contains(miss, "no skill for this site") {
		t.Errorf("miss reason %q", miss)
	}
	store.matches = []skills.Match{{Skill: other, Similarity: 1}, {Skill: learned, Similarity: 0.99}}
	if found, _, _ := lib.Find(context.Background(), zeus, site); found == nil || found.Skill.Site != site {
		t.Errorf("the site's own skill should be found: %+v", found)
	}
}
