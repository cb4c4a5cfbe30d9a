package e2e

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// checkMetrics scrapes the Prometheus endpoint of the worker that ran the demo goal (its
// only run) and finds the run by its status and site, its steps, their attempts and times,
// the browser it opened and the pool's size, and the SDK's own metrics.
func checkMetrics(t *testing.T, w *testenv.Worker, site string) {
	t.Helper()
	m := regexp.MustCompile(`msg=metrics url=(\S+)`).FindStringSubmatch(w.Output())
	if m == nil {
		t.Fatalf("the worker did not say where its metrics are:\n%s", w.Output())
	}
	want := []struct{ metric, labels string }{
		{"webagent_runs_total", `status="success"`},
		{"webagent_steps_total", `status="completed"`},
		{"webagent_step_attempts_total", ""},
		{"webagent_step_duration_seconds_count", ""},
		{"webagent_run_duration_seconds_count", `status="success"`},
		{"webagent_browser_opens_total", ""},
		{"webagent_browsers_max", ""},
		{"webagent_browsers_open", ""},
		{"temporal_workflow_completed_total", ""},
		{"temporal_activity_execution_latency_seconds_count", `activity_type="RunStep"`},
	}
	wantValue := map[string]float64{"webagent_runs_total": 1, "webagent_steps_total": 5, "webagent_step_attempts_total": 5,
		"webagent_step_duration_seconds_count": 5, "webagent_browser_opens_total": 1, "webagent_browsers_max": 4}
	var text string
	eventually(t, 10*time.Second, "the metrics are there", func() bool {
		text = scrape(t, m[1])
		for _, x := range want {
			if _, ok := sample(text, x.metric, x.labels); !ok {
				return false
			}
		}
		return true
	})
	for _, x := range want {
		v, _ := sample(text, x.metric, x.labels)
		if n, ok := wantValue[x.metric]; ok && v != n {
			t.Errorf("%s{%s} = %v, want %v", x.metric, x.labels, v, n)
		}
	}
	if t.Failed() || testing.Verbose() {
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "webagent_") && !strings.Contains(line, "_bucket") {
				t.Log(line)
			}
		}
	}
	if _, ok := sample(text, "webagent_runs_total", `site="`+site+`"`); !ok {
		t.Errorf("the run is not counted by its site %s", site)
	}
}

// scrape reads the metrics endpoint.
func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape %s: %v %s", url, err, resp.Status)
	}
	return string(b)
}

// sampleLine is one sample of Prometheus's text format: name, labels, value.
var sampleLine = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)`)

// sample is the sum of a metric's samples whose labels include labels (all, for "").
func sample(text, metric, labels string) (float64, bool) {
	sum, found := 0.0, false
	for _, line := range strings.Split(text, "\n") {
		m := sampleLine.FindStringSubmatch(line)
		if m == nil || m[1] != metric || !strings.Contains(m[2], labels) {
			continue
		}
		if v, err := strconv.ParseFloat(m[3], 64); err == nil {
			sum, found = sum+v, true
		}
	}
	return sum, found
}
