package driver

import (
	"log/slog"

	"github.com/webagent-dev/webagent/internal/sites"
)

// Sessions is how many runs' browsers the pool holds.
func (p *Pool) Sessions() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.sessions)
}

// Free is how many more sessions the pool can open without waiting.
func (p *Pool) Free() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return max(0, p.cfg.MaxSessions-len(p.sessions)-p.opening-len(p.waiters))
}

// Max is how many sessions the pool may hold (Config.MaxSessions).
func (p *Pool) Max() int { return p.cfg.MaxSessions }

// Has says whether the pool holds the session.
func (p *Pool) Has(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.sessions[id]
	return ok
}

// Peek returns the pool's session with this id, or nil, leaving it as it is (Get drops
// a session whose page closed, which only its owner may cause).
func (p *Pool) Peek(id string) *Session {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sessions[id]
}

// Internal is the internal addresses the pool's browsers may reach (Config.Internal).
func (p *Pool) Internal() sites.Internal { return p.cfg.Internal }

// Logger is the log the pool writes to.
func (p *Pool) Logger() *slog.Logger { return p.log }
