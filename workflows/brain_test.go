package workflows_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// fakeModel plays the model's activities from the test's answers, and records the order
// in which they were asked.
type fakeModel struct {
	mu       sync.Mutex
	asked    []string
	decide   func(in activities.DecideInput, n int) (activities.DecideResult, error)
	evaluate func(in activities.EvaluateStepInput, n int) (activities.EvaluateStepResult, error)
	judge    func(in activities.JudgeGoalInput) (activities.JudgeGoalResult, error)
	replan   func(in activities.ReplanInput) (activities.ReplanResult, error)
}

func (m *fakeModel) ask(role string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.asked = append(m.asked, role)
	n := 0
	for _, r := range m.asked {
		if r == role {
			n++
		}
	}
	return n
}

func (m *fakeModel) count(role string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, r := range m.asked {
		if r == role {
			n++
		}
	}
	return n
}

// register puts the model's activities in env; a role the test gave no answers for
// says so, as a model that is not there would.
func (m *fakeModel) register(env *testsuite.TestWorkflowEnvironment) {
	none := errors.New("the test gives this role no answers")
	env.RegisterActivityWithOptions(func(_ context.Context, in activities.DecideInput) (activities.DecideResult, error) {
		n := m.ask("decide")
		if m.decide == nil {
			return activities.DecideResult{}, temporal.NewNonRetryableApplicationError(none.Error(), "Test", nil)
		}
		return m.decide(in, n)
	}, activity.RegisterOptions{Name: activities.DecideTarget.Name})
	env.RegisterActivityWithOptions(func(_ context.Context, in activities.EvaluateStepInput) (activities.EvaluateStepResult, error) {
		n := m.ask("evaluate")
		if m.evaluate == nil {
			return activities.EvaluateStepResult{Success: true, Confidence: 0.9, Reasoning: "it did what the step says", Usage: activities.Usage{Calls: 1}}, nil
		}
		return m.evaluate(in, n)
	}, activity.RegisterOptions{Name: activities.EvaluateStep.Name})
	env.RegisterActivityWithOptions(func(_ context.Context, in activities.JudgeGoalInput) (activities.JudgeGoalResult, error) {
		m.ask("judge")
		if m.judge == nil {
			return activities.JudgeGoalResult{Success: true, Confidence: 0.9, Reason: "the goal's effect is on the page", Usage: activities.Usage{Calls: 1}}, nil
		}
		return m.judge(in)
	}, activity.RegisterOptions{Name: activities.JudgeGoal.Name})
	env.RegisterActivityWithOptions(func(_ context.Context, in activities.ReplanInput) (activities.ReplanResult, error) {
		m.ask("replan")
		if m.replan == nil {
			return activities.ReplanResult{Strategy: activities.StrategyAbort, Reason: "nothing else to try", Usage: activities.Usage{Calls: 1}}, nil
		}
		return m.replan(in)
	}, activity.RegisterOptions{Name: activities.Replan.Name})
	env.RegisterActivityWithOptions(func(_ context.Context, in activities.SummarizeInput) (activities.SummarizeResult, error) {
		m.ask("summarize")
		return activities.SummarizeResult{Summary: activities.Summary{Brief: in.Status}, Usage: activities.Usage{Calls: 1}}, nil
	}, activity.RegisterOptions{Name: activities.Summarize.Name})
}

// modelEnv is a run whose plan the model wrote.
func modelEnv(t *testing.T, f *fakeBrowser, m *fakeModel, goal string) *testsuite.TestWorkflowEnvironment {
	env := newEnv(t, f, m.register)
	validates(env, true)
	env.OnActivity("PlanGoal", mock.Anything, mock.Anything).Return(activities.PlanGoalResult{
		Planner: activities.PlannerModel, ModelAvailable: true, Steps: steps(t, goal), Usage: activities.Usage{Calls: 1},
	}, nil)
	return env
}

var archivedTab = activities.ElementRef{Index: 3, Role: "tab", Name: "Archived"}

// acted is an attempt that acted on el, and whose own checks passed.
func acted(in activities.RunStepInput, el activities.ElementRef) activities.RunStepResult {
	res := ok(in)
	res.Element, res.Target = &el, el.Name
	return res
}

// TestVetoedElementIsNeverActedOnAgain: the evaluator vetoes a click on the "Archived"
// tab for `click "Archive"`; the next attempt is told to avoid it (the browser then does
// not act on it), the model is told too, and its "not there" replans at once.
func TestVetoedElementIsNeverActedOnAgain(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, n int) (activities.RunStepResult, error) {
		if slices.ContainsFunc(in.Avoid, func(e activities.ElementRef) bool { return e.Name == "Archived" }) {
			fb := plan.Feedback{Type: plan.WrongElement, Details: `#3 tab "Archived" is what an earlier attempt acted on`}
			return failed(fb), nil
		}
		return acted(in, archivedTab), nil
	}}
	m := &fakeModel{
		evaluate: func(in activities.EvaluateStepInput, n int) (activities.EvaluateStepResult, error) {
			return activities.EvaluateStepResult{Success: false, Confidence: 0.9, Reasoning: "it opened the Archived tab",
				Feedback: &plan.Feedback{Type: plan.WrongElement, Details: "clicked the Archived tab, not the Archive item"}, Usage: activities.Usage{Calls: 1}}, nil
		},
		decide: func(in activities.DecideInput, n int) (activities.DecideResult, error) {
			if len(in.Avoid) != 1 || in.Avoid[0].Name != "Archived" {
				t.Errorf("the model is not told what to avoid: %+v", in.Avoid)
			}
			return activities.DecideResult{Failure: &plan.Feedback{Type: plan.NotVisible, Details: "no Archive item is open"}, Usage: activities.Usage{Calls: 1}}, nil
		},
	}
	res := execute(t, modelEnv(t, f, m, `click "Archive"`), workflows.GoalInput{Goal: "archive it", StartURL: startURL})
	if len(f.calls) != 2 {
		t.Fatalf("%d attempts; want 2 (the vetoed click, then one that is told to avoid it and gives up to the replan)", len(f.calls))
	}
	if m.count("decide") != 1 || m.count("replan") != 1 {
		t.Errorf("asked %v: the model's \"not there\" should replan at once", m.asked)
	}
	if res.Execution.Status == workflows.StatusSuccess {
		t.Errorf("status %s", res.Execution.Status)
	}
	if av := res.Steps[0].Avoided; len(av) != 1 || av[0].Name != "Archived" {
		t.Errorf("the step's avoided elements: %+v", av)
	}
}

// TestVetoedStateChangeEndsTheRun: a click that sent a state-changing request and that the
// evaluator says did the wrong thing is not tried again, nor replanned around: the run
// stops for a person.
func TestVetoedStateChangeEndsTheRun(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, n int) (activities.RunStepResult, error) {
		res := acted(in, activities.ElementRef{Role: "menuitem", Name: "Archive", Row: "Website relaunch"})
		res.Mutated = true
		return res, nil
	}}
	m := &fakeModel{evaluate: func(in activities.EvaluateStepInput, n int) (activities.EvaluateStepResult, error) {
		return activities.EvaluateStepResult{Success: false, Confidence: 0.95, Reasoning: "it archived Website relaunch, not Q4-bugs", Usage: activities.Usage{Calls: 1}}, nil
	}}
	res := execute(t, modelEnv(t, f, m, `click "Archive", check that "Project archived" is visible`), workflows.GoalInput{Goal: `archive "Q4-bugs"`, StartURL: startURL})
	if len(f.calls) != 1 || m.count("replan") != 0 {
		t.Fatalf("%d attempts and %d replans after a wrong state-changing click; want 1 and 0", len(f.calls), m.count("replan"))
	}
	if res.Execution.Status != workflows.StatusFailed || len(res.Errors) == 0 || res.Errors[len(res.Errors)-1].Type != "wrong_effect" {
		t.Errorf("status %s errors %+v", res.Execution.Status, res.Errors)
	}
}

// TestJudgeThatErrsOrIsUnsureVerifiesNothing: with a plan the model wrote, a judge that
// fails, or says success unsure, leaves the run unverified however the closing checks went.
func TestJudgeThatErrsOrIsUnsureVerifiesNothing(t *testing.T) {
	for name, judge := range map[string]func(activities.JudgeGoalInput) (activities.JudgeGoalResult, error){
		"errs": func(activities.JudgeGoalInput) (activities.JudgeGoalResult, error) {
			return activities.JudgeGoalResult{}, temporal.NewNonRetryableApplicationError("gemini refused", activities.ErrModelSafetyBlock, nil)
		},
		"unsure": func(activities.JudgeGoalInput) (activities.JudgeGoalResult, error) {
			return activities.JudgeGoalResult{Success: true, Confidence: 0.5, Reason: "maybe", Usage: activities.Usage{Calls: 1}}, nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
				return acted(in, archivedTab), nil
			}}
			m := &fakeModel{judge: judge}
			res := execute(t, modelEnv(t, f, m, `click "Archive", check that "Project archived" is visible`), workflows.GoalInput{Goal: "archive it", StartURL: startURL})
			if res.Execution.Status == workflows.StatusSuccess || res.Validation.Verified {
				t.Errorf("status %s, validation %+v", res.Execution.Status, res.Validation)
			}
			if strings.Contains(res.Validation.Reason, "no model judged") {
				t.Errorf("the model judged, and the reason says none did: %s", res.Validation.Reason)
			}
		})
	}
}

// TestModelChoiceUnevaluatedIsUnverified: a click the model planned whose evaluation fails
// stands unverified, and the run does not claim success.
func TestModelChoiceUnevaluatedIsUnverified(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		return acted(in, archivedTab), nil
	}}
	m := &fakeModel{evaluate: func(in activities.EvaluateStepInput, n int) (activities.EvaluateStepResult, error) {
		return activities.EvaluateStepResult{}, temporal.NewNonRetryableApplicationError("the answer was still invalid", activities.ErrModelInvalidOutput, nil)
	}}
	res := execute(t, modelEnv(t, f, m, `click "Archive"`), workflows.GoalInput{Goal: "archive it", StartURL: startURL})
	if res.Execution.Status == workflows.StatusSuccess || !res.Steps[0].Unverified || !strings.Contains(res.Steps[0].UnverifiedWhy, "could not evaluate") {
		t.Errorf("status %s step %+v", res.Execution.Status, res.Steps[0])
	}
}

// TestEveryModelTryIsCounted: the model's failed tries are paid for and counted (the
// activity carries their usage in its error), and a budget stops the tries.
func TestEveryModelTryIsCounted(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		return acted(in, archivedTab), nil
	}}
	m := &fakeModel{evaluate: func(in activities.EvaluateStepInput, n int) (activities.EvaluateStepResult, error) {
		if n < 3 {
			return activities.EvaluateStepResult{}, activities.WithUsage(
				temporal.NewApplicationError("gemini is unavailable (HTTP 503)", activities.ErrModelUnavailable), activities.Usage{Calls: 2, InputTokens: 100})
		}
		return activities.EvaluateStepResult{Success: true, Confidence: 0.9, Reasoning: "done", Usage: activities.Usage{Calls: 1, InputTokens: 50}}, nil
	}}
	res := execute(t, modelEnv(t, f, m, `click "Archive"`), workflows.GoalInput{Goal: "archive it", StartURL: startURL})
	if u := res.Usage.ByRole["evaluate"]; u.Calls != 5 || u.InputTokens != 250 {
		t.Errorf("evaluate usage %+v; want the 2+2 failed calls and the 1 that answered", u)
	}

	m = &fakeModel{evaluate: m.evaluate}
	res = execute(t, modelEnv(t, f, m, `click "Archive"`), workflows.GoalInput{Goal: "archive it", StartURL: startURL, Limits: workflows.Limits{MaxModelCalls: 4}})
	if m.count("evaluate") != 2 || res.Execution.Status == workflows.StatusSuccess {
		t.Errorf("%d evaluations under a budget of 4 calls (1 planning, 2 per failed try); status %s", m.count("evaluate"), res.Execution.Status)
	}
}

// TestReplanThatRepeatsIsAskedAgain: a replan that begins with the step that failed,
// unchanged, is told so and asked once more, rather than run into the same failure.
func TestReplanThatRepeatsIsAskedAgain(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) {
		return failed(plan.Feedback{Type: plan.NotVisible, Details: "no Archive on the page"}), nil
	}}
	var told []bool
	m := &fakeModel{
		decide: func(in activities.DecideInput, n int) (activities.DecideResult, error) {
			return activities.DecideResult{Failure: &plan.Feedback{Type: plan.NotVisible, Details: "no Archive"}, Usage: activities.Usage{Calls: 1}}, nil
		},
		replan: func(in activities.ReplanInput) (activities.ReplanResult, error) {
			told = append(told, slices.ContainsFunc(in.Feedback, func(f plan.Feedback) bool { return strings.Contains(f.Details, "begins with the step that failed") }))
			return activities.ReplanResult{Strategy: "retry_differently", Reason: "try again", Steps: []plan.Step{in.Failed}, Usage: activities.Usage{Calls: 1}}, nil
		},
	}
	execute(t, modelEnv(t, f, m, `click "Archive"`), workflows.GoalInput{Goal: "archive it", StartURL: startURL, Limits: workflows.Limits{Replans: 1}})
	if len(told) != 2 || told[0] || !told[1] {
		t.Errorf("replans %v: want a second one told that the first repeated the failed step", told)
	}
}
