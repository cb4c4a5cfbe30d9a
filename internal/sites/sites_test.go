package sites

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestPolicy(t *testing.T) {
	public := For("https://www.example.com/start", []string{"cdn.example.net"}, false)
	local := For("http://127.0.0.1:8090/projects", nil, false)
	tests := []struct {
		p    Policy
		url  string
		want string // "" allowed, else part of the reason
	}{
		{public, "https://example.com/a", ""},
		{public, "https://shop.example.com/a", ""},
		{public, "http://cdn.example.net/x", ""},
		{public, "https://evil.com/", "not one of this run's allowed sites"},
		{public, "https://example.com.evil.com/", "not one of this run's allowed sites"},
		{public, "file:///etc/passwd", "only http and https"},
		{public, "chrome://settings", "only http and https"},
		{public, "javascript:alert(1)", "only http and https"},
		{public, "http://169.254.169.254/latest/meta-data/", "internal address"},
		{public, "http://10.0.0.5/", "internal address"},
		{public, "http://localhost:8080/", "internal address"},
		{local, "http://127.0.0.1:9999/other-port", ""},
		{local, "http://169.254.169.254/", "not one of this run's allowed sites"},
		{local, "file:///etc/passwd", "only http and https"},
	}
	for _, tt := range tests {
		err := tt.p.Check(tt.url)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.url, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want %q", tt.url, err, tt.want)
		}
	}
	if !local.Private || public.Private {
		t.Errorf("internal addresses are allowed only when the start URL is one: %+v %+v", local, public)
	}
}

// A public name that leads to an internal address is refused like the address itself.
func TestNameThatLeadsInside(t *testing.T) {
	hosts := map[string]string{"inside.example.com": "169.254.169.254", "www.example.com": "93.184.215.14", "lan.example.com": "::ffff:10.1.2.3"}
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		a, ok := hosts[host]
		if !ok {
			return nil, errors.New("no such host")
		}
		return []netip.Addr{netip.MustParseAddr(a)}, nil
	}
	p := For("https://www.example.com/", nil, false)
	for raw, want := range map[string]string{
		"https://inside.example.com/latest/meta-data/": "resolves to 169.254.169.254",
		"https://lan.example.com/":                     "an internal address",
		"https://www.example.com/ok":                   "",
		"https://unknown.example.com/":                 "",
		"https://evil.com/":                            "not one of this run's allowed sites",
	} {
		err := p.CheckResolved(t.Context(), raw, lookup)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
	if err := For("https://www.example.com/", nil, true).CheckResolved(t.Context(), "https://inside.example.com/", lookup); err != nil {
		t.Errorf("a run that allows internal addresses: %v", err)
	}
}

// The browser reads an address in more forms than netip does; each is the address it
// reads, not a name to look up.
func TestHostForms(t *testing.T) {
	p := For("https://www.example.com/", nil, false)
	public := func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
	}
	for _, tc := range []struct{ url, want string }{
		{"http://2130706433/", "(loopback, 127.0.0.0/8)"},
		{"http://0x7f.1/", "(loopback, 127.0.0.0/8)"},
		{"http://0X7F000001/", "(loopback, 127.0.0.0/8)"},
		{"http://127.1/", "(loopback, 127.0.0.0/8)"},
		{"http://0177.0.0.1/", "(loopback, 127.0.0.0/8)"},
		{"http://127.0.0.1./", "(loopback, 127.0.0.0/8)"},
		{"http://0/", "(this network, 0.0.0.0/8)"},
		{"http://169.254.43518/", "(link-local, 169.254.0.0/16)"},
		{"http://[::ffff:7f00:1]/", "(loopback, 127.0.0.0/8)"},
		{"http://[64:ff9b::a9fe:a9fe]/", "(link-local, 169.254.0.0/16, inside IPv4-IPv6 translation 64:ff9b::/96)"},
		{"http://0x7f.256.1/", "reads as an IPv4 address and is none"},
		{"http://1.2.3.4.5/", "reads as an IPv4 address and is none"},
		{"http://09.1/", "reads as an IPv4 address and is none"},
		{"ws://0x7f.1:8080/", "(loopback, 127.0.0.0/8)"},
		{"https://cdn.example.net/x.js", ""},
		{"https://0x.example.net/x.js", ""},
	} {
		t.Run(tc.url, func(t *testing.T) {
			err := p.CheckReach(t.Context(), tc.url, public)
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("CheckReach: %v, want %q", err, tc.want)
			}
		})
	}
	if p := For("http://2130706433:8090/", nil, false); !p.Private || p.Domains[0] != "127.0.0.1" {
		t.Errorf("a start URL on 127.0.0.1 in another form: %+v", p)
	}
}
