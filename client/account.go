package client

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/timing"
)

// Account is where a run's time went, from its history (when each activity was scheduled,
// taken by a worker and done; the workflow tasks between them) and the worker's own
// timings of each browser activity (the parts of a step's attempt, of opening a browser).
type Account struct {
	WorkflowID string `json:"workflowId"`
	RunID      string `json:"runId"`
	// Total is from the run's start to its end, or to now while it runs.
	Total   time.Duration `json:"total"`
	Running bool          `json:"running,omitempty"`
	// Activities are the run's activities in the order they were scheduled.
	Activities []ActivityTime `json:"activities"`
	// WorkflowTasks is how many workflow tasks the run took and their time, from each
	// task's scheduling to its completion (the worker deciding what comes next).
	WorkflowTasks     int           `json:"workflowTasks"`
	WorkflowTasksTime time.Duration `json:"workflowTasksTime"`
	Signals           int           `json:"signals"`
	Children          []ChildTime   `json:"children,omitempty"`
	// Between is the time no activity was scheduled or running: workflow tasks, a timer,
	// a wait for a person or a signal; from the start to the first activity and from the
	// last one to the end included.
	Between time.Duration `json:"between"`
}

// ActivityTime is one activity of the run.
type ActivityTime struct {
	Type    string `json:"type"`
	Summary string `json:"summary,omitempty"`
	// At is when it was scheduled, from the run's start.
	At time.Duration `json:"at"`
	// Queued is from its scheduling to a worker taking it; Ran, from then to its end.
	Queued time.Duration `json:"queued"`
	Ran    time.Duration `json:"ran"`
	// Outcome is completed, failed, timed out, canceled, or running.
	Outcome string `json:"outcome"`
	// Step and Open are the worker's own timings of a step's attempt and of opening the
	// browser, when the activity is one and its result says.
	Step *timing.Step `json:"step,omitempty"`
	Open *timing.Open `json:"open,omitempty"`
}

// ChildTime is a child workflow the run started (a skill saved, a notification).
type ChildTime struct {
	Type string        `json:"type"`
	At   time.Duration `json:"at"`
	Took time.Duration `json:"took"`
}

// Account reads where the run's time went. It needs no worker: everything is in the run's
// history.
func (r *Run) Account(ctx context.Context) (Account, error) {
	it := r.c.tc.GetWorkflowHistory(ctx, r.ID, r.RunID, false, 0)
	var events []*historypb.HistoryEvent
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			return Account{}, err
		}
		events = append(events, e)
	}
	a, err := account(events, r.c.converter(), time.Now())
	a.WorkflowID = r.ID
	if r.RunID != "" {
		a.RunID = r.RunID
	}
	return a, err
}

// account reads events, decoding activities' results with dc; now ends a running run.
func account(events []*historypb.HistoryEvent, dc converter.DataConverter, now time.Time) (Account, error) {
	var a Account
	if len(events) == 0 {
		return a, fmt.Errorf("the run's history is empty")
	}
	if s := events[0].GetWorkflowExecutionStartedEventAttributes(); s != nil {
		a.RunID = s.GetOriginalExecutionRunId()
	}
	t0 := events[0].GetEventTime().AsTime()
	end, running := events[len(events)-1].GetEventTime().AsTime(), true
	byID := map[int64]int{}          // scheduled event → index in a.Activities
	started := map[int64]time.Time{} // scheduled event → when a worker took it
	wft := map[int64]time.Time{}     // workflow task scheduled event → its time
	children := map[int64]int{}      // initiated event → index in a.Children
	for _, e := range events {
		at := e.GetEventTime().AsTime()
		switch {
		case e.GetWorkflowTaskScheduledEventAttributes() != nil:
			wft[e.GetEventId()] = at
		case e.GetWorkflowTaskCompletedEventAttributes() != nil:
			if s, ok := wft[e.GetWorkflowTaskCompletedEventAttributes().GetScheduledEventId()]; ok {
				a.WorkflowTasks++
				a.WorkflowTasksTime += at.Sub(s)
			}
		case e.GetWorkflowExecutionSignaledEventAttributes() != nil:
			a.Signals++
		case e.GetActivityTaskScheduledEventAttributes() != nil:
			attrs := e.GetActivityTaskScheduledEventAttributes()
			act := ActivityTime{Type: attrs.GetActivityType().GetName(), At: at.Sub(t0), Outcome: "scheduled"}
			if p := e.GetUserMetadata().GetSummary(); p != nil {
				_ = dc.FromPayload(p, &act.Summary)
			}
			byID[e.GetEventId()] = len(a.Activities)
			a.Activities = append(a.Activities, act)
		case e.GetActivityTaskStartedEventAttributes() != nil:
			started[e.GetActivityTaskStartedEventAttributes().GetScheduledEventId()] = at
		case e.GetStartChildWorkflowExecutionInitiatedEventAttributes() != nil:
			children[e.GetEventId()] = len(a.Children)
			a.Children = append(a.Children, ChildTime{Type: e.GetStartChildWorkflowExecutionInitiatedEventAttributes().GetWorkflowType().GetName(), At: at.Sub(t0), Took: -1})
		}
		if id, outcome, result := closed(e); id != 0 {
			if i, ok := byID[id]; ok {
				act := &a.Activities[i]
				act.Outcome = outcome
				from := t0.Add(act.At)
				if s, ok := started[id]; ok {
					act.Queued, act.Ran = s.Sub(from), at.Sub(s)
				} else {
					act.Queued = at.Sub(from)
				}
				decodeTimes(act, result, dc)
			}
		}
		if id, ok := childClosed(e); ok {
			if i, ok := children[id]; ok {
				a.Children[i].Took = at.Sub(t0) - a.Children[i].At
			}
		}
		if isClose(e) {
			running = false
		}
	}
	if running {
		end = now
		for id, i := range byID {
			if act := &a.Activities[i]; act.Outcome == "scheduled" {
				if s, ok := started[id]; ok {
					act.Outcome, act.Queued, act.Ran = "running", s.Sub(t0.Add(act.At)), now.Sub(s)
				} else {
					act.Queued = now.Sub(t0.Add(act.At))
				}
			}
		}
	}
	a.Total, a.Running = end.Sub(t0), running
	a.Between = a.Total - covered(a.Activities, a.Children)
	return a, nil
}

// closed says which activity e closed, how, and its result payloads (none if it failed).
func closed(e *historypb.HistoryEvent) (int64, string, *commonpb.Payloads) {
	if c := e.GetActivityTaskCompletedEventAttributes(); c != nil {
		return c.GetScheduledEventId(), "completed", c.GetResult()
	}
	if c := e.GetActivityTaskFailedEventAttributes(); c != nil {
		return c.GetScheduledEventId(), "failed", nil
	}
	if c := e.GetActivityTaskTimedOutEventAttributes(); c != nil {
		return c.GetScheduledEventId(), "timed out", nil
	}
	if c := e.GetActivityTaskCanceledEventAttributes(); c != nil {
		return c.GetScheduledEventId(), "canceled", nil
	}
	return 0, "", nil
}

func childClosed(e *historypb.HistoryEvent) (int64, bool) {
	switch {
	case e.GetChildWorkflowExecutionCompletedEventAttributes() != nil:
		return e.GetChildWorkflowExecutionCompletedEventAttributes().GetInitiatedEventId(), true
	case e.GetChildWorkflowExecutionFailedEventAttributes() != nil:
		return e.GetChildWorkflowExecutionFailedEventAttributes().GetInitiatedEventId(), true
	case e.GetChildWorkflowExecutionTimedOutEventAttributes() != nil:
		return e.GetChildWorkflowExecutionTimedOutEventAttributes().GetInitiatedEventId(), true
	case e.GetChildWorkflowExecutionCanceledEventAttributes() != nil:
		return e.GetChildWorkflowExecutionCanceledEventAttributes().GetInitiatedEventId(), true
	case e.GetChildWorkflowExecutionTerminatedEventAttributes() != nil:
		return e.GetChildWorkflowExecutionTerminatedEventAttributes().GetInitiatedEventId(), true
	case e.GetStartChildWorkflowExecutionFailedEventAttributes() != nil:
		return e.GetStartChildWorkflowExecutionFailedEventAttributes().GetInitiatedEventId(), true
	}
	return 0, false
}

func isClose(e *historypb.HistoryEvent) bool {
	return e.GetWorkflowExecutionCompletedEventAttributes() != nil || e.GetWorkflowExecutionFailedEventAttributes() != nil ||
		e.GetWorkflowExecutionTimedOutEventAttributes() != nil || e.GetWorkflowExecutionCanceledEventAttributes() != nil ||
		e.GetWorkflowExecutionTerminatedEventAttributes() != nil || e.GetWorkflowExecutionContinuedAsNewEventAttributes() != nil
}

// decodeTimes reads the worker's own timings from a browser activity's result. A result
// that does not decode (written by an older worker, or encrypted with a key this side
// does not hold) leaves them out.
func decodeTimes(act *ActivityTime, result *commonpb.Payloads, dc converter.DataConverter) {
	if result == nil || len(result.GetPayloads()) == 0 {
		return
	}
	p := result.GetPayloads()[0]
	switch act.Type {
	case activities.RunStep.Name:
		var r struct {
			Times timing.Step `json:"times"`
		}
		if dc.FromPayload(p, &r) == nil && r.Times != (timing.Step{}) {
			act.Step = &r.Times
		}
	case activities.OpenBrowser.Name:
		var r struct {
			Times timing.Open `json:"times"`
		}
		if dc.FromPayload(p, &r) == nil && r.Times != (timing.Open{}) {
			act.Open = &r.Times
		}
	}
}

// covered is how much of the run's time some activity or child workflow was scheduled or
// running: the union of their spans.
func covered(acts []ActivityTime, children []ChildTime) time.Duration {
	type span struct{ from, to time.Duration }
	var spans []span
	for _, a := range acts {
		spans = append(spans, span{a.At, a.At + a.Queued + a.Ran})
	}
	for _, c := range children {
		if c.Took >= 0 {
			spans = append(spans, span{c.At, c.At + c.Took})
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.from, b.from) })
	var sum, reach time.Duration
	for _, s := range spans {
		if s.to <= reach {
			continue
		}
		if s.from < reach {
			s.from = reach
		}
		sum += s.to - s.from
		reach = s.to
	}
	return sum
}
