package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	schedulepb "go.temporal.io/api/schedule/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
)

// TemporalUIState is what the judges compare of a Temporal namespace, read through the
// server's own API: for each kind of thing, its entries by key, each entry's value its
// facts as one line of "name=value" fields joined by "; " (TemporalUIField reads one).
//
//	workflow  workflow ID (a schedule's run: the schedule's ID then "-{time}") →
//	          type, queue, status, input, and from its history: signal (each signal's name
//	          and input), cancel=requested, reason (a termination's), failure
//	schedule  schedule ID → paused, note, actions (how many it took), workflow (the type
//	          it starts), queue, spec
//
// A second run under one key (a reset's) is keyed "ID #2".
type TemporalUIState map[string]map[string]string

// TemporalUIField is the field name of an entry's value ("" when it has none).
func TemporalUIField(value, name string) string {
	for _, f := range strings.Split(value, "; ") {
		if k, v, ok := strings.Cut(f, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// State reads the namespace's workflows (each with its history) and schedules now.
func (u *TemporalUI) State(t testing.TB) TemporalUIState {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := TemporalUIState{"workflow": {}, "schedule": {}}
	if err := u.readWorkflows(ctx, s["workflow"]); err != nil {
		t.Fatalf("temporalui: read the workflows: %v", err)
	}
	if err := u.readSchedules(ctx, s["schedule"]); err != nil {
		t.Fatalf("temporalui: read the schedules: %v", err)
	}
	return s
}

// temporaluiScheduled is the time a schedule appends to the ID of each workflow it starts.
var temporaluiScheduled = regexp.MustCompile(`-\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// readWorkflows lists the namespace's workflows and reads each one's history into rows.
func (u *TemporalUI) readWorkflows(ctx context.Context, rows map[string]string) error {
	var token []byte
	for {
		resp, err := u.Client.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Namespace: u.Namespace, PageSize: 1000, NextPageToken: token})
		if err != nil {
			return err
		}
		for _, e := range resp.Executions {
			id, run := e.Execution.GetWorkflowId(), e.Execution.GetRunId()
			fields := []string{"type=" + e.Type.GetName(), "queue=" + e.GetTaskQueue(), "status=" + temporaluiStatus(e.Status)}
			more, err := u.historyFacts(ctx, id, run)
			if err != nil {
				return fmt.Errorf("the history of %s: %w", id, err)
			}
			key := temporaluiScheduled.ReplaceAllString(id, "-{time}")
			for n := 2; rows[key] != ""; n++ {
				key = fmt.Sprintf("%s #%d", temporaluiScheduled.ReplaceAllString(id, "-{time}"), n)
			}
			rows[key] = strings.Join(append(fields, more...), "; ")
		}
		if token = resp.NextPageToken; len(token) == 0 {
			return nil
		}
	}
}

// temporaluiStatus is a workflow status as the UI shows it: Running, Completed, Failed,
// Canceled, Terminated, ContinuedAsNew, TimedOut.
func temporaluiStatus(s enumspb.WorkflowExecutionStatus) string {
	name := s.String()
	if strings.HasPrefix(name, "WORKFLOW_EXECUTION_STATUS_") {
		var b strings.Builder
		for _, w := range strings.Split(strings.TrimPrefix(name, "WORKFLOW_EXECUTION_STATUS_"), "_") {
			b.WriteString(w[:1] + strings.ToLower(w[1:]))
		}
		return b.String()
	}
	return name
}

// historyFacts reads a run's history: its input, each signal, a cancellation requested, a
// termination's reason, a failure's message.
func (u *TemporalUI) historyFacts(ctx context.Context, id, run string) ([]string, error) {
	it := u.Client.GetWorkflowHistory(ctx, id, run, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var facts []string
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			return nil, err
		}
		facts = append(facts, temporaluiEventFacts(e)...)
	}
	return facts, nil
}

// temporaluiEventFacts are the facts one history event adds.
func temporaluiEventFacts(e *historypb.HistoryEvent) []string {
	switch e.EventType {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
		return []string{"input=" + TemporalUIPayloads(e.GetWorkflowExecutionStartedEventAttributes().GetInput())}
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
		a := e.GetWorkflowExecutionSignaledEventAttributes()
		return []string{"signal=" + a.GetSignalName() + " " + TemporalUIPayloads(a.GetInput())}
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED:
		return []string{"cancel=requested"}
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
		return []string{"reason=" + e.GetWorkflowExecutionTerminatedEventAttributes().GetReason()}
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
		return []string{"failure=" + e.GetWorkflowExecutionFailedEventAttributes().GetFailure().GetMessage()}
	}
	return nil
}

// TemporalUIPayloads is payloads as one line: each JSON payload compacted, any other its
// encoding and size; "" for none.
func TemporalUIPayloads(p *commonpb.Payloads) string {
	var parts []string
	for _, pl := range p.GetPayloads() {
		var b bytes.Buffer
		if enc := string(pl.GetMetadata()["encoding"]); enc == "json/plain" && json.Compact(&b, pl.GetData()) == nil {
			parts = append(parts, b.String())
		} else {
			parts = append(parts, fmt.Sprintf("(%s, %d bytes)", enc, len(pl.GetData())))
		}
	}
	return strings.Join(parts, ", ")
}

// readSchedules lists the namespace's schedules and describes each one into rows (one
// deleted meanwhile, still listed a moment, is left out).
func (u *TemporalUI) readSchedules(ctx context.Context, rows map[string]string) error {
	svc := u.Client.WorkflowService()
	var token []byte
	for {
		resp, err := svc.ListSchedules(ctx, &workflowservice.ListSchedulesRequest{Namespace: u.Namespace, MaximumPageSize: 1000, NextPageToken: token})
		if err != nil {
			return err
		}
		for _, e := range resp.Schedules {
			d, err := svc.DescribeSchedule(ctx, &workflowservice.DescribeScheduleRequest{Namespace: u.Namespace, ScheduleId: e.ScheduleId})
			var missing *serviceerror.NotFound
			if errors.As(err, &missing) {
				continue
			}
			if err != nil {
				return fmt.Errorf("describe the schedule %s: %w", e.ScheduleId, err)
			}
			sc, act := d.Schedule, d.Schedule.GetAction().GetStartWorkflow()
			rows[e.ScheduleId] = strings.Join([]string{
				fmt.Sprintf("paused=%v", sc.GetState().GetPaused()), "note=" + sc.GetState().GetNotes(),
				fmt.Sprintf("actions=%d", d.GetInfo().GetActionCount()), "workflow=" + act.GetWorkflowType().GetName(),
				"queue=" + act.GetTaskQueue().GetName(), "input=" + TemporalUIPayloads(act.GetInput()), "spec=" + temporaluiSpec(sc.GetSpec()),
			}, "; ")
		}
		if token = resp.NextPageToken; len(token) == 0 {
			return nil
		}
	}
}

// temporaluiSpec is a schedule's spec as one line: each calendar's minutes, hours and days
// of the week, each interval, the time zone.
func temporaluiSpec(spec *schedulepb.ScheduleSpec) string {
	ranges := func(rs []*schedulepb.Range) string {
		var out []string
		for _, r := range rs {
			s := fmt.Sprint(r.Start)
			if r.End > r.Start {
				s += fmt.Sprintf("-%d", r.End)
			}
			if r.Step > 1 {
				s += fmt.Sprintf("/%d", r.Step)
			}
			out = append(out, s)
		}
		return strings.Join(out, ",")
	}
	var parts []string
	for _, c := range spec.GetStructuredCalendar() {
		parts = append(parts, fmt.Sprintf("at %s:%s on %s", ranges(c.Hour), ranges(c.Minute), ranges(c.DayOfWeek)))
	}
	for _, i := range spec.GetInterval() {
		parts = append(parts, "every "+i.GetInterval().AsDuration().String())
	}
	return strings.Join(parts, " and ") + " " + spec.GetTimezoneName()
}

// Seed is the state the instance started with (a copy the caller may change).
func (u *TemporalUI) Seed() TemporalUIState { return u.seed.Clone() }

// Clone is a deep copy of the state.
func (s TemporalUIState) Clone() TemporalUIState {
	c := TemporalUIState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each entry missing, extra or
// different, by kind and key.
func (s TemporalUIState) Diff(want TemporalUIState) string {
	var out []string
	for _, kind := range []string{"workflow", "schedule"} {
		got, w := s[kind], want[kind]
		for _, k := range slices.Sorted(maps.Keys(w)) {
			if _, ok := got[k]; !ok {
				out = append(out, fmt.Sprintf("%s %q is missing", kind, k))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(got)) {
			wv, ok := w[k]
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("an extra %s %q (%s)", kind, k, got[k]))
			case wv != got[k]:
				out = append(out, fmt.Sprintf("%s %q is %q, not %q", kind, k, got[k], wv))
			}
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the namespace differs from want ("" when it holds exactly that).
func (u *TemporalUI) Differs(t testing.TB, want TemporalUIState) string {
	t.Helper()
	return u.State(t).Diff(want)
}
