package e2e

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// BenchmarkDemoGoal runs the five-step demo goal through the whole system — Temporal dev
// server, worker process, Chromium, MinIO — and reports the time per run and per step:
//
//	go test -run '^$' -bench DemoGoal -benchtime 10x ./e2e/
func BenchmarkDemoGoal(b *testing.B) {
	addr, c := testenv.Temporal(b)
	minioAddr, _ := testenv.MinIO(b)
	app := demoapp.New()
	srv := httptest.NewServer(app)
	b.Cleanup(srv.Close)
	testenv.StartWorker(b, workerBin, addr, minioAddr)

	var steps, stepMs int64
	for i := 0; b.Loop(); i++ {
		run, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{TaskQueue: workflows.TaskQueue},
			workflows.GoalWorkflowName, workflows.GoalInput{Goal: demoGoal, StartURL: srv.URL + "/projects"})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var res workflows.GoalResult
		err = run.Get(ctx, &res)
		cancel()
		if err != nil || res.Execution.Status != workflows.StatusSuccess {
			b.Fatalf("run %d: %v %+v", i, err, res.Execution)
		}
		for _, s := range res.Steps {
			steps++
			stepMs += s.DurationMs
		}
	}
	b.ReportMetric(float64(stepMs)/float64(steps), "ms/step")
}
