package activities

import (
	"strings"
	"testing"
)

func TestRunPrefix(t *testing.T) {
	for _, tc := range []struct{ wf, run, want string }{
		{"goal-20261123-click-new-project-4ea68e", "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "runs/goal-20261123-click-new-project-4ea68e/0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"},
		{"a/0199a1b2", "r2", "runs/a%2F0199a1b2/r2"},
		{"100%/x", "r", "runs/100%25%2Fx/r"},
		{"..", "r", "runs/%2E%2E/r"},
		{"a..b", "r", "runs/a..b/r"},
		{"日本", "r", "runs/日本/r"},
	} {
		got := RunPrefix(tc.wf, tc.run)
		if got != tc.want {
			t.Errorf("RunPrefix(%q, %q) = %q, want %q", tc.wf, tc.run, got, tc.want)
		}
		if strings.Count(got, "/") != 2 {
			t.Errorf("RunPrefix(%q, %q) = %q: not three segments", tc.wf, tc.run, got)
		}
	}
}
