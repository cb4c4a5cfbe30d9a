// Package sites decides where a run's browser may go: http and https only, to the run's
// allowed domains (by default the start URL's site) and their subdomains, and to internal
// addresses — any address that is not public: loopback, link-local (the cloud metadata
// service), private and shared ranges, and the rest of the IANA special-purpose registries
// (NonPublic), also when an IPv6 address carries one of them — only when the start URL is
// one or the run allows them, and then only to those the worker's operator grants
// (Internal), on the ports it grants. A grant entry without ports grants every port, as a
// firewall rule without a port would; operators should name the ports. A NAVIGATE outside
// them is refused; a link, redirect or popup that leads outside is blocked in the browser
// and reported; the worker's egress proxy checks every connection (CheckDial).
package sites

import (
	"context"
	"fmt"
	"net/netip"
	"net/url"
	"strings"

	"github.com/webagent-dev/webagent/internal/textcut"
)

// Policy is where a run's browser may go.
type Policy struct {
	Domains []string `json:"domains,omitempty"`
	// Private allows internal addresses (any address that is not public, NonPublic): the
	// run's ask, which the worker's grant caps.
	Private bool `json:"private,omitempty"`

	// grant, set by the worker (Granted), is the internal addresses it lets its browsers
	// reach; nil where the run's ask alone is checked (the workflow's own checks).
	grant *Internal
	// any allows every site (a run from before site policies); internal addresses still
	// only as far as grant holds them.
	any bool
}

// For is the policy of a run that starts at start: its site, the extra domains, and
// internal addresses when the start URL is one or allowPrivate is set.
func For(start string, extra []string, allowPrivate bool) Policy {
	p := Policy{Private: allowPrivate}
	if u, err := url.Parse(start); err == nil && u.Hostname() != "" {
		host := strings.ToLower(u.Hostname())
		if h, _, err := hostOf(u); err == nil {
			host = h
		}
		p.Domains = append(p.Domains, site(host))
		if internal(host) {
			p.Private = true
		}
	}
	for _, d := range extra {
		if d = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(d), ".")); d != "" {
			p.Domains = append(p.Domains, d)
		}
	}
	return p
}

// CheckDomain says what is wrong with an allowed-domain entry.
func CheckDomain(d string) error {
	d = strings.TrimPrefix(strings.TrimSpace(d), ".")
	if d == "" || strings.ContainsAny(d, "/:@ *") {
		return fmt.Errorf("allowed domain %q: write a host name such as example.com (it allows its subdomains too)", d)
	}
	return nil
}

// Check reports why the browser may not go to raw, or nil. An internal address is
// checked on the URL's port (80 or 443 when it names none): a run granted 127.0.0.1:8090
// may not open http://127.0.0.1:8233/.
func (p Policy) Check(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%q is not an address", raw)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return fmt.Errorf("%s: only http and https addresses may be opened", clip(raw))
	}
	t, err := targetOf(u)
	if err != nil {
		return fmt.Errorf("%s: %w", clip(raw), err)
	}
	if t.internal() {
		if err := p.checkInternal(raw, t.dialed(), "", t.port); err != nil {
			return err
		}
	}
	if p.any {
		return nil
	}
	for _, d := range p.Domains {
		if t.host == d || strings.HasSuffix(t.host, "."+d) {
			return nil
		}
	}
	return fmt.Errorf("%s is not one of this run's allowed sites (%s)", clip(raw), strings.Join(p.Domains, ", "))
}

// Resolver looks up the addresses of a host name.
type Resolver func(ctx context.Context, host string) ([]netip.Addr, error)

// CheckResolved is Check and then a look at where a host name leads: a name that resolves
// to an internal address (a public name pointed at the cloud metadata address or at the
// local network) is refused like the address.
func (p Policy) CheckResolved(ctx context.Context, raw string, lookup Resolver) error {
	if err := p.Check(raw); err != nil {
		return err
	}
	u, _ := url.Parse(raw)
	t, _ := targetOf(u)
	return p.checkLeads(ctx, raw, t, lookup)
}

// CheckReach says why the page may not fetch raw — an image, a script, an XHR, a
// WebSocket, not a navigation — or nil. Such requests may go to any site (a CDN), but to
// internal addresses only as navigations may: whatever a page's script asks, the browser
// reaches only the internal addresses (and ports) the run asked for and the worker grants.
// Other schemes (data:, blob:) never leave the browser.
func (p Policy) CheckReach(ctx context.Context, raw string, lookup Resolver) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%q is not an address", clip(raw))
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ws", "wss":
	default:
		return nil
	}
	t, err := targetOf(u)
	if err != nil {
		return fmt.Errorf("%s: %w", clip(raw), err)
	}
	if t.internal() {
		return p.checkInternal(raw, t.dialed(), "", t.port)
	}
	return p.checkLeads(ctx, raw, t, lookup)
}

// checkLeads looks up where the host of raw leads and refuses an internal address the
// run or the worker does not allow on the URL's port. There is nothing to look up for an
// address or localhost (checked as they are), nor for a name the run may reach wherever it
// leads: the run allows internal addresses and the worker grants all of them, or names the
// host on that port. A lookup that fails refuses nothing: the browser's own lookup fails
// the same way.
func (p Policy) checkLeads(ctx context.Context, raw string, t target, lookup Resolver) error {
	if t.addr.IsValid() || localhost(t.host) {
		return nil
	}
	if p.Private && (p.grant == nil || p.grant.name(t.host, int(t.port))) {
		return nil
	}
	addrs, err := lookup(ctx, t.host)
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if _, np := NonPublic(a); np {
			if err := p.checkInternal(raw, a, t.host, t.port); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkInternal says why the browser may not reach the internal address a on port, where
// raw leads (through name, when it was looked up).
func (p Policy) checkInternal(raw string, a netip.Addr, name string, port uint16) error {
	what := fmt.Sprintf("%s is an internal address (%s)", clip(raw), describe(a))
	if name != "" {
		what = fmt.Sprintf("%s resolves to %s, an internal address (%s)", clip(raw), a.WithZone("").Unmap(), describe(a))
	}
	if !p.Private {
		return fmt.Errorf("%s; this run does not allow them", what)
	}
	if p.grant != nil && !p.grant.addr(a, int(port)) {
		return fmt.Errorf("%s that this worker does not grant on port %d (its operator grants them in %s: %s)", what, port, InternalEnv, p.grant)
	}
	return nil
}

// site is the part of a host that names its site: an address as it is, and a name
// without a leading "www.".
func site(host string) string {
	if _, err := netip.ParseAddr(host); err == nil {
		return host
	}
	return strings.TrimPrefix(host, "www.")
}

func clip(s string) string { return textcut.Cut(s, 120, "…") }
