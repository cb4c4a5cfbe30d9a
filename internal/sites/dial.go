package sites

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// CheckDial says why the worker's egress proxy may not connect to addr on port, or nil. It
// is asked for every connection, after the proxy has resolved host once, with the one
// address it is about to dial: what the browser reaches is what was checked, whatever a
// resolver answers a moment later. host is the name as the page asked for it (or an
// address). A public address is allowed: the run's sites are enforced on navigations
// (Check), and a page's images and scripts may come from any public site. An address that
// is not public (NonPublic) must be asked for by the run (Private) and granted by the
// worker on that port, by address, or by host name when host is a name the grant names.
// A nil Policy, or one the worker has not capped with its grant (Granted), reaches no
// address that is not public: a connection nobody vouched for fails closed.
func (p *Policy) CheckDial(host string, addr netip.Addr, port uint16) error {
	if !addr.IsValid() {
		return fmt.Errorf("%s: no address to connect to", host)
	}
	if _, np := NonPublic(addr); !np {
		return nil
	}
	a := addr.WithZone("").Unmap()
	to := net.JoinHostPort(a.String(), strconv.Itoa(int(port)))
	what := fmt.Sprintf("%s is an internal address (%s)", to, describe(addr))
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if _, isAddr := hostAddr(name); name != "" && !isAddr {
		what = fmt.Sprintf("%s resolves to %s, an internal address (%s)", net.JoinHostPort(name, strconv.Itoa(int(port))), a, describe(addr))
	} else {
		name = ""
	}
	switch {
	case p == nil:
		return errors.New(what + "; no site policy allows this connection")
	case !p.Private:
		return fmt.Errorf("%s; this run does not allow them", what)
	case p.grant == nil:
		return fmt.Errorf("%s; no grant of this worker's operator (%s) holds it", what, InternalEnv)
	case p.grant.addr(a, int(port)) || (name != "" && p.grant.name(name, int(port))):
		return nil
	}
	return fmt.Errorf("%s that this worker does not grant on port %d (its operator grants them in %s: %s)", what, port, InternalEnv, p.grant)
}
