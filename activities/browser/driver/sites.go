package driver

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/internal/egress"
	"github.com/webagent-dev/webagent/internal/sites"
)

// BlockedError is a navigation the run's site policy does not allow.
type BlockedError struct{ Reason string }

func (e *BlockedError) Error() string { return "blocked: " + e.Reason }

// siteGuard is the run's site policy, and what it kept the page from since the last step
// took them.
//
// The boundary is the context's egress proxy (internal/egress): every byte the browser
// sends crosses it, each redirect hop, subresource, frame, popup and socket, and it dials
// only an address it checked against the run's policy and the worker's grant. What only
// the browser sees is checked here: a navigation's whole address against the run's sites
// (answered "204 No Content", so the page stays where it was), and the address a frame
// commits to, which a redirect may have changed after the first request was checked.
type siteGuard struct {
	policy  *sites.Policy
	resolve egress.Resolver
	blocked notes
	// refused are the connections the proxy refused since the last step took them, each
	// reason once.
	refused notes
	mu      sync.Mutex
	said    map[string]bool
}

// check says whether the page may go to the absolute address u.
func (g *siteGuard) check(ctx context.Context, u string) error {
	if g.policy == nil {
		return nil
	}
	if err := g.policy.CheckResolved(ctx, u, sites.Resolver(g.resolve)); err != nil {
		return &BlockedError{Reason: err.Error()}
	}
	return nil
}

// outside says why the page's current address u is not one of the run's sites, or nil:
// a page that landed there (a redirect, a script) ends the step. "" when it is one.
func (g *siteGuard) outside(u string) string {
	if g.policy == nil || !strings.HasPrefix(u, "http") {
		return ""
	}
	if err := g.policy.Check(u); err != nil {
		return "the page went to " + err.Error()
	}
	return ""
}

// committed notes a frame that committed to an address it may not be at — the page
// outside the run's sites, a frame on an internal address or port the run may not reach
// (the proxy refused what it asked for; the frame shows the refusal) — so that, whatever
// the step then says, the history shows where it went. It runs on the driver's event
// goroutine and only reads the frame's own fields.
func (g *siteGuard) committed(f playwright.Frame) {
	if f.ParentFrame() == nil {
		if reason := g.outside(f.URL()); reason != "" {
			g.blocked.add(reason)
		}
		return
	}
	if g.policy == nil || !strings.HasPrefix(f.URL(), "http") {
		return
	}
	if err := g.policy.CheckReach(context.Background(), f.URL(), noLookup); err != nil {
		g.blocked.add("a frame went to " + err.Error())
	}
}

// noLookup looks nothing up: an address in a frame's URL is judged as it is, and a name
// was looked up by the proxy, once, for the connection.
func noLookup(context.Context, string) ([]netip.Addr, error) { return nil, errNoLookup }

var errNoLookup = errors.New("not looked up")

// refusedConn notes a connection the proxy refused, once per reason.
func (g *siteGuard) refusedConn(reason string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.said == nil {
		g.said = map[string]bool{}
	}
	if g.said[reason] || len(g.said) > 50 {
		return
	}
	g.said[reason] = true
	g.refused.add(reason)
}

// install sets the run's policy on the context's proxy and routes the context's
// navigations past the run's sites: a navigation of any frame — a link, a form, a script,
// a popup — to an address the policy refuses is answered "204 No Content" in the browser,
// so the page stays where it was, and remembered for the step to report. Other requests
// are the proxy's to judge.
func (g *siteGuard) install(bctx playwright.BrowserContext, px *egress.Proxy, p *sites.Policy, resolve egress.Resolver) error {
	g.policy, g.resolve = p, resolve
	px.SetCheck(p.CheckDial, g.refusedConn)
	return bctx.Route("**/*", func(r playwright.Route) {
		req := r.Request()
		if !req.IsNavigationRequest() {
			_ = r.Continue()
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
		err := p.CheckResolved(ctx, req.URL(), sites.Resolver(resolve))
		cancel()
		if err != nil {
			g.blocked.add(err.Error())
			// "No Content": the browser stays on the page it was on, where an abort
			// would show its own error page.
			_ = r.Fulfill(playwright.RouteFulfillOptions{Status: playwright.Int(204)})
			return
		}
		_ = r.Continue()
	})
}

// lookupTimeout bounds the look at where a host name leads before the page may go there.
const lookupTimeout = 2 * time.Second

// lookup resolves a host name with the system's resolver, as the browser does.
func lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}
