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
	"context"
	"errors"
	"fmt"
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
		DialContext:           p.dial,
		ForceAttemptHTTP2:     false, // the browser speaks HTTP/1.1 to a proxy for http: URLs
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: 0, // a long poll is the page's business; the browser bounds it
		DisableCompression:    true,
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
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
// allows — that very address, never a name looked up again. It is the Transport's
// dialer too (network is always "tcp").
func (p *Proxy) dial(ctx context.Context, _, hostport string) (net.Conn, error) {
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

func errOr(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}

// lookupTimeout bounds a host name's lookup.
const lookupTimeout = 5 * time.Second
