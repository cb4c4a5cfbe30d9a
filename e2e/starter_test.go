package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/workflows"
)

// starter runs the starter binary against the test's Temporal and returns its output and
// exit status.
func (s *stack) starter(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(starterBin, args...)
	cmd.Env = append(append(os.Environ(), s.TemporalEnv()...), "TEMPORAL_UI_URL=http://ui.test", "GEMINI_API_KEY=", "GOOGLE_API_KEY=", "GOOGLE_GENAI_USE_VERTEXAI=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return stdout.String(), stderr.String(), 0
	case errors.As(err, &exit):
		return stdout.String(), stderr.String(), exit.ExitCode()
	}
	t.Fatalf("run the starter: %v", err)
	return "", "", -1
}

func TestStarter(t *testing.T) {
	s := newStack(t)
	s.worker(t)

	t.Run("follows the run and prints the standard output as JSON", func(t *testing.T) {
		stdout, stderr, code := s.starter(t, "run", "--json", "--url", s.appURL, demoGoal)
		if code != 0 {
			t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
		}
		var res workflows.GoalResult
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatalf("stdout is not the result JSON: %v\n%s", err, stdout)
		}
		if res.Execution.Status != workflows.StatusSuccess || len(res.Steps) != 5 {
			t.Fatalf("result %+v", res.Execution)
		}
		// Progress goes to stderr with --json: the UI link and every step's completion.
		for _, want := range []string{"http://ui.test/namespaces/" + s.Namespace + "/workflows/" + res.Metadata.WorkflowID, "completed  click \"Create\""} {
			if !strings.Contains(stderr, want) {
				t.Errorf("progress should contain %q:\n%s", want, stderr)
			}
		}
	})

	t.Run("a failed goal exits 1 with the reason", func(t *testing.T) {
		stdout, _, code := s.starter(t, "run", "--url", s.appURL, "--attempts", "1", `click "Delete everything"`)
		if code != 1 || !strings.Contains(stdout, "FAILED") || !strings.Contains(stdout, "Delete everything") {
			t.Fatalf("exit %d\n%s", code, stdout)
		}
	})

	t.Run("a goal done but not confirmed exits 1 and says so", func(t *testing.T) {
		// Nothing checks that the dialog opened: done, not confirmed, never exit 0.
		stdout, _, code := s.starter(t, "run", "--url", s.appURL, `click "New project"`)
		if code != 1 || !strings.Contains(stdout, "UNVERIFIED: Done, not verified") || !strings.Contains(stdout, "NOT verified") {
			t.Fatalf("exit %d\n%s", code, stdout)
		}
	})

	t.Run("a goal the workers cannot read exits 2 with their reason", func(t *testing.T) {
		// The starter holds no model key of its own to decide with: the workers, which
		// have none here, answer, and the starter reports it as bad input.
		_, stderr, code := s.starter(t, "run", "--url", s.appURL, "Archive my Q4 bugs project")
		if code != 2 || !strings.Contains(stderr, `cannot read step 1 "Archive my Q4 bugs project"`) || !strings.Contains(stderr, "GEMINI_API_KEY") {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
	})

	t.Run("--no-wait --json returns the ids at once", func(t *testing.T) {
		stdout, stderr, code := s.starter(t, "run", "--no-wait", "--json", "--url", s.appURL, `check that "Projects" is visible`)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var ids map[string]string
		if err := json.Unmarshal([]byte(stdout), &ids); err != nil || ids["workflowId"] == "" || ids["runId"] == "" || !strings.HasPrefix(ids["uiUrl"], "http://ui.test/") {
			t.Fatalf("stdout %q: %v", stdout, err)
		}
	})
}
