package driver

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/internal/egress"
)

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
	if err := s.sites.check(ctx, abs); err != nil {
		return 0, err
	}
	resp, err := s.page.Goto(abs, playwright.PageGotoOptions{WaitUntil: playwright.WaitUntilStateLoad, Timeout: ms(bounded(ctx, 30*time.Second))})
	refused := s.sites.refused.peek() // left for the step to report
	if err != nil && len(refused) > 0 {
		// The proxy refused where the page (or a redirect of it) was going.
		return 0, &BlockedError{Reason: refused[0]}
	}
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", abs, err)
	}
	if resp != nil {
		if v, _ := resp.HeaderValue(egress.RefusedHeader); v != "" {
			s.leave()
			reason := "the worker's egress proxy refused it"
			if len(refused) > 0 {
				reason = refused[0]
			}
			return 0, &BlockedError{Reason: reason}
		}
	}
	if reason := s.keepOnSites(); reason != "" {
		// A redirect took the page off the run's sites.
		return 0, &BlockedError{Reason: reason}
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

// keepOnSites says why the page is not on one of the run's sites ("" when it is), and
// then takes it off that address.
func (s *Session) keepOnSites() string {
	reason := s.sites.outside(s.page.URL())
	if reason != "" {
		s.leave()
	}
	return reason
}

// leave takes the page off an address outside the run's sites: back to where it came
// from when that is one of them, else to a blank page.
func (s *Session) leave() {
	if r, err := s.page.GoBack(playwright.PageGoBackOptions{Timeout: playwright.Float(10000)}); err == nil && r != nil && s.sites.outside(s.page.URL()) == "" {
		return
	}
	_, _ = s.page.Goto("about:blank")
}
