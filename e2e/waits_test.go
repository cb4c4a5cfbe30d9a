package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// TestApprovalTimeoutFromTheStarter: an unattended caller bounds how long a run waits for
// a person with the starter's --approval-timeout. Nobody approves the step that needs it:
// the run ends within seconds, not the default 10 minutes, without acting, and the starter
// exits 1.
func TestApprovalTimeoutFromTheStarter(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	file := approvalPlan(t)
	started := time.Now()
	stdout, stderr, code := s.starter(t, "run", "--json", "--url", s.appURL, "--plan", file, "--approval-timeout", "3s")
	took := time.Since(started)
	var res workflows.GoalResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("exit %d, stdout is not the result JSON: %v\n%s\n%s", code, err, stdout, stderr)
	}
	if code != 1 || res.Execution.Status == workflows.StatusSuccess {
		t.Fatalf("exit %d, status %s; want 1 and a run that did not succeed", code, res.Execution.Status)
	}
	if n := s.app.Snapshot().CreateRequests; n != 0 {
		t.Errorf("%d create requests: the step waiting for approval acted", n)
	}
	if took > 90*time.Second {
		t.Errorf("the run took %s: the 3s wait for a person did not bound it", took)
	}
	if !strings.Contains(stdout, "none came within 3s") {
		t.Errorf("the result should say nobody approved within the 3s given:\n%s", stdout)
	}
}

// TestUnattendedFromTheStarter: a caller with nobody to answer says so with --unattended.
// The step that needs approval fails at once, saying it would have waited for a person,
// without acting; the starter exits 1.
func TestUnattendedFromTheStarter(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	file := approvalPlan(t)
	stdout, stderr, code := s.starter(t, "run", "--json", "--unattended", "--url", s.appURL, "--plan", file)
	var res workflows.GoalResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("exit %d, stdout is not the result JSON: %v\n%s\n%s", code, err, stdout, stderr)
	}
	n := len(res.Errors)
	if code != 1 || res.Execution.Status == workflows.StatusSuccess || n == 0 || res.Errors[n-1].Type != "unattended" || res.Steps[3].Status != workflows.StepFailed {
		t.Fatalf("exit %d, status %s, step 4 %s, errors %+v", code, res.Execution.Status, res.Steps[3].Status, res.Errors)
	}
	if c := s.app.Snapshot().CreateRequests; c != 0 {
		t.Errorf("%d create requests: the step that needed approval acted", c)
	}
	if ms := res.Metadata.DurationMs; ms > 60_000 {
		t.Errorf("the unattended run took %d ms: it waited", ms)
	}
}

// approvalPlan writes the demo goal's plan, with its "Create" step held for a person's
// approval, to a file for the starter's --plan.
func approvalPlan(t *testing.T) string {
	t.Helper()
	steps, err := plan.Parse(demoGoal)
	if err != nil {
		t.Fatal(err)
	}
	steps[3].RequiresApproval = true // click "Create"
	b, err := json.Marshal(steps)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
