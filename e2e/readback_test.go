package e2e

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// TestReadBackIsVerified runs a goal that ends by reading a value off the page, offline
// and with the skills library: the value read is the evidence, so the run is a verified
// success and teaches the library (the "verified-by-read" version; its history is
// replayed by the workflows' tests).
func TestReadBackIsVerified(t *testing.T) {
	weaviate := testenv.Weaviate(t)
	s := newStack(t)
	s.worker(t, "WEAVIATE_URL="+weaviate.Addr)
	panels := strings.TrimSuffix(s.appURL, "/projects") + "/static/lab/panels.html"
	run := s.start(t, workflows.GoalInput{Goal: `read the value of "Gender"`, StartURL: panels})
	res := s.result(t, run)
	if res.Execution.Status != workflows.StatusSuccess || !res.Validation.Verified || !strings.Contains(res.Validation.Reason, "Female") {
		t.Fatalf("status %s, verified %v: %s", res.Execution.Status, res.Validation.Verified, res.Validation.Reason)
	}
	if res.Skill.Saved != "learned" {
		t.Errorf("a verified read should teach the library: skill %+v", res.Skill)
	}
	s.history(t, run, "verified-by-read")
}
