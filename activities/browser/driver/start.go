package driver

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/internal/egress"
)

// NewPool starts the driver and the browser, so that a misconfigured machine fails at
// start-up rather than in the middle of a run.
func NewPool(cfg Config, log *slog.Logger) (*Pool, error) {
	if cfg.Width == 0 {
		cfg.Width, cfg.Height = 1280, 800
	}
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = 4
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = 30 * time.Minute
	}
	p := &Pool{cfg: cfg, log: log, sessions: map[string]*Session{}, stop: make(chan struct{})}
	pw, err := playwright.Run(&playwright.RunOptions{DriverDirectory: cfg.DriverDir, SkipInstallBrowsers: true, Verbose: false})
	if err != nil {
		return nil, fmt.Errorf("start the playwright driver in %s: %w (run `make setup`)", cfg.DriverDir, err)
	}
	p.pw = pw
	if p.deny, err = egress.Start(egress.Options{Log: log}); err != nil {
		_ = pw.Stop()
		return nil, err
	}
	if err := p.launch(); err != nil {
		_ = p.deny.Close()
		_ = pw.Stop()
		return nil, err
	}
	go p.reap()
	p.mu.Lock()
	p.refill()
	p.mu.Unlock()
	return p, nil
}
