// Package workflows holds the agent's orchestration: deterministic workflow code that
// decides what happens next and leaves every piece of I/O to activities.
package workflows

import (
	"fmt"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/activities"
)

// OpenQueue is where the runs of the shared queue ask for a browser: only workers with a
// browser free take from it (admission), so that a run waits for the first free browser
// of any worker rather than in line on one that is busy.
func OpenQueue(shared string) string { return shared + "-open" }

// Names that cross process boundaries.
const (
	// TaskQueue is the shared queue: workflows, planning, and opening a browser. Browser
	// steps go to the queue of the worker that holds the run's browser.
	TaskQueue = activities.TaskQueue
	// ModelTaskQueue carries planning and every model call, so that they can be
	// rate-limited apart from the browser work.
	ModelTaskQueue = activities.ModelTaskQueue
	// GoalWorkflowName is the Goal workflow's registered type name.
	GoalWorkflowName = "Goal"
	// ProgressQuery returns a Progress.
	ProgressQuery = "progress"
	// ApproveUpdate answers an action waiting for a person's approval: an Approval in,
	// an ApprovalResult out.
	ApproveUpdate = "approve"
	// ErrBadInput is the error type of a goal input that cannot run.
	ErrBadInput = activities.ErrBadInput
	// ErrGoalNotUnderstood is the error type of a goal the workers cannot plan.
	ErrGoalNotUnderstood = activities.ErrGoalNotUnderstood
	// OutputVersion is the version of the StandardWorkflowOutput shape.
	OutputVersion = "1.0.0"
)

// GoalWorkflowID returns a readable, unique workflow ID for a goal started at t.
func GoalWorkflowID(t time.Time, suffix string) string {
	return fmt.Sprintf("goal-%s-%s", t.UTC().Format("20060102-150405"), suffix)
}

// GoalRunID is GoalWorkflowID with the goal's first words in it, so that the Web UI's
// list of runs, which shows workflow IDs, says what each run does:
// goal-20261122-084431-click-new-project-type-apollo-4ea68e.
func GoalRunID(goal string, t time.Time, suffix string) string {
	if slug := Slug(goal, 40); slug != "" {
		suffix = slug + "-" + suffix
	}
	return GoalWorkflowID(t, suffix)
}

// Slug is text as lowercase words of letters and digits joined by dashes, at most max
// bytes, cut at a word.
func Slug(text string, max int) string {
	var words []string
	n := 0
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if n+len(w)+1 > max {
			break
		}
		words = append(words, w)
		n += len(w) + 1
	}
	return strings.Join(words, "-")
}
