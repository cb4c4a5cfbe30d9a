package browser_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser"
	"github.com/webagent-dev/webagent/demoapp"
	"github.com/webagent-dev/webagent/internal/sites"
	"github.com/webagent-dev/webagent/plan"
)

// TestSitePolicy: a run that starts on the lab's site may not open a file, a browser page,
// the cloud metadata address or another site — not by a NAVIGATE, and not by a link.
func TestSitePolicy(t *testing.T) {
	srv := httptest.NewServer(demoapp.New())
	defer srv.Close()
	start := srv.URL + "/static/lab/widgets.html"
	p := sites.For(start, nil, false)
	s, _, err := newPool(t).Open(t.Context(), "sites", browser.OpenOptions{URL: start, Sites: &p})
	if err != nil {
		t.Fatal(err)
	}
	opts := browser.DoOptions{WaitBudget: 300 * time.Millisecond}
	for _, u := range []string{"file:///etc/passwd", "chrome://settings", "http://169.254.169.254/latest/meta-data/", "https://example.com/"} {
		out, err := s.Do(t.Context(), plan.Step{Action: plan.Navigate, Value: u}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if out.OK || out.Feedback == nil || !strings.Contains(out.Feedback.Details, "not opened") || s.URL() != start {
			t.Errorf("NAVIGATE %s: ok %v, feedback %+v, page %s", u, out.OK, out.Feedback, s.URL())
		}
	}
	for _, link := range []string{"Claim your prize", "Cloud metadata"} {
		out, err := s.Do(t.Context(), plan.Step{Action: plan.Click, TargetDescription: link}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if acts := strings.Join(out.Actions, "\n"); !strings.Contains(acts, "blocked a navigation") || s.URL() != start {
			t.Errorf("click %q: the navigation should be blocked and reported; page %s, actions:\n%s", link, s.URL(), acts)
		}
	}
}

// TestConfirmAsTheStepAsks: a confirm() is dismissed, unless the step says to accept it.
func TestConfirmAsTheStepAsks(t *testing.T) {
	srv := httptest.NewServer(demoapp.New())
	defer srv.Close()
	s, _, err := newPool(t).Open(t.Context(), "dialogs", browser.OpenOptions{URL: srv.URL + "/static/lab/widgets.html"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		accept bool
		want   string
	}{{false, "Draft kept"}, {true, "Draft deleted"}} {
		out, err := s.Do(t.Context(), plan.Step{Action: plan.Click, TargetDescription: "Delete draft", AcceptDialog: tt.accept}, browser.DoOptions{WaitBudget: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		text, _ := s.VisibleText(t.Context())
		acts := strings.Join(out.Actions, "\n")
		if !strings.Contains(text, tt.want) || !strings.Contains(acts, `the page asked "Delete the draft?" (confirm)`) {
			t.Errorf("accept %v: want %q on the page and the dialog reported; actions:\n%s", tt.accept, tt.want, acts)
		}
	}
}
