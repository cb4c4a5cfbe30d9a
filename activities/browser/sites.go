package browser

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/internal/sites"
)

// BlockedError is a navigation the run's site policy does not allow.
type BlockedError struct{ Reason string }

func (e *BlockedError) Error() string { return "blocked: " + e.Reason }

// siteGuard is the run's site policy, and the navigations it kept the page from since the
// last step took them.
type siteGuard struct {
	policy  *sites.Policy
	blocked notes
}

// check says whether the page may go to the absolute address u.
func (g *siteGuard) check(ctx context.Context, u string) error {
	if g.policy == nil {
		return nil
	}
	if err := g.policy.CheckResolved(ctx, u, lookup); err != nil {
		return &BlockedError{Reason: err.Error()}
	}
	return nil
}

// install keeps the page on the run's sites: a navigation of any frame — a link, a form, a
// redirect, a script, a popup — to an address the policy refuses is answered "204 No
// Content" in the browser, so the page stays where it was, and remembered, for the step
// to report. A host name is looked up first: one that leads to an internal address is
// refused like the address (a resolver that answers the browser differently a moment
// later is not caught: pin names with a filtering proxy for sites you do not trust).
// Other requests (images, scripts, styles from a CDN, a script's fetch) may go to any
// site, but not to an internal address the run did not ask for or the worker does not
// grant: a page cannot make the browser reach into the worker's network. WebSockets are
// not routed (a filtering proxy is the answer there too).
func (g *siteGuard) install(bctx playwright.BrowserContext, p *sites.Policy) error {
	g.policy = p
	var mu sync.Mutex
	reach := map[string]error{} // a host's verdict for requests that are not navigations
	return bctx.Route("**/*", func(r playwright.Route) {
		req := r.Request()
		if !req.IsNavigationRequest() {
			host := hostOf(req.URL())
			mu.Lock()
			err, seen := reach[host]
			mu.Unlock()
			if !seen {
				ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
				err = p.CheckReach(ctx, req.URL(), lookup)
				cancel()
				mu.Lock()
				reach[host] = err
				mu.Unlock()
			}
			if err != nil {
				_ = r.Abort("blockedbyclient")
				return
			}
			_ = r.Continue()
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
		err := p.CheckResolved(ctx, req.URL(), lookup)
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

// hostOf is the scheme and host of an address, the key of a verdict on reaching it.
func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Scheme + "://" + u.Host
	}
	return raw
}

// lookupTimeout bounds the look at where a host name leads before the page may go there.
const lookupTimeout = 2 * time.Second

// lookup resolves a host name with the system's resolver, as the browser does.
func lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}
