package sites

import (
	"context"
	"net/netip"
	"strings"
	"testing"
)

func mustGrant(t *testing.T, spec string) Internal {
	t.Helper()
	g, err := ParseInternal(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// An entry names what it grants and, after a colon, on which ports; without ports it
// grants every port.
func TestParseInternalPorts(t *testing.T) {
	for _, tc := range []struct {
		spec string
		ok   []string // address:port or host:port it grants
		not  []string
	}{
		{"127.0.0.1:8090", []string{"127.0.0.1:8090"}, []string{"127.0.0.1:8233", "127.0.0.2:8090"}},
		{"loopback", []string{"127.0.0.5:1234", "[::1]:1", "127.0.0.1:65535"}, []string{"10.0.0.1:80"}},
		{"loopback:8090+8091", []string{"127.0.0.1:8090", "127.1.2.3:8091", "[::1]:8091"}, []string{"127.0.0.1:8092"}},
		{"10.0.0.0/8:443", []string{"10.1.2.3:443"}, []string{"10.1.2.3:80", "11.0.0.1:443"}},
		{"fd00::/8:443", []string{"[fd12::1]:443"}, []string{"[fd12::1]:80", "[fc00::1]:443"}},
		{"[fd00::]/8:443", []string{"[fd12::1]:443"}, []string{"[fd12::1]:80"}},
		{"[::1]:8090", []string{"[::1]:8090"}, []string{"[::1]:8091", "127.0.0.1:8090"}},
		{"::1", []string{"[::1]:9"}, []string{"127.0.0.1:9"}},
		{"127.0.0.1:8000-8099+9000", []string{"127.0.0.1:8000", "127.0.0.1:8099", "127.0.0.1:9000"}, []string{"127.0.0.1:7999", "127.0.0.1:8100", "127.0.0.1:9001"}},
		{"demoapp:8090", []string{"demoapp:8090", "DemoApp.:8090"}, []string{"demoapp:8091", "demoapp.example.com:8090"}},
		{"demoapp", []string{"demoapp:1", "demoapp:65535"}, []string{"other:80"}},
		{"localhost:3000", []string{"localhost:3000", "127.0.0.1:3000", "[::1]:3000"}, []string{"localhost:3001", "127.0.0.2:3000"}},
		{"shared:80", []string{"100.100.100.200:80"}, []string{"100.100.100.200:81", "10.0.0.1:80"}},
		{"link-local", []string{"169.254.169.254:80", "[::ffff:169.254.169.254]:80"}, []string{"[64:ff9b::a9fe:a9fe]:80", "[2002:a9fe:a9fe::1]:80"}},
		{"::ffff:10.0.0.0/104", []string{"10.1.2.3:80"}, []string{"11.0.0.1:80"}},
		// A form that carries an IPv4 address is granted as itself and as that address.
		{"64:ff9b::/96", nil, []string{"[64:ff9b::a9fe:a9fe]:80"}},
		{"link-local,64:ff9b::/96:80", []string{"[64:ff9b::a9fe:a9fe]:80"}, []string{"[64:ff9b::a9fe:a9fe]:81", "[64:ff9b::a00:1]:80"}},
		{"loopback,2001::/32", []string{"[2001:0:4136:e378:8000:63bf:80ff:fffe]:80"}, []string{"[2001:0:4136:e378:8000:63bf:f5ff:fffe]:80"}},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			g := mustGrant(t, tc.spec)
			for _, hp := range tc.ok {
				if !allows(t, g, hp) {
					t.Errorf("%s should grant %s", tc.spec, hp)
				}
			}
			for _, hp := range tc.not {
				if allows(t, g, hp) {
					t.Errorf("%s should not grant %s", tc.spec, hp)
				}
			}
		})
	}
}

// allows asks the grant about host:port the way its callers do: an address by address,
// a name by name.
func allows(t *testing.T, g Internal, hp string) bool {
	t.Helper()
	i := strings.LastIndex(hp, ":")
	host, port := strings.Trim(hp[:i], "[]"), uint16(0)
	for _, c := range hp[i+1:] {
		port = port*10 + uint16(c-'0')
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if g.AllowsAddrPort(a, port) != g.AllowsHostPort(host, port) {
			t.Errorf("%s: by address and by host disagree", hp)
		}
		return g.AllowsAddrPort(a, port)
	}
	return g.AllowsHostPort(host, port)
}

func TestParseInternalSyntax(t *testing.T) {
	g := mustGrant(t, " 127.0.0.1:8090, Loopback:8090+8091 ,10.0.0.0/8:443,demoapp:8090,[::1]:8090, 127.0.0.1:8000-8099 ")
	if want := "127.0.0.1:8090,loopback:8090+8091,10.0.0.0/8:443,demoapp:8090,[::1]:8090,127.0.0.1:8000-8099"; g.String() != want {
		t.Errorf("String() = %q, want %q", g.String(), want)
	}
	for _, tc := range []struct{ spec, want string }{
		{"127.0.0.1:0", `"127.0.0.1:0": "0" is not a port`},
		{"127.0.0.1:65536", `"65536" is not a port`},
		{"127.0.0.1:9000-8000", `ports "9000-8000" run backwards: write 8000-9000`},
		{"127.0.0.1:http", `"http" is not a port`},
		{"127.0.0.1:80+", `"" is not a port`},
		{"127.0.0.1:80-", `"" is not a port`},
		{"127.0.0.1:", "no port after the colon"},
		{"demoapp:80:90", "one colon"},
		{"fe80::1:99999", "in brackets"},
		{"[::1", "a [ without its ]"},
		{"[demoapp]:80", "brackets hold an IPv6 address"},
		{"[::1]x", "write ports as :8090"},
		{"10.0.0.0/:80", "not an address range"},
		{"10.0.0.0/33", "not an address range"},
		{"10.0.0.0/8:", "no port after the colon"},
		{"loopback, every thing:80", `"every thing:80": none of loopback`},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			_, err := ParseInternal(tc.spec)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), InternalEnv) {
				t.Errorf("ParseInternal(%q): %v, want %q", tc.spec, err, tc.want)
			}
		})
	}
	if g := mustGrant(t, "fd00::1:8090"); !g.AllowsAddrPort(netip.MustParseAddr("fd00::1:8090"), 1) || g.AllowsAddrPort(netip.MustParseAddr("fd00::1"), 8090) {
		t.Error("a bare IPv6 address is an address as a whole")
	}
	if g := mustGrant(t, "loopback:8090"); !g.Allows("127.0.0.1") || g.Allows("10.0.0.1") {
		t.Error("Allows is on some port")
	}
}

// A run's checks take the URL's port: a grant of 127.0.0.1:8090 opens that service only.
func TestPolicyPorts(t *testing.T) {
	hosts := map[string]string{"demoapp": "172.18.0.5", "inside.example.com": "127.0.0.1"}
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		if a, ok := hosts[host]; ok {
			return []netip.Addr{netip.MustParseAddr(a)}, nil
		}
		return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
	}
	asks := For("http://127.0.0.1:8090/", []string{"demoapp", "inside.example.com", "localhost", "127.0.0.5"}, true)
	one := asks.Granted(mustGrant(t, "127.0.0.1:8090, demoapp:8090"))
	loop := asks.Granted(mustGrant(t, "loopback"))
	for _, tc := range []struct {
		p    *Policy
		url  string
		want string
	}{
		{one, "http://127.0.0.1:8090/x", ""},
		{one, "http://127.0.0.1:8233/", "that this worker does not grant on port 8233"},
		{one, "http://127.0.0.2:8090/", "(loopback, 127.0.0.0/8) that this worker does not grant on port 8090"},
		{one, "http://127.0.0.1/", "does not grant on port 80"},
		{one, "https://127.0.0.1/", "does not grant on port 443"},
		{one, "http://localhost:8090/", ""},
		{one, "http://localhost:8091/", "does not grant on port 8091"},
		{one, "http://demoapp:8090/", ""},
		{one, "http://demoapp:9000/", "resolves to 172.18.0.5, an internal address (private use, 172.16.0.0/12) that this worker does not grant on port 9000"},
		{one, "http://inside.example.com:8090/", ""},
		{one, "http://inside.example.com:8233/", "resolves to 127.0.0.1"},
		{one, "http://127.0.0.1:99999/", `"99999" is not a port`},
		{loop, "http://127.0.0.5:1234/", ""},
		{loop, "http://demoapp:8090/", "does not grant on port 8090"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			err := tc.p.CheckResolved(t.Context(), tc.url, lookup)
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("CheckResolved: %v, want %q", err, tc.want)
			}
		})
	}
	for _, tc := range []struct{ url, want string }{
		{"ws://127.0.0.1:8090/socket", ""},
		{"ws://127.0.0.1/socket", "does not grant on port 80"},
		{"wss://127.0.0.1/socket", "does not grant on port 443"},
		{"https://cdn.example.net/app.js", ""},
		{"http://demoapp:9000/api", "does not grant on port 9000"},
	} {
		t.Run("reach "+tc.url, func(t *testing.T) {
			err := one.CheckReach(t.Context(), tc.url, lookup)
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("CheckReach: %v, want %q", err, tc.want)
			}
		})
	}
}
