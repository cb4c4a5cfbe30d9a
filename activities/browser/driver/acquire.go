package driver

import (
	"context"
	"fmt"
)

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
