package driver_test

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/internal/sites"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
)

// TestSitePolicy: a run that starts on the lab's site may not open a file, a browser page,
// the cloud metadata address or another site — not by a NAVIGATE, and not by a link.
func TestSitePolicy(t *testing.T) {
	skipPopupsUnderRace(t)
	srv := httptest.NewServer(lab.New())
	defer srv.Close()
	start := srv.URL + "/static/lab/widgets.html"
	p := sites.For(start, nil, false)
	s, _, err := newPool(t).Open(t.Context(), "sites", driver.OpenOptions{URL: start, Sites: &p})
	if err != nil {
		t.Fatal(err)
	}
	opts := driver.DoOptions{WaitBudget: 300 * time.Millisecond}
	for _, u := range []string{"file:///etc/passwd", "chrome://settings", "http://169.254.169.254/latest/meta-data/", "https://example.com/"} {
		out, err := s.Do(t.Context(), plan.Step{Action: plan.Navigate, URL: u}, opts)
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
	srv := httptest.NewServer(lab.New())
	defer srv.Close()
	s, _, err := newPool(t).Open(t.Context(), "dialogs", driver.OpenOptions{URL: srv.URL + "/static/lab/widgets.html"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		accept bool
		want   string
	}{{false, "Draft kept"}, {true, "Draft deleted"}} {
		out, err := s.Do(t.Context(), plan.Step{Action: plan.Click, TargetDescription: "Delete draft", AcceptDialog: tt.accept}, driver.DoOptions{WaitBudget: 300 * time.Millisecond})
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

// TestPageCannotReachInside: a page's images and scripts' requests may go to other sites,
// but not to an internal address the worker does not grant, whatever the run asked.
func TestPageCannotReachInside(t *testing.T) {
	count := func(addr string) (*httptest.Server, *atomic.Int32) {
		var n atomic.Int32
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
		srv.Listener.Close()
		srv.Listener = ln
		srv.Start()
		t.Cleanup(srv.Close)
		return srv, &n
	}
	granted, toGranted := count("127.0.0.1:0")
	inside, toInside := count("127.0.0.2:0")
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>p</title><img src="%[1]s/a.png"><img src="%[2]s/a.png">
<script>fetch("%[2]s/latest/meta-data/", {mode: "no-cors"}).catch(() => {}); fetch("%[1]s/b", {mode: "no-cors"}).catch(() => {})</script>`, granted.URL, inside.URL)
	}))
	defer page.Close()
	grant, err := sites.ParseInternal("127.0.0.1/32")
	if err != nil {
		t.Fatal(err)
	}
	p, err := driver.NewPool(driver.Config{DriverDir: testenv.DriverDir(t), ExecutablePath: testenv.Chromium(t), Headless: true, MaxSessions: 1, Internal: grant},
		slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Shutdown)
	policy := sites.For(page.URL, nil, true) // the run asks for every internal address
	if _, _, err := p.Open(t.Context(), "inside", driver.OpenOptions{URL: page.URL, Sites: &policy}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for toGranted.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if toGranted.Load() < 2 || toInside.Load() != 0 {
		t.Errorf("requests: %d to the granted address (want 2), %d to the one not granted (want 0)", toGranted.Load(), toInside.Load())
	}
}
