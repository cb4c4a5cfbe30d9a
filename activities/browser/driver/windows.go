package driver

import (
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"
)

// The page's other windows.
//
// A window the page opens while a step acts (a link with target=_blank, a window.open) is
// followed: the step's effect is read in it, and the steps after work in it. When it
// closes itself (a sign-in popup that is done), the run goes back to the window that
// opened it. A window the page opens when no step acts (an advert on a timer) is closed
// at once and reported with the next step. All of them close with the run's browser.

// windows are the session's windows other than the one the run is in. mu also guards the
// switch of Session.page.
type windows struct {
	mu sync.Mutex
	// acting says a step is acting now; opened are the windows it opened, openers the
	// windows the session left for them.
	acting  bool
	opened  []playwright.Page
	openers []playwright.Page
	// asked is when the page last asked for a new window, as the last Settle read it
	// (zero when it could not say); only the step's goroutine uses it.
	asked time.Time
}

// setActing says whether a step is acting now: windows opened meanwhile are its own.
func (w *windows) setActing(acting bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.acting = acting
}

// takeOpened returns the windows the step opened, and forgets them.
func (w *windows) takeOpened() []playwright.Page {
	w.mu.Lock()
	defer w.mu.Unlock()
	opened := w.opened
	w.opened = nil
	return opened
}
