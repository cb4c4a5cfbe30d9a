package model

import (
	"context"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/geminitest"
)

func TestValuesOccurOnThePage(t *testing.T) {
	p := newPageText("Order  #A-1042\nTotal: $1,234.50 (incl. VAT)\nCall (555) 010-4477\nShipped to Ada Lovelace")
	for v, want := range map[string]bool{
		"ada lovelace": true, "Order #A-1042": true, "$1,234.50": true, "1234.5": true, "1234.50": true, "555-010-4477": true,
		"Ada Byron": false, "1,243.50": false, "$999": false, "": true,
	} {
		if got := p.occurs(v); got != want {
			t.Errorf("occurs(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestExtractedValuesAreGrounded checks a value the model made up is sent back as a
// repair, that the full text is the one checked (the total is past the cut), and that a
// value still made up after the repairs fails the activity, naming it.
func TestExtractedValuesAreGrounded(t *testing.T) {
	text := strings.Repeat("Line item with nothing of note.\n", 300) + "Order total: $1,234.50"
	schema := map[string]any{"type": "object", "properties": map[string]any{"total": map[string]any{"type": "string"}}, "required": []any{"total"}}
	for _, fixed := range []bool{true, false} {
		a, s, st, _ := newActivities(t, func(_ geminitest.Call, n int) geminitest.Reply {
			if fixed && n == 2 {
				return geminitest.Reply{JSON: map[string]any{"total": "1234.50"}}
			}
			return geminitest.Reply{JSON: map[string]any{"total": "$1,999.00"}}
		})
		snap := st.stored(t, "order", projects, text)
		res, err := a.ExtractData(context.Background(), activities.ExtractInput{Goal: "read the total", Page: snap, Schema: schema})
		calls := s.Calls("extractor")
		if fixed {
			if err != nil || res.Data["total"] != "1234.50" || res.Usage.Calls != 2 || len(calls) != 2 ||
				!strings.Contains(calls[1].Prompt, `"$1,999.00" does not occur on the page`) {
				t.Fatalf("data %v usage %+v err %v", res.Data, res.Usage, err)
			}
			continue
		}
		ae := appError(t, err)
		if ae.Type() != activities.ErrModelInvalidOutput || !strings.Contains(ae.Error(), "$1,999.00") || activities.UsageOf(err).Calls != len(calls) || len(calls) != 3 {
			t.Fatalf("want %s naming the value after 3 calls, got %v (%d calls, usage %+v)", activities.ErrModelInvalidOutput, err, len(calls), activities.UsageOf(err))
		}
	}
}
