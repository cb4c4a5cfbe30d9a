package driver

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// turn serialises the activities that use a session's page, one at a time (a waiting
// activity gives up when its context ends), and says when the page was last used.
type turn struct {
	ch       chan struct{}
	lastUsed atomic.Int64
}

func (t *turn) touch() { t.lastUsed.Store(time.Now().UnixNano()) }

// Acquire takes the page for one activity, waiting for the one before to release it or
// for ctx to end; Release gives it back.
func (s *Session) Acquire(ctx context.Context) error {
	select {
	case s.turn.ch <- struct{}{}:
		s.turn.touch()
		if note := s.back(); note != "" {
			s.notes.add(note)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for the browser session: %w", context.Cause(ctx))
	}
}

// Release gives the page back.
func (s *Session) Release() { s.turn.touch(); <-s.turn.ch }

// LastUsed is when an activity last used the session.
func (s *Session) LastUsed() time.Time { return time.Unix(0, s.turn.lastUsed.Load()) }
