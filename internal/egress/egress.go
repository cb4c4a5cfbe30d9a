// Package egress is the network boundary of the worker's browsers: a forward proxy that
// every byte a browser context sends crosses — plain HTTP requests, HTTPS and WebSocket
// tunnels (CONNECT), each hop of a redirect, every subresource, frame, popup and worker.
// For each connection it resolves the host once, asks the run's policy about the address
// and port it resolved to, and dials exactly that address, so a name that answers one
// address to a check and another to the connection (DNS rebinding) has no second lookup
// to win.
//
// It is built from the standard library's pieces (net/http's server, a Transport whose
// dialer is the boundary, a hijacked connection for tunnels) rather than a proxy library:
// the boundary is one function, Proxy.dial, that a reviewer can read whole, and nothing
// in it rewrites, caches or decrypts traffic. The proxy never terminates TLS: it sees an
// HTTPS request's host and port, not its path — a URL's path is the browser's route
// handler's to see.
package egress

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Check says why the browser may not connect to addr:port, which host (a name as the page
// asked for it, or an address literal) resolved to; nil allows it.
type Check func(host string, addr netip.Addr, port uint16) error

// Resolver looks up the addresses of a host name.
type Resolver func(ctx context.Context, host string) ([]netip.Addr, error)

// Options configure a proxy.
type Options struct {
	// Check is the policy; nil refuses every connection until SetCheck gives one.
	Check Check
	// Refused is told each refusal, in words, for the run to report.
	Refused func(reason string)
	// Resolve looks up host names; nil uses the system's resolver.
	Resolve Resolver
	// Log, when set, gets a debug line for each refusal.
	Log *slog.Logger
}

// Proxy is one listener on loopback with its policy. A browser context is given one of its
// own, so that what a run may reach is that run's policy and nobody else's.
type Proxy struct {
	ln      net.Listener
	srv     *http.Server
	tr      *http.Transport
	resolve Resolver
	log     *slog.Logger

	mu      sync.RWMutex
	check   Check
	refused func(string)
}

// Start listens on an ephemeral loopback port and serves until Close.
func Start(o Options) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("egress proxy: listen on loopback: %w", err)
	}
	p := &Proxy{ln: ln, resolve: o.Resolve, log: o.Log, check: o.Check, refused: o.Refused}
	if p.resolve == nil {
		p.resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	own.add(p.addrPort())
	p.tr = &http.Transport{
		DialContext:           p.dialContext,
		ForceAttemptHTTP2:     false, // the browser speaks HTTP/1.1 to a proxy for http: URLs
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: 0, // a long poll is the page's business; the browser bounds it
		DisableCompression:    true,
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second, ErrorLog: nil}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// Server is the proxy's address as a browser's proxy setting takes it.
func (p *Proxy) Server() string { return "http://" + p.ln.Addr().String() }

func (p *Proxy) addrPort() netip.AddrPort {
	ap, _ := netip.ParseAddrPort(p.ln.Addr().String())
	return ap
}

// SetCheck gives the proxy its policy (a context opened ahead of its run has none, and
// refuses everything, until the run takes it) and whom to tell of refusals.
func (p *Proxy) SetCheck(c Check, refused func(string)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.check, p.refused = c, refused
}

// Close stops the listener and every tunnel and request in flight.
func (p *Proxy) Close() error {
	own.remove(p.addrPort())
	p.tr.CloseIdleConnections()
	return p.srv.Close()
}

// ServeHTTP serves the two forms a browser sends its proxy: CONNECT host:port for a
// tunnel (HTTPS, WebSockets) and a request in absolute form for plain HTTP.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.tunnel(w, r)
		return
	}
	if !r.URL.IsAbs() || (r.URL.Scheme != "http" && r.URL.Scheme != "ws") {
		http.Error(w, "this is a forward proxy for a browser: send an absolute http URL or CONNECT", http.StatusBadRequest)
		return
	}
	p.forward(w, r)
}

// RefusedHeader marks the proxy's own answer to a plain HTTP request it refused, so that
// the browser's side can tell it from a site's 403.
const RefusedHeader = "X-Webagent-Egress-Refused"

// RefusedError is a connection the policy does not allow.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return e.Reason }

// dial resolves hostport once and connects to the first of its addresses the policy
// allows — that very address, never a name looked up again.
func (p *Proxy) dial(ctx context.Context, hostport string) (net.Conn, error) {
	host, portText, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil, p.refuse(fmt.Errorf("%q is not a host and port", hostport))
	}
	port64, err := strconv.ParseUint(portText, 10, 16)
	if err != nil || port64 == 0 {
		return nil, p.refuse(fmt.Errorf("%q has no valid port", hostport))
	}
	port := uint16(port64)
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	p.mu.RLock()
	check := p.check
	p.mu.RUnlock()
	if check == nil {
		return nil, p.refuse(fmt.Errorf("%s: this browser has no run's policy yet, so it reaches nothing", hostport))
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		addrs = []netip.Addr{a}
	} else {
		lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
		addrs, err = p.resolve(lctx, host)
		cancel()
		if err != nil || len(addrs) == 0 {
			// Not a refusal: the page sees what a failed lookup looks like.
			return nil, fmt.Errorf("look up %s: %w", host, errOr(err, errors.New("no address")))
		}
	}
	// Every address the name gave is judged; only those allowed are dialled, in order.
	var allowed []netip.AddrPort
	var refusal error
	for _, a := range addrs {
		ap := netip.AddrPortFrom(a.Unmap(), port)
		err := check(host, ap.Addr(), port)
		if err == nil && own.has(ap) {
			err = fmt.Errorf("%s is one of this worker's own egress proxies", ap)
		}
		if err != nil {
			if refusal == nil {
				refusal = err
			}
			continue
		}
		allowed = append(allowed, ap)
	}
	if len(allowed) == 0 {
		return nil, p.refuse(refusal)
	}
	var last error
	for _, ap := range allowed {
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", ap.String())
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

func (p *Proxy) refuse(err error) error {
	p.mu.RLock()
	tell := p.refused
	p.mu.RUnlock()
	if tell != nil {
		tell(err.Error())
	}
	if p.log != nil {
		p.log.Debug("egress refused", "reason", err.Error())
	}
	return &RefusedError{Reason: err.Error()}
}

func (p *Proxy) dialContext(ctx context.Context, _, addr string) (net.Conn, error) {
	return p.dial(ctx, addr)
}

// tunnel answers CONNECT: the policy is asked about the host and port, the connection
// made, then bytes copied both ways until either side closes.
func (p *Proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	up, err := p.dial(r.Context(), r.Host)
	if err != nil {
		refusedOr(w, err)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		_ = up.Close()
		http.Error(w, "tunnels are not supported here", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		_ = up.Close()
		return
	}
	if _, err := down.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		_ = up.Close()
		_ = down.Close()
		return
	}
	splice(down, buf, up)
}

// splice copies both ways, including what the browser sent after its CONNECT before the
// answer (buffered in buf), and closes both ends when either is done.
func splice(down net.Conn, buf *bufio.ReadWriter, up net.Conn) {
	done := make(chan struct{}, 2)
	go func() {
		if n := buf.Reader.Buffered(); n > 0 {
			b, _ := buf.Reader.Peek(n)
			_, _ = up.Write(b)
		}
		_, _ = io.Copy(up, down)
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(down, up)
		done <- struct{}{}
	}()
	<-done
	_ = up.Close()
	_ = down.Close()
	<-done
}

// hopHeaders are a proxy's own and never forwarded.
var hopHeaders = []string{"Proxy-Connection", "Proxy-Authorization", "Proxy-Authenticate", "Keep-Alive", "Te", "Trailer", "Transfer-Encoding"}

// forward sends a plain HTTP request on through the boundary's dialer and copies the
// answer back. A redirect is the browser's to follow, so its next hop comes back here and
// is checked like the first; an upgrade (a ws: socket sent without CONNECT) is spliced.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request) {
	out := r.Clone(r.Context())
	out.RequestURI = ""
	for _, h := range hopHeaders {
		out.Header.Del(h)
	}
	if out.URL.Scheme == "ws" {
		out.URL.Scheme = "http"
	}
	if isUpgrade(r) {
		p.upgrade(w, out)
		return
	}
	out.Header.Del("Connection")
	resp, err := p.tr.RoundTrip(out)
	if err != nil {
		refusedOr(w, err)
		return
	}
	defer resp.Body.Close()
	for _, h := range hopHeaders {
		resp.Header.Del(h)
	}
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.WriteHeader(resp.StatusCode)
	flush(w, resp.Body)
}

// flush copies a body, flushing as it goes, so that a stream (server-sent events, a long
// poll) reaches the page as it arrives.
func flush(w http.ResponseWriter, body io.Reader) {
	f, _ := w.(http.Flusher)
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			if f != nil {
				f.Flush()
			}
		}
		if err != nil {
			return
		}
	}
}

func isUpgrade(r *http.Request) bool {
	for _, v := range r.Header.Values("Connection") {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), "upgrade") {
				return true
			}
		}
	}
	return false
}

// upgrade relays a request that asks to switch protocols over one checked connection.
func (p *Proxy) upgrade(w http.ResponseWriter, r *http.Request) {
	host := r.URL.Host
	if r.URL.Port() == "" {
		host = net.JoinHostPort(r.URL.Hostname(), "80")
	}
	up, err := p.dial(r.Context(), host)
	if err != nil {
		refusedOr(w, err)
		return
	}
	if err := r.Write(up); err != nil {
		_ = up.Close()
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		_ = up.Close()
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		_ = up.Close()
		return
	}
	splice(down, buf, up)
}

// refusedOr answers a failed connection: 403 with the reason when the policy refused it,
// 502 when the site could not be reached.
func refusedOr(w http.ResponseWriter, err error) {
	var refused *RefusedError
	if errors.As(err, &refused) {
		w.Header().Set(RefusedHeader, "1")
		http.Error(w, "refused by the worker's egress policy: "+refused.Reason, http.StatusForbidden)
		return
	}
	http.Error(w, err.Error(), http.StatusBadGateway)
}

func errOr(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}

// lookupTimeout bounds a host name's lookup.
const lookupTimeout = 5 * time.Second

// own is the set of this process's proxy listeners: a page may never reach one (another
// run's proxy would carry another run's policy).
var own = ownSet{m: map[netip.AddrPort]bool{}}

type ownSet struct {
	mu sync.Mutex
	m  map[netip.AddrPort]bool
}

func (o *ownSet) add(a netip.AddrPort) {
	o.mu.Lock()
	o.m[a] = true
	o.mu.Unlock()
}

func (o *ownSet) remove(a netip.AddrPort) {
	o.mu.Lock()
	delete(o.m, a)
	o.mu.Unlock()
}

// has reports an address and port that reach one of the listeners: the listener's own,
// or any loopback or unspecified address on its port.
func (o *ownSet) has(a netip.AddrPort) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m[a] {
		return true
	}
	if ad := a.Addr().Unmap(); ad.IsLoopback() || ad.IsUnspecified() {
		for l := range o.m {
			if l.Port() == a.Port() {
				return true
			}
		}
	}
	return false
}
