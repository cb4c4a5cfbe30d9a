package driver

import (
	"github.com/webagent-dev/webagent/activities/timing"

	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/internal/egress"
)

//go:embed listeners.js
var listenersJS string

// secretFields are masked in every screenshot: their contents never leave the browser.
const secretFields = `input[type=password], input[autocomplete="one-time-code"]`

// MaxElements caps the element list of one observation.
const MaxElements = 300

// Session is one run's browser context and page. It is composed by concern, each part
// with its own lock and in its own file: the page the run is in and whose turn it is to
// use it (turn.go), the page's requests (traffic.go), the secrets it typed (redact.go),
// where it may go (sites.go), its dialogs (dialogs.go), its other windows (windows.go,
// followed by follow.go) and downloads (downloads.go), the screenshots it takes (shots.go,
// screenshot.go) and the timing a WAIT sets for the next action (pace.go). A part's type
// never names the Session: the session's methods that use a part live apart from it.
type Session struct {
	ID string
	// owner is the workflow whose run opened the session: only its runs (that one and
	// those it continues as, which share its ID) may use or close it. OpenBrowser sets it
	// once, under ownerMu (Claim); read it with OwnedBy.
	owner   string
	ownerMu sync.Mutex
	// StartStatus is the HTTP status the page it was opened at answered with (0: none).
	StartStatus int
	// Opened is where opening the session went.
	Opened timing.Open

	ctx playwright.BrowserContext
	// egress is the context's own proxy, through which it reaches the network.
	egress *egress.Proxy
	// page is the window the run is in: windows.go moves it to a window a step opened,
	// and back, under windows.mu.
	page playwright.Page

	turn      turn
	traffic   traffic
	secrets   redactor
	sites     siteGuard
	dialogs   dialogs
	windows   windows
	downloads downloads
	// notes are what happened to the page between steps (a window it closed, a tab it
	// opened to reveal a target), for the next step to report.
	notes notes
	// fresh is what the last step that acted brought onto the page (fresh.go).
	fresh fresh
	// near is where the last step that acted did (fresh.go).
	near near
	// unfolded is the heading of a menu's section the last reveal brought into sight
	// (revealInSection): the text a click may be aimed at (aimAtText).
	unfolded string
	// steps counts the attempts made (Do), and through is the link the last click showed
	// again in the menu it opened (menuthrough.go).
	steps   int
	through through
	shots   shots
	pace    pacer
	// uploads is the folder of the files the run gave the page (runfiles.go), removed with
	// the session.
	uploads uploads
}

// watch follows page p's events: its requests, dialogs and downloads.
func (s *Session) watch(p playwright.Page) {
	s.traffic.watch(p)
	p.OnDialog(func(d playwright.Dialog) { s.dialogs.answer(d, s.secrets.redact) })
	p.OnFrameNavigated(s.sites.committed)
	p.OnDownload(s.downloads.keep)
}

func (s *Session) close() error {
	defer s.uploads.remove()
	err := s.ctx.Close()
	_ = s.egress.Close()
	return err
}

// closeQuietly lets the page finish what it is sending, then closes it.
func (s *Session) closeQuietly() error {
	s.traffic.quiet(closeQuiet, closeGrace)
	return s.close()
}

// Apps save a moment after a change, in the background (a wiki syncs a second later, an
// editor on a timer): a closing page is kept until it has been quiet for closeQuiet since
// its last request and the run's last action, at most closeGrace, so that what the run did
// reaches the app's server. The run does not wait for it: the pool closes in the
// background.
const (
	closeQuiet = 2 * time.Second
	closeGrace = 10 * time.Second
)

// Claim makes workflow the owner of a session no one owns yet, and says whether the
// session is workflow's: false when another workflow opened it.
func (s *Session) Claim(workflow string) bool {
	s.ownerMu.Lock()
	defer s.ownerMu.Unlock()
	if s.owner == "" {
		s.owner = workflow
	}
	return s.owner == workflow
}

// OwnedBy says whether the session is workflow's. A session whose open has not yet
// claimed it is no one's.
func (s *Session) OwnedBy(workflow string) bool {
	s.ownerMu.Lock()
	defer s.ownerMu.Unlock()
	return s.owner != "" && s.owner == workflow
}

// URL is the page's current address.
func (s *Session) URL() string { return s.page.URL() }

// StorageState returns the context's cookies and local storage as JSON.
func (s *Session) StorageState() ([]byte, error) {
	st, err := s.ctx.StorageState()
	if err != nil {
		return nil, fmt.Errorf("storage state: %w", err)
	}
	return json.Marshal(st)
}

// Title returns the page's title, or "" if the page is between documents.
func (s *Session) Title() string {
	t, err := s.page.Title()
	if err != nil {
		return ""
	}
	return t
}

// LastUsed is when an activity last used the session.
func (s *Session) LastUsed() time.Time { return time.Unix(0, s.turn.lastUsed.Load()) }

// Mutations returns the count of state-changing requests the page has sent so far.
func (s *Session) Mutations() int64 { return s.traffic.mutations.Load() }
