package workflows

import (
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"
)

// The agent's metrics, as the worker's metrics handler names them; its Prometheus endpoint
// adds the suffixes (_total to counters, _seconds to timers). Each carries the run's site;
// docs/metrics.md has the queries an operator needs.
const (
	MetricRuns         = "webagent_runs"                // by status and planner
	MetricRunDuration  = "webagent_run_duration"        // by status
	MetricSteps        = "webagent_steps"               // by status
	MetricStepAttempts = "webagent_step_attempts"       // every attempt at a step
	MetricStepDuration = "webagent_step_duration"       // each step's time, its attempts together
	MetricRecoveries   = "webagent_browser_recoveries"  // browsers rebuilt after a lost worker
	MetricDoubts       = "webagent_steps_in_doubt"      // steps that may have acted when their attempt was lost
	MetricModelCalls   = "webagent_model_calls"         // model calls
	MetricModelTokens  = "webagent_model_tokens"        // by kind: input, output, thinking
	MetricModelCost    = "webagent_model_cost_microusd" // what the calls cost, in millionths of a dollar
	MetricSkillLookups = "webagent_skill_lookups"       // by result: hit, miss
	metricsSiteTag     = "site"
	metricsStatusTag   = "status"
	metricsPlannerTag  = "planner"
	metricsKindTag     = "kind"
	metricsResultTag   = "result"
)

// record counts the run, ended with status st, in the worker's metrics. Workflow metrics are not emitted
// while a history is replayed, so each run is counted once, by the worker that ends it,
// and recording commands nothing: no version is needed.
func (r *run) record(ctx workflow.Context, status Status) {
	res := &r.res
	m := workflow.GetMetricsHandler(ctx).WithTags(map[string]string{metricsSiteTag: Site(r.in.StartURL)})
	st := string(status)
	m.WithTags(map[string]string{metricsStatusTag: st, metricsPlannerTag: string(res.Metadata.Planner)}).Counter(MetricRuns).Inc(1)
	m.WithTags(map[string]string{metricsStatusTag: st}).Timer(MetricRunDuration).Record(time.Duration(res.Metadata.DurationMs) * time.Millisecond)
	attempts, doubts := 0, 0
	for _, s := range r.steps {
		if s.Status == StepPending {
			continue
		}
		m.WithTags(map[string]string{metricsStatusTag: string(s.Status)}).Counter(MetricSteps).Inc(1)
		attempts += s.Attempts
		if s.DurationMs > 0 {
			m.Timer(MetricStepDuration).Record(time.Duration(s.DurationMs) * time.Millisecond)
		}
		if strings.Contains(strings.Join(s.Actions, "\n"), " was in doubt (") {
			doubts++
		}
	}
	m.Counter(MetricStepAttempts).Inc(int64(attempts))
	m.Counter(MetricRecoveries).Inc(int64(res.Execution.BrowserRecoveries))
	m.Counter(MetricDoubts).Inc(int64(doubts))
	u := res.Usage.Usage
	m.Counter(MetricModelCalls).Inc(int64(u.Calls))
	for _, t := range []struct {
		kind string
		n    int
	}{{"input", u.InputTokens}, {"output", u.OutputTokens}, {"thinking", u.ThinkingTokens}} {
		m.WithTags(map[string]string{metricsKindTag: t.kind}).Counter(MetricModelTokens).Inc(int64(t.n))
	}
	m.Counter(MetricModelCost).Inc(int64(u.CostUSD * 1e6))
	if r.skills {
		result := "miss"
		if res.Skill.CacheHit {
			result = "hit"
		}
		m.WithTags(map[string]string{metricsResultTag: result}).Counter(MetricSkillLookups).Inc(1)
	}
}
