package workflows

import (
	"encoding/json"
	"fmt"
	"time"
)

// Duration is a time.Duration written as "30s" in JSON.
type Duration time.Duration

// MarshalJSON writes "30s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads "30s" or nanoseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("%q is not a duration (e.g. \"30s\", \"5m\")", s)
		}
		*d = Duration(v)
		return nil
	}
	var ns int64
	if err := json.Unmarshal(b, &ns); err != nil {
		return fmt.Errorf("want a duration such as \"30s\", got %s", b)
	}
	*d = Duration(ns)
	return nil
}

// limitsJSON is Limits as JSON: durations as Go duration strings ("30s", "5m"), so that
// people starting runs from the temporal CLI or the Web UI can write them.
type limitsJSON struct {
	AttemptsPerStep   int             `json:"attemptsPerStep,omitempty"`
	Replans           int             `json:"replans,omitempty"`
	MaxSteps          int             `json:"maxSteps,omitempty"`
	Deadline          json.RawMessage `json:"deadline,omitempty"`
	WaitBudget        json.RawMessage `json:"waitBudget,omitempty"`
	WorkerLossTimeout json.RawMessage `json:"workerLossTimeout,omitempty"`
	MaxRecoveries     int             `json:"maxRecoveries,omitempty"`
	ApprovalTimeout   json.RawMessage `json:"approvalTimeout,omitempty"`
	ModelTimeout      json.RawMessage `json:"modelTimeout,omitempty"`
	MaxModelCalls     int             `json:"maxModelCalls,omitempty"`
	MaxCostUSD        float64         `json:"maxCostUsd,omitempty"`
	StepsPerRun       int             `json:"stepsPerRun,omitempty"`
	MaxTokens         int             `json:"maxTokens,omitempty"`
	HintTimeout       json.RawMessage `json:"hintTimeout,omitempty"`
}

// MarshalJSON writes the durations as strings.
func (l Limits) MarshalJSON() ([]byte, error) {
	d := func(v time.Duration) json.RawMessage {
		if v == 0 {
			return nil
		}
		b, _ := json.Marshal(v.String())
		return b
	}
	return json.Marshal(limitsJSON{
		AttemptsPerStep: l.AttemptsPerStep, Replans: l.Replans, MaxSteps: l.MaxSteps, MaxRecoveries: l.MaxRecoveries,
		MaxModelCalls: l.MaxModelCalls, MaxCostUSD: l.MaxCostUSD, StepsPerRun: l.StepsPerRun, MaxTokens: l.MaxTokens,
		Deadline: d(l.Deadline), WaitBudget: d(l.WaitBudget), WorkerLossTimeout: d(l.WorkerLossTimeout),
		ApprovalTimeout: d(l.ApprovalTimeout), ModelTimeout: d(l.ModelTimeout), HintTimeout: d(l.HintTimeout),
	})
}

// UnmarshalJSON reads durations written as strings ("90s") or as nanoseconds.
func (l *Limits) UnmarshalJSON(b []byte) error {
	var j limitsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*l = Limits{AttemptsPerStep: j.AttemptsPerStep, Replans: j.Replans, MaxSteps: j.MaxSteps, MaxRecoveries: j.MaxRecoveries,
		MaxModelCalls: j.MaxModelCalls, MaxCostUSD: j.MaxCostUSD, StepsPerRun: j.StepsPerRun, MaxTokens: j.MaxTokens}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
		dst  *time.Duration
	}{{"deadline", j.Deadline, &l.Deadline}, {"waitBudget", j.WaitBudget, &l.WaitBudget}, {"workerLossTimeout", j.WorkerLossTimeout, &l.WorkerLossTimeout}, {"approvalTimeout", j.ApprovalTimeout, &l.ApprovalTimeout}, {"modelTimeout", j.ModelTimeout, &l.ModelTimeout}, {"hintTimeout", j.HintTimeout, &l.HintTimeout}} {
		if len(f.raw) == 0 {
			continue
		}
		var d Duration
		if err := d.UnmarshalJSON(f.raw); err != nil {
			return fmt.Errorf("limits.%s: %w", f.name, err)
		}
		*f.dst = time.Duration(d)
	}
	return nil
}
