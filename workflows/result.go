package workflows

import (
	"fmt"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
)

// draft is the run's GoalResult while the run writes it. The entries every part of the
// run adds as it goes — warnings, errors, what the model cost — are added here, so that
// each is written one way; finish (outcome.go) then counts, decides and sums it up.
type draft struct {
	GoalResult
	// judgeUnsure says the model judged the goal and was not sure, or could not judge a
	// run whose steps it chose: the validation's reason says so already.
	judgeUnsure bool
}

// warn adds a warning to the output.
func (d *draft) warn(w string) { d.Summary.Warnings = append(d.Summary.Warnings, w) }

// addError adds an error to the output, about the step numbered step (0: the run).
func (d *draft) addError(ctx workflow.Context, step int, typ, msg string, recoverable bool) {
	d.Errors = append(d.Errors, RunError{Step: step, Type: typ, Message: msg, Recoverable: recoverable, Timestamp: workflow.Now(ctx)})
}

// rescued turns the errors from the index errs on into warnings: a step they were the
// failure of was rescued after all (a person's hint), and they are its history.
func (d *draft) rescued(errs int) {
	for _, e := range d.Errors[errs:] {
		d.warn(fmt.Sprintf("step %d: %s (before the hint)", e.Step, e.Message))
	}
	d.Errors = d.Errors[:errs]
}

// addUsage counts a model call's cost for the step (when there is one), the run, and
// its role.
func (d *draft) addUsage(rec *StepRecord, role string, u activities.Usage) {
	if u.Calls == 0 {
		return
	}
	if rec != nil {
		rec.Usage.Add(u)
	}
	d.Usage.Add(u)
	if d.Usage.ByRole == nil {
		d.Usage.ByRole = map[string]activities.Usage{}
	}
	byRole := d.Usage.ByRole[role]
	byRole.Add(u)
	d.Usage.ByRole[role] = byRole
}

// endSummary is what the webhook is told of a run that ended: its status and steps, and
// the goal in one line — not the last error, which may quote the page.
func (d *draft) endSummary() string {
	ex := d.Execution
	brief, _, _ := strings.Cut(d.Summary.Brief, " — ")
	return fmt.Sprintf("%s: %d of %d steps completed. %s", ex.Status, ex.StepsCompleted, ex.StepsPlanned, brief)
}

// keyPrefix is the run's folder in the store: named after the run the result is of (for
// a run continued as new, its first).
func (m Metadata) keyPrefix() string { return activities.RunPrefix(m.WorkflowID, m.RunID) }
