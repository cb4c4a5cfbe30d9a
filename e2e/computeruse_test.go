package e2e

import (
	"context"
	"errors"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/webagent-dev/webagent/internal/geminitest"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// publishAt is where the canvas page paints "Publish", on the computer-use tool's
// 1000×1000 grid of the 1280×800 viewport: the button spans x 700-900, y 400-480.
var publishAt = map[string]any{"x": 625, "y": 550}

// canvasScript answers the computer-use decision with click_at on "Publish" (asking for
// confirmation when safety is set), and the judge and the summary.
func canvasScript(safety *geminitest.SafetyDecision) geminitest.Script {
	return func(c geminitest.Call, n int) geminitest.Reply {
		switch c.Role {
		case "computer_use":
			return geminitest.Reply{Text: "Publishing the post.", Call: &geminitest.FunctionCall{Name: "click_at", Args: publishAt, Safety: safety}}
		case "evaluator":
			return geminitest.Reply{JSON: map[string]any{"success": true, "confidence": 0.9, "reasoning": "the post is published"}}
		case "validator":
			return geminitest.Reply{JSON: map[string]any{"success": true, "confidence": 0.9, "reason": "the page says Post published"}}
		case "summarizer":
			return geminitest.Reply{JSON: map[string]any{"brief": "Published the post", "detailed": "d", "highlights": []string{}, "warnings": []string{}}}
		}
		return geminitest.Reply{Status: http.StatusBadRequest, Message: "the test's script has no answer for role " + c.Role}
	}
}

func (s *stack) startCanvas(t *testing.T, limits workflows.Limits) client.WorkflowRun {
	limits.WaitBudget = 300 * time.Millisecond
	return s.start(t, workflows.GoalInput{Goal: `Click "Publish"`, StartURL: strings.TrimSuffix(s.appURL, "/projects") + "/static/lab/canvas.html", Limits: limits})
}

// TestComputerUseClicksWhatTheDOMHides: the page paints its buttons on a canvas, so
// DOM-first resolution finds nothing; the computer-use tool answers click_at on the
// screenshot, the agent clicks there, and the step passes its check.
func TestComputerUseClicksWhatTheDOMHides(t *testing.T) {
	s := newStack(t)
	s.app = lab.New()
	s.serveApp(t)
	gemini := geminitest.New(t, canvasScript(nil))
	s.worker(t, "GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL="+gemini.URL, "WEBAGENT_COMPUTER_USE=on")

	res := s.result(t, s.startCanvas(t, workflows.Limits{}))
	if res.Execution.Status != workflows.StatusSuccess || s.app.Published() != 1 {
		t.Fatalf("status %s, published %d times; errors %v, steps %+v", res.Execution.Status, s.app.Published(), res.Errors, res.Steps)
	}
	cu := gemini.Calls("computer_use")
	if len(cu) != 1 || cu[0].ComputerUse == nil || cu[0].ComputerUse.Environment != "ENVIRONMENT_BROWSER" || len(cu[0].Images) != 1 {
		t.Fatalf("one decision with the computer-use tool and the numbered screenshot: %+v", cu)
	}
	if len(gemini.Calls("decider")) != 0 {
		t.Error("with computer use on, the numbered-list decider is not asked")
	}
	acts := strings.Join(res.Steps[0].Actions, "\n")
	if !strings.Contains(acts, "click_at(x=625, y=550)") || !strings.Contains(acts, "clicked at (800, 440)") {
		t.Errorf("the attempt's actions should record the tool's call and the point it maps to:\n%s", acts)
	}
	if res.Usage.ByRole["decide"].Calls != 1 || res.Usage.CostUSD <= 0 {
		t.Errorf("usage %+v", res.Usage)
	}
}

// TestComputerUseWaitsForApproval: the tool marks the click require_confirmation; the
// run waits, acting on nothing, until a person approves with the approve Update; a run
// nobody answers ends partial, having done nothing.
func TestComputerUseWaitsForApproval(t *testing.T) {
	s := newStack(t)
	s.app = lab.New()
	s.serveApp(t)
	gemini := geminitest.New(t, canvasScript(&geminitest.SafetyDecision{Decision: "require_confirmation", Explanation: "Publishing makes the post public."}))
	w := s.worker(t, "GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL="+gemini.URL, "WEBAGENT_COMPUTER_USE=on")
	ctx := context.Background()

	t.Run("approved", func(t *testing.T) {
		run := s.startCanvas(t, workflows.Limits{})
		p := awaitApproval(t, s, run)
		if p.Approval.Step != 1 || !strings.Contains(p.Approval.Reason, "makes the post public") || !strings.Contains(p.Approval.Action, "click_at") {
			t.Fatalf("the pending approval: %+v", p.Approval)
		}
		eventually(t, 10*time.Second, "the run waiting for a confirmation holds no browser", func() bool { return openBrowsers(w) == "0" })
		time.Sleep(2 * time.Second)
		if n := s.app.Published(); n != 0 {
			t.Fatalf("the run acted before anyone approved: published %d times", n)
		}
		// A wrong answer is refused before it reaches the history.
		if _, err := update(ctx, s, run, workflows.Approval{Step: 2, Approve: true, By: "tester"}); err == nil || !strings.Contains(err.Error(), "step 1 is waiting") {
			t.Fatalf("an approval for another step should be refused: %v", err)
		}
		out, err := update(ctx, s, run, workflows.Approval{Step: 1, Approve: true, By: "tester", Note: "reviewed"})
		if err != nil || !strings.Contains(out.Outcome, "approved") {
			t.Fatalf("approve: %+v %v", out, err)
		}
		res := s.result(t, run)
		s.history(t, run, "computer-use-approval")
		if res.Execution.Status != workflows.StatusSuccess || s.app.Published() != 1 {
			t.Fatalf("status %s, published %d; errors %v", res.Execution.Status, s.app.Published(), res.Errors)
		}
		if acts := strings.Join(res.Steps[0].Actions, "\n"); !strings.Contains(acts, "tester approved click_at") {
			t.Errorf("the step should record who approved what:\n%s", acts)
		}
	})

	t.Run("cancelled", func(t *testing.T) {
		before := s.app.Published()
		run := s.startCanvas(t, workflows.Limits{})
		awaitApproval(t, s, run)
		if _, err := updateRun[workflows.ControlResult](ctx, s, run, workflows.CancelUpdate, workflows.Control{By: "tester"}); err != nil {
			t.Fatal(err)
		}
		res := s.result(t, run)
		n := len(res.Errors)
		if res.Execution.Status != workflows.StatusPartial || s.app.Published() != before || n == 0 || res.Errors[n-1].Type != "cancelled" || !strings.Contains(res.Errors[n-1].Message, "tester") {
			t.Fatalf("status %s, published %d (was %d), errors %+v", res.Execution.Status, s.app.Published(), before, res.Errors)
		}
	})

	t.Run("nobody answers", func(t *testing.T) {
		before := s.app.Published()
		res := s.result(t, s.startCanvas(t, workflows.Limits{ApprovalTimeout: 3 * time.Second}))
		if res.Execution.Status != workflows.StatusPartial || s.app.Published() != before {
			t.Fatalf("status %s, published %d (was %d)", res.Execution.Status, s.app.Published(), before)
		}
		if len(res.Errors) == 0 || res.Errors[len(res.Errors)-1].Type != "needs_approval" {
			t.Errorf("the run should say it waits for an approval: %+v", res.Errors)
		}
	})

	for _, c := range gemini.Calls("computer_use") {
		for _, f := range c.FunctionResponses {
			if f.Acknowledged() {
				t.Errorf("no step was tried again after an approval, so no acknowledgement is due: %+v", f)
			}
		}
	}
}

func awaitApproval(t *testing.T, s *stack, run client.WorkflowRun) workflows.Progress {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		v, err := s.client.QueryWorkflow(context.Background(), run.GetID(), run.GetRunID(), workflows.ProgressQuery)
		if err == nil {
			var p workflows.Progress
			if err := v.Get(&p); err == nil && p.Approval != nil {
				if p.Phase != workflows.PhaseAwaitingApproval {
					t.Fatalf("phase %q with an approval pending", p.Phase)
				}
				return p
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatal("the run never asked for approval")
	return workflows.Progress{}
}

// updateRun sends the run an Update and waits for its answer.
func updateRun[Out any](ctx context.Context, s *stack, run client.WorkflowRun, name string, arg any) (Out, error) {
	var out Out
	h, err := s.client.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: run.GetID(), RunID: run.GetRunID(), UpdateName: name,
		Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return out, err
	}
	return out, h.Get(ctx, &out)
}

func update(ctx context.Context, s *stack, run client.WorkflowRun, a workflows.Approval) (workflows.ApprovalResult, error) {
	return updateRun[workflows.ApprovalResult](ctx, s, run, workflows.ApproveUpdate, a)
}

// TestWorkerChecksItsModels: a worker configured with a model that does not exist stops
// at start, naming the variable; one configured with a deprecated model starts and warns
// with the shutdown date.
func TestWorkerChecksItsModels(t *testing.T) {
	s := newStack(t)
	gemini := geminitest.New(t, nil)
	key := []string{"GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL=" + gemini.URL}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, workerBin)
	cmd.Env = testenv.WorkerEnv(t, s.Stack, append(key, "WEBAGENT_DECIDE_MODEL=gemini-3.9-flesh")...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || !strings.Contains(string(out), "gemini-3.9-flesh") || !strings.Contains(string(out), "set WEBAGENT_DECIDE_MODEL") {
		t.Fatalf("the worker should stop naming the variable; err %v, output:\n%s", err, out)
	}

	w := s.worker(t, append(key, "WEBAGENT_PLANNING_MODEL=gemini-2.5-pro")...)
	log := w.Output()
	if !strings.Contains(log, "gemini-2.5-pro is deprecated and shuts down on December 1, 2026") || !strings.Contains(log, "WEBAGENT_PLANNING_MODEL") {
		t.Errorf("the worker should warn with the shutdown date and the variable:\n%s", log)
	}
	if len(gemini.Gets()) == 0 {
		t.Error("the worker should have asked the API about its models")
	}
}
