package sites

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// The worker's grant caps what a run asks: a start URL on an internal address, or
// allowPrivate, reaches only the internal addresses the operator granted.
func TestInternalGrant(t *testing.T) {
	none, err := ParseInternal("")
	if err != nil {
		t.Fatal(err)
	}
	loopback, err := ParseInternal("loopback")
	if err != nil {
		t.Fatal(err)
	}
	named, err := ParseInternal("demoapp, 10.9.0.0/16")
	if err != nil {
		t.Fatal(err)
	}
	hosts := map[string]string{"demoapp": "172.18.0.5", "minio": "172.18.0.6", "inside.example.com": "169.254.169.254", "www.example.com": "93.184.215.14"}
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		a, ok := hosts[host]
		if !ok {
			return nil, errors.New("no such host")
		}
		return []netip.Addr{netip.MustParseAddr(a)}, nil
	}
	local := For("http://127.0.0.1:8090/projects", nil, false)
	metadata := For("http://169.254.169.254/latest/meta-data/", nil, false)
	localhost := For("http://localhost:8090/", nil, false)
	public := For("https://www.example.com/", nil, false)
	private := For("https://www.example.com/", []string{"demoapp", "minio", "10.9.1.1", "example.com"}, true)
	for _, tc := range []struct {
		p    *Policy
		url  string
		want string // "" allowed, else part of the reason
	}{
		{local.Granted(none), "http://127.0.0.1:8090/projects", "is an internal address (loopback, 127.0.0.0/8) that this worker does not grant on port 8090 (its operator grants them in WEBAGENT_INTERNAL_ADDRESSES: none)"},
		{local.Granted(loopback), "http://127.0.0.1:8090/projects", ""},
		{local.Granted(loopback), "http://127.0.0.1:9000/minio", ""},
		{local.Granted(loopback), "http://169.254.169.254/", "does not grant"},
		{metadata.Granted(loopback), "http://169.254.169.254/latest/meta-data/", "this worker does not grant"},
		{metadata.Granted(none), "http://169.254.169.254/latest/meta-data/", "this worker does not grant"},
		{localhost.Granted(loopback), "http://localhost:8090/x", ""},
		{localhost.Granted(none), "http://localhost:8090/x", "does not grant"},
		{private.Granted(named), "http://demoapp:8090/", ""},
		{private.Granted(named), "http://minio:9000/", "resolves to 172.18.0.6, an internal address (private use, 172.16.0.0/12) that this worker does not grant on port 9000"},
		{private.Granted(named), "http://10.9.1.1/", ""},
		{private.Granted(named), "https://inside.example.com/", "resolves to 169.254.169.254"},
		{private.Granted(named), "https://www.example.com/", ""},
		{public.Granted(named), "https://inside.example.com/", "this run does not allow them"},
		// A run from before site policies: any site, internal addresses as granted.
		{(*Policy)(nil).Granted(loopback), "https://anything.example.org/", ""},
		{(*Policy)(nil).Granted(loopback), "http://127.0.0.1:1/", ""},
		{(*Policy)(nil).Granted(loopback), "http://169.254.169.254/", "does not grant"},
		{(*Policy)(nil).Granted(loopback), "file:///etc/passwd", "only http and https"},
	} {
		err := tc.p.CheckResolved(t.Context(), tc.url, lookup)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.url, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.url, err, tc.want)
		}
	}
}

func TestParseInternal(t *testing.T) {
	g, err := ParseInternal(" loopback , private,link-local, 192.168.1.20, fd00::/8, demoapp ")
	if err != nil {
		t.Fatal(err)
	}
	if g.String() != "loopback,private,link-local,192.168.1.20,fd00::/8,demoapp" {
		t.Errorf("String() = %q", g.String())
	}
	for _, bad := range []string{"every thing", "10.0.0.0/33", "http://x/", "*"} {
		if _, err := ParseInternal(bad); err == nil || !strings.Contains(err.Error(), InternalEnv) {
			t.Errorf("ParseInternal(%q): %v", bad, err)
		}
	}
	if g, _ := ParseInternal("none"); g.String() != "none" {
		t.Errorf("none: %q", g.String())
	}
}

// A page's own requests (images, scripts, fetch) may go to any site, and to internal
// addresses only as a navigation may.
func TestCheckReach(t *testing.T) {
	loopback, _ := ParseInternal("127.0.0.1/32")
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		if host == "rebind.example.com" {
			return []netip.Addr{netip.MustParseAddr("10.0.0.7")}, nil
		}
		return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
	}
	a, b := For("http://127.0.0.1:8090/", nil, true), For("https://www.example.com/", nil, false)
	asks, public := a.Granted(loopback), b.Granted(loopback)
	for _, tc := range []struct {
		p    *Policy
		url  string
		want string
	}{
		{asks, "https://cdn.example.net/app.js", ""},
		{asks, "http://127.0.0.1:9000/x", ""},
		{asks, "http://127.0.0.2:9000/x", "does not grant"},
		{asks, "http://169.254.169.254/latest/meta-data/", "does not grant"},
		{asks, "https://rebind.example.com/", "resolves to 10.0.0.7"},
		{asks, "data:image/png;base64,AAAA", ""},
		{public, "https://cdn.example.net/app.js", ""},
		{public, "http://127.0.0.1:9000/x", "this run does not allow them"},
		{public, "https://rebind.example.com/", "this run does not allow them"},
	} {
		err := tc.p.CheckReach(t.Context(), tc.url, lookup)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.url, err, tc.want)
		}
	}
}
