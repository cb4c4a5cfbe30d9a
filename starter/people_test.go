package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// TestAnswersPastTheCapsAreRefusedBeforeSending: the people commands refuse a name, note
// or hint the run would refuse, in the run's words, before they reach Temporal.
func TestAnswersPastTheCapsAreRefusedBeforeSending(t *testing.T) {
	// Nothing listens here: a case that got as far as dialling would say so.
	t.Setenv("TEMPORAL_ADDRESS", testenv.Addr(testenv.FreePort(t)))
	for _, tt := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"approve", []string{"--by", strings.Repeat("b", 250), "wf-1"}, `"by" is 250 bytes; at most 200 are kept: shorten it`},
		{"cancel", []string{"--by", "ops", "--note", strings.Repeat("n", 5321), "wf-1"}, "the note is 5,321 bytes; at most 2,000 are kept: shorten it"},
		{"resolve", []string{"--by", "ops\x1b", "--decision", "done", "wf-1"}, `"by" holds a control character`},
		{"hint", []string{"--by", "ops", "wf-1", strings.Repeat("h", 2001)}, "the hint is 2,001 bytes; at most 2,000 are kept: shorten it"},
		{"pause", []string{"--by", " ", "wf-1"}, `say who answers: "by" is empty`},
		{"resume", []string{"--by", "ops", "--note", "fine", "wf-1"}, "cannot reach Temporal"},
	} {
		t.Run(tt.cmd, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := peopleCommand(tt.cmd, tt.args, &stdout, &stderr); code != exitBadInput {
				t.Errorf("exit %d, want %d", code, exitBadInput)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q, want %q", stderr.String(), tt.want)
			}
		})
	}
}
