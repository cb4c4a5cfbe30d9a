package driver_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
)

func newPool(t testing.TB) *driver.Pool {
	t.Helper()
	p, err := driver.NewPool(driver.Config{
		DriverDir: testenv.DriverDir(t), ExecutablePath: testenv.Chromium(t), Headless: true, MaxSessions: 12, Internal: testenv.Loopback(),
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Shutdown)
	return p
}

func TestDemoGoalInTheBrowser(t *testing.T) {
	ctx := t.Context()
	app := demoapp.New()
	app.ControlDelay = 800 * time.Millisecond
	srv := httptest.NewServer(app)
	defer srv.Close()
	pool := newPool(t)
	s, created, err := pool.Open(t.Context(), "t1", driver.OpenOptions{URL: srv.URL + "/projects"})
	if err != nil || !created {
		t.Fatalf("open: %v %v", created, err)
	}
	steps, err := plan.Parse(`Click "New project", type "Apollo" into "Project name", select "High" from "Priority", check "Private", click "Create", then check that "Apollo" is visible, click "Import"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range steps {
		out, err := s.Do(ctx, step, driver.DoOptions{WaitBudget: 3 * time.Second})
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if !out.OK {
			t.Fatalf("%s: %v\n%s", step, out.Feedback, out.Before.Compact())
		}
		if len(out.BeforePNG) == 0 || len(out.AfterPNG) == 0 {
			t.Errorf("%s: missing screenshots", step)
		}
		if step.Action == plan.Click && step.TargetDescription == "Create" && !out.Mutated {
			t.Errorf("clicking Create sent a POST, but the outcome says no mutation")
		}
		t.Logf("%-40s %v", step, out.Actions)
	}
	st := app.Snapshot()
	if len(st.Projects) != 1 || st.Projects[0] != (demoapp.Project{Name: "Apollo", Priority: "High", Private: true}) || st.CreateRequests != 1 {
		b, _ := json.Marshal(st)
		t.Fatalf("state: %s", b)
	}
}

func TestAmbiguousAndMissingTargetsGiveFeedback(t *testing.T) {
	ctx := t.Context()
	srv := httptest.NewServer(demoapp.New(demoapp.Project{Name: "Apollo", Priority: "Low"}, demoapp.Project{Name: "Zeus", Priority: "Low"}))
	defer srv.Close()
	s, _, err := newPool(t).Open(t.Context(), "t2", driver.OpenOptions{URL: srv.URL + "/projects"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Do(ctx, plan.Step{Action: plan.Click, TargetDescription: "Project actions"}, driver.DoOptions{WaitBudget: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if out.OK || out.Feedback.Type != plan.WrongElement || len(out.Candidates) != 2 || out.Acted {
		t.Fatalf("two menu buttons: want wrong_element with 2 candidates and no action, got %+v", out.Feedback)
	}
	out, err = s.Do(ctx, plan.Step{Action: plan.Click, TargetDescription: `"Project actions" in the row "Zeus"`}, driver.DoOptions{WaitBudget: time.Second})
	if err != nil || !out.OK {
		t.Fatalf("row context: %v %+v", err, out.Feedback)
	}
	out, err = s.Do(ctx, plan.Step{Action: plan.Click, TargetDescription: "Archive"}, driver.DoOptions{WaitBudget: time.Second})
	if err != nil || !out.OK || !out.Mutated {
		t.Fatalf("archive: %v %+v", err, out)
	}
	out, err = s.Do(ctx, plan.Step{Action: plan.Click, TargetDescription: "Delete everything"}, driver.DoOptions{WaitBudget: 500 * time.Millisecond})
	if err != nil || out.OK || out.Feedback.Type != plan.NotVisible {
		t.Fatalf("missing target: want not_visible, got %v %+v", err, out.Feedback)
	}
	resp, err := http.Get(srv.URL + "/api/state")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st demoapp.State
	_ = json.NewDecoder(resp.Body).Decode(&st)
	if !st.Projects[1].Archived || st.Projects[0].Archived {
		t.Fatalf("Zeus should be archived, Apollo not: %+v", st.Projects)
	}
}

// TestOpenWaitsInLine: when every browser is in use, an open waits its turn, first come
// first served, and gets the first browser closed; one whose context ends gives up.
func TestOpenWaitsInLine(t *testing.T) {
	srv := httptest.NewServer(demoapp.New())
	defer srv.Close()
	p, err := driver.NewPool(driver.Config{
		DriverDir: testenv.DriverDir(t), ExecutablePath: testenv.Chromium(t), Headless: true, MaxSessions: 1, Internal: testenv.Loopback(),
	}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Shutdown)
	url := srv.URL + "/projects"
	if _, _, err := p.Open(t.Context(), "a", driver.OpenOptions{URL: url}); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 2)
	positions := make(chan int, 2)
	for _, id := range []string{"b", "c"} {
		go func() {
			if _, _, err := p.Open(t.Context(), id, driver.OpenOptions{URL: url, OnWait: func(pos, _ int) { positions <- pos }}); err == nil {
				got <- id
			}
		}()
		<-positions // b is first in line, then c
	}
	short, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if _, _, err := p.Open(short, "d", driver.OpenOptions{URL: url}); err == nil || !strings.Contains(err.Error(), "waited for one of this worker's 1 browsers") {
		t.Errorf("an open whose context ends should give up: %v", err)
	}
	if _, err := p.Close("a"); err != nil {
		t.Fatal(err)
	}
	if first := <-got; first != "b" {
		t.Errorf("%s got the browser first; b was first in line", first)
	}
	if _, err := p.Close("b"); err != nil {
		t.Fatal(err)
	}
	if next := <-got; next != "c" {
		t.Errorf("then %s", next)
	}
}
