package browser

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/playwright-community/playwright-go"
)

// Screenshot takes a PNG of the viewport with password and one-time-code fields, and any
// text showing a typed secret, masked.
//
// With nothing to mask on the page (the usual case) it asks Chromium for the picture
// directly, with its fast PNG encoder: a third of the wall time and half the browser's CPU
// of Playwright's screenshot (`go test -bench Screenshot ./activities/browser/`), which
// matters most when a small machine runs several goals at once. With something to mask it
// goes through Playwright's masks, which cover the fields in every frame and shadow root.
func (s *Session) Screenshot(ctx context.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Locators pierce open shadow roots; each frame needs its own.
	var masks []playwright.Locator
	masked := 0
	secrets := s.secretValues()
	for _, f := range s.page.Frames() {
		sel := secretFields
		if len(secrets) > 0 {
			// A secret the page shows as text (a "show password" toggle, a PIN field) is
			// masked as well.
			if _, err := f.Evaluate(markSecretsJS, secrets); err == nil {
				sel += ", [data-webagent-secret]"
			}
		}
		l := f.Locator(sel)
		masks = append(masks, l)
		n, err := l.Count()
		if err != nil {
			n = 1 // a frame that could not be asked is masked the careful way
		}
		masked += n
	}
	if masked == 0 {
		if png, err := s.quickShot(); err == nil {
			return png, nil
		}
	}
	png, err := s.page.Screenshot(playwright.PageScreenshotOptions{
		Type: playwright.ScreenshotTypePng,
		Mask: masks,
	})
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	return png, nil
}

// quickShot captures the viewport through the DevTools protocol with Chromium's fast PNG
// encoder. The protocol session belongs to the page it was opened on, and is opened again
// when the session has moved to another window.
func (s *Session) quickShot() ([]byte, error) {
	if s.cdp == nil || s.cdpPage != s.page {
		if s.cdp != nil {
			_ = s.cdp.Detach()
		}
		s.cdp, s.cdpPage = nil, nil
		cdp, err := s.ctx.NewCDPSession(s.page)
		if err != nil {
			return nil, err
		}
		s.cdp, s.cdpPage = cdp, s.page
	}
	v, err := s.cdp.Send("Page.captureScreenshot", map[string]any{"format": "png", "optimizeForSpeed": true})
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	data, _ := m["data"].(string)
	if data == "" {
		return nil, errors.New("screenshot: the browser sent no picture")
	}
	return base64.StdEncoding.DecodeString(data)
}
