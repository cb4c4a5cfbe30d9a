//go:build heldout

package e2e

import (
	"io"
	"net/http"
	"path"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on the Temporal Web UI: its tests build only with -tags heldout, and
// TestHeldOutTemporalUI is run once, at the end, against an agent nobody tuned to the
// Temporal Web UI. TestHeldOutTemporalUIJudge checks the harness alone, with no agent.

// TestHeldOutTemporalUI drives the Temporal Web UI — a real application nobody here wrote:
// the UI compiled into the temporal CLI, over a dev server of its own with a shop's
// workflows and schedules — with everyday goals written three ways each. The UI has no
// sign-in, so the goals have none and the worker is granted no secret. Each phrasing runs on
// a fresh instance (its own dev server, SQLite file, namespace and worker), starts at the
// namespace's list of workflows, and is judged twice: by the run's status and by the
// server's own API (its workflows, their histories, its schedules).
// go test -tags heldout -run 'TestHeldOutTemporalUI$' ./e2e/
func TestHeldOutTemporalUI(t *testing.T) {
	if !testenv.TemporalUIInstalled() {
		t.Skip("the temporal CLI is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(temporaluiGoals)), make([][]string, len(temporaluiGoals))
	for g, goal := range temporaluiGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		u := testenv.StartTemporalUI(t)
		return poolRun(t, s, names[g], i+1, p, u.StartURL(), "the Temporal server's workflows and schedules",
			func() string { return temporaluiGoals[g].done(t, u) })
	})
	poolReport(t, rows)
}

// TestHeldOutTemporalUIJudge validates the harness without the agent: on a fresh instance
// the pages the goals start from and the controls they name are there and every judge says
// "not done"; each goal's effect, made through the UI server's own requests along the
// goal's path (the page opened first, its _csrf token sent back), makes its judge say
// "done" and leaves the other judges at "not done"; a near miss of each changes the server
// but leaves its judge at "not done"; and each phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutTemporalUIJudge$' ./e2e/
func TestHeldOutTemporalUIJudge(t *testing.T) {
	if !testenv.TemporalUIInstalled() {
		t.Skip("the temporal CLI is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartTemporalUI(t)
	t.Logf("a fresh Temporal dev server and Web UI were started and seeded in %s", time.Since(began).Round(time.Millisecond))
	temporaluiCheckFresh(t, fresh)
	for _, g := range temporaluiGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if strings.Contains(p, "{signin}") || strings.Contains(p, "{{") || len(strings.Fields(p)) < 8 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
		}
	}
	for _, g := range temporaluiGoals {
		t.Run(g.name, func(t *testing.T) {
			u := testenv.StartTemporalUI(t)
			g.do(t, u.Browser())
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, u) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range temporaluiGoals {
				if o.name != g.name && o.done(t, u) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			u := testenv.StartTemporalUI(t)
			g.miss(t, u.Browser())
			changed := func() string {
				if u.Differs(t, u.Seed()) == "" {
					return "the server is as seeded"
				}
				return ""
			}
			if why := testenv.Eventually(10*time.Second, changed); why != "" {
				t.Fatalf("the near miss changed nothing in the server: %s", why)
			}
			time.Sleep(2 * time.Second) // the rest of the miss's effect (a workflow's end) settles
			why := g.done(t, u)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// temporaluiLabels are the controls and headings the phrasings name, as the UI's scripts
// write them.
var temporaluiLabels = []string{"Add Filter", "Enter value...", "Apply", "Request Cancellation", "More Actions", "Send a Signal",
	"Signal name", "Submit", "Terminate", "Enter a reason", "Confirm", "Start Workflow", "Workflow ID", "Task Queue", "Workflow Type",
	"Schedules", "Schedule Actions", "Pause Schedule?", "Trigger Immediately", "Delete Schedule?", "Reason", "Data"}

// temporaluiCheckFresh checks what the goals rely on: the UI's settings allow every action
// the goals take, the pages they open answer, the UI's scripts have the controls they name,
// the list the workflows page shows has the seed's workflows, the schedules page's list
// has the seed's schedules, and the server holds its seed (opening the pages changes none
// of it).
func temporaluiCheckFresh(t *testing.T, u *testenv.TemporalUI) {
	b := u.Browser()
	settings := b.API(t, http.MethodGet, "/settings", nil, nil)
	for _, off := range []string{"DisableWriteActions", "WorkflowTerminateDisabled", "WorkflowCancelDisabled", "WorkflowSignalDisabled", "StartWorkflowDisabled"} {
		if settings[off] != false {
			t.Errorf("the UI's settings have %s = %v", off, settings[off])
		}
	}
	page := b.Open(t, strings.TrimPrefix(u.StartURL(), u.URL))
	for _, p := range []string{"/namespaces/shop/schedules", "/namespaces/shop/schedules/nightly-report", "/namespaces/shop/workflows/start-workflow",
		"/namespaces/shop/workflows/order-1041"} {
		b.Open(t, p)
	}
	scripts := temporaluiScripts(t, u.URL, page)
	for _, label := range temporaluiLabels {
		if !strings.Contains(scripts, label) {
			t.Errorf("the UI's scripts have no %q", label)
		}
	}
	for _, id := range []string{"order-1041", "order-1042", "order-1401", "order-1402", "order-1039", "invoice-sync-7", "invoice-sync-17", "payment-capture-88"} {
		if ids := b.Find(t, `WorkflowId="`+id+`"`); len(ids) != 1 {
			t.Errorf("the workflows page's filter WorkflowId = %s finds %v", id, ids)
		}
	}
	listed := b.API(t, http.MethodGet, "/namespaces/{ns}/schedules", nil, nil)
	if n := len(listed["schedules"].([]any)); n != len(testenv.TemporalUISeedSchedules) {
		t.Errorf("the schedules page lists %d schedules: %v", n, listed)
	}
	s := u.Seed()
	if testenv.TemporalUIField(s["schedule"]["weekly-cleanup"], "paused") != "true" || testenv.TemporalUIField(s["workflow"]["payment-capture-88"], "status") != "Failed" {
		t.Errorf("the seed lacks its paused schedule or its failed workflow: %v", s)
	}
	if why := u.Differs(t, u.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
}

var temporaluiImport = regexp.MustCompile(`(?:\.\.?/|/_app/immutable/)[\w./-]+?\.js`)

// temporaluiScripts is the text of every script the UI's start page loads, following each
// script's imports.
func temporaluiScripts(t *testing.T, root, page string) string {
	var all strings.Builder
	seen := map[string]bool{}
	queue := regexp.MustCompile(`/_app/immutable/[\w./-]+\.js`).FindAllString(page, -1)
	for len(queue) > 0 && len(seen) < 2000 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		text := temporaluiGet(t, root, p)
		all.WriteString(text)
		for _, m := range temporaluiImport.FindAllString(text, -1) {
			if !strings.HasPrefix(m, "/") {
				m = path.Join(path.Dir(p), m)
			}
			queue = append(queue, m)
		}
	}
	t.Logf("read %d of the UI's scripts", len(seen))
	return all.String()
}

// temporaluiGet is a file the UI at root serves ("" when it has none).
func temporaluiGet(t *testing.T, root, p string) string {
	resp, err := http.Get(root + p)
	if err != nil {
		t.Fatalf("temporalui: GET %s: %v", p, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return ""
	}
	raw, _ := io.ReadAll(resp.Body)
	return string(raw)
}
