package main

import (
	"bytes"
	"flag"
	"strings"
	"testing"
	"time"
)

// TestWaitFlagsBoundTheWaitsForAPerson: an unattended caller bounds how long a run waits
// for a person (an approval or a step in doubt, and a hint); a wait of 0, which the run
// would read as the default 10 minutes, is refused with what to give instead.
func TestWaitFlagsBoundTheWaitsForAPerson(t *testing.T) {
	tests := []struct {
		name           string
		args           []string
		approval, hint time.Duration
		refused        string
		unattended     bool
	}{
		{"unattended", []string{"--unattended"}, 0, 0, "", true},
		{"defaults", nil, 0, 0, "", false},
		{"approval", []string{"--approval-timeout", "30s"}, 30 * time.Second, 0, "", false},
		{"both, after the goal", []string{"--approval-timeout=1s", "--hint-timeout", "2m"}, time.Second, 2 * time.Minute, "", false},
		{"zero approval", []string{"--approval-timeout", "0"}, 0, 0, "to never wait for a person, give --unattended", false},
		{"negative approval", []string{"--approval-timeout", "-5s"}, 0, 0, "must be more than 0", false},
		{"not a duration", []string{"--approval-timeout", "soon"}, 0, 0, "not a duration", false},
		{"above the cap", []string{"--approval-timeout", "200h"}, 0, 0, "limits.approvalTimeout is 200h0m0s", false},
		{"negative hint", []string{"--hint-timeout", "-1s"}, 0, 0, "limits.hintTimeout", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := runFlags{params: params{}, secrets: params{}}
			fs := flag.NewFlagSet("run", flag.ContinueOnError)
			var stderr bytes.Buffer
			fs.SetOutput(&stderr)
			f.goalFlags(fs)
			in, ok := parseGoalArgs(fs, &f, append([]string{`click "Create"`}, tt.args...), &stderr)
			if tt.refused != "" {
				if ok || !strings.Contains(stderr.String(), tt.refused) {
					t.Fatalf("want refused with %q, got ok=%v: %s", tt.refused, ok, stderr.String())
				}
				return
			}
			if !ok {
				t.Fatalf("refused: %s", stderr.String())
			}
			if in.Unattended != tt.unattended {
				t.Errorf("unattended %v, want %v", in.Unattended, tt.unattended)
			}
			if in.Limits.ApprovalTimeout != tt.approval || in.Limits.HintTimeout != tt.hint {
				t.Errorf("limits %v approval, %v hint; want %v, %v", in.Limits.ApprovalTimeout, in.Limits.HintTimeout, tt.approval, tt.hint)
			}
		})
	}
}
