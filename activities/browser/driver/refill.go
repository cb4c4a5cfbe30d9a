package driver

import (
	"encoding/json"
	"fmt"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/internal/egress"
)

// takeSpare returns the spare opened in b, or nil. The next one is opened when a browser
// is closed: between runs, not beside the run that is opening (a new page costs a renderer
// process about a second of CPU, which on a small machine would slow that run's first
// steps). Called with p.mu held.
func (p *Pool) takeSpare(b playwright.Browser) *spare {
	sp := p.spare
	p.spare = nil
	if sp != nil && (sp.browser != b || sp.page.IsClosed()) {
		sp.close()
		sp = nil
	}
	return sp
}

// refill opens a spare in the background unless one is ready, on its way, or the pool
// is shutting down. Called with p.mu held.
func (p *Pool) refill() {
	if p.spare != nil || p.refilling || p.shutdown || p.browser == nil {
		return
	}
	p.refilling = true
	b := p.browser
	go func() {
		bctx, pg, px, err := p.openContext(b, nil)
		p.mu.Lock()
		defer p.mu.Unlock()
		p.refilling = false
		if err != nil {
			p.log.Debug("opening a spare browser context", "err", err)
			return
		}
		sp := &spare{browser: b, ctx: bctx, page: pg, proxy: px}
		if p.spare != nil || p.shutdown || b != p.browser {
			sp.close()
			return
		}
		p.spare = sp
	}()
}

// openContext opens a context in b, restoring state (Playwright's storage state JSON) if
// given, with the page script installed and one page. The context talks to the network
// only through an egress proxy of its own, which refuses everything until the run's
// policy is set on it; service workers are blocked (a worker's requests would otherwise
// be a page's way around what the run can see and check).
func (p *Pool) openContext(b playwright.Browser, state []byte) (playwright.BrowserContext, playwright.Page, *egress.Proxy, error) {
	px, err := egress.Start(egress.Options{Resolve: p.cfg.resolver(), Log: p.log})
	if err != nil {
		return nil, nil, nil, err
	}
	copts := playwright.BrowserNewContextOptions{
		Viewport:       &playwright.Size{Width: p.cfg.Width, Height: p.cfg.Height},
		Proxy:          proxied(px),
		ServiceWorkers: playwright.ServiceWorkerPolicyBlock,
		// A page that honours the preference stops the animations it runs for nobody to
		// watch (a sign-in page's canvas of moving dots took a step 12 s, 1.4 s with it).
		ReducedMotion: playwright.ReducedMotionReduce,
	}
	if len(state) > 0 {
		var st playwright.StorageState
		if err := json.Unmarshal(state, &st); err != nil {
			_ = px.Close()
			return nil, nil, nil, fmt.Errorf("read saved storage state: %w", err)
		}
		copts.StorageState = st.ToOptionalStorageState()
	}
	bctx, err := b.NewContext(copts)
	if err != nil {
		_ = px.Close()
		return nil, nil, nil, fmt.Errorf("new browser context: %w", err)
	}
	// Before the first navigation: every document the context loads records its click
	// handlers, so that a <span> or <div> a person can click is seen as a control.
	if err := bctx.AddInitScript(playwright.Script{Content: &listenersJS}); err != nil {
		_ = bctx.Close()
		_ = px.Close()
		return nil, nil, nil, fmt.Errorf("install the page script: %w", err)
	}
	pg, err := bctx.NewPage()
	if err != nil {
		_ = bctx.Close()
		_ = px.Close()
		return nil, nil, nil, fmt.Errorf("new page: %w", err)
	}
	return bctx, pg, px, nil
}
