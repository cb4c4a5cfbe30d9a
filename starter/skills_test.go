package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// TestImportIsCheckedBeforeSending: a skills file with a field no skill has, or a skill
// the library would refuse, is refused whole before anything reaches a worker.
func TestImportIsCheckedBeforeSending(t *testing.T) {
	// Nothing listens here: a case that got as far as dialling would say so.
	t.Setenv("TEMPORAL_ADDRESS", testenv.Addr(testenv.FreePort(t)))
	const good = `{"id": "s1", "goal": "Click \"New\"", "goalTemplate": "Click {{value}}", "site": "http://app.test", "params": ["value"],
		"plan": [{"step": 1, "action": "CLICK", "target_description": "{{value}}"}]}`
	for _, tt := range []struct {
		name, file, want string
	}{
		{"a good skill", `[` + good + `]`, "cannot reach Temporal"},
		{"secrets carried", `[{"id": "s1", "site": "http://app.test", "secrets": {"pw": "hunter2"}}]`, `unknown field "secrets": a skill holds only what`},
		{"no site", `[` + strings.Replace(good, `"http://app.test"`, `""`, 1) + `]`, "nothing imported: 1 of 1 skills refused: skill s1: it has no site"},
		{"off its site", `[` + good + `, ` + strings.NewReplacer(`"s1"`, `"s2"`, `"CLICK", "target_description": "{{value}}"`, `"NAVIGATE", "value": "https://evil.test/"`).Replace(good) + `]`,
			"1 of 2 skills refused: skill s2: step 1: a skill stays on its site (http://app.test)"},
		{"a literal password", `[` + strings.Replace(good, `"CLICK", "target_description": "{{value}}"`, `"TYPE", "target_description": "Password", "value": "hunter2"`, 1) + `]`,
			"a skill never carries a secret"},
		{"not JSON", `{`, "is not a skills export"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "skills.json")
			if err := os.WriteFile(file, []byte(tt.file), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if code := skillsCommand([]string{"import", file}, &stdout, &stderr); code != exitBadInput {
				t.Errorf("exit %d, want %d", code, exitBadInput)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q\nwant %q", stderr.String(), tt.want)
			}
		})
	}
}
