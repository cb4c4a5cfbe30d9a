package driver

import (
	"context"
	"time"

	"github.com/playwright-community/playwright-go"
)

// onPage sees every new window of the context.
func (s *Session) onPage(p playwright.Page) {
	s.windows.mu.Lock()
	defer s.windows.mu.Unlock()
	if p == s.page {
		return
	}
	s.watch(p)
	// Not on this goroutine: it delivers the browser's answers, the one this waits for too.
	go accessible(s.ctx, p)
	if s.windows.acting {
		s.windows.opened = append(s.windows.opened, p)
		return
	}
	s.notes.add("closed a window the page opened by itself")
	go func() { _ = p.Close() }()
}

// Closed reports whether the page is gone (closed, or its browser crashed).
func (s *Session) Closed() bool {
	s.windows.mu.Lock()
	defer s.windows.mu.Unlock()
	if !s.page.IsClosed() {
		return false
	}
	for _, p := range s.windows.openers {
		if !p.IsClosed() {
			return false
		}
	}
	return true
}

// awaitWindow waits, for up to two seconds, for the window the page asked for during the
// action that began at actAt (as the Settle after it read) to reach the session: on a busy
// machine its event can come after the page is quiet again, and a window that comes after
// the step would be taken for one the page opened by itself.
func (s *Session) awaitWindow(ctx context.Context, actAt time.Time) {
	asked := s.windows.asked
	if asked.IsZero() || asked.Before(actAt.Add(-100*time.Millisecond)) {
		return
	}
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); {
		s.windows.mu.Lock()
		n := len(s.windows.opened)
		s.windows.mu.Unlock()
		if n > 0 || sleep(ctx, 20*time.Millisecond) != nil {
			return
		}
	}
}

// follow moves the session to the last window the step opened that is still open and
// shows a page, lets it load, and says so. A window left empty (its navigation was
// blocked, or it never went anywhere) is closed.
func (s *Session) follow(ctx context.Context, settle time.Duration) ([]string, error) {
	var next playwright.Page
	var notes []string
	for _, p := range s.windows.takeOpened() {
		_ = p.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateLoad, Timeout: ms(bounded(ctx, settle))})
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		switch {
		case p.IsClosed():
		case p.URL() == "" || p.URL() == "about:blank":
			notes = append(notes, "closed an empty window it opened")
			_ = p.Close()
		default:
			next = p
		}
	}
	if next == nil {
		return notes, nil
	}
	s.windows.mu.Lock()
	s.windows.openers = append(s.windows.openers, s.page)
	s.page = next
	s.windows.mu.Unlock()
	if err := s.Settle(ctx, settle); err != nil {
		return nil, err
	}
	return append(notes, "followed the new window it opened: "+s.secrets.redact(next.URL())), nil
}

// back returns to the window that opened the current one when the current one has
// closed itself, and says so.
func (s *Session) back() string {
	s.windows.mu.Lock()
	defer s.windows.mu.Unlock()
	if !s.page.IsClosed() {
		return ""
	}
	for n := len(s.windows.openers); n > 0; n = len(s.windows.openers) {
		p := s.windows.openers[n-1]
		s.windows.openers = s.windows.openers[:n-1]
		if !p.IsClosed() {
			s.page = p
			return "the window the run was in closed itself; back in the window that opened it"
		}
	}
	return ""
}
