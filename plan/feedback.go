package plan

import "fmt"

// FeedbackType classifies why an attempt failed, which decides what the next attempt or
// the replanner should do differently.
type FeedbackType string

// The evaluator's feedback types.
const (
	WrongElement FeedbackType = "wrong_element"
	Timing       FeedbackType = "timing"
	PageState    FeedbackType = "page_state"
	NotVisible   FeedbackType = "not_visible"
	Other        FeedbackType = "other"
)

// Feedback is the evaluator's verdict on a failed attempt, carried into the next one.
type Feedback struct {
	Type FeedbackType `json:"type"`
	// Details says what happened, specifically ("clicked element 5 'Search', the page did
	// not change").
	Details string `json:"details"`
	// Suggestion says what to try next.
	Suggestion      string `json:"suggestion,omitempty"`
	ExpectedElement string `json:"expected_element,omitempty"`
	ActualElement   string `json:"actual_element,omitempty"`
	// Candidates are the elements that matched the target equally well, when there were
	// several; each as "#index role 'name'".
	Candidates []string `json:"candidates,omitempty"`
}

func (f Feedback) String() string {
	if f.Suggestion == "" {
		return fmt.Sprintf("%s: %s", f.Type, f.Details)
	}
	return fmt.Sprintf("%s: %s; %s", f.Type, f.Details, f.Suggestion)
}

// Replanning strategies: what the replanner chose to do about a step that failed every
// attempt.
const (
	StrategyWaitAndRetry = "wait_and_retry"
	StrategyRetryDiff    = "retry_differently"
	StrategyAddSteps     = "add_preparation_steps"
	StrategySkip         = "skip_step"
	StrategyOtherPath    = "take_another_path"
	StrategyAbort        = "abort"
)

// ModelStrategies are the strategies a model may choose (waiting is the offline
// planner's own remedy).
var ModelStrategies = []string{StrategyRetryDiff, StrategyAddSteps, StrategySkip, StrategyOtherPath, StrategyAbort}
