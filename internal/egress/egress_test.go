package egress

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// counter is a server on one address that counts the requests it gets.
type counter struct {
	n   atomic.Int32
	srv *httptest.Server
}

func serveOn(t *testing.T, addr string, h http.HandlerFunc) *counter {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("listen on %s: %v", addr, err)
	}
	c := &counter{}
	c.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.n.Add(1)
		h(w, r)
	}))
	c.srv.Listener.Close()
	c.srv.Listener = ln
	c.srv.Start()
	t.Cleanup(c.srv.Close)
	return c
}

// only allows one address, and refuses the others with their address in the reason.
func only(allowed netip.Addr) Check {
	return func(host string, a netip.Addr, port uint16) error {
		if a == allowed {
			return nil
		}
		return fmt.Errorf("%s (%s) is not granted", a, host)
	}
}

func client(p *Proxy) *http.Client {
	u, _ := url.Parse(p.Server())
	return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(u), TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
}

func TestRedirectHopIsChecked(t *testing.T) {
	inside := serveOn(t, "127.0.0.2:0", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "metadata") })
	outside := serveOn(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inside.srv.URL+"/latest/meta-data/", http.StatusFound)
	})
	var reasons []string
	var mu sync.Mutex
	p, err := Start(Options{Check: only(netip.MustParseAddr("127.0.0.1")), Refused: func(r string) { mu.Lock(); reasons = append(reasons, r); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	resp, err := client(p).Get(outside.srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || strings.Contains(string(body), "metadata") {
		t.Fatalf("the redirect's next hop: %d %q, want 403 without the internal page", resp.StatusCode, body)
	}
	if inside.n.Load() != 0 {
		t.Fatalf("the internal service got %d requests", inside.n.Load())
	}
	if len(reasons) != 1 || !strings.Contains(reasons[0], "127.0.0.2") {
		t.Fatalf("refusals reported: %q", reasons)
	}
}

func TestTunnelIsChecked(t *testing.T) {
	inside := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "secret") }))
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skip(err)
	}
	inside.Listener.Close()
	inside.Listener = ln
	inside.StartTLS()
	defer inside.Close()
	granted := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") }))
	defer granted.Close()
	p, err := Start(Options{Check: only(netip.MustParseAddr("127.0.0.1"))})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := client(p)
	resp, err := c.Get(granted.URL)
	if err != nil {
		t.Fatalf("a granted https site through the tunnel: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "ok" {
		t.Fatalf("granted site answered %q", b)
	}
	if _, err := c.Get(inside.URL); err == nil {
		t.Fatal("a tunnel to an address the policy refuses was made")
	}
}

// A name that answers a granted address to the first lookup and an internal one to the
// next: the proxy looks it up once per connection and dials what it checked.
func TestRebindingHasNoSecondLookup(t *testing.T) {
	inside := serveOn(t, "127.0.0.2:0", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "internal") })
	_, port, _ := net.SplitHostPort(inside.srv.Listener.Addr().String())
	granted := serveOn(t, "127.0.0.1:"+port, func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "granted") })
	var lookups atomic.Int32
	rebind := func(_ context.Context, host string) ([]netip.Addr, error) {
		if lookups.Add(1)%2 == 1 {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.2")}, nil
	}
	p, err := Start(Options{Check: only(netip.MustParseAddr("127.0.0.1")), Resolve: rebind})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i := 0; i < 6; i++ {
		c := client(p)
		resp, err := c.Get("http://rebind.test:" + port + "/")
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(b), "internal") {
			t.Fatalf("request %d reached the internal service", i)
		}
		c.CloseIdleConnections()
	}
	if inside.n.Load() != 0 || granted.n.Load() == 0 {
		t.Fatalf("internal got %d, granted %d", inside.n.Load(), granted.n.Load())
	}
}

func TestNoPolicyReachesNothing(t *testing.T) {
	site := serveOn(t, "127.0.0.1:0", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "x") })
	p, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	resp, err := client(p).Get(site.srv.URL)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("a proxy with no policy answered %d", resp.StatusCode)
		}
	}
	if site.n.Load() != 0 {
		t.Fatal("a proxy with no policy reached a site")
	}
}

// A page may not hop through another run's proxy, whatever its own policy allows.
func TestAnotherProxyIsNotReachable(t *testing.T) {
	loop := func(string, netip.Addr, uint16) error { return nil }
	a, err := Start(Options{Check: loop})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Start(Options{Check: loop})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	resp, err := client(a).Get(b.Server() + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a request to another proxy answered %d, want 403", resp.StatusCode)
	}
}

// A WebSocket handshake sent in absolute form (not tunnelled) is checked and relayed.
func TestUpgradeIsChecked(t *testing.T) {
	inside := serveOn(t, "127.0.0.2:0", func(w http.ResponseWriter, _ *http.Request) {})
	echo := serveOn(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		c, buf, _ := w.(http.Hijacker).Hijack()
		defer c.Close()
		fmt.Fprint(buf, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n")
		buf.Flush()
		line, _ := buf.ReadString('\n')
		fmt.Fprint(buf, "echo "+line)
		buf.Flush()
	})
	p, err := Start(Options{Check: only(netip.MustParseAddr("127.0.0.1"))})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	try := func(target string) string {
		c, err := net.Dial("tcp", strings.TrimPrefix(p.Server(), "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET %s/ HTTP/1.1\r\nHost: %s\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n", target, strings.TrimPrefix(target, "http://"))
		r := bufio.NewReader(c)
		status, _ := r.ReadString('\n')
		if !strings.Contains(status, "101") {
			return status
		}
		for {
			l, _ := r.ReadString('\n')
			if l == "\r\n" || l == "" {
				break
			}
		}
		fmt.Fprint(c, "hello\n")
		l, _ := r.ReadString('\n')
		return l
	}
	if got := try(echo.srv.URL); got != "echo hello\n" {
		t.Fatalf("granted upgrade: %q", got)
	}
	if got := try(inside.srv.URL); !strings.Contains(got, "403") {
		t.Fatalf("refused upgrade answered %q", got)
	}
	if inside.n.Load() != 0 {
		t.Fatal("the internal service got the upgrade")
	}
}

// A request's body is sent on with its headers, in one piece, whatever way the browser
// sent it: a site never gets the headers of a request whose body may not follow.
func TestBodySentWhole(t *testing.T) {
	var got []string
	var mu sync.Mutex
	site := serveOn(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, fmt.Sprintf("%d %v %s", r.ContentLength, r.TransferEncoding, b))
		mu.Unlock()
	})
	p, err := Start(Options{Check: only(netip.MustParseAddr("127.0.0.1"))})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pr, pw := io.Pipe()
	go func() {
		fmt.Fprint(pw, `{"name":`)
		fmt.Fprint(pw, `"Apollo"}`)
		pw.Close()
	}()
	resp, err := client(p).Post(site.srv.URL+"/api/projects", "application/json", pr) // chunked
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(got) != 1 || got[0] != `17 [] {"name":"Apollo"}` {
		t.Fatalf("the site got %q, want the body whole with its length", got)
	}
}
