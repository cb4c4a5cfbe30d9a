package main

import (
	"testing"

	"github.com/webagent-dev/webagent/workflows"
)

func TestSkillMissSaysWhy(t *testing.T) {
	tests := []struct {
		sk   workflows.SkillUse
		want string
	}{
		{workflows.SkillUse{MissReason: "no skill for this site", Saved: "learned", SaveWorkflowID: "save-1"},
			"cache miss (no skill for this site); learned for next time (save-1)"},
		{workflows.SkillUse{MissReason: "best similarity 0.930 < 0.95 (skill x)"}, "cache miss (best similarity 0.930 < 0.95 (skill x))"},
		{workflows.SkillUse{Saved: "learned", SaveWorkflowID: "save-2"}, "cache miss; learned for next time (save-2)"},
	}
	for _, tt := range tests {
		if got := skillMiss(tt.sk); got != tt.want {
			t.Errorf("skillMiss(%+v)\n got %q\nwant %q", tt.sk, got, tt.want)
		}
	}
}
