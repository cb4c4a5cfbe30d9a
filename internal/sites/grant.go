package sites

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
)

// InternalEnv is the variable in which a worker's operator grants its browsers internal
// addresses.
const InternalEnv = "WEBAGENT_INTERNAL_ADDRESSES"

// Internal is the internal addresses a worker's operator lets its browsers reach. A run
// may ask for internal addresses (its start URL is one, or it allows them), but it gets
// only what the worker grants: none by default, so that a run cannot make the browser
// read the cloud metadata service or another service on the worker's network.
type Internal struct {
	nets  []netip.Prefix
	hosts []string
	spec  []string
}

// The ranges a keyword grants.
var keywords = map[string][]netip.Prefix{
	"loopback":   {netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")},
	"private":    {netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("172.16.0.0/12"), netip.MustParsePrefix("192.168.0.0/16"), netip.MustParsePrefix("fc00::/7")},
	"link-local": {netip.MustParsePrefix("169.254.0.0/16"), netip.MustParsePrefix("fe80::/10")},
}

// ParseInternal reads a grant: a comma-separated list of "loopback", "private",
// "link-local" (which holds the cloud metadata address), address ranges
// ("10.1.0.0/16", "192.168.1.20/32"), and host names ("demoapp": that name may lead to an
// internal address). "" and "none" grant nothing.
func ParseInternal(spec string) (Internal, error) {
	var g Internal
	var errs []error
	for _, e := range strings.Split(spec, ",") {
		e = strings.ToLower(strings.TrimSpace(e))
		switch {
		case e == "" || e == "none":
			continue
		case keywords[e] != nil:
			g.nets = append(g.nets, keywords[e]...)
		case strings.Contains(e, "/"):
			p, err := netip.ParsePrefix(e)
			if err != nil {
				errs = append(errs, fmt.Errorf("%q is not an address range such as 10.1.0.0/16", e))
				continue
			}
			g.nets = append(g.nets, p.Masked())
		default:
			if a, err := netip.ParseAddr(strings.Trim(e, "[]")); err == nil {
				g.nets = append(g.nets, netip.PrefixFrom(a, a.BitLen()))
			} else if CheckDomain(e) == nil && !strings.ContainsAny(e, "[]") {
				g.hosts = append(g.hosts, e)
			} else {
				errs = append(errs, fmt.Errorf("%q is none of loopback, private, link-local, an address range or a host name", e))
				continue
			}
		}
		g.spec = append(g.spec, e)
	}
	if err := errors.Join(errs...); err != nil {
		return Internal{}, fmt.Errorf("%s: %w", InternalEnv, err)
	}
	return g, nil
}

// String is the grant as the operator wrote it, or "none".
func (g Internal) String() string {
	if len(g.spec) == 0 {
		return "none"
	}
	return strings.Join(g.spec, ",")
}

// Allows reports whether the grant holds host: an address, or a name it names.
func (g Internal) Allows(host string) bool { return g.host(strings.ToLower(host)) }

// addr reports whether the grant holds an internal address.
func (g Internal) addr(a netip.Addr) bool {
	a = a.Unmap()
	return slices.ContainsFunc(g.nets, func(p netip.Prefix) bool { return p.Contains(a) })
}

// host reports whether the grant holds a host: an address it holds, or a name it names
// (localhost is a loopback address).
func (g Internal) host(host string) bool {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return g.addr(a)
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return g.addr(netip.MustParseAddr("127.0.0.1"))
	}
	return slices.Contains(g.hosts, strings.TrimSuffix(host, "."))
}

// Granted is the policy capped by what the worker grants: internal addresses only as far
// as g holds them, whatever the run asked. A nil Policy (a run from before site
// policies) may go to any site, still only to the internal addresses g holds.
func (p *Policy) Granted(g Internal) *Policy {
	out := Policy{Private: true, any: true}
	if p != nil {
		out = *p
	}
	out.grant = &g
	return &out
}
