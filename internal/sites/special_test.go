package sites

import (
	"net/netip"
	"testing"
)

// Every row of the table holds an address the browser must not wander into, and its
// neighbours outside are judged by another row or public.
func TestNonPublicRows(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want string // the row's prefix, or "" for public
	}{
		{"0.0.0.0", "0.0.0.0/8"},
		{"0.255.255.255", "0.0.0.0/8"},
		{"1.0.0.0", ""},
		{"10.0.0.1", "10.0.0.0/8"},
		{"9.255.255.255", ""},
		{"11.0.0.0", ""},
		{"100.64.0.0", "100.64.0.0/10"},
		{"100.100.100.200", "100.64.0.0/10"},
		{"100.127.255.255", "100.64.0.0/10"},
		{"100.63.255.255", ""},
		{"100.128.0.0", ""},
		{"127.0.0.1", "127.0.0.0/8"},
		{"127.255.255.254", "127.0.0.0/8"},
		{"128.0.0.0", ""},
		{"169.254.169.254", "169.254.0.0/16"},
		{"169.253.255.255", ""},
		{"169.255.0.0", ""},
		{"172.16.0.1", "172.16.0.0/12"},
		{"172.31.255.255", "172.16.0.0/12"},
		{"172.15.255.255", ""},
		{"172.32.0.0", ""},
		{"192.0.0.9", "192.0.0.0/24"},
		{"192.0.1.0", ""},
		{"192.0.2.1", "192.0.2.0/24"},
		{"192.0.3.0", ""},
		{"192.31.196.1", "192.31.196.0/24"},
		{"192.31.197.0", ""},
		{"192.52.193.1", "192.52.193.0/24"},
		{"192.52.194.0", ""},
		{"192.88.99.1", "192.88.99.0/24"},
		{"192.88.100.0", ""},
		{"192.168.1.1", "192.168.0.0/16"},
		{"192.167.255.255", ""},
		{"192.169.0.0", ""},
		{"192.175.48.1", "192.175.48.0/24"},
		{"192.175.49.0", ""},
		{"198.18.0.1", "198.18.0.0/15"},
		{"198.19.255.255", "198.18.0.0/15"},
		{"198.17.255.255", ""},
		{"198.20.0.0", ""},
		{"198.51.100.7", "198.51.100.0/24"},
		{"198.51.101.0", ""},
		{"203.0.113.7", "203.0.113.0/24"},
		{"203.0.114.0", ""},
		{"224.0.0.1", "224.0.0.0/4"},
		{"239.255.255.250", "224.0.0.0/4"},
		{"223.255.255.255", ""},
		{"240.0.0.1", "240.0.0.0/4"},
		{"255.255.255.254", "240.0.0.0/4"},
		{"255.255.255.255", "255.255.255.255/32"},

		{"::", "::/128"},
		{"::1", "::1/128"},
		{"::2", "0.0.0.0/8"}, // IPv4-compatible 0.0.0.2
		{"::ffff:8.8.8.8", ""},
		{"::ffff:10.0.0.1", "10.0.0.0/8"},
		{"64:ff9b::808:808", ""},
		{"64:ff9b::a00:1", "10.0.0.0/8"},
		{"64:ff9b:1::808:808", "64:ff9b:1::/48"},
		{"64:ff9b:2::", "2000::/3"},
		{"100::1", "100::/64"},
		{"100:0:0:1::", "2000::/3"}, // outside the global unicast space
		{"2001:1::1", "2001::/23"},
		{"2001:1ff:ffff::1", "2001::/23"},
		{"2001:200::1", ""},
		{"2001:0:4136:e378:8000:63bf:f7f7:f7f7", "2001::/32"}, // Teredo of 8.8.8.8
		{"2001:2::1", "2001:2::/48"},
		{"2001:2:1::1", "2001::/23"},
		{"2001:db8::1", "2001:db8::/32"},
		{"2001:db9::1", ""},
		{"2002:808:808::1", ""},
		{"2002:a00:1::1", "10.0.0.0/8"},
		{"2620:4f:8000::1", "2620:4f:8000::/48"},
		{"2620:4f:8001::1", ""},
		{"3fff::1", "3fff::/20"},
		{"3fff:1000::", ""},
		{"5f00::1", "5f00::/16"},
		{"fc00::1", "fc00::/7"},
		{"fdff:ffff::1", "fc00::/7"},
		{"fe80::1", "fe80::/10"},
		{"fe80::1%eth0", "fe80::/10"},
		{"febf::1", "fe80::/10"},
		{"fec0::1", "fec0::/10"},
		{"ff02::1", "ff00::/8"},
		{"4000::1", "2000::/3"},
		{"8.8.8.8", ""},
		{"1.1.1.1", ""},
		{"2606:4700::1111", ""},
		{"2a00:1450:4001:80e::200e", ""},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			row, np := NonPublic(netip.MustParseAddr(tc.addr))
			got := ""
			if np {
				got = row.Prefix.String()
			}
			if got != tc.want {
				t.Errorf("NonPublic(%s) = %q (%s), want %q", tc.addr, got, row.Name, tc.want)
			}
		})
	}
}

// Each row names itself for an address inside it (unless a more specific row holds it
// there), and the addresses just outside are not named by it.
func TestEveryRow(t *testing.T) {
	for _, s := range special {
		t.Run(s.Prefix.String(), func(t *testing.T) {
			if s.Name == "" || s.Why == "" || s.Prefix != s.Prefix.Masked() {
				t.Fatalf("row %+v", s)
			}
			last := lastAddr(s.Prefix)
			if m, _ := match(last); m.Prefix != s.Prefix && !s.Prefix.Contains(m.Prefix.Addr()) {
				t.Errorf("%s: matched %s", last, m)
			}
			for _, out := range []netip.Addr{s.Prefix.Addr().Prev(), last.Next()} {
				if m, _ := match(out); out.IsValid() && m.Prefix == s.Prefix {
					t.Errorf("%s, outside, is named by %s", out, m)
				}
			}
		})
	}
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// 169.254.169.254, 127.0.0.1 and 10.0.0.1 are what they are in every IPv6 form that
// carries them: the row named is the IPv4 one.
func TestEmbedded(t *testing.T) {
	forms := map[string]func([4]byte) netip.Addr{
		"mapped": func(v [4]byte) netip.Addr { return netip.AddrFrom16(netip.AddrFrom4(v).As16()) },
		"compat": func(v [4]byte) netip.Addr { return six(0, 0, 0, 0, 0, 0, v[0], v[1], v[2], v[3]) },
		"nat64":  func(v [4]byte) netip.Addr { return six(0x00, 0x64, 0xff, 0x9b, 0, 0, v[0], v[1], v[2], v[3]) },
		"6to4": func(v [4]byte) netip.Addr {
			b := [16]byte{0x20, 0x02, v[0], v[1], v[2], v[3]}
			b[15] = 1
			return netip.AddrFrom16(b)
		},
		"teredo": func(v [4]byte) netip.Addr {
			return six(0x20, 0x01, 0, 0, 0x41, 0x36, ^v[0], ^v[1], ^v[2], ^v[3])
		},
	}
	for _, v4 := range []string{"169.254.169.254", "127.0.0.1", "10.0.0.1"} {
		inner := netip.MustParseAddr(v4)
		want, _ := NonPublic(inner)
		for name, form := range forms {
			a := form(inner.As4())
			t.Run(name+" "+v4, func(t *testing.T) {
				got, np := NonPublic(a)
				if !np || got.Prefix != want.Prefix {
					t.Errorf("NonPublic(%s) = %v %v, want %s", a, got, np, want)
				}
				if name != "mapped" {
					if e, ok := embedded(a); !ok || e != inner {
						t.Errorf("embedded(%s) = %s %v", a, e, ok)
					}
				}
			})
		}
	}
	for addr, want := range map[string]string{
		"64:ff9b::a9fe:a9fe":                   "link-local, 169.254.0.0/16, inside IPv4-IPv6 translation 64:ff9b::/96",
		"::ffff:169.254.169.254":               "link-local, 169.254.0.0/16",
		"2002:a9fe:a9fe::1":                    "link-local, 169.254.0.0/16, inside 6to4 2002::/16",
		"2001:0:4136:e378:8000:63bf:80ff:fffe": "loopback, 127.0.0.0/8, inside Teredo 2001::/32",
		"64:ff9b:1::a9fe:a9fe":                 "IPv4-IPv6 translation (local use), 64:ff9b:1::/48",
		"2001:0:4136:e378:8000:63bf:f7f7:f7f7": "Teredo, 2001::/32",
	} {
		if got := describe(netip.MustParseAddr(addr)); got != want {
			t.Errorf("describe(%s) = %q, want %q", addr, got, want)
		}
	}
	if _, np := NonPublic(netip.Addr{}); !np {
		t.Error("no address is not a public one")
	}
}

// six is the IPv6 address of the bytes a to f, zeros, and the bytes w to z.
func six(a, b, c, d, e, f, w, x, y, z byte) netip.Addr {
	return netip.AddrFrom16([16]byte{a, b, c, d, e, f, 0, 0, 0, 0, 0, 0, w, x, y, z})
}
