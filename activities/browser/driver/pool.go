package driver

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/internal/egress"
	"github.com/webagent-dev/webagent/internal/sites"
)

// Config says how to start the browser.
type Config struct {
	// DriverDir holds the playwright-core driver (package/cli.js and node).
	DriverDir string
	// ExecutablePath is the Chromium binary.
	ExecutablePath string
	Headless       bool
	// Width and Height are the viewport, in CSS pixels.
	Width, Height int
	// MaxSessions caps the runs one process drives at once; each costs its page's memory
	// (~18 MiB on the demo app in the headless shell, 300 MiB on a heavy site).
	MaxSessions int
	// IdleTimeout closes a session no activity has used for this long, for runs that
	// were terminated without closing their browser.
	IdleTimeout time.Duration
	// Internal is the internal addresses the operator lets the browsers reach
	// (WEBAGENT_INTERNAL_ADDRESSES): whatever a run asks, none beyond these.
	Internal sites.Internal
	// Resolve looks up host names for the egress proxies and the site checks; nil uses
	// the system's resolver. Tests give a resolver that answers differently each time.
	Resolve egress.Resolver
}

// resolver is the configured resolver, or the system's.
func (c Config) resolver() egress.Resolver {
	if c.Resolve != nil {
		return c.Resolve
	}
	return lookup
}

// chromiumArgs keep Chromium from reaching for the network on its own and from needing
// a sandbox or a GPU, and keep WebRTC from sending anything the egress proxy does not
// carry (no UDP outside it, no local address handed to a page). They also let the page
// script read each element's role and name from the browser's accessibility tree
// (accessible.go).
var chromiumArgs = []string{
	"--enable-blink-features=ComputedAccessibilityInfo",
	"--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
	"--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic",
	"--force-webrtc-ip-handling-policy=disable_non_proxied_udp", "--webrtc-ip-handling-policy=disable_non_proxied_udp",
}

// proxied is the proxy setting that sends every request of a context through px, loopback
// included: Chromium by default goes to localhost directly, past any proxy.
func proxied(px *egress.Proxy) *playwright.Proxy {
	return &playwright.Proxy{Server: px.Server(), Bypass: playwright.String("<-loopback>")}
}

// ErrSessionNotFound means this process holds no browser for the session: it was never
// opened here, or the process restarted, or the browser died.
var ErrSessionNotFound = errors.New("browser session not found in this worker")

// Pool owns the process's browser and the sessions (one context and page per run) in it.
type Pool struct {
	cfg Config
	log *slog.Logger

	mu       sync.Mutex
	pw       *playwright.Playwright
	browser  playwright.Browser
	sessions map[string]*Session
	// deny is the browser's own proxy, which refuses everything: what the browser would
	// send outside a run's context (its own background requests) goes nowhere.
	deny *egress.Proxy
	// opening counts the sessions being opened, outside the lock, and the slots kept for
	// the waiters woken to open theirs.
	opening int
	// waiters are the opens waiting, first come first served, for a free browser.
	waiters []chan struct{}
	stop    chan struct{}
	// spare is a context opened ahead for the next run (spare.go, refill.go); refilling says one is
	// being opened; shutdown, that the pool is closing.
	spare     *spare
	refilling bool
	shutdown  bool
}

// wake hands the free slots, under p.mu, to the opens waiting for one, in their order.
func (p *Pool) wake() {
	for len(p.waiters) > 0 && len(p.sessions)+p.opening < p.cfg.MaxSessions {
		ch := p.waiters[0]
		p.waiters = p.waiters[1:]
		p.opening++ // the slot is the waiter's
		close(ch)
	}
}

// Waiting is how many opens wait for a free browser.
func (p *Pool) Waiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.waiters)
}

// IsHeadlessShell says whether a Chromium binary is a headless shell (Debian's
// chromium-headless-shell, Chrome for Testing's chrome-headless-shell), which has no
// headed mode.
func IsHeadlessShell(path string) bool {
	name := strings.ReplaceAll(filepath.Base(path), "_", "-")
	return strings.Contains(name, "headless-shell")
}

func (p *Pool) launch() error {
	if !p.cfg.Headless && IsHeadlessShell(p.cfg.ExecutablePath) {
		return fmt.Errorf("%s is a headless shell and cannot show a window: run headless, or use the full Chromium", p.cfg.ExecutablePath)
	}
	b, err := p.pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
		ExecutablePath: playwright.String(p.cfg.ExecutablePath),
		Headless:       playwright.Bool(p.cfg.Headless),
		Args:           chromiumArgs,
		Proxy:          proxied(p.deny),
	})
	if err != nil {
		return fmt.Errorf("launch chromium %s: %w (run `make setup`, or set CHROMIUM_PATH)", p.cfg.ExecutablePath, err)
	}
	p.browser = b
	return nil
}

// OpenOptions says where a new session starts.
type OpenOptions struct {
	URL string
	// Sites is where the page may go; nil allows any site. Either way, internal addresses
	// only as far as Config.Internal grants them.
	Sites *sites.Policy
	// StorageState is the JSON of a saved Playwright storage state (cookies and local
	// storage), restored into the new context.
	StorageState []byte
	// OnWait, when every browser is in use, is told the open's place in line (1: next)
	// and how many browsers are in use, before it waits.
	OnWait func(position, inUse int)
}

// Get returns the session with this id, or ErrSessionNotFound.
func (p *Pool) Get(id string) (*Session, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.sessions[id]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrSessionNotFound, id)
	}
	if s.Closed() {
		delete(p.sessions, id)
		p.wake()
		go s.close() // its context and egress proxy too
		return nil, fmt.Errorf("%w: %s (its page was closed)", ErrSessionNotFound, id)
	}
	return s, nil
}

// Shutdown closes every session, the browser and the driver. Calling it again does
// nothing.
func (p *Pool) Shutdown() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shutdown {
		return
	}
	close(p.stop)
	p.shutdown = true
	if p.spare != nil {
		_ = p.spare.ctx.Close()
		_ = p.spare.proxy.Close()
		p.spare = nil
	}
	for id, s := range p.sessions {
		_ = s.close()
		delete(p.sessions, id)
	}
	if p.browser != nil {
		_ = p.browser.Close()
	}
	_ = p.deny.Close()
	_ = p.pw.Stop()
}

func (p *Pool) reap() {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		p.mu.Lock()
		for id, s := range p.sessions {
			if time.Since(s.LastUsed()) > p.cfg.IdleTimeout {
				p.log.Info("closing idle browser session", "session", id)
				_ = s.close()
				delete(p.sessions, id)
			}
		}
		p.wake()
		p.mu.Unlock()
	}
}
