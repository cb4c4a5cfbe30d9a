package driver

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/internal/egress"
)

// Open returns the session with this id, creating it if this process has none. Opening
// twice is harmless, so the activity that calls it may be retried. The pool is locked
// only to count and file sessions, never while a page loads, so that one slow page does
// not hold up the other runs of this worker.
func (p *Pool) Open(ctx context.Context, id string, opts OpenOptions) (*Session, bool, error) {
	began := time.Now()
	p.mu.Lock()
	if s, ok := p.sessions[id]; ok {
		p.mu.Unlock()
		return s, false, nil
	}
	if len(p.sessions)+p.opening >= p.cfg.MaxSessions || len(p.waiters) > 0 {
		// Every browser is in use: wait in line for one to be closed.
		ch := make(chan struct{})
		p.waiters = append(p.waiters, ch)
		pos, inUse := len(p.waiters), len(p.sessions)+p.opening
		p.mu.Unlock()
		if opts.OnWait != nil {
			opts.OnWait(pos, inUse)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			p.mu.Lock()
			if i := slices.Index(p.waiters, ch); i >= 0 {
				p.waiters = slices.Delete(p.waiters, i, i+1)
			} else {
				p.opening-- // woken meanwhile: give the slot on
				p.wake()
			}
			p.mu.Unlock()
			return nil, false, fmt.Errorf("waited for one of this worker's %d browsers (WEBAGENT_MAX_BROWSERS) to be free: %w", p.cfg.MaxSessions, context.Cause(ctx))
		}
		p.mu.Lock()
	} else {
		p.opening++
	}
	if !p.browser.IsConnected() {
		p.log.Warn("chromium disconnected; launching it again")
		if err := p.launch(); err != nil {
			p.opening--
			p.wake()
			p.mu.Unlock()
			return nil, false, err
		}
	}
	b := p.browser
	p.mu.Unlock()
	waited := time.Since(began)
	s, err := p.newSession(ctx, b, id, opts)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.opening--
	if err != nil {
		p.wake()
		return nil, false, err
	}
	if old, ok := p.sessions[id]; ok {
		// Opened twice at once: keep the first.
		_ = s.close()
		p.wake()
		return old, false, nil
	}
	p.sessions[id] = s
	s.Opened.Wait = waited
	p.log.Info("browser opened", "session", id, "open", len(p.sessions))
	return s, true, nil
}

func (p *Pool) newSession(ctx context.Context, b playwright.Browser, id string, opts OpenOptions) (*Session, error) {
	var (
		bctx playwright.BrowserContext
		pg   playwright.Page
		px   *egress.Proxy
		sp   *spare
	)
	began := time.Now()
	if len(opts.StorageState) == 0 {
		p.mu.Lock()
		sp = p.takeSpare(b)
		p.mu.Unlock()
	}
	if sp != nil {
		bctx, pg, px = sp.ctx, sp.page, sp.proxy
	} else {
		var err error
		if bctx, pg, px, err = p.openContext(b, opts.StorageState); err != nil {
			return nil, err
		}
	}
	s := newSession(id, bctx, pg, px)
	s.Opened.Spare, s.Opened.Context = sp != nil, time.Since(began)
	if err := s.sites.install(bctx, px, opts.Sites.Granted(p.cfg.Internal), p.cfg.resolver()); err != nil {
		_ = s.close()
		return nil, fmt.Errorf("install the site policy: %w", err)
	}
	if opts.URL != "" {
		var err error
		if s.StartStatus, err = s.Goto(ctx, opts.URL); err != nil {
			_ = s.close()
			return nil, err
		}
	}
	s.Opened.Load = time.Since(began) - s.Opened.Context
	return s, nil
}

func newSession(id string, bctx playwright.BrowserContext, page playwright.Page, px *egress.Proxy) *Session {
	s := &Session{ID: id, ctx: bctx, page: page, egress: px}
	s.turn.ch = make(chan struct{}, 1)
	s.turn.touch()
	s.watch(page)
	accessible(bctx, page)
	bctx.OnPage(s.onPage)
	return s
}

// Close ends the session and reports whether there was one; closing an unknown session
// is not an error.
func (p *Pool) Close(id string) (bool, error) {
	p.mu.Lock()
	s, ok := p.sessions[id]
	delete(p.sessions, id)
	open := len(p.sessions)
	p.wake()
	p.mu.Unlock()
	if !ok {
		return false, nil
	}
	p.log.Info("browser closed", "session", id, "open", open)
	// The slot is free now; the context closes in the background (its page may take a
	// moment to unload), so that the run need not wait for it; then a spare is opened
	// for the next run.
	go func() {
		start := time.Now()
		defer func() { p.log.Debug("browser context closed", "session", id, "after", time.Since(start)) }()
		if err := s.closeQuietly(); err != nil {
			p.log.Warn("closing a browser context", "session", id, "err", err)
		}
		p.mu.Lock()
		p.refill()
		p.mu.Unlock()
	}()
	return true, nil
}
