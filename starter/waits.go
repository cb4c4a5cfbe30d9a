package main

import "flag"

// waitFlags registers how long a run may wait for a person, so that an unattended caller
// (a schedule, a script, CI) can bound it. The workflow has one limit for both waits that
// hold a step — an approval the plan or the model asks for, and a step in doubt (it may
// have acted, and whether it did cannot be told) — so one flag bounds both. Past the wait
// the run ends without acting further (partial, or failed for a step in doubt). There is
// no "never wait" policy yet: the shortest wait is the one given.
func (f *runFlags) waitFlags(fs *flag.FlagSet) {
	fs.Var(personWait{d: &f.limits.ApprovalTimeout, name: "approval-timeout"}, "approval-timeout",
		"the longest `duration` the run waits for a person to approve a step, or to answer for a step in doubt, before it ends without acting (default 10m; never past --deadline)")
	fs.DurationVar(&f.limits.HintTimeout, "hint-timeout", 0, "how long a run whose step failed after its attempts and replans waits for a person's hint (default 0: it does not wait)")
}
