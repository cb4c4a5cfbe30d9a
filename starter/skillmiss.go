package main

import (
	"fmt"

	"github.com/webagent-dev/webagent/workflows"
)

// skillMiss says, for a run that reused no skill, why the library had none to offer and
// what the run taught it: "cache miss (no skill for this site); learned for next time".
// A miss that is not explained cannot be acted on (a threshold, a goal's wording, a
// disabled skill), so the reason is always shown when the run has one.
func skillMiss(sk workflows.SkillUse) string {
	s := "cache miss"
	if sk.MissReason != "" {
		s += " (" + sk.MissReason + ")"
	}
	if sk.Saved != "" {
		s += fmt.Sprintf("; %s for next time (%s)", sk.Saved, sk.SaveWorkflowID)
	}
	return s
}
