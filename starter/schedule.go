package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	agent "github.com/webagent-dev/webagent/client"
	"github.com/webagent-dev/webagent/workflows"
)

// scheduleCommand manages recurring runs on Temporal Schedules.
func scheduleCommand(args []string, stdout, stderr io.Writer) int {
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "error: "+format+"\n", a...)
		return exitBadInput
	}
	if len(args) == 0 {
		return bad("say what to do: schedule create | list | describe ID | pause ID | unpause ID | trigger ID | delete ID")
	}
	sub, rest := args[0], args[1:]
	if sub == "create" {
		return scheduleCreate(rest, stdout, stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ac, err := dial(ctx)
	if err != nil {
		return bad("%v", err)
	}
	defer ac.Close()
	c := ac.Temporal()
	sc := c.ScheduleClient()
	if sub == "list" {
		it, err := sc.List(ctx, client.ScheduleListOptions{})
		if err != nil {
			return bad("list the schedules: %v", err)
		}
		fmt.Fprintf(stdout, "%-24s %-8s %-30s %s\n", "ID", "STATE", "SPEC", "NEXT RUN")
		for it.HasNext() {
			e, err := it.Next()
			if err != nil {
				return bad("list the schedules: %v", err)
			}
			state := "active"
			if e.Paused {
				state = "paused"
			}
			next := ""
			if len(e.NextActionTimes) > 0 {
				next = e.NextActionTimes[0].Format(time.RFC3339)
			}
			fmt.Fprintf(stdout, "%-24s %-8s %-30s %s\n", e.ID, state, specString(e.Spec), next)
		}
		return exitOK
	}
	if len(rest) != 1 {
		return bad("say which schedule: starter schedule %s ID", sub)
	}
	h := sc.GetHandle(ctx, rest[0])
	switch sub {
	case "describe":
		d, err := h.Describe(ctx)
		if err != nil {
			return bad("describe schedule %s: %v", rest[0], err)
		}
		describeSchedule(ctx, c, stdout, rest[0], d)
	case "pause":
		err = h.Pause(ctx, client.SchedulePauseOptions{Note: "paused with the starter"})
	case "unpause":
		err = h.Unpause(ctx, client.ScheduleUnpauseOptions{Note: "unpaused with the starter"})
	case "trigger":
		err = h.Trigger(ctx, client.ScheduleTriggerOptions{Overlap: enums.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL})
	case "delete":
		err = h.Delete(ctx)
	default:
		return bad("unknown schedule command %q", sub)
	}
	if err != nil {
		return bad("%s schedule %s: %v", sub, rest[0], err)
	}
	if sub != "describe" {
		fmt.Fprintf(stdout, "schedule %s: %sd\n", rest[0], strings.TrimSuffix(sub, "e"))
	}
	return exitOK
}

func scheduleCreate(args []string, stdout, stderr io.Writer) int {
	f := runFlags{params: params{}, secrets: params{}}
	fs := flag.NewFlagSet("schedule create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f.goalFlags(fs)
	id := fs.String("id", "", "the schedule's ID (its runs' workflow IDs begin sched-ID-)")
	cron := fs.String("cron", "", `when to run, as a cron expression ("0 8 * * MON-FRI")`)
	every := fs.Duration("every", 0, "run at this interval (e.g. 1h)")
	overlap := fs.String("overlap", "skip", "when a run is still going at the next time: skip, buffer-one, buffer-all, cancel-other, terminate-other, allow-all")
	catchup := fs.Duration("catchup-window", 10*time.Minute, "how late a run missed while the server was down may still start")
	paused := fs.Bool("paused", false, "create the schedule paused")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: starter schedule create --id ID (--cron EXPR | --every DURATION) [run flags] "GOAL"`)
		fs.PrintDefaults()
	}
	in, ok := parseGoalArgs(fs, &f, args, stderr)
	if !ok {
		return exitBadInput
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := dial(ctx)
	if err != nil {
		return badInputf(stderr, "%v", err)
	}
	defer c.Close()
	err = c.CreateSchedule(ctx, agent.Schedule{ID: *id, Cron: *cron, Every: *every, Overlap: *overlap, CatchupWindow: *catchup, Paused: *paused,
		Note: "created with the starter", Goal: in})
	if err != nil {
		return exitFor(stderr, err)
	}
	when := *cron
	if *every > 0 {
		when = "every " + every.String()
	}
	fmt.Fprintf(stdout, "schedule %s created: %s, overlap %s, catch-up window %s\n  its runs: %s%s-<time>; see `starter schedule describe %s`\n", *id, when, *overlap, *catchup, agent.ScheduledRunPrefix, *id, *id)
	return exitOK
}

func specString(s *client.ScheduleSpec) string {
	if s == nil {
		return ""
	}
	var parts []string
	parts = append(parts, s.CronExpressions...)
	for _, c := range s.Calendars {
		parts = append(parts, fmt.Sprintf("calendar %v", c.Comment))
	}
	for _, i := range s.Intervals {
		parts = append(parts, "every "+i.Every.String())
	}
	return strings.Join(parts, "; ")
}

// describeSchedule prints the schedule and its recent runs with their status, so that a
// canary whose runs began to fail shows at a glance.
func describeSchedule(ctx context.Context, c client.Client, w io.Writer, id string, d *client.ScheduleDescription) {
	state := "active"
	if d.Schedule.State.Paused {
		state = "paused"
	}
	fmt.Fprintf(w, "schedule %s: %s, %s\n", id, state, specString(d.Schedule.Spec))
	if a, ok := d.Schedule.Action.(*client.ScheduleWorkflowAction); ok {
		fmt.Fprintf(w, "  runs: %s (%s-<time>)\n", a.StaticSummary, a.ID)
	}
	fmt.Fprintf(w, "  overlap %s, catch-up window %s; %d runs so far, %d missed\n",
		strings.ToLower(strings.TrimPrefix(d.Schedule.Policy.Overlap.String(), "SCHEDULE_OVERLAP_POLICY_")), d.Schedule.Policy.CatchupWindow, d.Info.NumActions, d.Info.NumActionsMissedCatchupWindow)
	for _, t := range d.Info.NextActionTimes {
		fmt.Fprintf(w, "  next: %s\n", t.Format(time.RFC3339))
		break
	}
	for _, a := range d.Info.RecentActions {
		if a.StartWorkflowResult == nil {
			continue
		}
		status, skill := "?", ""
		if de, err := c.DescribeWorkflowExecution(ctx, a.StartWorkflowResult.WorkflowID, ""); err == nil {
			fields := de.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()
			if p := fields[workflows.StatusAttr.GetName()]; p != nil {
				status = strings.Trim(string(p.GetData()), `"`)
			} else {
				status = strings.ToLower(strings.TrimPrefix(de.GetWorkflowExecutionInfo().GetStatus().String(), "WORKFLOW_EXECUTION_STATUS_"))
			}
			if p := fields[workflows.SkillAttr.GetName()]; p != nil {
				skill = "skill " + strings.Trim(string(p.GetData()), `"`)
				if status == string(workflows.StatusFailed) || status == string(workflows.StatusPartial) || status == string(workflows.StatusUnverified) {
					skill += " (now suspect)"
				}
			}
		}
		fmt.Fprintf(w, "  %s  %-8s %s %s\n", a.ActualTime.Format(time.RFC3339), status, a.StartWorkflowResult.WorkflowID, skill)
	}
}
