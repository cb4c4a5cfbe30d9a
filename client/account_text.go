package client

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/webagent-dev/webagent/activities"
)

// Part is one line of an account's sum: what the time went to, and how much of it.
type Part struct {
	What string        `json:"what"`
	Took time.Duration `json:"took"`
}

// Parts sums the account by what the time went to, in the order of a run: opening the
// browser, planning, the steps' parts, the model, other activities, the time between
// activities, child workflows. Activities that ran side by side (the browser opening
// while the goal is planned) are each counted whole, so the parts can add up to more than
// the run's total; Between is the time nothing ran.
func (a Account) Parts() []Part {
	var open, step [10]time.Duration
	other := map[string]time.Duration{}
	var others []string
	for _, act := range a.Activities {
		switch {
		case act.Type == activities.OpenBrowser.Name:
			open[0] += act.Queued
			if o := act.Open; o != nil {
				open[1], open[2], open[3] = open[1]+o.Wait, open[2]+o.Context, open[3]+o.Load
				open[4] += act.Ran - o.Wait - o.Context - o.Load
			} else {
				open[4] += act.Ran
			}
		case act.Type == activities.RunStep.Name:
			step[0] += act.Queued
			if t := act.Step; t != nil {
				for i, d := range []time.Duration{t.Look, t.Shot, t.Intent, t.Act, t.Settle, t.After, t.Check, t.Store} {
					step[i+1] += d
				}
				step[9] += act.Ran - t.Browser() - t.Store
			} else {
				step[9] += act.Ran
			}
		default:
			k := kindOf(act.Type)
			if _, ok := other[k]; !ok {
				others = append(others, k)
			}
			other[k] += act.Queued + act.Ran
		}
	}
	var out []Part
	add := func(what string, d time.Duration) {
		if d != 0 {
			out = append(out, Part{what, d})
		}
	}
	for i, what := range []string{"open: waiting for a worker with a browser free", "open: in line for a browser", "open: browser context and page", "open: site policy and start page", "open: the rest"} {
		add(what, open[i])
	}
	for i, what := range []string{"steps: waiting for the browser's worker", "steps: look (observe, find the target)", "steps: screenshot before", "steps: intent recorded",
		"steps: act", "steps: settle", "steps: look after (observe, screenshot)", "steps: check", "steps: store evidence", "steps: the rest (activity's own)"} {
		add(what, step[i])
	}
	for _, k := range others {
		add(k, other[k])
	}
	add(fmt.Sprintf("between activities (%d workflow tasks: %s)", a.WorkflowTasks, ms(a.WorkflowTasksTime)), a.Between)
	for _, c := range a.Children {
		if c.Took >= 0 {
			add("child workflow "+c.Type, c.Took)
		}
	}
	return out
}

// kindOf names an activity type's line in the parts.
func kindOf(activityType string) string {
	switch activityType {
	case activities.PlanGoal.Name, activities.Replan.Name, activities.ValidateGoal.Name:
		return "planning (" + activityType + ")"
	case activities.DecideTarget.Name, activities.EvaluateStep.Name, activities.JudgeGoal.Name, activities.Summarize.Name, activities.ExtractData.Name:
		return "model (" + activityType + ")"
	case activities.CloseBrowser.Name:
		return "close the browser"
	}
	return activityType
}

// WriteText writes the account for a person: each activity with when it was scheduled,
// how long it waited for a worker and ran, and the worker's own timings; then the parts.
func (a Account) WriteText(w io.Writer) error {
	state := ""
	if a.Running {
		state = ", still running"
	}
	fmt.Fprintf(w, "run %s (%s): %s%s, %d activities, %d workflow tasks, %d signals\n\n", a.WorkflowID, a.RunID, ms(a.Total), state, len(a.Activities), a.WorkflowTasks, a.Signals)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "at\tqueued\tran\t  activity")
	for _, act := range a.Activities {
		what := act.Type
		if act.Summary != "" {
			what += ": " + act.Summary
		}
		if act.Outcome != "completed" {
			what += " (" + act.Outcome + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t  %s\n", ms(act.At), ms(act.Queued), ms(act.Ran), what)
		if d := details(act); d != "" {
			fmt.Fprintf(tw, "\t\t\t    %s\n", d)
		}
	}
	for _, c := range a.Children {
		took := "running"
		if c.Took >= 0 {
			took = ms(c.Took)
		}
		fmt.Fprintf(tw, "%s\t\t%s\t  child workflow %s\n", ms(c.At), took, c.Type)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nwhere the time went (activities side by side each count whole):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range a.Parts() {
		fmt.Fprintf(tw, "  %s\t%s\n", p.What, ms(p.Took))
	}
	fmt.Fprintf(tw, "  total\t%s\n", ms(a.Total))
	return tw.Flush()
}

// details is the worker's own timing of a browser activity, on one line.
func details(act ActivityTime) string {
	var parts []string
	add := func(what string, d time.Duration) {
		if d > 0 {
			parts = append(parts, what+" "+ms(d))
		}
	}
	if t := act.Step; t != nil {
		add("look", t.Look)
		add("shot", t.Shot)
		add("intent", t.Intent)
		add("act", t.Act)
		add("settle", t.Settle)
		add("after", t.After)
		add("check", t.Check)
		add("store", t.Store)
	}
	if o := act.Open; o != nil {
		add("in line", o.Wait)
		what := "context"
		if o.Spare {
			what = "spare context"
		}
		add(what, o.Context)
		add("start page", o.Load)
	}
	return strings.Join(parts, ", ")
}

// ms writes d in milliseconds, or in seconds from ten seconds on.
func ms(d time.Duration) string {
	if d >= 10*time.Second || d <= -10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}
