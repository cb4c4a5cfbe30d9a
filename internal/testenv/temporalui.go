package testenv

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/webagent-dev/webagent/internal/config"
)

// TemporalUI is a private Temporal Web UI — the UI 2.42 compiled into the temporal CLI the
// project installs (`temporal server start-dev`), over a dev server of its own — used for
// what a Temporal user does in it: terminating, cancelling and signalling workflows,
// starting one, and pausing, triggering and deleting schedules. Each instance is a dev
// server on free loopback ports (its gRPC frontend, its HTTP API and its Web UI) with its
// own SQLite file in a temporary folder and its own namespace, kept busy by a small worker
// in the test's process (temporalui_worker.go) and seeded with running, completed and
// failed workflows of a few types with similar IDs, and three schedules. The UI has no
// sign-in. The judges read the server back through its own API (ListWorkflowExecutions,
// each workflow's history, DescribeSchedule), never through the UI.
type TemporalUI struct {
	URL       string // the Web UI's root, e.g. http://127.0.0.1:PORT
	Namespace string // the seeded namespace (TemporalUINamespace)
	HostPort  string // the server's gRPC frontend
	Client    client.Client
	seed      TemporalUIState
}

// TemporalUINamespace is the namespace every instance seeds.
const TemporalUINamespace = "shop"

// TemporalUIWorkflow is a workflow of the seed: its ID, type, task queue, input (JSON) and
// how it ends up: "running", "completed" (sent the signal ship) or "failed".
type TemporalUIWorkflow struct {
	ID, Type, Queue, Input, Ends string
}

// TemporalUISchedule is a schedule of the seed: its ID, its cron spec's minute and hour
// (every day, UTC, moved when it would fire while a test runs), the workflow it starts
// (type and task queue), and the note it is paused with ("" when it runs).
type TemporalUISchedule struct {
	ID             string
	Minute, Hour   int
	Weekday        string // "*" or a day of the week, 0 for Sunday
	Workflow       string
	Queue, Input   string
	Paused, Reason string
}

// The seed every instance starts from: six open orders and invoice syncs with similar IDs,
// one order shipped, one payment that failed, and three schedules (two nightly reports that
// run and a weekly clean-up that is paused).
var (
	TemporalUISeedWorkflows = []TemporalUIWorkflow{
		{"order-1041", "OrderFulfillment", "orders", `{"customer":"Lena Fischer","items":3,"total":129.9}`, "running"},
		{"order-1042", "OrderFulfillment", "orders", `{"customer":"Ravi Patel","items":1,"total":24.5}`, "running"},
		{"order-1401", "OrderFulfillment", "orders", `{"customer":"Mia Jensen","items":2,"total":310}`, "running"},
		{"order-1402", "OrderFulfillment", "orders", `{"customer":"Tom Okafor","items":5,"total":87.25}`, "running"},
		{"order-1039", "OrderFulfillment", "orders", `{"customer":"Ana Costa","items":1,"total":15}`, "completed"},
		{"invoice-sync-7", "InvoiceSync", "billing", `{"account":"ACME-7","period":"2026-10"}`, "running"},
		{"invoice-sync-17", "InvoiceSync", "billing", `{"account":"ACME-17","period":"2026-10"}`, "running"},
		{"payment-capture-88", "PaymentCapture", "orders", `{"order":"order-1038","amount":54}`, "failed"},
	}
	TemporalUISeedSchedules = []TemporalUISchedule{
		{"nightly-report", 0, 2, "*", "NightlyReport", "reports", `{"region":"all"}`, "", ""},
		{"nightly-reports-eu", 30, 1, "*", "NightlyReport", "reports", `{"region":"eu"}`, "", ""},
		{"weekly-cleanup", 0, 4, "0", "WeeklyCleanup", "reports", `{"olderThanDays":90}`, "paused", "Waiting for the archive bucket migration"},
	}
)

// TemporalUIInstalled says whether the temporal CLI (its dev server and Web UI) is where
// `deploy/setup.sh` puts it.
func TemporalUIInstalled() bool {
	p := os.Getenv("TEMPORAL_BIN")
	if p == "" {
		p = filepath.Join(config.ToolsDir(), "temporal-"+TemporalCLIVersion, "temporal")
	}
	return exists(p)
}

// StartTemporalUI starts a dev server with its Web UI on free loopback ports, its SQLite
// file in a temporary folder and the namespace TemporalUINamespace, runs the seed's worker
// until the test ends, starts the seed's workflows and schedules, and waits until the
// server shows them all as the seed says. It skips the test when the temporal CLI is
// missing.
func StartTemporalUI(t testing.TB) *TemporalUI {
	t.Helper()
	if !TemporalUIInstalled() {
		t.Skip("the temporal CLI is not installed: run `deploy/setup.sh heldout` (or `make setup`)")
	}
	db := filepath.Join(t.TempDir(), "temporal.db")
	hostPort, c, ui := TemporalWithUIIn(t, TemporalUINamespace, nil, "--db-filename", db)
	u := &TemporalUI{URL: ui, Namespace: TemporalUINamespace, HostPort: hostPort, Client: c}
	temporaluiWorkers(t, c)
	u.seedWorkflows(t)
	u.seedSchedules(t)
	u.waitUI(t, 60*time.Second)
	if why := Eventually(30*time.Second, func() string { return u.seeded(t) }); why != "" {
		t.Fatalf("temporalui: the seed did not settle: %s", why)
	}
	u.seed = u.State(t)
	return u
}

// StartURL is where every goal starts: the Web UI's list of the seeded namespace's
// workflows.
func (u *TemporalUI) StartURL() string {
	return u.URL + "/namespaces/" + u.Namespace + "/workflows"
}

// waitUI waits until the Web UI answers with the namespace, which it asks the server for:
// the UI server may have dialled the server before it listened, and then waits out a
// back-off before it dials again (its answers meanwhile are 503s).
func (u *TemporalUI) waitUI(t testing.TB, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		resp, err := http.Get(u.URL + "/api/v1/namespaces/" + u.Namespace)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("temporalui: the Web UI at %s did not answer in %s: %v", u.URL, limit, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// seeded says what the server does not show yet of the seed ("" when it shows all of it):
// each workflow with the status it ends up in, each schedule with its state.
func (u *TemporalUI) seeded(t testing.TB) string {
	s := u.State(t)
	for _, w := range TemporalUISeedWorkflows {
		want := map[string]string{"running": "Running", "completed": "Completed", "failed": "Failed"}[w.Ends]
		if got := TemporalUIField(s["workflow"][w.ID], "status"); got != want {
			return fmt.Sprintf("workflow %s is %q, not %q", w.ID, got, want)
		}
	}
	for _, sc := range TemporalUISeedSchedules {
		if got := TemporalUIField(s["schedule"][sc.ID], "paused"); got != fmt.Sprint(sc.Paused != "") {
			return fmt.Sprintf("schedule %s is not listed as the seed has it: %q", sc.ID, s["schedule"][sc.ID])
		}
	}
	if len(s["workflow"]) != len(TemporalUISeedWorkflows) || len(s["schedule"]) != len(TemporalUISeedSchedules) {
		return fmt.Sprintf("%d workflows and %d schedules, not %d and %d", len(s["workflow"]), len(s["schedule"]),
			len(TemporalUISeedWorkflows), len(TemporalUISeedSchedules))
	}
	return ""
}
