package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/workflows"
)

// autosaveGoal types into a field that saves itself as it is typed and keeps four
// characters: the step sends a request and its value is not what was typed, and no model
// and no later check can say whether it did what was meant, so it is in doubt and a
// person is asked.
const autosaveGoal = `type "Mercury" into "Code"`

// TestDoubtAnsweredByAPerson: a step in doubt waits for a person without a browser; the
// person's answer is not a lost worker (no recovery, no such warning); and a cancel sent
// while it waits ends the run at once, partial, naming who cancelled.
func TestDoubtAnsweredByAPerson(t *testing.T) {
	s := newStack(t)
	w := s.worker(t)
	url := strings.TrimSuffix(s.appURL, "/projects") + "/static/lab/autosave.html"
	limits := workflows.Limits{ApprovalTimeout: 5 * time.Minute, AttemptsPerStep: 1}

	t.Run("answered", func(t *testing.T) {
		run := s.start(t, workflows.GoalInput{Goal: autosaveGoal, StartURL: url, Limits: limits})
		var d *workflows.Doubt
		eventually(t, time.Minute, "the step is in doubt", func() bool { d = doubt(s, run); return d != nil })
		eventually(t, 10*time.Second, "the waiting run holds no browser", func() bool { return openBrowsers(w) == "0" })
		saves := s.app.Saves()
		if _, err := resolve(context.Background(), s, run, workflows.Resolution{Step: d.Step, Decision: "done", By: "tester", Note: "it saved"}); err != nil {
			t.Fatal(err)
		}
		res := s.result(t, run)
		s.history(t, run, "doubt-answered")
		if n := res.Execution.BrowserRecoveries; n != 0 {
			t.Errorf("a person's answer counted as %d browser recoveries", n)
		}
		for _, wn := range res.Summary.Warnings {
			if strings.Contains(wn, "lost") {
				t.Errorf("a person's answer is not a lost worker: %q", wn)
			}
		}
		if s.app.Saves() != saves {
			t.Errorf("the step answered done was done again: %d saves, then %d", saves, s.app.Saves())
		}
		if acts := strings.Join(res.Steps[0].Actions, "\n"); !strings.Contains(acts, `tester answered "done"`) {
			t.Errorf("the step should say who answered:\n%s", acts)
		}
		if res.Execution.Status == workflows.StatusSuccess {
			t.Errorf("a person's word is not a check that held: status %s", res.Execution.Status)
		}
	})

	t.Run("cancelled", func(t *testing.T) {
		run := s.start(t, workflows.GoalInput{Goal: autosaveGoal, StartURL: url, Limits: limits})
		eventually(t, time.Minute, "the step is in doubt", func() bool { return doubt(s, run) != nil })
		if _, errOut, code := s.starter(t, "cancel", run.GetID(), "--by", "tester", "--note", "not today"); code != 0 {
			t.Fatalf("starter cancel: exit %d\n%s", code, errOut)
		}
		sent := time.Now()
		res := s.result(t, run)
		if took := time.Since(sent); took > 30*time.Second {
			t.Errorf("the run ended %s after the cancel", took.Round(time.Second))
		}
		if res.Execution.Status != workflows.StatusPartial && res.Execution.Status != workflows.StatusFailed {
			t.Errorf("status %s after a cancel", res.Execution.Status)
		}
		if n := len(res.Errors); n == 0 || res.Errors[n-1].Type != "cancelled" || !strings.Contains(res.Errors[n-1].Message, "tester") {
			t.Errorf("the run should say who cancelled it: %+v", res.Errors)
		}
	})
}
