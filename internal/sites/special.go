package sites

import (
	"fmt"
	"net/netip"
)

// Special is a row of the special-purpose address table: a range that is not an address on
// the public internet, what it is called and why a browser must not wander into it.
type Special struct {
	Prefix netip.Prefix
	Name   string
	Why    string

	// embeds says where an IPv4 address sits in the row's IPv6 addresses, if anywhere: a
	// packet to such an address is carried to the IPv4 one (by a translator, a relay or the
	// host's own stack), so that is the address judged.
	embeds embedding
}

// String is the row as errors name it: "link-local, 169.254.0.0/16".
func (s Special) String() string {
	if !s.Prefix.IsValid() {
		return s.Name
	}
	return s.Name + ", " + s.Prefix.String()
}

// An embedding is a way an IPv6 address carries an IPv4 one.
type embedding uint8

const (
	embedsNone   embedding = iota
	embedsNAT64            // the last 32 bits, by way of a translator
	embedsCompat           // the last 32 bits, by way of the host's own tunnel (deprecated)
	embeds6to4             // bits 16 to 48
	embedsTeredo           // the last 32 bits inverted: the Teredo client's address
)

// public reports whether an address of this form is public when the IPv4 address it
// carries is: a NAT64 or 6to4 address of a public site is that site; the deprecated forms
// lead nowhere a site lives.
func (e embedding) public() bool { return e == embedsNAT64 || e == embeds6to4 }

// special is the table, from the IANA IPv4 and IPv6 Special-Purpose Address Registries
// (RFC 6890 and the RFCs each row names), with IPv4 multicast and the deprecated IPv6
// forms added: every range a page could use to reach something that is not a public web
// site — the worker itself, its network, its cloud's metadata service — or that no web
// site lives at. The most specific row that holds an address names it.
var special = []Special{
	{Prefix: pfx("0.0.0.0/8"), Name: "this network", Why: "RFC 791: 0.0.0.0 reaches the machine itself on most systems"},
	{Prefix: pfx("10.0.0.0/8"), Name: "private use", Why: "RFC 1918: a private network"},
	{Prefix: pfx("100.64.0.0/10"), Name: "shared address space", Why: "RFC 6598: carrier-grade NAT and overlay networks; a cloud metadata service answers at 100.100.100.200"},
	{Prefix: pfx("127.0.0.0/8"), Name: "loopback", Why: "RFC 1122: the machine itself"},
	{Prefix: pfx("169.254.0.0/16"), Name: "link-local", Why: "RFC 3927: the cloud metadata service (169.254.169.254) hands out the machine's credentials"},
	{Prefix: pfx("172.16.0.0/12"), Name: "private use", Why: "RFC 1918: a private network"},
	{Prefix: pfx("192.0.0.0/24"), Name: "IETF protocol assignments", Why: "RFC 6890: addresses of network protocols, not of sites"},
	{Prefix: pfx("192.0.2.0/24"), Name: "documentation (TEST-NET-1)", Why: "RFC 5737: for examples only"},
	{Prefix: pfx("192.31.196.0/24"), Name: "AS112", Why: "RFC 7535: a sink for reverse lookups of private addresses"},
	{Prefix: pfx("192.52.193.0/24"), Name: "AMT", Why: "RFC 7450: multicast tunnel relays"},
	{Prefix: pfx("192.88.99.0/24"), Name: "6to4 relay anycast (deprecated)", Why: "RFC 7526: tunnel relays, not sites"},
	{Prefix: pfx("192.168.0.0/16"), Name: "private use", Why: "RFC 1918: a private network"},
	{Prefix: pfx("192.175.48.0/24"), Name: "AS112 direct delegation", Why: "RFC 7534: a sink for reverse lookups of private addresses"},
	{Prefix: pfx("198.18.0.0/15"), Name: "benchmarking", Why: "RFC 2544: test networks; some proxies hand these out for every name"},
	{Prefix: pfx("198.51.100.0/24"), Name: "documentation (TEST-NET-2)", Why: "RFC 5737: for examples only"},
	{Prefix: pfx("203.0.113.0/24"), Name: "documentation (TEST-NET-3)", Why: "RFC 5737: for examples only"},
	{Prefix: pfx("224.0.0.0/4"), Name: "multicast", Why: "RFC 5771: groups on the local network, not sites"},
	{Prefix: pfx("240.0.0.0/4"), Name: "reserved", Why: "RFC 1112: never assigned"},
	{Prefix: pfx("255.255.255.255/32"), Name: "limited broadcast", Why: "RFC 919: every machine on the local network"},

	{Prefix: pfx("::/128"), Name: "unspecified", Why: "RFC 4291: reaches the machine itself on most systems"},
	{Prefix: pfx("::1/128"), Name: "loopback", Why: "RFC 4291: the machine itself"},
	{Prefix: pfx("::/96"), Name: "IPv4-compatible (deprecated)", Why: "RFC 4291: the IPv4 address in its last 32 bits", embeds: embedsCompat},
	{Prefix: pfx("::ffff:0:0/96"), Name: "IPv4-mapped", Why: "RFC 4291: the IPv4 address in its last 32 bits, judged as that address"},
	{Prefix: pfx("64:ff9b::/96"), Name: "IPv4-IPv6 translation", Why: "RFC 6052: a NAT64 gateway carries it to the IPv4 address in its last 32 bits", embeds: embedsNAT64},
	{Prefix: pfx("64:ff9b:1::/48"), Name: "IPv4-IPv6 translation (local use)", Why: "RFC 8215: a local NAT64 whose layout only its network knows"},
	{Prefix: pfx("100::/64"), Name: "discard only", Why: "RFC 6666: a sink for unwanted traffic"},
	{Prefix: pfx("2001::/23"), Name: "IETF protocol assignments", Why: "RFC 2928: addresses of network protocols, not of sites"},
	{Prefix: pfx("2001::/32"), Name: "Teredo", Why: "RFC 4380: a tunnel to the IPv4 client whose address is in the last 32 bits, inverted", embeds: embedsTeredo},
	{Prefix: pfx("2001:2::/48"), Name: "benchmarking", Why: "RFC 5180: test networks"},
	{Prefix: pfx("2001:db8::/32"), Name: "documentation", Why: "RFC 3849: for examples only"},
	{Prefix: pfx("2002::/16"), Name: "6to4", Why: "RFC 3056: a tunnel to the IPv4 address in bits 16 to 48", embeds: embeds6to4},
	{Prefix: pfx("2620:4f:8000::/48"), Name: "AS112 direct delegation", Why: "RFC 7534: a sink for reverse lookups of private addresses"},
	{Prefix: pfx("3fff::/20"), Name: "documentation", Why: "RFC 9637: for examples only"},
	{Prefix: pfx("5f00::/16"), Name: "segment routing (SRv6) SIDs", Why: "RFC 9602: routing instructions, not hosts"},
	{Prefix: pfx("fc00::/7"), Name: "unique local", Why: "RFC 4193: a private network"},
	{Prefix: pfx("fe80::/10"), Name: "link-local", Why: "RFC 4291: the local network segment"},
	{Prefix: pfx("fec0::/10"), Name: "site-local (deprecated)", Why: "RFC 3879: a private network of old"},
	{Prefix: pfx("ff00::/8"), Name: "multicast", Why: "RFC 4291: groups, not sites"},
}

// unassigned6 names an IPv6 address no row holds outside 2000::/3, the only space handed out
// for public addresses (the IANA IPv6 Address Space registry): the rest is reserved.
var unassigned6 = Special{Prefix: pfx("2000::/3"), Name: "outside the global unicast space", Why: "RFC 4291: reserved, never handed out"}

func pfx(s string) netip.Prefix { return netip.MustParsePrefix(s) }

// NonPublic reports whether a is not an address on the public internet, and the row of the
// special-purpose table that says so. An IPv4-mapped address is its IPv4 address; an IPv6
// address that carries an IPv4 one (IPv4-compatible, NAT64's well-known prefix, 6to4,
// Teredo) is judged by the IPv4 address it leads to, so that 64:ff9b::a9fe:a9fe is the
// link-local 169.254.169.254. A 6to4 or NAT64 address of a public IPv4 address is public;
// a Teredo or IPv4-compatible one is not, whatever it carries. An invalid address is not
// public: nothing can be reached there.
func NonPublic(a netip.Addr) (Special, bool) {
	row, _, ok := judge(a)
	return row, ok
}

// judge is NonPublic with the row of the IPv6 form a carried an IPv4 address in (zero when
// it carried none or the IPv4 address is public).
func judge(a netip.Addr) (row, via Special, ok bool) {
	if !a.IsValid() {
		return Special{Name: "no address"}, Special{}, true
	}
	a = a.WithZone("").Unmap()
	row, ok = match(a)
	if !ok || row.embeds == embedsNone {
		return row, Special{}, ok
	}
	v4, _ := carried(a, row.embeds)
	if inner, np := match(v4); np {
		return inner, row, true
	}
	if row.embeds.public() {
		return Special{}, Special{}, false
	}
	return row, Special{}, true
}

// describe names why a is not public: its row, and the IPv6 form it came in.
func describe(a netip.Addr) string {
	row, via, _ := judge(a)
	if via.Name == "" {
		return row.String()
	}
	return fmt.Sprintf("%s, inside %s %s", row, via.Name, via.Prefix)
}

// match is the most specific row that holds a.
func match(a netip.Addr) (Special, bool) {
	var best Special
	for _, s := range special {
		if s.Prefix.Contains(a) && (best.Name == "" || s.Prefix.Bits() > best.Prefix.Bits()) {
			best = s
		}
	}
	if best.Name == "" && a.Is6() && !unassigned6.Prefix.Contains(a) {
		return unassigned6, true
	}
	return best, best.Name != ""
}

// embedded is the IPv4 address an IPv6 address carries, when the table says it carries one;
// a grant holds such an address only if it holds that IPv4 address too. An IPv4-mapped
// address is not embedded: it is the IPv4 address (Unmap it first).
func embedded(a netip.Addr) (netip.Addr, bool) {
	row, ok := match(a.WithZone(""))
	if !ok {
		return netip.Addr{}, false
	}
	return carried(a, row.embeds)
}

// carried reads the IPv4 address out of a by way of e.
func carried(a netip.Addr, e embedding) (netip.Addr, bool) {
	b := a.As16()
	switch e {
	case embedsNAT64, embedsCompat:
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case embeds6to4:
		return netip.AddrFrom4([4]byte(b[2:6])), true
	case embedsTeredo:
		return netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}), true
	}
	return netip.Addr{}, false
}
