package driver_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/internal/sites"
	"github.com/webagent-dev/webagent/plan"
)

// TestOtherWindows: a new tab or a popup the step opens is followed, and when it closes
// itself the run is back where it was; a window the page opens when no step acts is
// closed; a file the step downloads is kept, and is the click's effect.
func TestOtherWindows(t *testing.T) {
	skipPopupsUnderRace(t)
	srv := httptest.NewServer(lab.New())
	defer srv.Close()
	start := srv.URL + "/static/lab/windows.html"
	p := sites.For(start, nil, false)
	s, _, err := newPool(t).Open(t.Context(), "windows", driver.OpenOptions{URL: start, Sites: &p})
	if err != nil {
		t.Fatal(err)
	}
	do := func(target string) *driver.Outcome {
		t.Helper()
		out, err := s.Do(t.Context(), plan.Step{Action: plan.Click, TargetDescription: target}, driver.DoOptions{WaitBudget: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, link := range []string{"Open the quarterly report", "Open the help window"} {
		out := do(link)
		acts := strings.Join(out.Actions, "\n")
		if !out.OK || !strings.Contains(s.URL(), "/report.html") || !strings.Contains(acts, "followed the new window") {
			t.Fatalf("click %q: ok %v (%v), page %s, actions:\n%s", link, out.OK, out.Feedback, s.URL(), acts)
		}
		out = do("Close this window")
		acts = strings.Join(out.Actions, "\n")
		if !out.OK || s.URL() != start || !strings.Contains(acts, "back in the window that opened it") {
			t.Fatalf("close the window: ok %v (%v), page %s, actions:\n%s", out.OK, out.Feedback, s.URL(), acts)
		}
	}

	out := do("Download the invoice")
	if !out.OK || len(out.Downloads) != 1 {
		t.Fatalf("download: ok %v (%v), %d downloads, actions %q", out.OK, out.Feedback, len(out.Downloads), out.Actions)
	}
	if d := out.Downloads[0]; d.Name != "invoice-2026-11.csv" || string(d.Data) != lab.Invoice || d.Err != nil {
		t.Errorf("download: %q, %q, %v", d.Name, d.Data, d.Err)
	}

	do("Remind me later")
	time.Sleep(3 * time.Second)
	out, err = s.Do(t.Context(), plan.Step{Action: plan.Assert, Value: "We will remind you"}, driver.DoOptions{WaitBudget: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if acts := strings.Join(out.Actions, "\n"); !out.OK || s.URL() != start || !strings.Contains(acts, "closed a window the page opened by itself") {
		t.Errorf("a popup nobody asked for: ok %v, page %s, actions:\n%s", out.OK, s.URL(), acts)
	}
}
