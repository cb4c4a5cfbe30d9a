package model

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/geminitest"
)

func TestGoalTerms(t *testing.T) {
	for goal, want := range map[string][]string{
		`Archive the project "Q4-bugs"`:                 {"Q4-bugs", "Archive"},
		"Send Ada Lovelace the invoice for order 1042.": {"Send Ada Lovelace", "1042"},
		"log in and open settings":                      nil,
	} {
		if got := goalTerms(goal); !slices.Equal(got, want) {
			t.Errorf("goalTerms(%q) = %q, want %q", goal, got, want)
		}
	}
}

// TestTheJudgeSeesThePathAndTheTextThatMatters checks the judge gets the screenshots of
// the last 3 steps that changed the page and the final one, the run's path, the toast at
// the foot of a long page (the text around what the goal names, and the page's
// announcements), and that its confidence is the model's.
func TestTheJudgeSeesThePathAndTheTextThatMatters(t *testing.T) {
	a, s, st, _ := newActivities(t, func(geminitest.Call, int) geminitest.Reply {
		return geminitest.Reply{JSON: map[string]any{"reason": "the toast names Q4-bugs", "success": true, "confidence": 0.55}}
	})
	final := projects
	final.Blocks = []page.TextBlock{{Kind: "heading", Text: "Projects"}, {Kind: "status", Text: "Undo archive", Where: "below"}}
	text := "Projects\n" + strings.Repeat("Website relaunch — 12 open issues, owner Kim.\n", 400) + `Project "Q4-bugs" was archived.`
	snap := st.stored(t, "final", final, text)
	var path []activities.TrajectoryStep
	for i := 1; i <= 5; i++ {
		step := activities.TrajectoryStep{Line: fmt.Sprintf("%d. step %d: done", i, i)}
		if i != 3 {
			step.After = st.stored(t, fmt.Sprintf("after-%d", i), projects, "")
		}
		path = append(path, step)
	}
	res, err := a.JudgeGoal(context.Background(), activities.JudgeGoalInput{Goal: `Archive the project "Q4-bugs"`, Final: snap, Trajectory: path})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Success || res.Confidence != 0.55 || res.Usage.Calls != 1 {
		t.Fatalf("the verdict and its confidence are the model's: %+v", res)
	}
	call := s.Calls("validator")[0]
	if len(call.Images) != 4 {
		t.Errorf("want 3 screenshots of the steps that changed the page and the final one, got %d", len(call.Images))
	}
	for _, want := range []string{`Project "Q4-bugs" was archived.`, "- 5. step 5: done [screenshot 3]", "- 2. step 2: done [screenshot 1]", "- 1. step 1: done\n", `status: "Undo archive"`} {
		if !strings.Contains(call.Prompt, want) {
			t.Errorf("the judge's prompt lacks %q", want)
		}
	}
	if len(call.Prompt) > 12000 {
		t.Errorf("the judge's prompt is %d bytes: the page's text should be cut to what the goal names", len(call.Prompt))
	}
}
