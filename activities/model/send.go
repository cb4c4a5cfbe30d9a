package model

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"google.golang.org/genai"

	"github.com/webagent-dev/webagent/activities"
)

const (
	// tryMargin is left between a try's end and the activity's deadline, for the activity
	// to return what it spent: an activity that times out returns nothing, and the run
	// cannot count the calls it paid for. A quarter of the time left, when that is less.
	tryMargin = time.Second
	// minTry is the least time a try is started with: less cannot hold an answer.
	minTry = 500 * time.Millisecond
)

// send makes one HTTP try of a call and counts it in u, whether it fails or not: a failed
// call is paid for in quota and, when the server worked on it, in tokens. It stops before
// the try when the budget left is already spent, or when too little of the activity's
// time is left for an answer.
func (c *Client) send(ctx context.Context, rc RoleConfig, budget activities.Budget, u *activities.Usage,
	contents []*genai.Content, cfg *genai.GenerateContentConfig) (*genai.GenerateContentResponse, error) {
	if budget.Spent(*u) {
		return nil, temporal.NewNonRetryableApplicationError(overBudget(budget, *u), activities.ErrModelBudget, nil)
	}
	timeout, err := tryTimeout(ctx, c.cfg.Timeout)
	if err != nil {
		return nil, err
	}
	cfg.HTTPOptions = &genai.HTTPOptions{Timeout: &timeout}
	resp, err := c.gc.Models.GenerateContent(ctx, rc.Model, contents, cfg)
	if err != nil {
		u.Calls++
		return nil, classify(rc, err)
	}
	c.count(u, rc.Model, resp)
	if err := blocked(resp); err != nil {
		return nil, err
	}
	return resp, nil
}

// tryTimeout is how long one try may take: the configured timeout, cut to what the
// activity has left before its deadline, less a margin. Too little left is a retryable
// error: the next attempt of the activity gets its full time again.
func tryTimeout(ctx context.Context, limit time.Duration) (time.Duration, error) {
	dl, ok := ctx.Deadline()
	if !ok {
		return limit, nil
	}
	left := time.Until(dl)
	left -= min(tryMargin, left/4)
	if left < minTry {
		return 0, temporal.NewApplicationError(fmt.Sprintf(
			"gemini was not asked: the activity has %v left before its deadline, too little for an answer", time.Until(dl).Round(time.Millisecond)),
			activities.ErrModelUnavailable)
	}
	return min(limit, left), nil
}

// overBudget says which of the run's budgets the activity's calls have used up.
func overBudget(b activities.Budget, u activities.Usage) string {
	switch {
	case b.Calls > 0 && u.Calls >= b.Calls:
		return fmt.Sprintf("the run's model-call budget ran out: %d call(s) were left and this activity made %d", b.Calls, u.Calls)
	case b.Tokens > 0 && u.InputTokens+u.OutputTokens+u.ThinkingTokens >= b.Tokens:
		return fmt.Sprintf("the run's token budget ran out: %d token(s) were left and this activity used %d", b.Tokens, u.InputTokens+u.OutputTokens+u.ThinkingTokens)
	}
	return fmt.Sprintf("the run's cost budget ran out: $%.4f was left and this activity spent $%.4f", b.CostUSD, u.CostUSD)
}
