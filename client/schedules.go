package client

import (
	"context"
	"errors"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	tclient "go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/workflows"
)

// ScheduledRunPrefix begins the workflow ID of every run a schedule starts; Temporal
// appends the time: "sched-nightly-2026-11-22T08:00:00Z".
const ScheduledRunPrefix = "sched-"

// Overlaps are the overlap policies a schedule may take, by the names the temporal CLI uses.
var Overlaps = map[string]enums.ScheduleOverlapPolicy{
	"skip":            enums.SCHEDULE_OVERLAP_POLICY_SKIP,
	"buffer-one":      enums.SCHEDULE_OVERLAP_POLICY_BUFFER_ONE,
	"buffer-all":      enums.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL,
	"cancel-other":    enums.SCHEDULE_OVERLAP_POLICY_CANCEL_OTHER,
	"terminate-other": enums.SCHEDULE_OVERLAP_POLICY_TERMINATE_OTHER,
	"allow-all":       enums.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL,
}

// Schedule is a goal that runs on a Temporal Schedule: by a cron expression or at an
// interval (one of them).
type Schedule struct {
	ID            string
	Cron          string
	Every         time.Duration
	Overlap       string        // a key of Overlaps; default skip
	CatchupWindow time.Duration // default 10 minutes
	Paused        bool
	Note          string
	Goal          GoalInput
}

// CreateSchedule checks the schedule and its goal and creates it; its runs' workflow IDs
// begin ScheduledRunPrefix + ID, and carry the schedule in their search attributes.
func (c *Client) CreateSchedule(ctx context.Context, s Schedule) error {
	if s.Overlap == "" {
		s.Overlap = "skip"
	}
	if s.CatchupWindow == 0 {
		s.CatchupWindow = 10 * time.Minute
	}
	pol, known := Overlaps[s.Overlap]
	switch {
	case strings.TrimSpace(s.ID) == "" || strings.ContainsAny(s.ID, " /"):
		return badInputf("--id: name the schedule (letters, digits, dashes), e.g. --id nightly-signin")
	case (s.Cron == "") == (s.Every <= 0):
		return badInputf("say when: --cron EXPR or --every DURATION (one of them)")
	case s.Every > 0 && s.Every < 5*time.Second:
		return badInputf("--every %s: at least 5s between runs", s.Every)
	case !known:
		return badInputf("--overlap %q: one of skip, buffer-one, buffer-all, cancel-other, terminate-other, allow-all", s.Overlap)
	}
	if err := Check(s.Goal); err != nil {
		return err
	}
	spec := tclient.ScheduleSpec{}
	if s.Cron != "" {
		spec.CronExpressions = []string{s.Cron}
	} else {
		spec.Intervals = []tclient.ScheduleIntervalSpec{{Every: s.Every}}
	}
	summary, details := Describe(s.Goal)
	_, err := c.tc.ScheduleClient().Create(ctx, tclient.ScheduleOptions{
		ID: s.ID, Spec: spec, Overlap: pol, CatchupWindow: s.CatchupWindow, Paused: s.Paused, Note: s.Note,
		Action: &tclient.ScheduleWorkflowAction{
			ID: ScheduledRunPrefix + s.ID, Workflow: workflows.GoalWorkflowName, Args: []any{s.Goal}, TaskQueue: workflows.TaskQueue,
			TypedSearchAttributes: temporal.NewSearchAttributes(workflows.ScheduleAttr.ValueSet(s.ID)),
			StaticSummary:         summary, StaticDetails: details + "\n\n**Schedule:** " + s.ID,
		},
	})
	if errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		return badInputf("schedule %s exists: delete it first, or choose another --id", s.ID)
	}
	if err != nil {
		return badInputf("create the schedule: %v", err)
	}
	return nil
}
