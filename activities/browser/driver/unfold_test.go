package driver_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/plan"
)

// TestNoHeaderButItsOwn: an item hidden in a menu the page draws apart from any header
// (the demo's row menu, kept at the page's end) is not unfolded by whatever control comes
// before it: looking for "Archive" in the row "Q4-bugs" once clicked "New project" and
// opened its dialog. Nothing is pressed for it; the row's own menu button is still there.
func TestNoHeaderButItsOwn(t *testing.T) {
	srv := httptest.NewServer(lab.New(demoapp.Project{Name: "Website relaunch", Priority: "High"}, demoapp.Project{Name: "Q4-bugs", Priority: "Medium"}))
	defer srv.Close()
	s, _, err := newPool(t).Open(t.Context(), "unfold", driver.OpenOptions{URL: srv.URL + "/projects"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Do(t.Context(), plan.Step{Action: plan.Click, TargetDescription: `the "Archive" button in the row "Q4-bugs"`}.WithTarget(), driver.DoOptions{WaitBudget: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if out.OK || out.Acted || len(out.Actions) > 0 {
		t.Fatalf("acted for a button the row does not show: %v %v", out.Actions, out.Feedback)
	}
	if c := out.Before.Compact(); strings.Contains(c, "dialog") || !strings.Contains(c, "Project actions") {
		t.Errorf("the page changed while looking:\n%s", c)
	}
}
