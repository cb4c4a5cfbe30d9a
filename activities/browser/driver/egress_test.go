package driver_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/internal/sites"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
)

// listenCounting serves h on addr and counts its requests (WebSocket handshakes and
// tunnels included: any connection that sends a request line).
func listenCounting(t *testing.T, addr string, h http.Handler) (string, *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("listen on %s: %v", addr, err)
	}
	var n atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if h != nil {
			h.ServeHTTP(w, r)
		}
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

// TestEgressBoundary plays a page that wants into the worker's network, with the worker
// granting one address and one port: the page's own server. Whatever the page does — a
// redirect of the page itself, of an image, a fetch or a frame, a WebSocket, a service
// worker, a name that answers differently from one lookup to the next, another port on the
// granted address — the internal service on another loopback address gets no request; a
// redirect to another site ends the step outside the run's sites and the page goes back.
func TestEgressBoundary(t *testing.T) {
	mux := http.NewServeMux()
	site, _ := listenCounting(t, "127.0.0.1:0", mux)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(site, "http://"))
	inside, toInside := listenCounting(t, "127.0.0.2:"+port, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "instance-credentials: canary")
	}))
	other, toOther := listenCounting(t, "127.0.0.1:0", nil)
	html := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>attacker</title>"+body)
	}
	var swSeen atomic.Bool
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, _ *http.Request) {
		html(w, fmt.Sprintf(`<h1>Start</h1>
<a href="/to-inside">Metadata</a> <a href="/to-localhost">Away</a>
<img src="/to-inside?img"> <iframe src="/to-inside?frame"></iframe>
<script>
fetch("/to-inside?fetch").catch(() => {});
fetch("%[1]s/direct", {mode: "no-cors"}).catch(() => {});
fetch("%[2]s/other-port", {mode: "no-cors"}).catch(() => {});
try { new WebSocket("%[3]s/socket"); } catch (e) {}
if (navigator.serviceWorker) navigator.serviceWorker.register("/sw.js").catch(() => {});
</script>`, inside, other, strings.Replace(inside, "http", "ws", 1)))
	})
	mux.HandleFunc("/to-inside", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inside+"/latest/meta-data/", http.StatusFound)
	})
	mux.HandleFunc("/to-localhost", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:"+port+"/elsewhere", http.StatusFound)
	})
	mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, _ *http.Request) { html(w, "<h1>Elsewhere</h1>") })
	mux.HandleFunc("/sw.js", func(w http.ResponseWriter, _ *http.Request) {
		swSeen.Store(true)
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprintf(w, `self.addEventListener("install", () => fetch("%s/sw").catch(() => {}));`, inside)
	})

	grant, err := sites.ParseInternal("127.0.0.1:" + port)
	if err != nil {
		t.Fatal(err)
	}
	// rebind.test answers the granted address to the checks before a navigation (the
	// step's and the route's) and the internal service's from then on: a browser that
	// looked the name up again would connect inside.
	var lookups atomic.Int32
	resolve := func(ctx context.Context, host string) ([]netip.Addr, error) {
		if host == "rebind.test" {
			if lookups.Add(1) <= 2 {
				return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
			}
			return []netip.Addr{netip.MustParseAddr("127.0.0.2")}, nil
		}
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}
	pool, err := driver.NewPool(driver.Config{DriverDir: testenv.DriverDir(t), ExecutablePath: testenv.Chromium(t), Headless: true,
		MaxSessions: 2, Internal: grant, Resolve: resolve}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Shutdown)
	start := site + "/"
	policy := sites.For(start, []string{"rebind.test"}, true)
	s, _, err := pool.Open(t.Context(), "attacker", driver.OpenOptions{URL: start, Sites: &policy})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // the page's images, frame, fetches, socket and worker
	opts := driver.DoOptions{WaitBudget: 500 * time.Millisecond, ChangeTimeout: 500 * time.Millisecond}
	var mu sync.Mutex
	var failures []string
	var all strings.Builder
	do := func(what string, step plan.Step, want string) {
		out, err := s.Do(t.Context(), step, opts)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		mu.Lock()
		defer mu.Unlock()
		text := ""
		if out.Feedback != nil {
			text = out.Feedback.Details
		}
		text += "\n" + strings.Join(out.Actions, "\n")
		all.WriteString(text)
		if out.OK || !strings.Contains(text, want) {
			failures = append(failures, fmt.Sprintf("%s: ok %v, want %q in:\n%s", what, out.OK, want, text))
		}
		if u := s.URL(); !strings.HasPrefix(u, site) {
			failures = append(failures, fmt.Sprintf("%s: the page is at %s, off the run's site", what, u))
		}
	}
	do("a NAVIGATE that redirects inside", plan.Step{Action: plan.Navigate, URL: "/to-inside"}, "127.0.0.2")
	do("a click on a link that redirects inside", plan.Step{Action: plan.Click, TargetDescription: "Metadata"}, "127.0.0.2")
	do("a click on a link that redirects to another site", plan.Step{Action: plan.Click, TargetDescription: "Away"}, "localhost")
	do("another port of the granted address", plan.Step{Action: plan.Navigate, URL: other + "/"}, "does not grant")
	do("a name that rebinds between lookups", plan.Step{Action: plan.Navigate, URL: "http://rebind.test:" + port + "/"}, "127.0.0.2")
	for _, f := range failures {
		t.Error(f)
	}
	if !strings.Contains(all.String(), "a frame went to "+inside) {
		t.Errorf("the frame redirected inside is not reported; the steps said:\n%s", all.String())
	}
	if n := toInside.Load(); n != 0 {
		t.Errorf("the internal service got %d requests", n)
	}
	if n := toOther.Load(); n != 0 {
		t.Errorf("the granted address's other port got %d requests", n)
	}
	if lookups.Load() < 3 {
		t.Errorf("rebind.test was looked up %d times; the test needs the checks' lookups and the connection's", lookups.Load())
	}
	if swSeen.Load() {
		t.Log("the page fetched its service worker's script; the worker is blocked from registering")
	}
}
