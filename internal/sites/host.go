package sites

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// target is where a URL leads, as the browser reads it.
type target struct {
	host string     // lower case; an address in its canonical form
	addr netip.Addr // the host's address, when it is one
	port uint16     // the URL's port, or its scheme's
}

// targetOf is where u leads, or why it leads nowhere the browser would go.
func targetOf(u *url.URL) (target, error) {
	host, a, err := hostOf(u)
	if err != nil {
		return target{}, err
	}
	port, err := urlPort(u)
	if err != nil {
		return target{}, err
	}
	return target{host: host, addr: a, port: port}, nil
}

// internal reports a target on an address that is not public, or on localhost.
func (t target) internal() bool {
	if localhost(t.host) {
		return true
	}
	_, np := NonPublic(t.addr)
	return t.addr.IsValid() && np
}

// dialed is the address the browser connects to for the target: its own, or loopback for
// localhost (which the browser never looks up).
func (t target) dialed() netip.Addr {
	if localhost(t.host) {
		return netip.AddrFrom4([4]byte{127, 0, 0, 1})
	}
	return t.addr
}

// hostOf is u's host as the browser reads it: lower case, and an address in its canonical
// form, for the browser reads "2130706433", "0x7f.1" and "127.1" as 127.0.0.1 where a
// resolver would call them names. A host that reads as a number and is none (0x7f.256.1)
// is refused, as the browser refuses it.
func hostOf(u *url.URL) (string, netip.Addr, error) {
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return "", netip.Addr{}, errors.New("no host")
	}
	a, ok, err := parseHost(host)
	switch {
	case err != nil:
		return "", netip.Addr{}, err
	case ok:
		return a.String(), a, nil
	}
	return host, netip.Addr{}, nil
}

// hostAddr is the address a host stands for, when it is one.
func hostAddr(host string) (netip.Addr, bool) {
	a, ok, _ := parseHost(host)
	return a, ok
}

// parseHost reads host as an address: IPv6 (with or without brackets) or IPv4 in any form
// the URL standard reads (decimal, octal, hex, fewer than four parts).
func parseHost(host string) (netip.Addr, bool, error) {
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")); err == nil {
		return a, true, nil
	}
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if _, ok := ipv4Number(last); last == "" || (strings.Trim(last, "0123456789") != "" && !ok) {
		return netip.Addr{}, false, nil // a name
	}
	bad := fmt.Errorf("%q reads as an IPv4 address and is none", host)
	if len(parts) > 4 {
		return netip.Addr{}, false, bad
	}
	var v uint64
	for i, p := range parts {
		n, ok := ipv4Number(p)
		switch {
		case !ok:
			return netip.Addr{}, false, bad
		case i < len(parts)-1 && n > 255:
			return netip.Addr{}, false, bad
		case i < len(parts)-1:
			v |= n << (8 * (3 - i))
		case n >= 1<<(8*(5-len(parts))):
			return netip.Addr{}, false, bad
		default:
			v |= n
		}
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, nil
}

// ipv4Number reads one part of an IPv4 address as the URL standard does: 0x for hex, a
// leading 0 for octal, else decimal.
func ipv4Number(s string) (uint64, bool) {
	base := 10
	switch {
	case s == "":
		return 0, false
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		if s = s[2:]; s == "" {
			return 0, true
		}
		base = 16
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	n, err := strconv.ParseUint(s, base, 64)
	return n, err == nil
}

// urlPort is the port u names, or its scheme's: 443 for https and wss, else 80.
func urlPort(u *url.URL) (uint16, error) {
	if s := u.Port(); s != "" {
		n, err := strconv.ParseUint(s, 10, 16)
		if err != nil || n == 0 {
			return 0, fmt.Errorf("%q is not a port", s)
		}
		return uint16(n), nil
	}
	switch strings.ToLower(u.Scheme) {
	case "https", "wss":
		return 443, nil
	}
	return 80, nil
}

// localhost reports the names the browser takes for loopback without looking them up.
func localhost(host string) bool {
	host = strings.TrimSuffix(host, ".")
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// internal reports a host that is not public: an address NonPublic names, in any form the
// browser reads, or localhost.
func internal(host string) bool {
	if localhost(host) {
		return true
	}
	a, ok := hostAddr(host)
	if !ok {
		return false
	}
	_, np := NonPublic(a)
	return np
}
