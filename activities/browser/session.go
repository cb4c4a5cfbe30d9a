package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/sites"
)

//go:embed observe.js
var observeJS string

//go:embed listeners.js
var listenersJS string

// quietJS resolves once the DOM has had no mutation for shortMs, or, on a page that is
// still changing (a mutation came while it waited), for longMs since the last one; and
// after maxMs in any case. It resolves with when the page last asked for a new window
// (listeners.js), 0 for never.
const quietJS = `([shortMs, longMs, maxMs]) => new Promise((resolve) => {
  let timer;
  const obs = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, longMs); });
  function done() { obs.disconnect(); resolve(window.__webagentOpenedAt || 0); }
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  timer = setTimeout(done, shortMs);
  setTimeout(done, maxMs);
})`

// visibleTextJS reads the page's text, with its open shadow roots' and same-origin
// iframes' text, and, when fields is true, the values of its fields (never of secret ones).
const visibleTextJS = `(fields) => {
  const parts = [];
  const read = (root) => {
    if (root.body) parts.push(root.body.innerText);
    if (fields) for (const el of root.querySelectorAll("input, textarea, select")) {
      if (el.type === "password" || el.autocomplete === "one-time-code") continue;
      if (el.tagName === "SELECT") { if (el.selectedOptions[0]) parts.push(el.selectedOptions[0].label); continue; }
      if (el.value && el.type !== "hidden") parts.push(el.value);
    }
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) {
        for (const c of el.shadowRoot.children) if (c.innerText) parts.push(c.innerText);
        read(el.shadowRoot);
      }
      if (el.tagName === "IFRAME") {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc) read(doc);
      }
    }
  };
  read(document);
  return parts.join("\n");
}`

// secretFields are masked in every screenshot: their contents never leave the browser.
const secretFields = `input[type=password], input[autocomplete="one-time-code"]`

// MaxElements caps the element list of one observation.
const MaxElements = 300

// Session is one run's browser context and page.
type Session struct {
	ID string
	// StartStatus is the HTTP status the page it was opened at answered with (0: none).
	StartStatus int

	ctx  playwright.BrowserContext
	page playwright.Page

	// turn serialises the activities that use the page, one at a time; a waiting
	// activity gives up when its context ends.
	turn     chan struct{}
	lastUsed atomic.Int64
	inflight atomic.Int64
	// mutations counts requests that may change server state (not GET, HEAD or OPTIONS).
	mutations atomic.Int64

	mu sync.Mutex
	// secrets are the values typed from {{secret:name}}: redacted from all it reports.
	secrets []string
	// sites is where the page may go; blocked are the navigations it was kept from
	// since the last step took them.
	sites   *sites.Policy
	blocked []string
	// acceptDialog says the step acting now accepts a confirm(); dialogs are the ones
	// answered since the step took them.
	acceptDialog bool
	dialogs      []string
	// acting says a step is acting now; opened are the windows it opened, openers the
	// windows the session left for them; notes, what happened to windows since the last
	// step took them. downloads are the files downloaded since the step took them.
	acting      bool
	opened      []playwright.Page
	openers     []playwright.Page
	notes       []string
	downloads   []Download
	downloading sync.WaitGroup
	// last is the screenshot the last step ended with (beforeShot).
	last shot
	// actedAt is when the last step that acts did its action, and leadIn how long that
	// step took from its start to its action: a WAIT counts from the one and allows for
	// the other (wait.go's paced). notBefore is when a WAIT says the next action may come.
	actedAt   time.Time
	leadIn    time.Duration
	notBefore time.Time
	// windowAsked is when the page last asked for a new window, as the last Settle read it
	// (zero when it could not say).
	windowAsked time.Time
	// cdp is the DevTools session of cdpPage, for quickShot.
	cdp     playwright.CDPSession
	cdpPage playwright.Page
}

// shot is a screenshot and the page it shows.
type shot struct {
	fingerprint, url string
	png              []byte
	at               time.Time
}

func newSession(id string, bctx playwright.BrowserContext, page playwright.Page) *Session {
	s := &Session{ID: id, ctx: bctx, page: page, turn: make(chan struct{}, 1)}
	s.touch()
	s.watch(page)
	bctx.OnPage(s.onPage)
	return s
}

// Acquire takes the page for one activity, waiting for the one before to release it or
// for ctx to end; Release gives it back.
func (s *Session) Acquire(ctx context.Context) error {
	select {
	case s.turn <- struct{}{}:
		s.touch()
		if note := s.back(); note != "" {
			s.mu.Lock()
			s.notes = append(s.notes, note)
			s.mu.Unlock()
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for the browser session: %w", context.Cause(ctx))
	}
}

// Release gives the page back.
func (s *Session) Release() { s.touch(); <-s.turn }

// LastUsed is when an activity last used the session.
func (s *Session) LastUsed() time.Time { return time.Unix(0, s.lastUsed.Load()) }

func (s *Session) touch() { s.lastUsed.Store(time.Now().UnixNano()) }

func (s *Session) close() error { return s.ctx.Close() }

// Closed reports whether the page is gone (closed, or its browser crashed).
func (s *Session) Closed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.page.IsClosed() {
		return false
	}
	for _, p := range s.openers {
		if !p.IsClosed() {
			return false
		}
	}
	return true
}

// URL is the page's current address.
func (s *Session) URL() string { return s.page.URL() }

// Goto opens u (relative to the current page if it has no scheme and host) and waits for
// it to load. It returns the HTTP status; 0 when there was no response (same-document).
func (s *Session) Goto(ctx context.Context, u string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	switch strings.ToLower(u) {
	case "back":
		_, err := s.page.GoBack()
		return 0, err
	case "forward":
		_, err := s.page.GoForward()
		return 0, err
	case "reload":
		resp, err := s.page.Reload()
		return status(resp), err
	}
	abs, err := s.absolute(u)
	if err != nil {
		return 0, err
	}
	if s.sites != nil {
		if err := s.sites.CheckResolved(ctx, abs, lookup); err != nil {
			return 0, &BlockedError{Reason: err.Error()}
		}
	}
	resp, err := s.page.Goto(abs, playwright.PageGotoOptions{WaitUntil: playwright.WaitUntilStateLoad, Timeout: ms(bounded(ctx, 30*time.Second))})
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", abs, err)
	}
	return status(resp), nil
}

func status(r playwright.Response) int {
	if r == nil {
		return 0
	}
	return r.Status()
}

// absolute resolves a URL as a person writes it: "example.com/x" is http://example.com/x,
// "/projects" is relative to the current page.
func (s *Session) absolute(u string) (string, error) {
	if !strings.Contains(u, "://") && !strings.HasPrefix(u, "/") {
		u = "http://" + u
	}
	ref, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("%q is not a URL: %w", u, err)
	}
	if ref.IsAbs() {
		return ref.String(), nil
	}
	base, err := url.Parse(s.page.URL())
	if err != nil || base.Scheme == "" || base.Scheme == "about" {
		return "", fmt.Errorf("%q is relative but the page has no address to resolve it against", u)
	}
	return base.ResolveReference(ref).String(), nil
}

// Observe lists the visible interactive elements and fingerprints the page. It keeps the
// live nodes in the page for Element.
func (s *Session) Observe(ctx context.Context) (page.Observation, error) {
	var obs page.Observation
	for try := 0; ; try++ {
		if err := ctx.Err(); err != nil {
			return obs, err
		}
		v, err := s.page.Evaluate(observeJS, MaxElements)
		if err != nil {
			// A navigation between the act and the observation destroys the context; wait
			// for the new document and look again.
			if try < 3 && isContextGone(err) {
				_ = s.page.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateLoad, Timeout: ms(bounded(ctx, 5*time.Second))})
				continue
			}
			return obs, fmt.Errorf("observe the page: %w", err)
		}
		if err := decode(v, &obs); err != nil {
			return obs, fmt.Errorf("observe the page: %w", err)
		}
		s.redactObservation(&obs)
		return obs, nil
	}
}

func isContextGone(err error) bool {
	m := err.Error()
	return strings.Contains(m, "Execution context was destroyed") || strings.Contains(m, "navigation") ||
		strings.Contains(m, "Cannot find context")
}

// element returns the live node of the last observation's element i, from the frame
// it lives in: Playwright acts on a node through its own frame.
func (s *Session) element(i int) (playwright.ElementHandle, error) {
	main := s.page.MainFrame()
	h, err := main.EvaluateHandle(`(i) => (window.__webagent && window.__webagent.nodes[i]) || null`, i)
	if err != nil {
		return nil, fmt.Errorf("element %d: %w", i, err)
	}
	if el := h.AsElement(); el != nil {
		return el, nil
	}
	for _, f := range s.page.Frames() {
		if f == main {
			continue
		}
		h, err := f.EvaluateHandle(`(i) => (window.__webagentLocal && window.__webagentLocal[i]) || null`, i)
		if err != nil {
			continue // a cross-origin or detached frame
		}
		if el := h.AsElement(); el != nil {
			return el, nil
		}
	}
	return nil, fmt.Errorf("element %d is no longer on the page", i)
}

// The quiet windows of Settle, in milliseconds: a page that answered an action at once
// (its change done when the action returned) is read after quietShort without a DOM
// change; one still changing, after quietLong without one. A request the page sends
// is waited for either way, and what comes later still is the step's check's to wait for
// (a click whose effect is not yet visible waits up to 1.5 s for a change) and the next
// step's target wait's.
const (
	quietShort = 60
	quietLong  = 120
)

// Settle waits, at most limit, for the page's requests to finish and its DOM to stay
// quiet. It returns ctx's error, at once, when ctx ends first.
func (s *Session) Settle(ctx context.Context, limit time.Duration) error {
	s.windowAsked = time.Time{}
	deadline := time.Now().Add(limit)
	if err := s.requestsDone(ctx, deadline); err != nil {
		return err
	}
	left := func() time.Duration { return bounded(ctx, time.Until(deadline)) }
	if time.Until(deadline) <= 0 {
		return nil
	}
	_ = s.page.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateLoad, Timeout: ms(left())})
	if err := ctx.Err(); err != nil {
		return err
	}
	quiet := min(left(), 1500*time.Millisecond)
	v, err := s.page.Evaluate(quietJS, []int{quietShort, quietLong, int(quiet.Milliseconds())})
	if err != nil && isContextGone(err) {
		_ = s.page.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateLoad, Timeout: ms(max(left(), 100*time.Millisecond))})
	}
	if at, ok := v.(int); ok && at > 0 {
		s.windowAsked = time.UnixMilli(int64(at))
	}
	return s.requestsDone(ctx, deadline)
}

// requestsDone waits until the page has no request in flight or deadline passes; it
// returns ctx's error when ctx ends first.
func (s *Session) requestsDone(ctx context.Context, deadline time.Time) error {
	for s.inflight.Load() > 0 && time.Now().Before(deadline) {
		if err := sleep(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Mutations returns the count of state-changing requests the page has sent so far.
func (s *Session) Mutations() int64 { return s.mutations.Load() }

// VisibleText returns the text a person can read on the page, with the values of its
// fields (but never of password fields).
func (s *Session) VisibleText(ctx context.Context) (string, error) { return s.text(ctx, true) }

// ShownText is the text the page itself shows, without the values of its fields: what
// a step's effect is looked for in (a value the agent typed is no evidence of anything).
func (s *Session) ShownText(ctx context.Context) (string, error) { return s.text(ctx, false) }

func (s *Session) text(ctx context.Context, fields bool) (string, error) {
	return s.readText(ctx, visibleTextJS, fields, "the page's text")
}

// readText runs one of the page's text readers (js, given whether to take the fields'
// values) and takes the secrets the session typed out of what it read.
func (s *Session) readText(ctx context.Context, js string, fields bool, what string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	v, err := s.page.Evaluate(js, fields)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", what, err)
	}
	text, _ := v.(string)
	return s.redact(text), nil
}

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
