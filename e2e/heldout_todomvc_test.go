//go:build heldout

package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// heldOutTodoImpls are TodoMVC implementations the agent was never run on while the idioms
// were built (only vanillajs was, in TestTodoMVC): the same goals, other front-end code.
var heldOutTodoImpls = []string{"backbone", "react", "vue", "angularjs", "knockoutjs", "emberjs", "mithril", "canjs"}

// TestHeldOutTodoMVC runs only these when WEBAGENT_TODOMVC names some (comma-separated).
func heldOutImpls() []string {
	if v := os.Getenv("WEBAGENT_TODOMVC"); v != "" {
		return strings.Split(v, ",")
	}
	return heldOutTodoImpls
}

// TestHeldOutTodoMVC runs TestTodoMVC's goals on the held-out implementations, each judged
// by the app's own storage; go test -tags heldout -run TestHeldOutTodoMVC ./e2e/.
func TestHeldOutTodoMVC(t *testing.T) {
	if testenv.TodoMVCDir() == "" {
		t.Skip("TodoMVC is not installed: run deploy/setup.sh apps")
	}
	s := newStack(t)
	s.poolWorker(t)
	for _, impl := range heldOutImpls() {
		t.Run(impl, func(t *testing.T) {
			for _, g := range todoGoals {
				t.Run(g.name, func(t *testing.T) { runTodoGoal(t, s, impl, g) })
			}
		})
	}
}
