package testenv

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// The seed's workflows, as a shop's Temporal application might have them: an order waits
// for its shipping (the signal ship) for up to 30 days, an invoice sync waits a week for
// its next run, a payment capture fails at once (the card was declined), and the
// schedules' reports finish at once. Each open one ends as cancelled when its cancellation
// is requested; other signals are kept in its history and otherwise ignored.

// temporaluiOrderFulfillment is OrderFulfillment: it ends when its order ships (the signal
// ship), is cancelled, or after 30 days.
func temporaluiOrderFulfillment(ctx workflow.Context, order map[string]any) (string, error) {
	return temporaluiWait(ctx, "ship", 30*24*time.Hour)
}

// temporaluiInvoiceSync is InvoiceSync: it waits a week for its next run.
func temporaluiInvoiceSync(ctx workflow.Context, sync map[string]any) (string, error) {
	return temporaluiWait(ctx, "", 7*24*time.Hour)
}

// temporaluiPaymentCapture is PaymentCapture: the card is declined.
func temporaluiPaymentCapture(ctx workflow.Context, payment map[string]any) (string, error) {
	return "", temporal.NewNonRetryableApplicationError("card declined by the issuer", "CardDeclined", nil)
}

// temporaluiReport is NightlyReport and WeeklyCleanup: done at once.
func temporaluiReport(ctx workflow.Context, args map[string]any) (string, error) {
	return "done", nil
}

// temporaluiWait waits for the signal signal (none when ""), a cancellation or limit, and
// returns how it ended.
func temporaluiWait(ctx workflow.Context, signal string, limit time.Duration) (string, error) {
	sel := workflow.NewSelector(ctx)
	result := "timed out"
	var err error
	if signal != "" {
		sel.AddReceive(workflow.GetSignalChannel(ctx, signal), func(c workflow.ReceiveChannel, _ bool) {
			c.Receive(ctx, nil)
			result = signal + " received"
		})
	}
	sel.AddFuture(workflow.NewTimer(ctx, limit), func(f workflow.Future) { err = f.Get(ctx, nil) })
	sel.Select(ctx)
	return result, err
}

// temporaluiWorkers runs a worker on each of the seed's task queues (orders, billing,
// reports) until the test ends.
func temporaluiWorkers(t testing.TB, c client.Client) {
	t.Helper()
	types := map[string]map[string]any{
		"orders":  {"OrderFulfillment": temporaluiOrderFulfillment, "PaymentCapture": temporaluiPaymentCapture},
		"billing": {"InvoiceSync": temporaluiInvoiceSync},
		"reports": {"NightlyReport": temporaluiReport, "WeeklyCleanup": temporaluiReport},
	}
	for queue, fns := range types {
		w := worker.New(c, queue, worker.Options{})
		for name, fn := range fns {
			w.RegisterWorkflowWithOptions(fn, workflow.RegisterOptions{Name: name})
		}
		if err := w.Start(); err != nil {
			t.Fatalf("temporalui: start the worker of %s: %v", queue, err)
		}
		t.Cleanup(w.Stop)
	}
}

// seedWorkflows starts the seed's workflows and ships the orders that end completed.
func (u *TemporalUI) seedWorkflows(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, w := range TemporalUISeedWorkflows {
		var input map[string]any
		if err := json.Unmarshal([]byte(w.Input), &input); err != nil {
			t.Fatalf("temporalui: the seed's input of %s: %v", w.ID, err)
		}
		opts := client.StartWorkflowOptions{ID: w.ID, TaskQueue: w.Queue,
			WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE}
		if _, err := u.Client.ExecuteWorkflow(ctx, opts, w.Type, input); err != nil {
			t.Fatalf("temporalui: start %s: %v", w.ID, err)
		}
		if w.Ends == "completed" {
			if err := u.Client.SignalWorkflow(ctx, w.ID, "", "ship", map[string]any{"carrier": "DHL"}); err != nil {
				t.Fatalf("temporalui: ship %s: %v", w.ID, err)
			}
		}
	}
}

// seedSchedules makes the seed's schedules, each firing at a time of day no test is near.
func (u *TemporalUI) seedSchedules(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, s := range TemporalUISeedSchedules {
		var input map[string]any
		if err := json.Unmarshal([]byte(s.Input), &input); err != nil {
			t.Fatalf("temporalui: the seed's input of %s: %v", s.ID, err)
		}
		minute, hour := temporaluiQuiet(time.Now().UTC(), s.Minute, s.Hour)
		_, err := u.Client.ScheduleClient().Create(ctx, client.ScheduleOptions{
			ID:   s.ID,
			Spec: client.ScheduleSpec{CronExpressions: []string{fmt.Sprintf("%d %d * * %s", minute, hour, s.Weekday)}},
			Action: &client.ScheduleWorkflowAction{ID: s.ID, Workflow: s.Workflow, TaskQueue: s.Queue,
				Args: []any{input}},
			Paused: s.Paused != "",
			Note:   s.Reason,
		})
		if err != nil {
			t.Fatalf("temporalui: make the schedule %s: %v", s.ID, err)
		}
	}
}

// temporaluiQuiet is minute:hour (UTC), moved six hours on when it is less than two hours
// from now either way: a schedule of the seed never fires while a test runs.
func temporaluiQuiet(now time.Time, minute, hour int) (int, int) {
	at := time.Date(now.Year(), now.Month(), now.Day(), hour, minute, 0, 0, time.UTC)
	for _, day := range []time.Duration{-24 * time.Hour, 0, 24 * time.Hour} {
		if d := at.Add(day).Sub(now); d > -2*time.Hour && d < 2*time.Hour {
			return minute, (hour + 6) % 24
		}
	}
	return minute, hour
}
