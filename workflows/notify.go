package workflows

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
)

// notifyVersion marks the runs that tell their webhook. Only a run with a webhook records
// it, so that every other run's history is as it was.
const notifyVersion = "notify-webhook"

// checkNotify accepts no webhook, or an absolute http(s) URL without credentials.
func checkNotify(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || len(raw) > 2000 {
		return fmt.Errorf("notify %q is not an absolute http(s) URL without credentials", raw)
	}
	return nil
}

// notify tells the run's webhook, if it names one, what happened: the Notify activity
// posts it, with Temporal's retries, if the operator allows the URL. A post that cannot be
// made is a warning in the output, never the run's failure. The summary is in the run's
// own words (its goal, a step's plan, its status), never page text or a secret's value.
func (r *run) notify(ctx workflow.Context, event, summary string, step int) {
	if r.in.Notify == "" || !patched(ctx, notifyVersion) {
		return
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:              TaskQueue,
		StartToCloseTimeout:    30 * time.Second,
		ScheduleToCloseTimeout: 2 * time.Minute,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second,
			NonRetryableErrorTypes: []string{activities.ErrNotifyRefused}},
		Summary: "webhook: the run " + event,
	})
	info := workflow.GetInfo(ctx)
	_, err := activities.Notify.Execute(ctx, activities.NotifyInput{URL: r.in.Notify, Event: event, WorkflowID: info.WorkflowExecution.ID,
		RunID: info.WorkflowExecution.RunID, Status: string(r.attrs.status), Summary: summary, Step: step})
	if err != nil {
		msg := err.Error()
		var ae *temporal.ApplicationError
		if errors.As(err, &ae) {
			msg = ae.Message()
		}
		workflow.GetLogger(ctx).Warn("the webhook was not told", "event", event, "err", msg)
		r.res.warn(fmt.Sprintf("the webhook was not told the run %s: %s", event, msg))
	}
}
