package model

import (
	"context"
	"errors"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/geminitest"
	"github.com/webagent-dev/webagent/plan"
)

var update = flag.Bool("update", false, "rewrite the golden prompts under testdata/golden")

var samplePage = Page{URL: "http://app.test/projects", Title: "Projects", Count: 3,
	Elements: "#0 button \"New project\"\n#1 button \"Project actions\" in row \"Q4-bugs\"\n#2 tab \"Archived\" selected (below the viewport)\n",
	Outline:  "heading: \"Projects\"\nstatus: \"Project \\\"Q4-bugs\\\" archived\" (below the viewport)\nthe page goes on for 900 px below the viewport\n"}

var archive = plan.Step{Step: 2, Action: plan.Click, TargetDescription: `the "Archive" button in the row "Q4-bugs"`, ExpectedOutcome: "Q4-bugs leaves the Active list"}

var feedback = []plan.Feedback{{Type: plan.NotVisible, Details: `no visible element matches "Archive"`, Suggestion: "open the row's menu first", Candidates: []string{`#1 button "Project actions"`}}}

// TestPromptsRender renders every role's prompt with fixed data and compares it with the
// golden file: a change to a prompt shows up as a diff in review.
func TestPromptsRender(t *testing.T) {
	cases := map[string]any{
		"plan": PlanInput{PlanGoalInput: activities.PlanGoalInput{Goal: `Archive the project "Q4-bugs"`, Params: map[string]string{"name": "Q4-bugs"}}, Page: samplePage},
		"decide": DecideInput{DecideInput: activities.DecideInput{Goal: `Archive the project "Q4-bugs"`, Step: archive, Attempt: 2, Feedback: feedback,
			Avoid: []activities.ElementRef{{Index: 1, Role: "button", Name: "Project actions", Row: "Website relaunch"}}}, Page: samplePage},
		"evaluate": EvaluateInput{EvaluateStepInput: activities.EvaluateStepInput{Goal: "Archive Q4-bugs", Step: archive, Actions: []string{`clicked #1 button "Project actions"`},
			CheckDetails: "nothing on the page changed"}, After: samplePage},
		"replan": ReplanInput{ReplanInput: activities.ReplanInput{Goal: `Archive the project "Q4-bugs"`, Completed: []plan.Step{{Step: 1, Action: plan.Click, TargetDescription: "Active"}},
			Failed: archive, Feedback: feedback, Remaining: []plan.Step{{Action: plan.Assert, Value: "Project archived"}}, Strategies: []string{"retry_differently"}}, Page: samplePage},
		"judge": JudgeInput{JudgeGoalInput: activities.JudgeGoalInput{Goal: "Archive Q4-bugs", Steps: []string{`click "Archive"`}, Checks: `"Project archived" is visible`}, Page: samplePage, Text: "Projects\nProject archived",
			Alerts: []string{`status: "Project archived"`}, Path: []string{`1. click "Project actions" in the row "Q4-bugs": done [screenshot 1]`, `2. click "Archive": done [screenshot 2]`}, Shots: []Image{{}, {}}},
		"summarize":    activities.SummarizeInput{Goal: "Archive Q4-bugs", Status: "success", Steps: []string{`completed: click "Archive"`}, Errors: []string{"step 2: not_visible"}, Extracted: `{"count": 2}`},
		"computer_use": DecideInput{DecideInput: activities.DecideInput{Goal: `Archive the project "Q4-bugs"`, Step: archive, Attempt: 2, Feedback: feedback}, Page: samplePage},
		"extract":      ExtractInput{ExtractInput: activities.ExtractInput{Goal: "Count the projects", Step: plan.Step{Action: plan.Extract, TargetDescription: "the number of active projects", Into: "count"}}, SchemaJSON: `{"type": "object"}`, Page: samplePage, Text: "2 projects"},
	}
	for role, data := range cases {
		t.Run(role, func(t *testing.T) {
			system, user, err := Render(role, data)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(system, "# Role: ") {
				t.Errorf("the system instruction must open with its role line: %q", system[:20])
			}
			got := system + "\n\n----- user -----\n" + user + "\n"
			path := filepath.Join("testdata", "golden", role+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./activities/model -run TestPromptsRender -update)", err)
			}
			if got != string(want) {
				t.Errorf("the %s prompt changed; if that is meant, run with -update.\n--- got\n%s\n--- want\n%s", role, got, want)
			}
		})
	}
}

func newClient(t *testing.T, script geminitest.Script) (*Client, *geminitest.Server) {
	t.Helper()
	s := geminitest.New(t, script)
	t.Setenv("GEMINI_API_KEY", "test-key")
	t.Setenv("GOOGLE_API_KEY", "")
	c, err := New(context.Background(), Config{BaseURL: s.URL, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

func TestDecideRepairsInvalidAnswers(t *testing.T) {
	c, s := newClient(t, func(call geminitest.Call, n int) geminitest.Reply {
		switch n {
		case 1:
			return geminitest.Reply{Text: `{"action": "element", "element": 7`} // cut off
		case 2:
			return geminitest.Reply{JSON: map[string]any{"action": "element", "element": 9, "reason": "x", "confidence": 0.9}} // out of range
		}
		return geminitest.Reply{JSON: map[string]any{"action": "element", "element": 1, "reason": "the row's menu", "confidence": 0.8}}
	})
	d, u, err := c.Decide(context.Background(), DecideInput{DecideInput: activities.DecideInput{Goal: "g", Step: archive, Attempt: 1}, Page: samplePage, Marked: []byte("png"), Width: 1280, Height: 800})
	if err != nil {
		t.Fatal(err)
	}
	if d.Action != DecideElement || *d.Element != 1 || u.Calls != 3 || u.InputTokens == 0 {
		t.Fatalf("decision %+v usage %+v", d, u)
	}
	calls := s.Calls("decider")
	if len(calls) != 3 || !strings.Contains(calls[1].Prompt, "not valid JSON") || !strings.Contains(calls[2].Prompt, "numbers 0-2") {
		t.Fatalf("each repair should show the model its error; prompts:\n%+v", calls)
	}
	if calls[0].Schema == nil || calls[0].Schema["required"] == nil || len(calls[0].Images) != 1 || calls[0].Model != Defaults[RoleDecide].Model {
		t.Errorf("the request should carry the schema, the numbered screenshot and the decision model: %+v", calls[0])
	}
}

func TestInvalidAnswersEndInANamedError(t *testing.T) {
	c, _ := newClient(t, func(geminitest.Call, int) geminitest.Reply { return geminitest.Reply{Text: "I think element 3"} })
	_, u, err := c.Decide(context.Background(), DecideInput{DecideInput: activities.DecideInput{Step: archive}, Page: samplePage, Width: 1280, Height: 800})
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != activities.ErrModelInvalidOutput || !ae.NonRetryable() || u.Calls != 3 {
		t.Fatalf("want a non-retryable %s after 3 calls, got %v (%d calls)", activities.ErrModelInvalidOutput, err, u.Calls)
	}
}

func TestErrorsAreClassified(t *testing.T) {
	tests := []struct {
		reply     geminitest.Reply
		typ       string
		retryable bool
		delay     time.Duration
		says      string
	}{
		{geminitest.Reply{Status: http.StatusUnauthorized, Message: "API key not valid"}, activities.ErrModelAuth, false, 0, "check GEMINI_API_KEY"},
		{geminitest.Reply{Status: http.StatusBadRequest, Message: "API key expired. Please renew the API key."}, activities.ErrModelAuth, false, 0, "check GEMINI_API_KEY"},
		{geminitest.Reply{Status: http.StatusBadRequest, Message: "Invalid JSON payload"}, activities.ErrModelBadRequest, false, 0, "Invalid JSON payload"},
		{geminitest.Reply{Status: http.StatusNotFound, Message: "model not found"}, activities.ErrModelNotFound, false, 0, "change WEBAGENT_JUDGE_MODEL"},
		{geminitest.Reply{Status: http.StatusTooManyRequests, RetryDelay: 1500 * time.Millisecond}, activities.ErrModelRateLimited, true, 1500 * time.Millisecond, "rate limit"},
		{geminitest.Reply{Status: http.StatusServiceUnavailable}, activities.ErrModelUnavailable, true, 0, "unavailable"},
		{geminitest.Reply{BlockReason: "SAFETY"}, activities.ErrModelSafetyBlock, false, 0, "blocked the prompt"},
		{geminitest.Reply{FinishReason: "SAFETY", Text: "{}"}, activities.ErrModelSafetyBlock, false, 0, "stopped its answer"},
	}
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.says, func(t *testing.T) {
			c, _ := newClient(t, func(geminitest.Call, int) geminitest.Reply { return tt.reply })
			_, _, err := c.Judge(context.Background(), JudgeInput{JudgeGoalInput: activities.JudgeGoalInput{Goal: "g"}, Page: samplePage})
			var ae *temporal.ApplicationError
			if !errors.As(err, &ae) {
				t.Fatalf("want an application error, got %v", err)
			}
			if ae.Type() != tt.typ || ae.NonRetryable() == tt.retryable || ae.NextRetryDelay() != tt.delay || !strings.Contains(ae.Error(), tt.says) {
				t.Fatalf("got type %s nonretryable %v delay %v %q", ae.Type(), ae.NonRetryable(), ae.NextRetryDelay(), ae.Error())
			}
		})
	}
}

func TestPlanRejectsSelectors(t *testing.T) {
	c, s := newClient(t, func(_ geminitest.Call, n int) geminitest.Reply {
		target := "#archive-btn"
		if n > 1 {
			target = `the "Archive" item in the row menu`
		}
		return geminitest.Reply{JSON: map[string]any{"reasoning": "r", "steps": []any{
			map[string]any{"action": "CLICK", "target_description": target, "expected_outcome": "archived"},
		}}}
	})
	p, _, err := c.Plan(context.Background(), PlanInput{PlanGoalInput: activities.PlanGoalInput{Goal: "Archive Q4-bugs"}, Page: samplePage, Screenshot: []byte("png")})
	if err != nil || len(p.Steps) != 1 || p.Steps[0].Step != 1 || !strings.Contains(s.Calls("planner")[1].Prompt, "looks like a selector") {
		t.Fatalf("plan %+v err %v", p, err)
	}
}
