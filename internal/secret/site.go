package secret

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// site is one place a secret may be typed: a host (with its subdomains when it is a
// name), and, when the operator wrote an origin, its scheme and port.
type site struct {
	scheme, host, port string
}

func parseSite(s string) (site, error) {
	raw := strings.TrimSpace(s)
	if !strings.Contains(raw, "://") {
		raw = "//" + raw
	}
	u, err := url.Parse(raw)
	bad := func() (site, error) {
		return site{}, fmt.Errorf("site %q: write a host name (shop.example.com: it and its subdomains) or an origin (https://shop.example.com, http://127.0.0.1:8090)", s)
	}
	if err != nil || u.Hostname() == "" || (u.Path != "" && u.Path != "/") || u.User != nil || u.RawQuery != "" || strings.Contains(u.Host, "*") {
		return bad()
	}
	st := site{scheme: strings.ToLower(u.Scheme), host: strings.TrimSuffix(strings.ToLower(u.Hostname()), "."), port: u.Port()}
	if st.scheme != "" && st.scheme != "http" && st.scheme != "https" {
		return bad()
	}
	if st.scheme != "" && st.port == "" {
		st.port = defaultPort(st.scheme)
	}
	return st, nil
}

// allows reports whether the page or frame at addr is on one of the grant's sites.
func (g *Grant) allows(addr string) bool {
	u, err := url.Parse(addr)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	port := u.Port()
	if port == "" {
		port = defaultPort(u.Scheme)
	}
	for _, s := range g.sites {
		switch {
		case s.scheme != "" && s.scheme != u.Scheme:
		case s.port != "" && s.port != port:
		case host == s.host:
			return true
		case net.ParseIP(s.host) == nil && strings.HasSuffix(host, "."+s.host):
			return true
		}
	}
	return false
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// origin is the part of an address a refusal may name: its scheme, host and port, never
// its path or query (which may carry what the page put there).
func origin(addr string) string {
	u, err := url.Parse(addr)
	if err != nil || u.Host == "" {
		if i := strings.IndexAny(addr, ":/?#"); i > 0 && i <= 20 && addr[i] == ':' {
			return addr[:i] + ": (no site)"
		}
		return "a page with no site"
	}
	return u.Scheme + "://" + u.Host
}
