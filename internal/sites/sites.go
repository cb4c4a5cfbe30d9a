// Package sites decides where a run's browser may go: http and https only, to the run's
// allowed domains (by default the start URL's site) and their subdomains, and to internal
// addresses — loopback, link-local, private ranges — only when the start URL is one or the
// run allows them, and then only to those the worker's operator grants (Internal). A
// NAVIGATE outside them is refused; a link, redirect or popup that leads outside is
// blocked in the browser and reported.
package sites

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"

	"github.com/webagent-dev/webagent/internal/textcut"
)

// Policy is where a run's browser may go.
type Policy struct {
	Domains []string `json:"domains,omitempty"`
	// Private allows internal addresses (loopback, link-local, private ranges): the run's
	// ask, which the worker's grant caps.
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

// Check reports why the browser may not go to raw, or nil.
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
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return fmt.Errorf("%s has no host", clip(raw))
	}
	if internal(host) {
		if err := p.checkInternal(raw, host, ""); err != nil {
			return err
		}
	}
	if p.any {
		return nil
	}
	for _, d := range p.Domains {
		if host == d || strings.HasSuffix(host, "."+d) {
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
	return p.checkLeads(ctx, raw, strings.ToLower(u.Hostname()), lookup)
}

// CheckReach says why the page may not fetch raw — an image, a script, an XHR, not a
// navigation — or nil. Such requests may go to any site (a CDN), but to internal addresses
// only as navigations may: whatever a page's script asks, the browser reaches only the
// internal addresses the run asked for and the worker grants. Other schemes (data:, blob:)
// never leave the browser.
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
	host := strings.ToLower(u.Hostname())
	if internal(host) {
		return p.checkInternal(raw, host, "")
	}
	return p.checkLeads(ctx, raw, host, lookup)
}

// checkLeads looks up where the host of raw leads and refuses an internal address the
// run or the worker does not allow. There is nothing to look up for an address or
// localhost (checked as they are), nor for a name the run may reach wherever it leads:
// the run allows internal addresses and the worker grants all of them, or names the host.
// A lookup that fails refuses nothing: the browser's own lookup fails the same way.
func (p Policy) checkLeads(ctx context.Context, raw, host string, lookup Resolver) error {
	if _, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil || internal(host) {
		return nil
	}
	if p.Private && (p.grant == nil || p.grant.host(host)) {
		return nil
	}
	addrs, err := lookup(ctx, host)
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if ip := a.Unmap().String(); internal(ip) {
			if err := p.checkInternal(raw, ip, host); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkInternal says why the browser may not reach the internal address (or localhost)
// host, which raw leads to (through name, when it was looked up).
func (p Policy) checkInternal(raw, host, name string) error {
	what := clip(raw) + " is an internal address (loopback, link-local or private)"
	if name != "" {
		what = fmt.Sprintf("%s resolves to %s, an internal address (loopback, link-local or private)", clip(raw), host)
	}
	if !p.Private {
		return fmt.Errorf("%s; this run does not allow them", what)
	}
	if p.grant != nil && !p.grant.host(host) {
		return fmt.Errorf("%s that this worker does not grant (its operator grants them in %s: %s)", what, InternalEnv, p.grant)
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

// internal reports a host that is an internal address: loopback, link-local (the cloud
// metadata address among them), private or unspecified, or "localhost".
func internal(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && (ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsPrivate() || ip.IsUnspecified())
}

func clip(s string) string { return textcut.Cut(s, 120, "…") }
