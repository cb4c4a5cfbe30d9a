package model

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/geminitest"
)

func appError(t *testing.T, err error) *temporal.ApplicationError {
	t.Helper()
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) {
		t.Fatalf("want an application error, got %v", err)
	}
	return ae
}

// TestFailedCallsAreCounted checks that every call the stand-in received is in the usage
// the activity returns with its error: a fault, a rate limit, a blocked prompt, and
// answers that stayed invalid through the repairs.
func TestFailedCallsAreCounted(t *testing.T) {
	tests := []struct {
		name  string
		reply func(n int) geminitest.Reply
		typ   string
	}{
		{"a 503", func(int) geminitest.Reply { return geminitest.Reply{Status: http.StatusServiceUnavailable} }, activities.ErrModelUnavailable},
		{"a 429", func(int) geminitest.Reply { return geminitest.Reply{Status: http.StatusTooManyRequests} }, activities.ErrModelRateLimited},
		{"a blocked prompt", func(int) geminitest.Reply { return geminitest.Reply{BlockReason: "SAFETY"} }, activities.ErrModelSafetyBlock},
		{"a repair, then a 500", func(n int) geminitest.Reply {
			if n == 1 {
				return geminitest.Reply{Text: `{"success": tr`}
			}
			return geminitest.Reply{Status: http.StatusInternalServerError}
		}, activities.ErrModelUnavailable},
		{"invalid through the repairs", func(int) geminitest.Reply { return geminitest.Reply{Text: "yes"} }, activities.ErrModelInvalidOutput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, s, _, snap := newActivities(t, func(_ geminitest.Call, n int) geminitest.Reply { return tt.reply(n) })
			_, err := a.JudgeGoal(context.Background(), activities.JudgeGoalInput{Goal: "g", Final: snap})
			if ae := appError(t, err); ae.Type() != tt.typ {
				t.Fatalf("want %s, got %s: %v", tt.typ, ae.Type(), err)
			}
			if u, n := activities.UsageOf(err), len(s.Calls("validator")); u.Calls != n || n == 0 {
				t.Fatalf("the error carries %d call(s); the stand-in received %d", u.Calls, n)
			}
		})
	}
}

// TestBudgetHoldsInsideAnActivity checks the activity stops before a repair the run's
// budget left cannot pay for, with a non-retryable error that says which budget.
func TestBudgetHoldsInsideAnActivity(t *testing.T) {
	tests := []struct {
		budget activities.Budget
		calls  int
		says   string
	}{
		{activities.Budget{Calls: 2}, 2, "model-call budget"},
		{activities.Budget{Tokens: 1}, 1, "token budget"},
		{activities.Budget{CostUSD: 1e-9}, 1, "cost budget"},
	}
	for _, tt := range tests {
		t.Run(tt.says, func(t *testing.T) {
			a, s, _, snap := newActivities(t, func(geminitest.Call, int) geminitest.Reply { return geminitest.Reply{Text: "not JSON"} })
			_, err := a.ExtractData(context.Background(), activities.ExtractInput{Goal: "g", Page: snap, Budget: tt.budget})
			ae := appError(t, err)
			if ae.Type() != activities.ErrModelBudget || !ae.NonRetryable() || !strings.Contains(ae.Error(), tt.says) {
				t.Fatalf("want a non-retryable %s naming the %s, got %s %v", activities.ErrModelBudget, tt.says, ae.Type(), err)
			}
			if n, u := len(s.Calls("extractor")), activities.UsageOf(err); n != tt.calls || u.Calls != n {
				t.Fatalf("the stand-in received %d call(s) (want %d); the error carries %d", n, tt.calls, u.Calls)
			}
		})
	}
}

// TestATryEndsBeforeTheActivity checks a slow answer is given up in time for the activity
// to return the call it paid for, and that no try starts with too little time left.
func TestATryEndsBeforeTheActivity(t *testing.T) {
	c, s := newClient(t, func(geminitest.Call, int) geminitest.Reply { return geminitest.Reply{Delay: 10 * time.Second} })
	ctx, cancel := context.WithTimeout(context.Background(), 3500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, u, err := c.Summarize(ctx, activities.SummarizeInput{Goal: "g"})
	dl, _ := ctx.Deadline()
	if ae := appError(t, err); ae.Type() != activities.ErrModelUnavailable || ae.NonRetryable() {
		t.Fatalf("want a retryable %s, got %v", activities.ErrModelUnavailable, err)
	}
	if left := time.Until(dl); left < 500*time.Millisecond {
		t.Fatalf("the try ended %v before the deadline, after %v: too late to report", left, time.Since(start))
	}
	if u.Calls != 1 || len(s.Calls("summarizer")) != 1 {
		t.Fatalf("usage %+v for %d call(s)", u, len(s.Calls("summarizer")))
	}
	short, cancel2 := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel2()
	_, u, err = c.Summarize(short, activities.SummarizeInput{Goal: "g"})
	if ae := appError(t, err); ae.Type() != activities.ErrModelUnavailable || !strings.Contains(ae.Error(), "too little") || u.Calls != 0 || len(s.Calls("summarizer")) != 1 {
		t.Fatalf("with 0.4 s left no try should start; got %v, usage %+v", err, u)
	}
}

// TestARepairSendsTheModelsOwnTurn checks a repair sends back the answer as it came, every
// part with its thought signature (the stand-in refuses a function call sent back
// without it).
func TestARepairSendsTheModelsOwnTurn(t *testing.T) {
	c, s := newClient(t, func(_ geminitest.Call, n int) geminitest.Reply {
		if n == 1 {
			return geminitest.Reply{Text: "let me look", Call: &geminitest.FunctionCall{Name: "lookup", Args: map[string]any{"q": "x"}}}
		}
		return geminitest.Reply{JSON: map[string]any{"reason": "the toast says so", "success": true, "confidence": 0.9}}
	})
	v, u, err := c.Judge(context.Background(), JudgeInput{JudgeGoalInput: activities.JudgeGoalInput{Goal: "g"}, Page: samplePage})
	if err != nil || !v.Success || u.Calls != 2 {
		t.Fatalf("verdict %+v usage %+v: %v", v, u, err)
	}
	var body struct {
		Contents []struct {
			Role  string           `json:"role"`
			Parts []map[string]any `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(s.Calls("validator")[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	turn := body.Contents[1]
	if turn.Role != "model" || len(turn.Parts) != 2 || turn.Parts[1]["thoughtSignature"] == nil {
		t.Fatalf("the repair should send the model's turn with its parts and signature: %+v", turn)
	}
}

// TestSchemasPutReasonsFirst checks every answer's schema, as sent, lists the reason
// before the verdict: in its properties, its required list and its propertyOrdering.
func TestSchemasPutReasonsFirst(t *testing.T) {
	for name, s := range map[string]map[string]any{"decide": decideSchema, "evaluate": evaluateSchema, "judge": judgeSchema, "replan": replanSchema, "plan": planSchema, "feedback": feedbackSchema} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var sent struct {
			Properties json.RawMessage `json:"properties"`
			Required   []string        `json:"required"`
			Ordering   []string        `json:"propertyOrdering"`
		}
		if err := json.Unmarshal(b, &sent); err != nil {
			t.Fatal(err)
		}
		first := strings.Trim(strings.SplitN(string(sent.Properties), ":", 2)[0], `{"`)
		if !strings.HasPrefix(first, "reason") && first != "details" || sent.Required[0] != first || sent.Ordering[0] != first {
			t.Errorf("%s: the reason must come first; properties open with %q, required %v, ordering %v", name, first, sent.Required, sent.Ordering)
		}
	}
}
