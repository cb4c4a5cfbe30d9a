package testenv

import (
	"os/exec"
	"strings"
	"testing"
)

// testenv starts the servers the tests run against and knows nothing of the workflows
// they serve: a caller passes in what a server needs of them (its search attributes).
func TestImportsNoWorkflows(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasSuffix(pkg, "/webagent/workflows") || strings.Contains(pkg, "/webagent/workflows/") {
			t.Errorf("testenv depends on %s", pkg)
		}
	}
}
