package client

import (
	"context"
	"fmt"
	"time"

	tclient "go.temporal.io/sdk/client"

	"github.com/webagent-dev/webagent/workflows"
)

// SuiteInput is a suite: goals run together, some at once, some after others.
type SuiteInput = workflows.SuiteInput

// SuiteResult is how each of a suite's goals ended.
type SuiteResult = workflows.SuiteResult

// SuiteRun is a suite's workflow.
type SuiteRun struct {
	c     *Client
	ID    string `json:"workflowId"`
	RunID string `json:"runId,omitempty"`
	URL   string `json:"uiUrl,omitempty"`
}

// StartSuite checks the suite and starts it; details are what the Web UI shows of it.
func (c *Client) StartSuite(ctx context.Context, in SuiteInput, details string) (*SuiteRun, error) {
	in.Normalize()
	if err := in.Validate(); err != nil {
		return nil, &BadInputError{Err: err}
	}
	id := fmt.Sprintf("suite-%s-%s-%s", time.Now().UTC().Format("20060102-150405"), workflows.Slug(in.Name, 30), randomSuffix())
	wr, err := c.tc.ExecuteWorkflow(ctx, tclient.StartWorkflowOptions{
		ID: id, TaskQueue: workflows.TaskQueue,
		StaticSummary: fmt.Sprintf("suite %s: %d goals, %d at a time", in.Name, len(in.Entries), in.Parallel),
		StaticDetails: details,
	}, workflows.SuiteWorkflowName, in)
	if err != nil {
		return nil, badInputf("start the suite: %v", err)
	}
	return &SuiteRun{c: c, ID: wr.GetID(), RunID: wr.GetRunID(), URL: c.RunURL(wr.GetID(), wr.GetRunID())}, nil
}

// Wait waits for the suite to end, calling see (when not nil) with how it stands every
// half second meanwhile and once more at the end. A suite its workers refused is a
// [*BadInputError].
func (s *SuiteRun) Wait(ctx context.Context, see func(SuiteResult)) (SuiteResult, error) {
	done, followed := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(followed)
		if see == nil {
			return
		}
		poll(ctx, 500*time.Millisecond, done, func(qctx context.Context) {
			if v, err := query[SuiteResult](qctx, s.c.tc, s.ID, workflows.SuiteQuery); err == nil {
				see(v)
			}
		})
	}()
	var res SuiteResult
	err := s.c.tc.GetWorkflow(ctx, s.ID, s.RunID).Get(ctx, &res)
	close(done)
	<-followed
	if _, msg, ok := appError(err); ok {
		return res, badInputf("%s", msg)
	}
	return res, err
}
