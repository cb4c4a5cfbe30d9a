package workflows

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
)

// A model activity takes the budget the run has left and says what it spent.
type (
	budgeted[In any] interface{ WithBudget(activities.Budget) In }
	spender          interface{ Spent() activities.Usage }
)

// maxModelTries bounds the tries of one model activity, as the server's retry policy did.
const maxModelTries = 6

// askModel runs a model activity for role, on the step rec (nil: the run's). Its tries are
// the run's, not the server's retries: each try's usage is counted, a failed one's too
// (the activity carries what it spent in its error), so that the run counts every call it
// paid for; and the budget left is checked before each try and handed to it, so that a
// budget holds inside an activity and not only between steps. Errors no retry can fix
// are not retried; a rate limit waits as long as the server asks.
func askModel[In budgeted[In], Out spender](ctx workflow.Context, r *run, rec *StepRecord, role string, a activities.Activity[In, Out], summary string, in In) (Out, error) {
	if !r.wary {
		out, err := a.Execute(r.modelOptions(ctx, summary), in)
		r.res.addUsage(rec, role, out.Spent())
		return out, err
	}
	opts := workflow.ActivityOptions{TaskQueue: ModelTaskQueue, StartToCloseTimeout: r.limits.ModelTimeout, HeartbeatTimeout: r.limits.WorkerLossTimeout,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}, Summary: summary}
	backoff := time.Second
	for try := 1; ; try++ {
		var out Out
		if why := r.budgetSpent(); why != "" {
			return out, temporal.NewNonRetryableApplicationError(why, activities.ErrModelBudget, nil)
		}
		if try > 1 {
			opts.Summary = fmt.Sprintf("%s (try %d)", summary, try)
		}
		out, err := a.Execute(workflow.WithActivityOptions(ctx, opts), in.WithBudget(r.budgetLeft()))
		if err == nil {
			r.res.addUsage(rec, role, out.Spent())
			return out, nil
		}
		r.res.addUsage(rec, role, activities.UsageOf(err))
		wait, again := retryAfter(err, backoff)
		if !again || try == maxModelTries {
			return out, err
		}
		if err := workflow.Sleep(ctx, wait); err != nil {
			return out, err
		}
		backoff = min(2*backoff, time.Minute)
	}
}

// retryAfter says whether a failed model activity is worth another try, and after how
// long: the delay a rate limit asks for, or else the backoff.
func retryAfter(err error, backoff time.Duration) (time.Duration, bool) {
	if temporal.IsCanceledError(err) {
		return 0, false
	}
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		if ae.NonRetryable() || slices.Contains(activities.ModelNonRetryable, ae.Type()) ||
			ae.Type() == activities.ErrGoalNotUnderstood || ae.Type() == activities.ErrBadInput {
			return 0, false
		}
		if d := ae.NextRetryDelay(); d > 0 {
			return d, true
		}
	}
	return backoff, true
}

// budgetLeft is what the run's limits leave to spend on the model (zero: no limit).
func (r *run) budgetLeft() activities.Budget {
	u, l := r.res.Usage, r.limits
	var b activities.Budget
	if l.MaxModelCalls > 0 {
		b.Calls = max(l.MaxModelCalls-u.Calls, 0)
	}
	if l.MaxTokens > 0 {
		b.Tokens = max(l.MaxTokens-(u.InputTokens+u.OutputTokens+u.ThinkingTokens), 0)
	}
	if l.MaxCostUSD > 0 {
		b.CostUSD = max(l.MaxCostUSD-u.CostUSD, 0)
	}
	return b
}

// budgetSpent says which of the run's model budgets is spent ("" when none is).
func (r *run) budgetSpent() string {
	u, l := r.res.Usage, r.limits
	switch {
	case l.MaxModelCalls > 0 && u.Calls >= l.MaxModelCalls:
		return fmt.Sprintf("the run spent its budget of %d model calls", l.MaxModelCalls)
	case l.MaxTokens > 0 && u.InputTokens+u.OutputTokens+u.ThinkingTokens >= l.MaxTokens:
		return fmt.Sprintf("the run spent its budget of %d model tokens", l.MaxTokens)
	case l.MaxCostUSD > 0 && u.CostUSD >= l.MaxCostUSD:
		return fmt.Sprintf("the run spent its budget of $%.2f (estimated $%.4f)", l.MaxCostUSD, u.CostUSD)
	}
	return ""
}
