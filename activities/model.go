package activities

import "github.com/webagent-dev/webagent/plan"

// Usage is what model calls cost.
type Usage struct {
	Calls        int `json:"modelCalls"`
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
	// ThinkingTokens are the tokens the model thought with; they are charged as output.
	ThinkingTokens int `json:"thinkingTokens,omitempty"`
	// CostUSD is what the calls cost in US dollars, at the prices read on PricesRead.
	CostUSD    float64 `json:"costUsd,omitempty"`
	PricesRead string  `json:"pricesRead,omitempty"`
	// UnpricedCalls were made to models the price table does not list: CostUSD leaves
	// them out, so it is then a lower bound.
	UnpricedCalls int `json:"unpricedCalls,omitempty"`
}

// Add adds o to u.
func (u *Usage) Add(o Usage) {
	u.Calls += o.Calls
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.ThinkingTokens += o.ThinkingTokens
	u.CostUSD += o.CostUSD
	u.UnpricedCalls += o.UnpricedCalls
	if o.PricesRead != "" {
		u.PricesRead = o.PricesRead
	}
}

// Summary is the closing summary of a run, for people.
type Summary struct {
	Brief      string   `json:"brief"`
	Detailed   string   `json:"detailed"`
	Highlights []string `json:"highlights"`
	Warnings   []string `json:"warnings"`
}

// DecideInput asks the model which element a step means, after DOM-first resolution
// found none or several.
type DecideInput struct {
	Goal     string            `json:"goal"`
	Step     plan.Step         `json:"step"`
	Params   map[string]string `json:"params,omitempty"`
	Attempt  int               `json:"attempt"`
	Feedback []plan.Feedback   `json:"feedback,omitempty"`
	// Page is the attempt's "before" observation, which the model sees numbered.
	Page Snapshot `json:"page"`
	// Turns are the step's earlier computer-use actions, with what came of them.
	Turns []ComputerUseTurn `json:"turns,omitempty"`
	// Avoid are the elements the step's earlier attempts acted on and found wrong: a
	// decision for one of them is refused, never acted on.
	Avoid  []ElementRef `json:"avoid,omitempty"`
	Budget Budget       `json:"budget,omitempty"`
}

// DecideResult is the model's decision: Decision when it chose, Failure when it did not.
type DecideResult struct {
	Decision *Decision      `json:"decision,omitempty"`
	Failure  *plan.Feedback `json:"failure,omitempty"`
	// Reason is the model's reason, for the step's actions.
	Reason    string `json:"reason"`
	MarkedKey string `json:"markedKey"`
	Usage     Usage  `json:"usage"`
}

// EvaluateStepInput asks the model whether an attempt did what the step should.
type EvaluateStepInput struct {
	Goal         string            `json:"goal"`
	Step         plan.Step         `json:"step"`
	Params       map[string]string `json:"params,omitempty"`
	Actions      []string          `json:"actions"`
	ChecksPassed bool              `json:"checksPassed"`
	CheckDetails string            `json:"checkDetails,omitempty"`
	Before       Snapshot          `json:"before"`
	After        Snapshot          `json:"after"`
	Budget       Budget            `json:"budget,omitempty"`
}

// EvaluateStepResult is the model's verdict on an attempt.
type EvaluateStepResult struct {
	Success    bool           `json:"success"`
	Confidence float64        `json:"confidence"`
	Reasoning  string         `json:"reasoning"`
	Feedback   *plan.Feedback `json:"feedback,omitempty"`
	Usage      Usage          `json:"usage"`
}

// JudgeGoalInput asks the model whether the goal was reached, on the final page.
type JudgeGoalInput struct {
	Goal string `json:"goal"`
	// Steps are the run's steps with their status, one line each.
	Steps []string `json:"steps"`
	// Checks is what the page's own checks found, when the plan had any.
	Checks string   `json:"checks,omitempty"`
	Final  Snapshot `json:"final"`
	// Trajectory is the run's path: each step that acted, with the page it left when it
	// changed the page, so that the judge sees what was done and not only where it ended.
	Trajectory []TrajectoryStep `json:"trajectory,omitempty"`
	Budget     Budget           `json:"budget,omitempty"`
}

// TrajectoryStep is one step of a run's path, as the judge sees it.
type TrajectoryStep struct {
	// Line is the step, its status and what it did, one line.
	Line string `json:"line"`
	// After is the page the step left, when it changed the page (its screenshot key is
	// empty otherwise).
	After Snapshot `json:"after,omitempty"`
}

// JudgeGoalResult is the model's verdict on the goal.
type JudgeGoalResult struct {
	Success    bool    `json:"success"`
	Confidence float64 `json:"confidence"`
	Reason     string  `json:"reason"`
	Usage      Usage   `json:"usage"`
}

// SummarizeInput is what the closing summary is written from.
type SummarizeInput struct {
	Goal      string   `json:"goal"`
	Status    string   `json:"status"`
	Steps     []string `json:"steps"`
	Errors    []string `json:"errors,omitempty"`
	Extracted string   `json:"extracted,omitempty"`
	Budget    Budget   `json:"budget,omitempty"`
}

// SummarizeResult is the closing summary.
type SummarizeResult struct {
	Summary Summary `json:"summary"`
	Usage   Usage   `json:"usage"`
}

// ExtractInput asks the model to read data off the page, shaped by a JSON schema.
type ExtractInput struct {
	Goal   string            `json:"goal"`
	Step   plan.Step         `json:"step"`
	Params map[string]string `json:"params,omitempty"`
	Schema map[string]any    `json:"schema,omitempty"`
	Page   Snapshot          `json:"page"`
	Budget Budget            `json:"budget,omitempty"`
}

// ExtractResult is the data read.
type ExtractResult struct {
	Data  map[string]any `json:"data"`
	Usage Usage          `json:"usage"`
}

// Budget is what a run has left to spend on the model when it starts a model activity;
// a zero field is no limit. The activity stops before a call (a first try, a repair)
// that the budget cannot pay for, so a budget holds inside an activity and not only
// between steps.
type Budget struct {
	Calls   int     `json:"calls,omitempty"`
	Tokens  int     `json:"tokens,omitempty"`
	CostUSD float64 `json:"costUsd,omitempty"`
}

// Spent reports whether u has used up the budget.
func (b Budget) Spent(u Usage) bool {
	return (b.Calls > 0 && u.Calls >= b.Calls) ||
		(b.Tokens > 0 && u.InputTokens+u.OutputTokens+u.ThinkingTokens >= b.Tokens) ||
		(b.CostUSD > 0 && u.CostUSD >= b.CostUSD)
}
