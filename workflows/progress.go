package workflows

import (
	"fmt"
	"strings"

	"go.temporal.io/sdk/workflow"
)

// progress answers ProgressQuery.
func (r *run) progress() (Progress, error) {
	p := Progress{Phase: r.phase, Approval: r.pending, Doubt: r.doubt, Paused: r.paused, Stuck: r.stuck}
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
	b.WriteString(fmt.Sprintf("**%s** — %s\n\n| # | step | status | attempts |\n|---|---|---|---|\n", r.phase, oneLine(r.in.Goal)))
	for _, s := range r.steps {
		b.WriteString(fmt.Sprintf("| %d | %s | %s | %d |\n", s.Order, strings.ReplaceAll(s.Description, "|", "\\|"), s.Status, s.Attempts))
	}
	workflow.SetCurrentDetails(ctx, b.String())
}
