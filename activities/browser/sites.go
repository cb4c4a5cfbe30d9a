package browser

import (
	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/internal/sites"
)

// BlockedError is a navigation the run's site policy does not allow.
type BlockedError struct{ Reason string }

func (e *BlockedError) Error() string { return "blocked: " + e.Reason }

// guard keeps the page on the run's sites: a navigation of any frame — a link, a form, a
// redirect, a script, a popup — to an address the policy refuses is answered "204 No
// Content" in the browser, so the page stays where it was, and remembered, for the step
// to report. Other requests (images, scripts, styles from a
// CDN) pass: only where the page goes is the run's to decide.
func (s *Session) guard(bctx playwright.BrowserContext, p *sites.Policy) error {
	s.sites = p
	return bctx.Route("**/*", func(r playwright.Route) {
		req := r.Request()
		if req.IsNavigationRequest() {
			if err := p.Check(req.URL()); err != nil {
				s.mu.Lock()
				s.blocked = append(s.blocked, err.Error())
				s.mu.Unlock()
				// "No Content": the browser stays on the page it was on, where an abort
				// would show its own error page.
				_ = r.Fulfill(playwright.RouteFulfillOptions{Status: playwright.Int(204)})
				return
			}
		}
		_ = r.Continue()
	})
}
