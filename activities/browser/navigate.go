package browser

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"
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
