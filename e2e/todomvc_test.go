package e2e

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// todoGoal is one everyday goal on the to-do app: the goal as a person writes it (the
// to-dos it needs are added by the goal itself, through the app, so that it reads the same
// on every implementation) and the to-dos the app must have saved after it.
type todoGoal struct {
	name, goal string
	want       []testenv.Todo
}

// addTodos is how a goal adds its to-dos: typed into the new-to-do field, Enter after each.
func addTodos(titles ...string) string {
	var b strings.Builder
	for _, t := range titles {
		fmt.Fprintf(&b, `type %q into "What needs to be done?", press Enter, `, t)
	}
	return b.String()
}

// todoGoals are the idioms of the app, one goal each: a row's checkbox, a delete button
// shown only while its row is hovered, a checkbox the page styles away behind its label
// ("Mark all as complete"), editing by double-click, and a button among the row's.
var todoGoals = []todoGoal{
	{"add to-dos", addTodos("Buy milk", "Walk the dog") + `then check that "Walk the dog" is visible`,
		[]testenv.Todo{{Title: "Buy milk"}, {Title: "Walk the dog"}}},
	{"tick a row's checkbox", addTodos("Buy milk", "Walk the dog") + `tick the checkbox for "Walk the dog", then check that "1 item left" is visible`,
		[]testenv.Todo{{Title: "Buy milk"}, {Title: "Walk the dog", Completed: true}}},
	{"delete a row by its hover-revealed button", addTodos("Buy milk", "Walk the dog") + `click the delete button in the row "Buy milk", then check that "Buy milk" is not visible`,
		[]testenv.Todo{{Title: "Walk the dog"}}},
	{"mark all as complete", addTodos("Buy milk", "Walk the dog") + `click "Mark all as complete", then check that "0 items left" is visible`,
		[]testenv.Todo{{Title: "Buy milk", Completed: true}, {Title: "Walk the dog", Completed: true}}},
	{"edit a to-do by double-clicking it", addTodos("Buy milk") + `double-click "Buy milk", clear the focused field, type "Buy oat milk", press Enter, then check that "Buy oat milk" is visible`,
		[]testenv.Todo{{Title: "Buy oat milk"}}},
	{"clear the completed", addTodos("Buy milk", "Walk the dog") + `tick the checkbox for "Buy milk", click "Clear completed", then check that "Buy milk" is not visible`,
		[]testenv.Todo{{Title: "Walk the dog"}}},
}

// TestTodoMVC drives the TodoMVC to-do app — real front-end code nobody here wrote,
// installed from the npm registry — with its everyday goals, no model. Each goal runs on a
// fresh copy of the app; the run must say success and the app's own saved to-dos must be
// what the goal asked for (a success the storage disagrees with is a false success).
func TestTodoMVC(t *testing.T) {
	if testenv.TodoMVCDir() == "" {
		t.Skip("TodoMVC is not installed: run deploy/setup.sh apps")
	}
	s := newStack(t)
	s.worker(t)
	for _, g := range todoGoals {
		t.Run(g.name, func(t *testing.T) { runTodoGoal(t, s, "vanillajs", g) })
	}
}

// runTodoGoal runs one goal on a fresh copy of the implementation impl and judges it by
// the run's status and by the app's saved to-dos.
func runTodoGoal(t *testing.T, s *stack, impl string, g todoGoal) {
	t.Helper()
	app := testenv.StartTodoMVC(t, impl)
	res := s.result(t, s.start(t, workflows.GoalInput{Goal: g.goal, StartURL: app.URL}))
	why := app.Eventually(5*time.Second, func(got []testenv.Todo) string {
		if a, b := todoList(got), todoList(g.want); a != b {
			return "saved " + a + ", want " + b
		}
		return ""
	})
	if res.Execution.Status != workflows.StatusSuccess || !res.Validation.Verified {
		t.Errorf("%s: status %s (verified %v): %s; errors %v", impl, res.Execution.Status, res.Validation.Verified, res.Validation.Reason, res.Errors)
	}
	if why != "" {
		t.Errorf("%s: the app's storage disagrees: %s (storage: %v)", impl, why, app.Storage())
		if res.Execution.Status == workflows.StatusSuccess {
			t.Errorf("%s: FALSE SUCCESS: the run said success", impl)
		}
	}
}

// todoList writes to-dos in one order, for comparing.
func todoList(todos []testenv.Todo) string {
	var out []string
	for _, t := range todos {
		mark := " "
		if t.Completed {
			mark = "x"
		}
		out = append(out, fmt.Sprintf("[%s] %s", mark, t.Title))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
