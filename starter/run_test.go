package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

func TestBadInputExitsTwoBeforeStarting(t *testing.T) {
	// Nothing listens here: a case that got as far as dialling would say so.
	t.Setenv("TEMPORAL_ADDRESS", testenv.Addr(testenv.FreePort(t)))
	badPlan := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(badPlan, []byte(`[{"action": "CLICK"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"empty goal", []string{"   "}, "the goal is empty"},
		{"no goal at all", nil, "the goal is empty"},
		{"malformed URL", []string{"--url", "example", `click "A"`}, "not an absolute http(s) URL"},
		{"missing parameter", []string{`type "{{name}}" into "Project name"`}, "parameters that were not given: name"},
		{"bad param flag", []string{"--param", "novalue", `click "A"`}, `"novalue" is not name=value`},
		{"invalid plan file", []string{"--plan", badPlan}, "CLICK needs a target_description"},
		{"unreachable Temporal", []string{`click "A"`}, "cannot reach Temporal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runCommand(tt.args, &stdout, &stderr)
			if code != exitBadInput {
				t.Errorf("exit %d, want %d", code, exitBadInput)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q should contain %q", stderr.String(), tt.want)
			}
		})
	}
}
