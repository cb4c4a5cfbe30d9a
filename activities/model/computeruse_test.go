package model

import (
	"context"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/geminitest"
	"github.com/webagent-dev/webagent/plan"
)

func cuInput(step plan.Step, turns ...activities.ComputerUseTurn) ComputerUseInput {
	in := ComputerUseInput{DecideInput: activities.DecideInput{Goal: "g", Step: step, Attempt: len(turns) + 1, Turns: turns},
		Page: samplePage, Marked: []byte("png"), Width: 1280, Height: 800}
	for range turns {
		in.TurnShots = append(in.TurnShots, []byte("after"))
	}
	return in
}

func TestComputerUse(t *testing.T) {
	typeName := plan.Step{Step: 1, Action: plan.Type, TargetDescription: "the Name field", Value: "Q4-bugs"}
	tests := []struct {
		name    string
		step    plan.Step
		call    *geminitest.FunctionCall
		text    string
		point   *[2]float64
		confirm string
		refused string
	}{
		{"click_at maps the grid to the screenshot", archive, &geminitest.FunctionCall{Name: "click_at", Args: map[string]any{"x": 500, "y": 250}}, "", &[2]float64{640, 200}, "", ""},
		{"type_text_at with the step's text", typeName, &geminitest.FunctionCall{Name: "type_text_at", Args: map[string]any{"x": 100, "y": 900, "text": "Q4-bugs", "press_enter": true}}, "", &[2]float64{128, 720}, "", ""},
		{"type_text_at with other text is refused", typeName, &geminitest.FunctionCall{Name: "type_text_at", Args: map[string]any{"x": 100, "y": 900, "text": "Q4 bugs"}}, "", nil, "", `it would type "Q4 bugs", and the step types "Q4-bugs"`},
		{"another function is refused", archive, &geminitest.FunctionCall{Name: "navigate", Args: map[string]any{"url": "http://elsewhere.test"}}, "", nil, "", "can only be done with click_at"},
		{"a point off the grid is refused", archive, &geminitest.FunctionCall{Name: "click_at", Args: map[string]any{"x": 1200, "y": 5}}, "", nil, "", "not a point on its 1000×1000 grid"},
		{"a text answer is a refusal with its reason", archive, nil, "There is no Archive button; open the row's menu first.", nil, "", "open the row's menu first"},
		{"require_confirmation asks a person", archive, &geminitest.FunctionCall{Name: "click_at", Args: map[string]any{"x": 10, "y": 10},
			Safety: &geminitest.SafetyDecision{Decision: "require_confirmation", Explanation: "this deletes data"}}, "", &[2]float64{13, 8}, "this deletes data", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, s := newClient(t, func(geminitest.Call, int) geminitest.Reply { return geminitest.Reply{Call: tt.call, Text: tt.text} })
			res, err := c.ComputerUse(context.Background(), cuInput(tt.step))
			if err != nil {
				t.Fatal(err)
			}
			call := s.Calls("computer_use")[0]
			if call.ComputerUse == nil || call.ComputerUse.Environment != "ENVIRONMENT_BROWSER" || !call.ComputerUse.InjectionDetection || len(call.ComputerUse.Excluded) != len(PredefinedFunctions)-1 || len(call.Images) != 1 {
				t.Fatalf("the request should enable the tool for the browser with every other function excluded, and carry the screenshot: %+v", call)
			}
			if strings.Contains(strings.Join(call.ComputerUse.Excluded, " "), "click_at") == (tt.step.Action == plan.Click) {
				t.Errorf("the step's own function must not be excluded: %v", call.ComputerUse.Excluded)
			}
			if tt.refused != "" {
				if res.Decision != nil || res.Failure == nil || !strings.Contains(res.Failure.Details, tt.refused) {
					t.Fatalf("want a refusal saying %q, got %+v %+v", tt.refused, res.Decision, res.Failure)
				}
				return
			}
			d := res.Decision
			if d == nil || d.Point == nil || *d.Point != *tt.point || d.Confirm != tt.confirm || d.Call == nil || len(d.Call.Signature) == 0 {
				t.Fatalf("want the point %v (confirm %q) and the call with its signature, got %+v (%+v)", tt.point, tt.confirm, d, res.Failure)
			}
			if res.Usage.Calls != 1 || res.Usage.CostUSD == 0 {
				t.Errorf("usage %+v", res.Usage)
			}
		})
	}
}

// TestComputerUseTurns checks the next decision on a step sends the tool's earlier call
// back, with its thought signature, the page it left, what the checks said, and the
// safety acknowledgement only when a person approved the action.
func TestComputerUseTurns(t *testing.T) {
	c, s := newClient(t, func(_ geminitest.Call, n int) geminitest.Reply {
		if n == 1 {
			return geminitest.Reply{Call: &geminitest.FunctionCall{Name: "click_at", Args: map[string]any{"x": 10, "y": 10},
				Safety: &geminitest.SafetyDecision{Decision: "require_confirmation", Explanation: "this deletes data"}}}
		}
		return geminitest.Reply{Call: &geminitest.FunctionCall{Name: "click_at", Args: map[string]any{"x": 500, "y": 500}}}
	})
	first, err := c.ComputerUse(context.Background(), cuInput(archive))
	if err != nil || first.Decision == nil || first.Decision.Confirm == "" {
		t.Fatalf("%+v %v", first, err)
	}
	turn := activities.ComputerUseTurn{Call: *first.Decision.Call, After: activities.Snapshot{URL: "http://app.test/projects?x"}, Result: "the step's checks failed: nothing changed"}

	// Not approved: the API refuses the history (the stand-in keeps that rule).
	if _, err := c.ComputerUse(context.Background(), cuInput(archive, turn)); err == nil || !strings.Contains(err.Error(), "safety_acknowledgement") {
		t.Fatalf("an unacknowledged require_confirmation must not be sent back as if approved: %v", err)
	}
	turn.Acknowledged = true
	second, err := c.ComputerUse(context.Background(), cuInput(archive, turn))
	if err != nil || second.Decision == nil || *second.Decision.Point != [2]float64{640, 400} {
		t.Fatalf("%+v %v", second, err)
	}
	calls := s.Calls("computer_use")
	last := calls[len(calls)-1]
	if len(last.FunctionResponses) != 1 {
		t.Fatalf("function responses: %+v", last.FunctionResponses)
	}
	fr := last.FunctionResponses[0]
	if fr.Name != "click_at" || !fr.Acknowledged() || fr.Response["url"] != "http://app.test/projects?x" || !strings.Contains(fr.Response["result"].(string), "nothing changed") || len(fr.Images) != 1 {
		t.Errorf("the function response: %+v", fr)
	}
	for _, c := range calls[:1] {
		for _, f := range c.FunctionResponses {
			if f.Acknowledged() {
				t.Error("no acknowledgement may be sent before a person approved")
			}
		}
	}
}
