package client_test

import (
	"net/http/httptest"
	"os"
	"testing"

	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// app is the demo app the examples' runs drive.
var app *demoapp.Server

// TestMain starts what the examples run against — a Temporal dev server, MinIO, a worker
// and the demo app, on free ports — and names it in the environment, where the examples
// read it as a program would (TEMPORAL_ADDRESS, WEBAGENT_START_URL).
func TestMain(m *testing.M) {
	t := &testenv.MainTB{}
	bin, err := testenv.Build(t.TempDir(), "workers")
	if err != nil {
		t.Fatalf("%v", err)
	}
	temporalAddr, _ := testenv.Temporal(t, workflows.SearchAttributes)
	minioAddr, _ := testenv.MinIO(t)
	testenv.StartWorker(t, bin, testenv.Stack{TemporalAddr: temporalAddr, Namespace: "default", MinIOAddr: minioAddr, Bucket: testenv.MinIOBucket})
	app = demoapp.New()
	srv := httptest.NewServer(app)
	t.Cleanup(srv.Close)
	os.Setenv("TEMPORAL_ADDRESS", temporalAddr)
	os.Setenv("TEMPORAL_NAMESPACE", "default")
	os.Setenv("TEMPORAL_UI_URL", "http://127.0.0.1:8233")
	os.Setenv("WEBAGENT_START_URL", srv.URL+"/projects")
	code := m.Run()
	t.Close()
	os.Exit(code)
}
