package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/activities"
)

// Price is what a model charges, in US dollars per million tokens, from a day on.
// Thinking tokens are charged as output.
type Price struct {
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	// From is the first day (YYYY-MM-DD, UTC) the price holds; "" is since ever.
	From string `json:"from,omitempty"`
}

// Schedule is a model's prices over time, in the order they start.
type Schedule []Price

// UnmarshalJSON reads one price or a list of them.
func (s *Schedule) UnmarshalJSON(b []byte) error {
	if strings.HasPrefix(strings.TrimSpace(string(b)), "{") {
		var p Price
		if err := strictJSON(b, &p); err != nil {
			return err
		}
		*s = Schedule{p}
		return nil
	}
	var ps []Price
	if err := strictJSON(b, &ps); err != nil {
		return err
	}
	*s = ps
	return nil
}

// At is the price on day t.
func (s Schedule) At(t time.Time) (Price, bool) {
	day := t.UTC().Format(time.DateOnly)
	var cur Price
	found := false
	for _, p := range s {
		if p.From <= day {
			cur, found = p, true
		}
	}
	return cur, found
}

// Prices are the models' prices, and the day they were read.
type Prices struct {
	Read   string              `json:"read"`
	Models map[string]Schedule `json:"models"`
}

// PricesRead is the day DefaultPrices were read off Google's Gemini API pricing page
// (standard tier, prompts up to 200k tokens; images cost what text does).
const PricesRead = "2026-11-22"

// DefaultPrices are the prices the run's cost is figured with, unless WEBAGENT_PRICES
// says otherwise. Announced changes are in: gemini-3.8-flash's launch price ends with
// 2026, gemini-4-argon's with November 2026.
var DefaultPrices = Prices{Read: PricesRead, Models: map[string]Schedule{
	"gemini-4-argon":                          {{Input: 2.00, Output: 10.00}, {Input: 4.00, Output: 20.00, From: "2026-12-01"}},
	"gemini-3.8-flash":                        {{Input: 0.75, Output: 3.75}, {Input: 1.50, Output: 7.50, From: "2027-01-01"}},
	"gemini-3.7-flash":                        {{Input: 0.75, Output: 3.75}, {Input: 1.50, Output: 7.50, From: "2027-01-01"}}, // served by 3.8 Flash, at its prices
	"gemini-3.6-flash":                        {{Input: 1.50, Output: 7.50}},
	"gemini-3.5-flash":                        {{Input: 1.50, Output: 9.00}},
	"gemini-3.5-flash-lite":                   {{Input: 0.30, Output: 2.50}},
	"gemini-3.1-flash-lite":                   {{Input: 0.25, Output: 1.50}},
	"gemini-3.1-pro-preview":                  {{Input: 2.00, Output: 12.00}},
	"gemini-2.5-pro":                          {{Input: 1.25, Output: 10.00}},
	"gemini-2.5-flash":                        {{Input: 0.30, Output: 2.50}},
	"gemini-2.5-flash-lite":                   {{Input: 0.10, Output: 0.40}},
	"gemini-2.5-computer-use-preview-10-2025": {{Input: 1.25, Output: 10.00}},
	"gemini-embedding-001":                    {{Input: 0.15}},
	"gemini-embedding-2":                      {{Input: 0.20}},
}}

func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// LoadPrices returns the default prices with spec's over them. spec is WEBAGENT_PRICES:
// empty, a JSON object, or the path of a file holding one, in the form
// {"read": "2026-12-01", "models": {"gemini-3.8-flash": {"input": 0.75, "output": 3.75}}};
// a model's price may be a list of them, each with the day it starts ("from").
func LoadPrices(spec string) (Prices, error) {
	p := Prices{Read: DefaultPrices.Read, Models: maps.Clone(DefaultPrices.Models)}
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return p, nil
	}
	data := []byte(spec)
	if !strings.HasPrefix(spec, "{") {
		var err error
		if data, err = os.ReadFile(spec); err != nil {
			return p, fmt.Errorf("WEBAGENT_PRICES=%s: %w (give a JSON object, or the path of a file holding one)", spec, err)
		}
	}
	var over Prices
	if err := strictJSON(data, &over); err != nil {
		return p, fmt.Errorf(`WEBAGENT_PRICES: %v (the form is {"read": "2026-12-01", "models": {"gemini-3.8-flash": {"input": 0.75, "output": 3.75}}}, US dollars per million tokens)`, err)
	}
	for m, sched := range over.Models {
		for _, pr := range sched {
			if pr.Input < 0 || pr.Output < 0 {
				return p, fmt.Errorf("WEBAGENT_PRICES: %s has a negative price", m)
			}
			if pr.From != "" {
				if _, err := time.Parse(time.DateOnly, pr.From); err != nil {
					return p, fmt.Errorf("WEBAGENT_PRICES: %s: \"from\": %q is not a day like 2027-01-01", m, pr.From)
				}
			}
		}
		p.Models[strings.TrimPrefix(m, "models/")] = sched
	}
	if over.Read != "" {
		p.Read = over.Read
	} else if len(over.Models) > 0 {
		p.Read = "WEBAGENT_PRICES"
	}
	return p, nil
}

// Cost prices tokens of a model on day t; false when the table has no price for it.
func (p Prices) Cost(model string, t time.Time, input, output int) (float64, bool) {
	pr, ok := p.Models[strings.TrimPrefix(model, "models/")].At(t)
	if !ok {
		return 0, false
	}
	return (float64(input)*pr.Input + float64(output)*pr.Output) / 1e6, true
}

// price adds the cost of one call made now to u, or counts the call as unpriced.
func (p Prices) price(u *activities.Usage, model string, input, output int) {
	cost, ok := p.Cost(model, time.Now(), input, output)
	if !ok {
		u.UnpricedCalls++
		return
	}
	u.CostUSD += cost
	u.PricesRead = p.Read
}
