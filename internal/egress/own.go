package egress

import (
	"net/netip"
	"sync"
)

// own is the set of this process's proxy listeners: a page may never reach one (another
// run's proxy would carry another run's policy).
var own = ownSet{m: map[netip.AddrPort]bool{}}

type ownSet struct {
	mu sync.Mutex
	m  map[netip.AddrPort]bool
}

func (o *ownSet) add(a netip.AddrPort) {
	o.mu.Lock()
	o.m[a] = true
	o.mu.Unlock()
}

func (o *ownSet) remove(a netip.AddrPort) {
	o.mu.Lock()
	delete(o.m, a)
	o.mu.Unlock()
}

// has reports an address and port that reach one of the listeners: the listener's own,
// or any loopback or unspecified address on its port.
func (o *ownSet) has(a netip.AddrPort) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m[a] {
		return true
	}
	if ad := a.Addr().Unmap(); ad.IsLoopback() || ad.IsUnspecified() {
		for l := range o.m {
			if l.Port() == a.Port() {
				return true
			}
		}
	}
	return false
}
