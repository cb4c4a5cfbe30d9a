package sites

import (
	"context"
	"net/netip"
	"strings"
	"testing"
)

// The addresses a page could use to reach the worker's network or its cloud's metadata
// service in a form the old check let through.
var sneaky = []string{
	"100.100.100.200",
	"198.18.0.1",
	"0.0.0.0",
	"64:ff9b::a9fe:a9fe",
	"::ffff:169.254.169.254",
	"2002:a9fe:a9fe::1",
	"2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo, client 127.0.0.1
}

// Every one of them is refused as an internal address, as a URL, as where a name leads and
// as a connection, unless the grant holds it.
func TestSneakyAddresses(t *testing.T) {
	loopback := mustGrant(t, "loopback")
	public := For("https://www.example.com/", []string{"sneaky.example.com"}, false)
	asks := For("https://www.example.com/", []string{"sneaky.example.com"}, true)
	for _, s := range sneaky {
		a := netip.MustParseAddr(s)
		host := a.String()
		if a.Is6() {
			host = "[" + host + "]"
		}
		raw := "http://" + host + "/latest/meta-data/"
		lookup := func(context.Context, string) ([]netip.Addr, error) { return []netip.Addr{a}, nil }
		t.Run(s, func(t *testing.T) {
			for _, tc := range []struct {
				name string
				err  error
				want string
			}{
				{"check", public.Check(raw), "is an internal address"},
				{"check granted", asks.Granted(loopback).Check(raw), "that this worker does not grant on port 80"},
				{"reach", asks.Granted(loopback).CheckReach(t.Context(), raw, lookup), "that this worker does not grant"},
				{"resolved", public.CheckResolved(t.Context(), "https://sneaky.example.com/", lookup), "resolves to"},
				{"resolved granted", asks.Granted(loopback).CheckResolved(t.Context(), "https://sneaky.example.com/", lookup), "that this worker does not grant on port 443"},
				{"dial", asks.Granted(loopback).CheckDial("sneaky.example.com", a, 443), "that this worker does not grant on port 443"},
				{"dial no grant", asks.CheckDial(s, a, 80), InternalEnv},
				{"dial nil", (*Policy)(nil).CheckDial(s, a, 80), "no site policy"},
			} {
				if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) || !strings.Contains(tc.err.Error(), "internal address") {
					t.Errorf("%s: %v, want %q", tc.name, tc.err, tc.want)
				}
			}
		})
	}
}

func TestCheckDial(t *testing.T) {
	asks := For("http://127.0.0.1:8090/", nil, true)
	one := asks.Granted(mustGrant(t, "127.0.0.1:8090, demoapp:8090"))
	loop := asks.Granted(mustGrant(t, "loopback"))
	pub := For("https://www.example.com/", nil, false)
	public := pub.Granted(mustGrant(t, "loopback"))
	for _, tc := range []struct {
		name string
		p    *Policy
		host string
		addr string
		port uint16
		want string // "" allowed, else part of the reason
	}{
		{"granted", one, "127.0.0.1", "127.0.0.1", 8090, ""},
		{"other port", one, "127.0.0.1", "127.0.0.1", 8233, "127.0.0.1:8233 is an internal address (loopback, 127.0.0.0/8) that this worker does not grant on port 8233 (its operator grants them in " + InternalEnv + ": 127.0.0.1:8090,demoapp:8090)"},
		{"other address", one, "127.0.0.2", "127.0.0.2", 8090, "does not grant on port 8090"},
		{"mapped", one, "::ffff:127.0.0.1", "::ffff:127.0.0.1", 8090, ""},
		{"localhost", one, "localhost", "127.0.0.1", 8090, ""},
		{"localhost ipv6", one, "localhost", "::1", 8090, "localhost:8090 resolves to ::1, an internal address (loopback, ::1/128)"},
		{"named host", one, "demoapp", "172.18.0.5", 8090, ""},
		{"named host, trailing dot", one, "DemoApp.", "172.18.0.5", 8090, ""},
		{"named host, other port", one, "demoapp", "172.18.0.5", 9000, "demoapp:9000 resolves to 172.18.0.5, an internal address (private use, 172.16.0.0/12) that this worker does not grant on port 9000"},
		{"address of a named host", one, "172.18.0.5", "172.18.0.5", 8090, "does not grant"},
		{"name leads to metadata", one, "evil.example.com", "169.254.169.254", 8090, "evil.example.com:8090 resolves to 169.254.169.254, an internal address (link-local, 169.254.0.0/16)"},
		{"every port", loop, "127.0.0.5", "127.0.0.5", 1234, ""},
		{"ipv6 every port", loop, "::1", "::1", 1, ""},
		{"zone", loop, "fe80::1%eth0", "fe80::1%eth0", 80, "link-local, fe80::/10"},
		{"public", one, "www.example.com", "93.184.215.14", 443, ""},
		{"public, not a run site", public, "cdn.example.net", "2606:4700::1111", 443, ""},
		{"public nat64", one, "x", "64:ff9b::808:808", 443, ""},
		{"run does not ask", public, "127.0.0.1", "127.0.0.1", 80, "this run does not allow them"},
		{"no address", one, "x", "", 80, "no address to connect to"},
		{"nil public", nil, "www.example.com", "8.8.8.8", 443, ""},
		{"nil internal", nil, "127.0.0.1", "127.0.0.1", 8090, "no site policy allows this connection"},
		{"ungranted policy", &asks, "127.0.0.1", "127.0.0.1", 8090, "no grant of this worker's operator (" + InternalEnv + ") holds it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a netip.Addr
			if tc.addr != "" {
				a = netip.MustParseAddr(tc.addr)
			}
			err := tc.p.CheckDial(tc.host, a, tc.port)
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("CheckDial(%s, %s, %d): %v, want %q", tc.host, tc.addr, tc.port, err, tc.want)
			}
		})
	}
}
