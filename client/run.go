package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	tclient "go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/workflows"
)

// Run is one goal run: its workflow ID, the execution it started as (RunID, "" for the
// latest), and its page in the Web UI.
type Run struct {
	c     *Client
	ID    string `json:"workflowId"`
	RunID string `json:"runId,omitempty"`
	URL   string `json:"uiUrl,omitempty"`
}

// Progress asks the run (its latest execution, running or ended) for its steps, its phase
// and what it waits for.
func (r *Run) Progress(ctx context.Context) (Progress, error) {
	return query[Progress](ctx, r.c.tc, r.ID, workflows.ProgressQuery)
}

// Result waits for the run to end and returns its standard output, following the runs
// it continued as. A run that ended without running a step because the workers could
// not plan its goal, or refused its input, returns a [*BadInputError] with their reason
// (and the output, when there is one). Any other run that ended with its output returns
// it, whatever its status: the error is for a run that has none.
func (r *Run) Result(ctx context.Context) (Result, error) {
	var res Result
	err := r.c.tc.GetWorkflow(ctx, r.ID, r.RunID).Get(ctx, &res)
	if err != nil {
		var ae *temporal.ApplicationError
		if !errors.As(err, &ae) {
			return res, err
		}
		// A failed run carries its output in the failure's details.
		var out Result
		if !ae.HasDetails() || ae.Details(&out) != nil || out.Metadata.WorkflowID == "" {
			if ae.Type() == workflows.ErrBadInput || ae.Type() == workflows.ErrGoalNotUnderstood {
				return res, &BadInputError{Err: errors.New(ae.Message())}
			}
			return res, err
		}
		res = out
	}
	if res.Execution.StepsPlanned == 0 {
		for _, e := range res.Errors {
			if e.Type == workflows.ErrorGoalNotUnderstood || e.Type == workflows.ErrorBadInput {
				return res, &BadInputError{Err: errors.New(e.Message)}
			}
		}
	}
	return res, nil
}

// Wait is Result, calling see with the run's progress every quarter second while it goes
// on, and once more when it has ended (the steps that ended since the last look).
func (r *Run) Wait(ctx context.Context, see func(Progress)) (Result, error) {
	if see == nil {
		return r.Result(ctx)
	}
	done, followed := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(followed)
		r.follow(ctx, 250*time.Millisecond, done, see)
	}()
	res, err := r.Result(ctx)
	close(done)
	<-followed
	return res, err
}

// follow asks the run for its progress every so often until done is closed, and once
// more then.
func (r *Run) follow(ctx context.Context, every time.Duration, done <-chan struct{}, see func(Progress)) {
	poll(ctx, every, done, func(qctx context.Context) {
		if p, err := r.Progress(qctx); err == nil {
			see(p)
		}
	})
}

// poll calls ask every so often, each with a short time limit, until done is closed, and
// once more then; it returns at once when ctx ends.
func poll(ctx context.Context, every time.Duration, done <-chan struct{}, ask func(context.Context)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for last := false; !last; {
		select {
		case <-done:
			last = true
		case <-ctx.Done():
			return
		case <-t.C:
		}
		qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		ask(qctx)
		cancel()
	}
}

// RunInfo is what the Temporal service knows of a run without asking it: how its
// execution stands and its search attributes.
type RunInfo struct {
	WorkflowID string    `json:"workflowId"`
	RunID      string    `json:"runId"`
	URL        string    `json:"uiUrl,omitempty"`
	Summary    string    `json:"summary,omitempty"`
	Execution  string    `json:"execution"`        // running, completed, failed, terminated, ...
	Status     string    `json:"status,omitempty"` // WebagentStatus: running, waiting, success, ...
	Site       string    `json:"site,omitempty"`
	Schedule   string    `json:"schedule,omitempty"`
	Started    time.Time `json:"started"`
	Closed     time.Time `json:"closed,omitzero"`
}

// Info describes the run's latest execution.
func (r *Run) Info(ctx context.Context) (RunInfo, error) {
	d, err := r.c.tc.DescribeWorkflowExecution(ctx, r.ID, "")
	if err != nil {
		var nf *serviceerror.NotFound
		if errors.As(err, &nf) {
			return RunInfo{}, badInputf("there is no run with workflow ID %q", r.ID)
		}
		return RunInfo{}, fmt.Errorf("look up %s: %w", r.ID, err)
	}
	return r.c.info(d.GetWorkflowExecutionInfo()), nil
}

// query asks the latest run of a workflow (ended or not) a query.
func query[T any](ctx context.Context, c tclient.Client, id, name string) (T, error) {
	var out T
	v, err := c.QueryWorkflowWithOptions(ctx, &tclient.QueryWorkflowWithOptionsRequest{
		WorkflowID: id, QueryType: name, QueryRejectCondition: enums.QUERY_REJECT_CONDITION_NONE,
	})
	if err != nil {
		return out, fmt.Errorf("ask run %s: %w", id, err)
	}
	if v.QueryResult == nil {
		return out, fmt.Errorf("the query %s of %s answered nothing", name, id)
	}
	return out, v.QueryResult.Get(&out)
}
