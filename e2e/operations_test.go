package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// listRuns returns the workflow IDs a visibility query finds.
func listRuns(t *testing.T, s *stack, query string) []string {
	t.Helper()
	res, err := s.client.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{Query: query})
	if err != nil {
		t.Fatalf("list %q: %v", query, err)
	}
	var ids []string
	for _, e := range res.GetExecutions() {
		ids = append(ids, e.GetExecution().GetWorkflowId())
	}
	return ids
}

// eventually polls cond every half second until it holds or limit passes.
func eventually(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, limit)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// TestSchedulesAndSearchAttributes: a schedule made with the starter starts ordinary runs
// named after it, which succeed; paused, it starts no more; `temporal schedule list`
// shows it. The runs' search attributes find exactly the successful ones, and the
// scheduled ones by their schedule.
func TestSchedulesAndSearchAttributes(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	s := newStack(t)
	s.worker(t)
	out, errOut, code := s.starter(t, "schedule", "create", "--id", "demo-canary", "--every", "5s", "--url", s.appURL, demoGoal)
	if code != 0 {
		t.Fatalf("schedule create: exit %d\n%s\n%s", code, out, errOut)
	}
	// A run that fails, beside the scheduled ones.
	_, _, code = s.starter(t, "run", "--url", s.appURL, "--attempts", "1", `Click "No such button"`)
	if code != 1 {
		t.Errorf("the failing run: exit %d, want 1", code)
	}
	success := `WebagentStatus="success"`
	eventually(t, 2*time.Minute, "two scheduled runs succeed", func() bool { return len(listRuns(t, s, success)) >= 2 })
	if out, errOut, code := s.starter(t, "schedule", "pause", "demo-canary"); code != 0 {
		t.Fatalf("schedule pause: exit %d\n%s\n%s", code, out, errOut)
	}
	time.Sleep(2 * time.Second) // a run the schedule started as it was paused shows up by now
	eventually(t, 2*time.Minute, "every run ends", func() bool { return len(listRuns(t, s, `WebagentStatus="running"`)) == 0 })
	before := listRuns(t, s, `WebagentSchedule="demo-canary"`)
	time.Sleep(12 * time.Second) // more than two intervals
	after := listRuns(t, s, `WebagentSchedule="demo-canary"`)
	if len(after) != len(before) {
		t.Errorf("the paused schedule started runs: %d, then %d", len(before), len(after))
	}
	ok := listRuns(t, s, success)
	all := listRuns(t, s, `WorkflowType="Goal"`)
	failed := listRuns(t, s, `WebagentStatus="failed"`)
	if len(ok) != len(before) || len(failed) != 1 || len(all) != len(ok)+len(failed) {
		t.Errorf("success %v, failed %v, scheduled %v, all %v", ok, failed, before, all)
	}
	for _, id := range before {
		if !strings.HasPrefix(id, "sched-demo-canary-") {
			t.Errorf("a scheduled run's ID does not name its schedule: %s", id)
		}
	}
	site := listRuns(t, s, fmt.Sprintf(`WebagentSite=%q AND WebagentPlanner="offline"`, workflows.Site(s.appURL)))
	if len(site) != len(all) {
		t.Errorf("by site and planner: %v of %v", site, all)
	}
	st := s.app.Snapshot()
	if st.CreateRequests != len(ok) {
		t.Errorf("%d create requests for %d successful runs", st.CreateRequests, len(ok))
	}

	desc, _, code := s.starter(t, "schedule", "describe", "demo-canary")
	if code != 0 || !strings.Contains(desc, "paused") || !strings.Contains(desc, " success ") {
		t.Errorf("schedule describe: exit %d\n%s", code, desc)
	}
	cli := exec.Command(testenv.TemporalBin(t), "schedule", "list", "--address", s.TemporalAddr, "--namespace", s.Namespace)
	list, err := cli.CombinedOutput()
	if err != nil || !strings.Contains(string(list), "demo-canary") {
		t.Errorf("temporal schedule list: %v\n%s", err, list)
	}
	if _, _, code := s.starter(t, "schedule", "delete", "demo-canary"); code != 0 {
		t.Errorf("schedule delete: exit %d", code)
	}
}

// openBrowsers is the worker's count of open browsers, from its log.
func openBrowsers(w *testenv.Worker) string {
	m := regexp.MustCompile(`msg="browser (?:opened|closed)".* open=(\d+)`).FindAllStringSubmatch(w.Output(), -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

// TestPeopleInTheLoop: a step that requires approval waits without a browser until
// `starter approve`; a stuck run takes a `starter hint` and completes; `starter pause`
// and `resume` work mid-run.
func TestPeopleInTheLoop(t *testing.T) {
	s := newStack(t)
	w := s.worker(t)
	steps, err := plan.Parse(demoGoal)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("approve", func(t *testing.T) {
		s.app.Reset()
		p := append([]plan.Step(nil), steps...)
		p[3].RequiresApproval = true // click "Create"
		run := s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL, Plan: p})
		eventually(t, time.Minute, "the run waits for approval", func() bool {
			pr, err := progressOf(s, run.GetID())
			return err == nil && pr.Approval != nil && pr.Approval.Step == 4
		})
		eventually(t, 10*time.Second, "the waiting run holds no browser", func() bool { return openBrowsers(w) == "0" })
		if n := s.app.Snapshot().CreateRequests; n != 0 {
			t.Fatalf("%d create requests before the approval", n)
		}
		if out, errOut, code := s.starter(t, "approve", run.GetID(), "--by", "tester"); code != 0 {
			t.Fatalf("starter approve: exit %d\n%s\n%s", code, out, errOut)
		}
		res := s.result(t, run)
		s.history(t, run, "approval")
		if res.Execution.Status != workflows.StatusSuccess || res.Steps[3].ApprovedBy != "tester" || s.app.Snapshot().CreateRequests != 1 {
			t.Fatalf("status %s, step 4 approved by %q, %d create requests", res.Execution.Status, res.Steps[3].ApprovedBy, s.app.Snapshot().CreateRequests)
		}
		if _, errOut, code := s.starter(t, "approve", run.GetID(), "--by", "tester", "--step", "4"); code != 2 || !strings.Contains(errOut, "refused") {
			t.Errorf("approving a run that waits for nothing: exit %d, %s", code, errOut)
		}
	})

	t.Run("hint", func(t *testing.T) {
		s.app.Reset()
		// The dialog is never opened: the name field is not there, and the offline
		// planner cannot think of "New project" by itself.
		p := append([]plan.Step(nil), steps[1:]...)
		run := s.start(t, workflows.GoalInput{Goal: "Name the project Apollo", StartURL: s.appURL, Plan: p,
			Limits: workflows.Limits{AttemptsPerStep: 1, WaitBudget: 500 * time.Millisecond, HintTimeout: 2 * time.Minute}})
		eventually(t, time.Minute, "the run is stuck", func() bool {
			pr, err := progressOf(s, run.GetID())
			return err == nil && pr.Stuck != nil
		})
		if _, errOut, code := s.starter(t, "hint", run.GetID(), "--by", "tester", "think harder"); code != 0 {
			t.Fatalf("starter hint: exit %d\n%s", code, errOut)
		}
		// The offline planner cannot read that one: the run says so and waits again.
		eventually(t, 30*time.Second, "the run asks for another hint", func() bool {
			pr, err := progressOf(s, run.GetID())
			return err == nil && pr.Stuck != nil && strings.Contains(pr.Stuck.Reason, "could not be used")
		})
		if _, errOut, code := s.starter(t, "hint", run.GetID(), "--by", "tester", `click "New project"`); code != 0 {
			t.Fatalf("starter hint: exit %d\n%s", code, errOut)
		}
		res := s.result(t, run)
		s.history(t, run, "hint")
		if res.Execution.Status != workflows.StatusSuccess || s.app.Snapshot().CreateRequests != 1 || len(res.Errors) != 0 {
			t.Fatalf("status %s, %d create requests, errors %v", res.Execution.Status, s.app.Snapshot().CreateRequests, res.Errors)
		}
	})

	t.Run("pause and resume", func(t *testing.T) {
		s.app.Reset()
		run := s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL})
		waitForCompletedSteps(t, s.client, run, 1)
		if _, errOut, code := s.starter(t, "pause", run.GetID(), "--by", "tester"); code != 0 {
			t.Fatalf("starter pause: exit %d\n%s", code, errOut)
		}
		eventually(t, 30*time.Second, "the run pauses and releases its browser", func() bool {
			pr, err := progressOf(s, run.GetID())
			return err == nil && pr.Phase == workflows.PhasePaused && openBrowsers(w) == "0"
		})
		pr, _ := progressOf(s, run.GetID())
		done := 0
		for _, st := range pr.Steps {
			if st.Status == workflows.StepCompleted {
				done++
			}
		}
		time.Sleep(2 * time.Second)
		if again, _ := progressOf(s, run.GetID()); again.Phase != workflows.PhasePaused || len(again.Steps) != len(pr.Steps) {
			t.Fatalf("the paused run moved: %+v", again)
		}
		if _, errOut, code := s.starter(t, "resume", run.GetID(), "--by", "tester"); code != 0 {
			t.Fatalf("starter resume: exit %d\n%s", code, errOut)
		}
		res := s.result(t, run)
		s.history(t, run, "pause-resume")
		if res.Execution.Status != workflows.StatusSuccess || s.app.Snapshot().CreateRequests != 1 || done == 5 {
			t.Fatalf("status %s, %d create requests, %d steps done when paused", res.Execution.Status, s.app.Snapshot().CreateRequests, done)
		}
	})
}

// TestRunReport: `starter report` writes one page whose images all load in Chromium, with
// every step of the run. With -update-screenshots it also writes the README's picture.
func TestRunReport(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	s := newStack(t)
	s.worker(t)
	run := s.start(t, workflows.GoalInput{Goal: demoGoal, StartURL: s.appURL})
	res := s.result(t, run)
	file := filepath.Join(t.TempDir(), "report.html")
	out, errOut, code := s.starter(t, "report", run.GetID(), "--out", file)
	if code != 0 {
		t.Fatalf("starter report: exit %d\n%s\n%s", code, out, errOut)
	}
	page := headlessPage(t, 1200, 900)
	if _, err := page.Goto("file://" + file); err != nil {
		t.Fatal(err)
	}
	counts, err := page.Evaluate(`() => {
		const imgs = [...document.images];
		return [imgs.length, imgs.filter(i => i.complete && i.naturalWidth > 0).length, document.querySelectorAll("section.step").length];
	}`)
	if err != nil {
		t.Fatal(err)
	}
	c := counts.([]any)
	total, loaded, sections := c[0].(int), c[1].(int), c[2].(int)
	if total < 2*len(res.Steps) || loaded != total || sections != len(res.Steps) {
		t.Errorf("%d images, %d loaded, %d step sections for %d steps", total, loaded, sections, len(res.Steps))
	}
	text, _ := page.Locator("body").InnerText()
	for _, want := range []string{demoGoal, "success", `click "Create"`, "Visual dataset"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report does not show %q", want)
		}
	}
	if *updateScreenshots {
		if _, err := page.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(filepath.Join("..", "docs", "report.png"))}); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.Remove(file)
}

// TestWebUIListShowsTheRuns: the Web UI's list of runs shows each run's goal and, for the
// runs the product started, whether it succeeded — read in Chromium from the real UI.
// With -update-screenshots it writes the README's picture.
func TestWebUIListShowsTheRuns(t *testing.T) {
	t.Parallel() // mostly waiting: it runs beside the other waiting tests
	// A dev server of its own, with the Web UI the shared one does not start.
	s := &stack{Stack: shared.Stack(t)}
	var ui string
	s.TemporalAddr, s.client, ui = testenv.TemporalWithUI(t, workflows.SearchAttributes)
	s.Namespace = "default"
	s.store = s.Store(t)
	s.app = lab.New()
	s.serveApp(t)
	s.worker(t)
	if _, errOut, code := s.starter(t, "run", "--url", s.appURL, demoGoal); code != 0 {
		t.Fatalf("the demo goal: exit %d\n%s", code, errOut)
	}
	// A goal not achieved is a Failed execution; the starter still prints its output.
	out, _, code := s.starter(t, "run", "--url", s.appURL, "--attempts", "1", `Click "No such button"`)
	if code != 1 || !strings.Contains(out, "FAILED: ") || !strings.Contains(out, "steps: 0 completed, 1 failed") {
		t.Fatalf("the failing goal: exit %d\n%s", code, out)
	}
	if failed := listRuns(t, s, `ExecutionStatus="Failed"`); len(failed) != 1 || !strings.Contains(failed[0], "-click-no-such-button-") {
		t.Errorf(`ExecutionStatus="Failed" finds %v, want the failing goal alone`, failed)
	} else if d, err := s.client.DescribeWorkflowExecution(context.Background(), failed[0], ""); err == nil {
		s.historyOf(t, workflow.Execution{ID: failed[0], RunID: d.GetWorkflowExecutionInfo().GetExecution().GetRunId()}, "goal-not-achieved")
	}
	page := headlessPage(t, 1400, 700)
	if _, err := page.Goto(ui + "/namespaces/default/workflows"); err != nil {
		t.Fatal(err)
	}
	body := page.Locator("body")
	deadline := time.Now().Add(30 * time.Second)
	var text string
	for time.Now().Before(deadline) {
		text, _ = body.InnerText()
		if strings.Contains(text, "click-new-project-type-apollo") && strings.Contains(text, "click-no-such-button") {
			break
		}
		time.Sleep(time.Second)
	}
	if *updateScreenshots {
		if _, err := page.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(filepath.Join("..", "docs", "web-ui-list.png"))}); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(text, "click-new-project-type-apollo") || !strings.Contains(text, "click-no-such-button") {
		t.Fatalf("the Web UI's list does not show the goals:\n%s", text)
	}
	for id, want := range map[string]string{"click-no-such-button": "Failed", "click-new-project-type-apollo": "Completed"} {
		row, err := page.Locator("tr", playwright.PageLocatorOptions{HasText: id}).First().InnerText()
		if err != nil || !strings.Contains(row, want) {
			t.Errorf("the Web UI's row of %s does not say %s: %v\n%s", id, want, err, row)
		}
	}
}

// headlessPage is a page of its own in a headless Chromium, closed with the test.
func headlessPage(t *testing.T, width, height int) playwright.Page {
	t.Helper()
	pw, err := playwright.Run(&playwright.RunOptions{DriverDirectory: testenv.DriverDir(t), SkipInstallBrowsers: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pw.Stop() })
	b, err := pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{ExecutablePath: playwright.String(testenv.Chromium(t)), Headless: playwright.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	page, err := b.NewPage(playwright.BrowserNewPageOptions{Viewport: &playwright.Size{Width: width, Height: height}})
	if err != nil {
		t.Fatal(err)
	}
	return page
}
