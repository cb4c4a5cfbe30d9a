package workflows

import (
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"
)

// progress answers ProgressQuery.
func (r *run) progress() (Progress, error) {
	p := Progress{Phase: r.phase, Approval: r.people.pending, Doubt: r.people.doubt, Paused: r.people.paused, Stuck: r.people.stuck}
	if sk := r.res.Skill; sk.CacheHit || sk.MissReason != "" {
		p.Skill = &sk
	}
	if asked := r.browser.asked; !asked.IsZero() {
		p.BrowserAsked = &asked
	}
	for i, s := range r.steps {
		sp := StepProgress{Order: s.Order, Description: s.Description, Status: s.Status, Attempts: s.Attempts}
		if n := len(s.Feedback); n > 0 {
			sp.LastFeedback = s.Feedback[n-1].String()
		}
		if s.Status == StepRunning {
			p.Current = i + 1
		}
		p.Steps = append(p.Steps, sp)
	}
	return p, nil
}

// report writes the run's progress where the Web UI shows it.
func (r *run) report(ctx workflow.Context) {
	var b strings.Builder
	b.WriteString(fmt.Sprintf("**%s** — %s\n\n", r.phase, oneLine(r.in.Goal)))
	id := workflow.GetInfo(ctx).WorkflowExecution.ID
	switch {
	case r.people.pending != nil:
		b.WriteString(fmt.Sprintf("Waits until %s for a person to approve step %d: %s (%s). Answer: `starter approve %s` or `starter reject %s` (the approve Update).\n\n",
			r.people.pending.Until.Format(time.RFC3339), r.people.pending.Step, r.people.pending.Action, r.people.pending.Reason, id, id))
	case r.people.doubt != nil:
		b.WriteString(fmt.Sprintf("Waits until %s for a person to say whether step %d happened: %s. Answer: `starter resolve %s --decision done|repeat|abort`.\n\n",
			r.people.doubt.Until.Format(time.RFC3339), r.people.doubt.Step, r.people.doubt.Reason, id))
	case r.people.stuck != nil:
		b.WriteString(fmt.Sprintf("Stuck until %s: %s. Help: `starter hint %s \"...\"` (the hint Update).\n\n", r.people.stuck.Until.Format(time.RFC3339), r.people.stuck.Reason, id))
	case r.people.paused != nil:
		b.WriteString(fmt.Sprintf("Paused by %s%s. Go on: `starter resume %s`.\n\n", r.people.paused.By, note(r.people.paused.Note), id))
	}
	b.WriteString("| # | step | status | attempts |\n|---|---|---|---|\n")
	for _, s := range r.steps {
		b.WriteString(fmt.Sprintf("| %d | %s | %s | %d |\n", s.Order, strings.ReplaceAll(s.Description, "|", "\\|"), s.Status, s.Attempts))
	}
	workflow.SetCurrentDetails(ctx, b.String())
}
