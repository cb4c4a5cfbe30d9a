package client

import (
	"context"
	"fmt"
	"strings"

	"go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"

	"github.com/webagent-dev/webagent/workflows"
)

// RunFilter chooses runs by their search attributes; an empty field matches any.
type RunFilter struct {
	Status   string // running, waiting, success, unverified, partial, failed
	Site     string // the start URL's host
	Schedule string // the schedule that started the run
	Limit    int    // at most this many, newest first (default 20)
}

// ListRuns finds goal runs, newest first, through the Temporal service's visibility
// (what the Web UI's list shows).
func (c *Client) ListRuns(ctx context.Context, f RunFilter) ([]RunInfo, error) {
	q := []string{fmt.Sprintf("WorkflowType = '%s'", workflows.GoalWorkflowName)}
	for _, kv := range []struct{ name, value string }{
		{workflows.StatusAttr.GetName(), f.Status}, {workflows.SiteAttr.GetName(), f.Site}, {workflows.ScheduleAttr.GetName(), f.Schedule},
	} {
		if kv.value == "" {
			continue
		}
		if strings.ContainsAny(kv.value, `'"\`) {
			return nil, badInputf("%s %q: no quotes or backslashes", kv.name, kv.value)
		}
		q = append(q, fmt.Sprintf("%s = '%s'", kv.name, kv.value))
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 20
	}
	resp, err := c.tc.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
		Query: strings.Join(q, " AND "), PageSize: int32(min(limit, 1000)),
	})
	if err != nil {
		return nil, fmt.Errorf("list the runs: %w", err)
	}
	var out []RunInfo
	for _, e := range resp.GetExecutions() {
		if len(out) == limit {
			break
		}
		out = append(out, c.info(e))
	}
	return out, nil
}

// info is a run's description as the service holds it.
func (c *Client) info(e *workflow.WorkflowExecutionInfo) RunInfo {
	attr := func(name string) string {
		var s string
		if p := e.GetSearchAttributes().GetIndexedFields()[name]; p != nil {
			_ = converter.GetDefaultDataConverter().FromPayload(p, &s)
		}
		return s
	}
	ri := RunInfo{
		WorkflowID: e.GetExecution().GetWorkflowId(), RunID: e.GetExecution().GetRunId(),
		Execution: strings.ToLower(strings.TrimPrefix(e.GetStatus().String(), "WORKFLOW_EXECUTION_STATUS_")),
		Status:    attr(workflows.StatusAttr.GetName()), Site: attr(workflows.SiteAttr.GetName()), Schedule: attr(workflows.ScheduleAttr.GetName()),
		Started: e.GetStartTime().AsTime(),
	}
	if e.GetCloseTime() != nil {
		ri.Closed = e.GetCloseTime().AsTime()
	}
	ri.URL = c.RunURL(ri.WorkflowID, ri.RunID)
	return ri
}
