package sites

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
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
	entries []entry
}

// entry is one comma-separated entry of a grant: ranges or a host name, on ports.
type entry struct {
	spec  string         // as the operator wrote it
	nets  []netip.Prefix // the addresses it holds
	host  string         // or the host name it names
	ports []portRange    // nil: every port
}

// portRange is the ports lo to hi, both held.
type portRange struct{ lo, hi uint16 }

// The ranges a keyword grants. "private" is the private networks of RFC 1918 and RFC 4193
// only: the shared address space is a keyword of its own, since a cloud's metadata service
// may answer there.
var keywords = map[string][]netip.Prefix{
	"loopback":   {pfx("127.0.0.0/8"), pfx("::1/128")},
	"private":    {pfx("10.0.0.0/8"), pfx("172.16.0.0/12"), pfx("192.168.0.0/16"), pfx("fc00::/7")},
	"shared":     {pfx("100.64.0.0/10")},
	"link-local": {pfx("169.254.0.0/16"), pfx("fe80::/10")},
	// localhost is what the name means to the browser, which never looks it up.
	"localhost": {pfx("127.0.0.1/32"), pfx("::1/128")},
}

// ParseInternal reads a grant: a comma-separated list of entries, each one of
//
//   - a keyword: "loopback", "private" (10/8, 172.16/12, 192.168/16, fc00::/7), "shared"
//     (100.64.0.0/10: carrier-grade NAT, overlay networks, a cloud metadata service),
//     "link-local" (which holds the cloud metadata address 169.254.169.254) or "localhost";
//   - an address range ("10.1.0.0/16", "fd00::/8") or an address ("192.168.1.20", "::1",
//     "[::1]");
//   - a host name ("demoapp": that name may lead to an internal address, wherever it leads);
//
// each optionally followed by ":PORTS", where PORTS is a port ("8090"), a range of them
// ("8000-8099") or several joined by "+" ("8090+9000-9010"; a comma separates entries):
// "127.0.0.1:8090", "loopback:8090+8091", "10.0.0.0/8:443", "demoapp:8090", "[::1]:8090".
// An IPv6 address takes ports only in brackets ("::1:8090" is an address). An entry without
// ports grants every port, what operators expect from a firewall rule without a port; name
// the ports, so that a run granted an application cannot also reach the database beside it.
// "" and "none" grant nothing.
func ParseInternal(spec string) (Internal, error) {
	var g Internal
	var errs []error
	for _, e := range strings.Split(spec, ",") {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" || e == "none" {
			continue
		}
		en, err := parseEntry(e)
		if err != nil {
			errs = append(errs, fmt.Errorf("%q: %w", e, err))
			continue
		}
		g.entries = append(g.entries, en)
	}
	if err := errors.Join(errs...); err != nil {
		return Internal{}, fmt.Errorf("%s: %w", InternalEnv, err)
	}
	return g, nil
}

// parseEntry reads one entry of a grant.
func parseEntry(e string) (entry, error) {
	en := entry{spec: e}
	target, bits, ports, err := splitEntry(e)
	if err != nil {
		return en, err
	}
	if ports != "" {
		if en.ports, err = parsePorts(ports); err != nil {
			return en, err
		}
	}
	switch {
	case bits != "":
		p, err := netip.ParsePrefix(target + "/" + bits)
		if err != nil || p.Addr().Zone() != "" {
			return en, errors.New("not an address range such as 10.1.0.0/16")
		}
		en.nets = []netip.Prefix{unmapPrefix(p.Masked())}
	case keywords[target] != nil:
		en.nets = keywords[target]
	default:
		if a, err := netip.ParseAddr(target); err == nil {
			a = a.WithZone("").Unmap()
			en.nets = []netip.Prefix{netip.PrefixFrom(a, a.BitLen())}
		} else if name := strings.TrimSuffix(target, "."); CheckDomain(name) == nil && !strings.ContainsAny(name, "[]") {
			en.host = name
		} else {
			return en, errors.New("none of loopback, private, shared, link-local, an address range, an address or a host name")
		}
	}
	return en, nil
}

// splitEntry takes an entry apart: the address, keyword or name; the bits of a range; the
// ports. A bare IPv6 address is an address as a whole: its ports go after brackets.
func splitEntry(e string) (target, bits, ports string, err error) {
	rest := ""
	switch {
	case strings.HasPrefix(e, "["):
		end := strings.Index(e, "]")
		if end < 0 {
			return "", "", "", errors.New("a [ without its ]")
		}
		target, rest = e[1:end], e[end+1:]
		if _, err := netip.ParseAddr(target); err != nil || !strings.Contains(target, ":") {
			return "", "", "", errors.New("brackets hold an IPv6 address, as [::1]:8090")
		}
	case strings.Contains(e, "/"):
		i := strings.LastIndex(e, "/")
		target, rest = e[:i], e[i:]
	default:
		if _, err := netip.ParseAddr(e); err == nil {
			return e, "", "", nil
		}
		target = e
		if i := strings.LastIndex(e, ":"); i >= 0 {
			target, rest = e[:i], e[i:]
		}
		if _, err := netip.ParseAddr(target); err == nil && strings.Contains(target, ":") {
			return "", "", "", errors.New("write an IPv6 address with ports in brackets, as [::1]:8090")
		} else if strings.Contains(target, ":") {
			return "", "", "", errors.New("one colon, before the ports, as demoapp:8090")
		}
	}
	if strings.HasPrefix(rest, "/") {
		bits, rest = rest[1:], ""
		if i := strings.Index(bits, ":"); i >= 0 {
			bits, rest = bits[:i], bits[i:]
		}
		if bits == "" {
			return "", "", "", errors.New("not an address range such as 10.1.0.0/16")
		}
	}
	switch {
	case rest == "":
	case strings.HasPrefix(rest, ":"):
		if ports = rest[1:]; ports == "" {
			return "", "", "", errors.New("no port after the colon")
		}
	default:
		return "", "", "", fmt.Errorf("%q after the address: write ports as :8090", rest)
	}
	return target, bits, ports, nil
}

// parsePorts reads "8090", "8000-8099" or several joined by "+".
func parsePorts(s string) ([]portRange, error) {
	var out []portRange
	for _, part := range strings.Split(s, "+") {
		lo, hi, isRange := strings.Cut(part, "-")
		if !isRange {
			hi = lo
		}
		a, err := parsePort(lo)
		if err != nil {
			return nil, err
		}
		b, err := parsePort(hi)
		if err != nil {
			return nil, err
		}
		if a > b {
			return nil, fmt.Errorf("ports %q run backwards: write %d-%d", part, b, a)
		}
		out = append(out, portRange{a, b})
	}
	return out, nil
}

func parsePort(s string) (uint16, error) {
	n, err := strconv.ParseUint(s, 10, 16)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%q is not a port (1 to 65535; several joined by +, a range as 8000-8099)", s)
	}
	return uint16(n), nil
}

// unmapPrefix is an IPv4-mapped range as the IPv4 range it is, the form addresses are
// judged in.
func unmapPrefix(p netip.Prefix) netip.Prefix {
	if p.Addr().Is4In6() && p.Bits() >= 96 {
		return netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
	}
	return p
}

// String is the grant as the operator wrote it, ports and all, or "none".
func (g Internal) String() string {
	if len(g.entries) == 0 {
		return "none"
	}
	specs := make([]string, len(g.entries))
	for i, e := range g.entries {
		specs[i] = e.spec
	}
	return strings.Join(specs, ",")
}

// anyPort stands for "on some port" where a port is asked.
const anyPort = -1

// Allows reports whether the grant holds host on some port: an address, or a name it
// names.
func (g Internal) Allows(host string) bool { return g.hostPort(strings.ToLower(host), anyPort) }

// AllowsAddrPort reports whether one entry of the grant holds both a and port. An
// IPv4-mapped address is its IPv4 address; an IPv6 address that carries a non-public IPv4
// one (NAT64, 6to4, Teredo, IPv4-compatible) must be held itself and its IPv4 address too,
// on that port: granting 127.0.0.1 does not grant a translator's way there.
func (g Internal) AllowsAddrPort(a netip.Addr, port uint16) bool { return g.addr(a, int(port)) }

// AllowsHostPort reports whether the grant holds host on port: an address it holds, a host
// name one of its entries names with that port, or localhost as 127.0.0.1.
func (g Internal) AllowsHostPort(host string, port uint16) bool {
	return g.hostPort(strings.ToLower(host), int(port))
}

// addr is AllowsAddrPort, or on some port when port is anyPort.
func (g Internal) addr(a netip.Addr, port int) bool {
	a = a.WithZone("").Unmap()
	if !g.holds(a, port) {
		return false
	}
	if v4, ok := embedded(a); ok {
		if _, np := NonPublic(v4); np && !g.holds(v4, port) {
			return false
		}
	}
	return true
}

// holds reports whether one entry holds a on port.
func (g Internal) holds(a netip.Addr, port int) bool {
	return slices.ContainsFunc(g.entries, func(e entry) bool {
		return e.port(port) && slices.ContainsFunc(e.nets, func(p netip.Prefix) bool { return p.Contains(a) })
	})
}

// hostPort reports whether the grant holds host (lower case) on port: an address it holds,
// a name it names, or localhost, which is a loopback address.
func (g Internal) hostPort(host string, port int) bool {
	if a, ok := hostAddr(host); ok {
		return g.addr(a, port)
	}
	if localhost(host) {
		return g.addr(netip.AddrFrom4([4]byte{127, 0, 0, 1}), port)
	}
	return g.name(host, port)
}

// name reports whether an entry names the host name host on port.
func (g Internal) name(host string, port int) bool {
	host = strings.TrimSuffix(host, ".")
	return slices.ContainsFunc(g.entries, func(e entry) bool { return e.host != "" && e.host == host && e.port(port) })
}

// port reports whether the entry holds port.
func (e entry) port(port int) bool {
	if e.ports == nil || port == anyPort {
		return true
	}
	return slices.ContainsFunc(e.ports, func(r portRange) bool { return int(r.lo) <= port && port <= int(r.hi) })
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
