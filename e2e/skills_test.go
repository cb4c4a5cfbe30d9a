package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/geminitest"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

var tracker = []demoapp.Project{{Name: "Website relaunch", Priority: "High"}, {Name: "Q4-bugs", Priority: "Medium"}}

// reset puts the demo app back to its two active projects.
func (s *stack) reset(t *testing.T) {
	t.Helper()
	resp, err := http.Post(strings.TrimSuffix(s.appURL, "/projects")+"/api/reset", "application/json",
		bytes.NewReader([]byte(`{"projects": [{"name": "Website relaunch", "priority": "High"}, {"name": "Q4-bugs", "priority": "Medium"}]}`)))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("reset the demo app: %v %v", err, resp)
	}
	resp.Body.Close()
}

// saved waits for the run's skill save to finish.
func (s *stack) saved(t *testing.T, res workflows.GoalResult) activities.SaveSkillResult {
	t.Helper()
	if res.Skill.SaveWorkflowID == "" {
		t.Fatalf("the run saved no skill: %+v", res.Skill)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out activities.SaveSkillResult
	if err := s.client.GetWorkflow(ctx, res.Skill.SaveWorkflowID, "").Get(ctx, &out); err != nil {
		t.Fatalf("saving the skill: %v", err)
	}
	return out
}

func archived(st demoapp.State) map[string]bool {
	out := map[string]bool{}
	for _, p := range st.Projects {
		out[p.Name] = p.Archived
	}
	return out
}

func TestSkills(t *testing.T) {
	weaviate := testenv.Weaviate(t)

	t.Run("offline: an explicit goal learned once is reused", func(t *testing.T) {
		s := newStack(t)
		s.worker(t, "WEAVIATE_URL="+weaviate.Addr)
		first := s.result(t, s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL}))
		if first.Skill.CacheHit || first.Skill.Saved != "learned" || first.Metadata.Planner != activities.PlannerOffline {
			t.Fatalf("first run: %+v planner %s", first.Skill, first.Metadata.Planner)
		}
		learned := s.saved(t, first)
		second := s.result(t, s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL}))
		if !second.Skill.CacheHit || second.Skill.ID != learned.SkillID || second.Metadata.Planner != activities.PlannerSkill ||
			second.Execution.Status != workflows.StatusSuccess || second.Skill.Similarity < 0.999 {
			t.Fatalf("second run: %+v planner %s status %s", second.Skill, second.Metadata.Planner, second.Execution.Status)
		}
		if n := len(s.app.Snapshot().Projects); n != 2 {
			t.Fatalf("two runs should have created two projects, got %d", n)
		}

		// The starter's skills commands.
		t.Setenv("WEAVIATE_URL", weaviate.Addr)
		out, _, code := s.starter(t, "skills", "list")
		if code != 0 || !strings.Contains(out, learned.SkillID) || !strings.Contains(out, "Click {{value}}") {
			t.Fatalf("skills list: exit %d\n%s", code, out)
		}
		out, _, code = s.starter(t, "skills", "show", learned.SkillID)
		if code != 0 || !strings.Contains(out, `type "{{value_2}}" into "{{value_3}}"`) || !strings.Contains(out, "2 successes") {
			t.Fatalf("skills show: exit %d\n%s", code, out)
		}
		file := t.TempDir() + "/skills.json"
		if out, errOut, code := s.starter(t, "skills", "export", file); code != 0 {
			t.Fatalf("skills export: exit %d %s %s", code, out, errOut)
		}
		if out, errOut, code := s.starter(t, "skills", "delete", learned.SkillID); code != 0 {
			t.Fatalf("skills delete: exit %d %s %s", code, out, errOut)
		}
		if _, errOut, code := s.starter(t, "skills", "show", learned.SkillID); code != 2 || !strings.Contains(errOut, "no such skill") {
			t.Fatalf("a deleted skill: exit %d %s", code, errOut)
		}
		if out, errOut, code := s.starter(t, "skills", "import", file); code != 0 || !strings.Contains(out, "imported") {
			t.Fatalf("skills import: exit %d %s %s", code, out, errOut)
		}
		if out, _, code := s.starter(t, "skills", "show", learned.SkillID); code != 0 || !strings.Contains(out, "Click {{value}}") {
			t.Fatalf("the imported skill: exit %d\n%s", code, out)
		}
	})

	t.Run("workflow 2 learns, workflow 1 reuses with no planner or decide calls, new values bind", func(t *testing.T) {
		s := newStack(t)
		s.app = lab.New(tracker...)
		s.serveApp(t)
		gemini := geminitest.New(t, archiveScript)
		s.worker(t, "GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL="+gemini.URL, "WEAVIATE_URL="+weaviate.Addr)
		limits := workflows.Limits{WaitBudget: 300 * time.Millisecond}

		learn := s.result(t, s.start(t, workflows.GoalInput{Goal: archiveGoal, StartURL: s.appURL, Limits: limits}))
		if learn.Execution.Status != workflows.StatusSuccess || learn.Execution.Replans != 1 || learn.Skill.CacheHit {
			t.Fatalf("workflow 2: %+v %+v", learn.Execution, learn.Skill)
		}
		skill := s.saved(t, learn)
		if skill.Version != 1 {
			t.Fatalf("learned %+v", skill)
		}

		s.reset(t)
		gemini.Reset()
		reuse := s.result(t, s.start(t, workflows.GoalInput{Goal: archiveGoal, StartURL: s.appURL, Limits: limits}))
		if !reuse.Skill.CacheHit || reuse.Skill.ID != skill.SkillID || reuse.Execution.Status != workflows.StatusSuccess {
			t.Fatalf("workflow 1: %+v %+v", reuse.Skill, reuse.Execution)
		}
		for _, role := range []string{"planner", "decider", "replanner", "evaluator"} {
			if n := len(gemini.Calls(role)); n != 0 {
				t.Errorf("a replayed skill made %d %s calls", n, role)
			}
		}
		if reuse.Skill.ModelCallsSaved <= 0 || reuse.Usage.ByRole["decide"].Calls != 0 {
			t.Errorf("the reuse should save model calls: %+v usage %+v", reuse.Skill, reuse.Usage)
		}
		if a := archived(s.app.Snapshot()); !a["Q4-bugs"] || a["Website relaunch"] {
			t.Fatalf("workflow 1 should archive Q4-bugs only: %v", a)
		}

		s.reset(t)
		gemini.Reset()
		other := `Archive the project "Website relaunch"`
		run := s.start(t, workflows.GoalInput{Goal: other, StartURL: s.appURL, Limits: limits})
		bound := s.result(t, run)
		if !bound.Skill.CacheHit || bound.Execution.Status != workflows.StatusSuccess || len(gemini.Calls("planner")) != 0 {
			t.Fatalf("a new value: %+v %+v", bound.Skill, bound.Execution)
		}
		if a := archived(s.app.Snapshot()); !a["Website relaunch"] || a["Q4-bugs"] {
			t.Fatalf("the new value must be used and the old one never: %v", a)
		}
		for _, in := range stepInputs(t, s.history(t, run, "")) {
			if b := in.Step.Bind(in.Params); strings.Contains(b.TargetDescription+b.Value, "Q4-bugs") {
				t.Errorf("a step of the new run holds the old value: %s", b)
			}
		}

		// Guided: the model decides each step, with the skill's steps as hints.
		s.reset(t)
		gemini.Reset()
		gemini.SetScript(func(c geminitest.Call, n int) geminitest.Reply {
			if c.Role == "decider" {
				return pickByHint(t, c.Prompt)
			}
			return archiveScript(c, n)
		})
		guided := s.result(t, s.start(t, workflows.GoalInput{Goal: archiveGoal, StartURL: s.appURL, Limits: limits, Mode: workflows.ModeGuided}))
		if !guided.Skill.CacheHit || guided.Skill.Mode != workflows.ModeGuided || guided.Execution.Status != workflows.StatusSuccess {
			t.Fatalf("guided: %+v %+v %v", guided.Skill, guided.Execution, guided.Errors)
		}
		if n := len(gemini.Calls("decider")); n != 2 || len(gemini.Calls("planner")) != 0 {
			t.Fatalf("guided mode should decide each of the two clicks, and not plan: %d decisions", n)
		}
		if a := archived(s.app.Snapshot()); !a["Q4-bugs"] {
			t.Fatalf("the guided run should archive Q4-bugs: %v", a)
		}

		// The site changes: the row menu's button is renamed. The cached plan's second
		// step no longer matches: the rest of the plan is replanned, and version 2 saved.
		s.app.SetActionsLabel("Row actions")
		s.reset(t)
		gemini.Reset()
		gemini.SetScript(func(c geminitest.Call, n int) geminitest.Reply {
			if c.Role == "replanner" {
				return geminitest.Reply{JSON: map[string]any{"strategy": "retry_differently", "reasoning": "the menu button is now Row actions", "steps": []any{
					step(plan.Click, `the "Row actions" button in the row "Q4-bugs"`, "", "the row's menu opens"),
					step(plan.Click, `the "Archive" item in the menu`, "", "Q4-bugs is archived"),
					step(plan.Assert, "", "Project archived", "the toast confirms it"),
				}}}
			}
			return archiveScript(c, n)
		})
		run = s.start(t, workflows.GoalInput{Goal: archiveGoal, StartURL: s.appURL, Limits: limits})
		healed := s.result(t, run)
		if !healed.Skill.CacheHit || healed.Execution.Status != workflows.StatusSuccess || healed.Execution.Replans != 1 || healed.Skill.Saved != "healed" {
			t.Fatalf("healing: %+v %+v %v", healed.Skill, healed.Execution, healed.Errors)
		}
		if v := s.saved(t, healed); v.Version != 2 || v.SkillID != skill.SkillID {
			t.Fatalf("the healed plan should be version 2 of the same skill: %+v", v)
		}
		replans := gemini.Calls("replanner")
		if len(replans) != 1 || !strings.Contains(replans[0].Prompt, "Completed steps:\n- 1. ASSERT") || len(gemini.Calls("planner")) != 0 {
			t.Fatalf("only the remaining steps should be replanned; %d replans", len(replans))
		}
		seq1 := 0
		for _, in := range stepInputs(t, s.history(t, run, "")) {
			if in.Seq == 1 {
				seq1++
			}
		}
		if seq1 != 1 {
			t.Errorf("the completed first step ran %d times", seq1)
		}
		if a := archived(s.app.Snapshot()); !a["Q4-bugs"] {
			t.Fatalf("the healed run should archive Q4-bugs: %v", a)
		}
	})

	t.Run("weaviate down: runs still succeed, the save waits", func(t *testing.T) {
		// An address no Weaviate answers at, as when it has died: a free port (starting one
		// to kill it tells the worker nothing more, and costs ten seconds).
		down := testenv.Addr(testenv.FreePort(t))
		s := newStack(t)
		s.worker(t, "WEAVIATE_URL="+down)
		res := s.result(t, s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL}))
		if res.Execution.Status != workflows.StatusSuccess || !strings.Contains(strings.Join(res.Summary.Warnings, "\n"), "skills library is unavailable") {
			t.Fatalf("status %s warnings %v", res.Execution.Status, res.Summary.Warnings)
		}
		desc, err := s.client.DescribeWorkflowExecution(context.Background(), res.Skill.SaveWorkflowID, "")
		if err != nil || desc.GetWorkflowExecutionInfo().GetStatus() != enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
			t.Fatalf("the save should keep retrying: %v %v", err, desc.GetWorkflowExecutionInfo().GetStatus())
		}
	})
}

var (
	stepLine    = regexp.MustCompile(`(?m)^Step \d+: \w+ ("(?:[^"\\]|\\.)*")`)
	elementLine = regexp.MustCompile(`(?m)^#(\d+) \S+ "((?:[^"\\]|\\.)*)"(.*)$`)
	quotedIn    = regexp.MustCompile(`"([^"]+)"`)
)

// pickByHint answers a decision as a model reading the prompt would: the element named by
// the step's first quoted phrase, in the row its second names.
func pickByHint(t *testing.T, prompt string) geminitest.Reply {
	m := stepLine.FindStringSubmatch(prompt)
	if m == nil {
		t.Errorf("no step in the decider's prompt:\n%s", prompt)
		return geminitest.Reply{JSON: map[string]any{"action": "fail", "reason": "no step", "confidence": 0}}
	}
	target, _ := strconv.Unquote(m[1])
	phrases := quotedIn.FindAllStringSubmatch(target, -1)
	for _, e := range elementLine.FindAllStringSubmatch(prompt, -1) {
		name, _ := strconv.Unquote(`"` + e[2] + `"`)
		if len(phrases) == 0 || name != phrases[0][1] || (len(phrases) > 1 && !strings.Contains(e[3], phrases[1][1])) {
			continue
		}
		n, _ := strconv.Atoi(e[1])
		return geminitest.Reply{JSON: map[string]any{"action": "element", "element": n, "reason": "the hint names it", "confidence": 0.9}}
	}
	return geminitest.Reply{JSON: map[string]any{"action": "fail", "reason": "not on the page: " + target, "confidence": 0.5}}
}

// TestSkillReusesARepeatedValue: the demo goal names its project twice (typed, then
// checked). Learned with "Apollo", it is reused with "Zeus" in both places, with no
// planning at all; a goal whose values do not fit the skill's slots misses and says why.
func TestSkillReusesARepeatedValue(t *testing.T) {
	weaviate := testenv.Weaviate(t)
	s := newStack(t)
	s.worker(t, "WEAVIATE_URL="+weaviate.Addr)

	out, errOut, code := s.starter(t, "run", "--json", "--url", s.appURL, demoGoal)
	var first workflows.GoalResult
	if err := json.Unmarshal([]byte(out), &first); err != nil || code != 0 {
		t.Fatalf("first run: exit %d %v\n%s\n%s", code, err, out, errOut)
	}
	if first.Skill.CacheHit || first.Skill.Saved != "learned" || !strings.Contains(first.Skill.MissReason, "no skill for this site") {
		t.Fatalf("the first run should miss, saying why, and learn: %+v", first.Skill)
	}
	learned := s.saved(t, first)

	zeus := strings.ReplaceAll(demoGoal, "Apollo", "Zeus")
	run := s.start(t, workflows.GoalInput{Goal: zeus, StartURL: s.appURL})
	second := s.result(t, run)
	if !second.Skill.CacheHit || second.Skill.ID != learned.SkillID || second.Skill.MissReason != "" ||
		second.Metadata.Planner != activities.PlannerSkill || second.Execution.Status != workflows.StatusSuccess {
		t.Fatalf("the demo goal with another name should be a hit: %+v planner %s status %s", second.Skill, second.Metadata.Planner, second.Execution.Status)
	}
	if second.Usage.Calls != 0 || second.Usage.ByRole["plan"].Calls != 0 {
		t.Errorf("a hit should make no planner or model calls: %+v", second.Usage)
	}
	names := map[string]bool{}
	for _, p := range s.app.Snapshot().Projects {
		names[p.Name] = true
	}
	if !names["Zeus"] || !names["Apollo"] {
		t.Fatalf("both runs should have created their project: %v", names)
	}
	for _, in := range stepInputs(t, s.history(t, run, "")) {
		if b := in.Step.Bind(in.Params); strings.Contains(b.TargetDescription+b.Value, "Apollo") {
			t.Errorf("a step of the Zeus run holds the old name: %s", b)
		}
	}

	// Two names where the skill has one slot: exact or silent, it misses and says why,
	// in the starter's output and the progress query.
	hera := strings.Replace(zeus, `type "Zeus"`, `type "Hera"`, 1)
	out, errOut, code = s.starter(t, "run", "--url", s.appURL, hera)
	if code != 0 || !strings.Contains(out, "skill: cache miss (slots differ: skill "+learned.SkillID) {
		t.Fatalf("the miss should say why: exit %d\n%s\n%s", code, out, errOut)
	}
	id := regexp.MustCompile(`started (\S+)`).FindStringSubmatch(out + errOut)
	if id == nil {
		t.Fatalf("no workflow ID in the starter's output:\n%s\n%s", out, errOut)
	}
	v, err := s.client.QueryWorkflow(context.Background(), id[1], "", workflows.ProgressQuery)
	var p workflows.Progress
	if err == nil {
		err = v.Get(&p)
	}
	if err != nil || p.Skill == nil || !strings.HasPrefix(p.Skill.MissReason, "slots differ") {
		t.Fatalf("the progress query should say why the skill missed: %+v %v", p.Skill, err)
	}
}
