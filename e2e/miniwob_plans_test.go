package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/plan"
)

// taskPlan is a MiniWoB plan file: the plan a model would write for a task from its
// instruction, given with --plan so that the benchmark measures perception and execution
// apart from planning. A task's instruction changes with the seed ("Select A, B and click
// Submit"), so a plan file reads the values out of it the way a model would, and nothing
// else: it holds no knowledge of the page beyond what the instruction says.
//
// The file is one of:
//   - a JSON list of plan steps; the instruction's double-quoted strings are {{q1}}, {{q2}}, ...
//   - {"instruction": "<regexp>", "steps": [...]}: the instruction must match the regexp,
//     and its named groups are parameters beside q1, q2, ...;
//   - a list of those: the first whose instruction matches is the plan (one per shape of
//     the instruction, as "in all upper case" and "in all lower case").
//
// Every parameter p also has p_upper and p_lower. A step with "each": "p" stands for one
// step per item of the list p holds ("A, B and C", as plan.ListItems reads it), with
// {{item}} in its target and value the item.
type taskPlan []planVariant

type planVariant struct {
	Instruction string         `json:"instruction"`
	Steps       []templateStep `json:"steps"`
	re          *regexp.Regexp
}

type templateStep struct {
	plan.Step
	Each string `json:"each,omitempty"`
}

// UnmarshalJSON reads the step (plan.Step reads its own fields, typed) and "each" beside it:
// the embedded step's method would otherwise read the whole object and drop "each".
func (t *templateStep) UnmarshalJSON(b []byte) error {
	var each struct {
		Each string `json:"each"`
	}
	if err := json.Unmarshal(b, &each); err != nil {
		return err
	}
	t.Each = each.Each
	return json.Unmarshal(b, &t.Step)
}

// parseTaskPlan reads a plan file and checks its steps.
func parseTaskPlan(data []byte) (taskPlan, error) {
	var p taskPlan
	trimmed := strings.TrimSpace(string(data))
	switch {
	case strings.HasPrefix(trimmed, "{"):
		var v planVariant
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("not a plan ({\"instruction\": ..., \"steps\": [...]}): %w", err)
		}
		p = taskPlan{v}
	default:
		var list []json.RawMessage
		if err := json.Unmarshal(data, &list); err != nil {
			return nil, fmt.Errorf("not a JSON list of plan steps or of plans: %w", err)
		}
		if len(list) > 0 && strings.Contains(string(list[0]), `"instruction"`) {
			if err := json.Unmarshal(data, &p); err != nil {
				return nil, fmt.Errorf("not a list of plans: %w", err)
			}
		} else {
			var v planVariant
			if err := json.Unmarshal(data, &v.Steps); err != nil {
				return nil, fmt.Errorf("not a JSON list of plan steps: %w", err)
			}
			p = taskPlan{v}
		}
	}
	for i := range p {
		v := &p[i]
		re, err := regexp.Compile(v.Instruction)
		if err != nil {
			return nil, fmt.Errorf("plan %d: the instruction pattern: %w", i+1, err)
		}
		v.re = re
		steps := make([]plan.Step, len(v.Steps))
		for j, s := range v.Steps {
			steps[j] = s.Step
			steps[j].Step = j + 1
		}
		if err := plan.Validate(steps); err != nil {
			return nil, fmt.Errorf("plan %d: %w", i+1, err)
		}
	}
	if len(p) == 0 {
		return nil, errors.New("no plan in the file")
	}
	return p, nil
}

// plan is the steps and parameters for one instruction, or an error when none of the
// file's plans is for an instruction of that shape.
func (p taskPlan) plan(utterance string) ([]plan.Step, map[string]string, error) {
	for _, v := range p {
		m := v.re.FindStringSubmatch(utterance)
		if m == nil {
			continue
		}
		params := quotedParams(utterance)
		for i, name := range v.re.SubexpNames() {
			if name != "" && i < len(m) {
				params[name] = m[i]
			}
		}
		for name, val := range params {
			params[name+"_upper"], params[name+"_lower"] = strings.ToUpper(val), strings.ToLower(val)
		}
		var steps []plan.Step
		for _, s := range v.Steps {
			if s.Each == "" {
				steps = append(steps, s.Step)
				continue
			}
			list, ok := params[s.Each]
			if !ok {
				return nil, nil, fmt.Errorf("a step is for each item of %q, which the instruction does not give", s.Each)
			}
			for _, item := range plan.ListItems(list) {
				one := s.Step
				one.TargetDescription = strings.ReplaceAll(one.TargetDescription, "{{item}}", item)
				one.Value = strings.ReplaceAll(one.Value, "{{item}}", item)
				steps = append(steps, one)
			}
		}
		return plan.Renumber(steps, 0), params, nil
	}
	return nil, nil, fmt.Errorf("the plan file has no plan for an instruction like %q", utterance)
}

// TestTaskPlans reads every plan file the project keeps and checks how a plan file reads
// an instruction: variants, named values, a step per item of a list, the _upper/_lower
// forms, and an instruction no variant is for.
func TestTaskPlans(t *testing.T) {
	files, err := filepath.Glob("testdata/miniwob-plans/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no plan files: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parseTaskPlan(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}

	p, err := parseTaskPlan([]byte(`[
	 {"instruction": "^Type \"(?P<text>[^\"]*)\" in upper case$", "steps": [
	  {"action": "TYPE", "target_description": "the text input", "value": "{{text_upper}}"}]},
	 {"instruction": "^Select (?P<items>.+?) and click Submit\\.$", "steps": [
	  {"each": "items", "action": "CHECK", "target_description": "the \"{{item}}\" checkbox", "value": "true"},
	  {"action": "CLICK", "target_description": "the \"Submit\" button"}]}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	steps, params, err := p.plan("Select ab, C d and x-1 and click Submit.")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range steps {
		got = append(got, fmt.Sprintf("%d %s", s.Step, s.Bind(params)))
	}
	want := []string{`1 check "the \"ab\" checkbox"`, `2 check "the \"C d\" checkbox"`, `3 check "the \"x-1\" checkbox"`, `4 click "the \"Submit\" button"`}
	if !slices.Equal(got, want) {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	steps, params, err = p.plan(`Type "Ada" in upper case`)
	if err != nil || len(steps) != 1 || steps[0].Bind(params).Value != "ADA" || params["q1"] != "Ada" {
		t.Errorf("upper case: %v %v %v", steps, params, err)
	}
	if _, _, err := p.plan("Click the button."); err == nil || !strings.Contains(err.Error(), "no plan for an instruction like") {
		t.Errorf("an instruction no plan is for: %v", err)
	}
	if _, err := parseTaskPlan([]byte(`{"instruction": "(", "steps": []}`)); err == nil {
		t.Error("a bad pattern was accepted")
	}
}
