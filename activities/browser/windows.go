package browser

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"
)

// The page's other windows and its downloads.
//
// A window the page opens while a step acts (a link with target=_blank, a window.open) is
// followed: the step's effect is read in it, and the steps after work in it. When it
// closes itself (a sign-in popup that is done), the run goes back to the window that
// opened it. A window the page opens when no step acts (an advert on a timer) is closed
// at once and reported with the next step. All of them close with the run's browser.
//
// A file the page downloads while a step acts is kept, up to MaxDownloadBytes, for the
// step to store and list; the step counts it as its effect.

// MaxDownloadBytes caps one stored download; a larger one is reported, not stored.
const MaxDownloadBytes = 50 << 20

// Download is a file the page downloaded during a step.
type Download struct {
	// Name is the file name the site suggested; URL, where it came from.
	Name, URL string
	Data      []byte
	// Err says why the file could not be kept.
	Err error
}

// watch counts page p's requests, answers its dialogs and keeps its downloads.
func (s *Session) watch(p playwright.Page) {
	p.OnRequest(func(r playwright.Request) {
		if strings.HasPrefix(r.URL(), "data:") {
			return
		}
		s.inflight.Add(1)
		switch r.Method() {
		case "GET", "HEAD", "OPTIONS":
		default:
			s.mutations.Add(1)
		}
	})
	done := func(r playwright.Request) {
		if !strings.HasPrefix(r.URL(), "data:") {
			s.inflight.Add(-1)
		}
	}
	p.OnRequestFinished(done)
	p.OnRequestFailed(done)
	p.OnDialog(s.onDialog)
	p.OnDownload(s.onDownload)
}

// onPage sees every new window of the context.
func (s *Session) onPage(p playwright.Page) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p == s.page {
		return
	}
	s.watch(p)
	if s.acting {
		s.opened = append(s.opened, p)
		return
	}
	s.notes = append(s.notes, "closed a window the page opened by itself")
	go func() { _ = p.Close() }()
}

// onDownload keeps a file the page downloads. Reading it waits for the download to end,
// so it is done off the event loop; the step waits for it (takeDownloads).
func (s *Session) onDownload(d playwright.Download) {
	s.downloading.Add(1)
	go func() {
		defer s.downloading.Done()
		dl := Download{Name: d.SuggestedFilename(), URL: d.URL()}
		path, err := d.Path()
		if err == nil {
			dl.Data, err = readCapped(path, MaxDownloadBytes)
		}
		if err != nil {
			dl.Err = err
			_ = d.Cancel()
		}
		s.mu.Lock()
		s.downloads = append(s.downloads, dl)
		s.mu.Unlock()
	}()
}

func readCapped(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read the downloaded file: %w", err)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("the file is %d bytes, more than the %d a download may keep", fi.Size(), limit)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the downloaded file: %w", err)
	}
	return data, nil
}

// awaitWindow waits, for up to two seconds, for the window the page asked for during the
// action that began at actAt (as the Settle after it read) to reach the session: on a busy
// machine its event can come after the page is quiet again, and a window that comes after
// the step would be taken for one the page opened by itself.
func (s *Session) awaitWindow(ctx context.Context, actAt time.Time) {
	if s.windowAsked.IsZero() || s.windowAsked.Before(actAt.Add(-100*time.Millisecond)) {
		return
	}
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); {
		s.mu.Lock()
		n := len(s.opened)
		s.mu.Unlock()
		if n > 0 || sleep(ctx, 20*time.Millisecond) != nil {
			return
		}
	}
}

// setActing says whether a step is acting now: windows opened meanwhile are its own.
func (s *Session) setActing(acting bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.acting = acting
}

// follow moves the session to the last window the step opened that is still open and
// shows a page, lets it load, and says so. A window left empty (its navigation was
// blocked, or it never went anywhere) is closed.
func (s *Session) follow(ctx context.Context, settle time.Duration) ([]string, error) {
	s.mu.Lock()
	opened := s.opened
	s.opened = nil
	s.mu.Unlock()
	var next playwright.Page
	var notes []string
	for _, p := range opened {
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
	s.mu.Lock()
	s.openers = append(s.openers, s.page)
	s.page = next
	s.mu.Unlock()
	if err := s.Settle(ctx, settle); err != nil {
		return nil, err
	}
	return append(notes, "followed the new window it opened: "+s.redact(next.URL())), nil
}

// back returns to the window that opened the current one when the current one has
// closed itself, and says so.
func (s *Session) back() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.page.IsClosed() {
		return ""
	}
	for n := len(s.openers); n > 0; n = len(s.openers) {
		p := s.openers[n-1]
		s.openers = s.openers[:n-1]
		if !p.IsClosed() {
			s.page = p
			return "the window the run was in closed itself; back in the window that opened it"
		}
	}
	return ""
}

// takeDownloads waits, up to limit, for the downloads in progress, and takes the ones
// the page made.
func (s *Session) takeDownloads(ctx context.Context, limit time.Duration) []Download {
	done := make(chan struct{})
	go func() { s.downloading.Wait(); close(done) }()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	dl := s.downloads
	s.downloads = nil
	return dl
}
