package driver

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
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
	var err error
	// A frame the page removes while it is being masked (an editor's iframe, gone on
	// save) fails the picture: it is taken again with the frames as they are now.
	for try := 0; try < 3; try++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var png []byte
		if png, err = s.screenshot(); err == nil {
			return png, nil
		}
		if !detached(err) {
			break
		}
	}
	return nil, fmt.Errorf("screenshot: %w", err)
}

// screenshot is one try of Screenshot.
func (s *Session) screenshot() ([]byte, error) {
	masks, masked := s.masks(s.secrets.all())
	if masked == 0 {
		if png, err := s.quickShot(); err == nil {
			return png, nil
		}
	}
	return s.page.Screenshot(playwright.PageScreenshotOptions{
		Type: playwright.ScreenshotTypePng,
		Mask: masks,
	})
}

// masks are what a screenshot covers, frame by frame, and how many elements they hold:
// password and one-time-code fields, and with secrets, the text that shows one (marked in
// the page's DOM first: a "show password" toggle, a PIN field).
func (s *Session) masks(secrets []string) ([]playwright.Locator, int) {
	// Locators pierce open shadow roots; each frame needs its own.
	var masks []playwright.Locator
	masked := 0
	for _, f := range s.page.Frames() {
		if f.IsDetached() {
			continue
		}
		sel := secretFields
		if len(secrets) > 0 {
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
	return masks, masked
}

// plainShot is the screenshot of a page with nothing to mask, taken the quick way and
// without touching the page's DOM; nil when the run knows secrets or the page has a field
// to mask (Screenshot marks or covers them, which changes the DOM).
func (s *Session) plainShot() []byte {
	if len(s.secrets.all()) > 0 {
		return nil
	}
	if _, masked := s.masks(nil); masked > 0 {
		return nil
	}
	png, err := s.quickShot()
	if err != nil {
		return nil
	}
	return png
}

// beforeShot is the screenshot of the page before a step acts: the one the previous step
// ended with when it is a moment old and the page's elements, values and address are as
// they were then (nothing happened in between), else a new one.
func (s *Session) beforeShot(ctx context.Context, obs page.Observation) ([]byte, time.Time, error) {
	if l := s.shots.last; l.png != nil && l.fingerprint == obs.Fingerprint && l.url == obs.URL && time.Since(l.at) < reuseShot {
		return l.png, l.at, nil
	}
	at := time.Now()
	png, err := s.Screenshot(ctx)
	return png, at, err
}

// quickShot captures the viewport through the DevTools protocol with Chromium's fast PNG
// encoder. The protocol session belongs to the page it was opened on, and is opened again
// when the session has moved to another window. A page leaving for another may give no
// picture at all: after quickShotWait the session is let go (a new one serves the next
// picture) and the picture is an error.
func (s *Session) quickShot() ([]byte, error) {
	sh := &s.shots
	sh.mu.Lock()
	if sh.cdp == nil || sh.cdpPage != s.page {
		if sh.cdp != nil {
			_ = sh.cdp.Detach()
		}
		sh.cdp, sh.cdpPage = nil, nil
		cdp, err := s.ctx.NewCDPSession(s.page)
		if err != nil {
			sh.mu.Unlock()
			return nil, err
		}
		sh.cdp, sh.cdpPage = cdp, s.page
	}
	cdp := sh.cdp
	sh.mu.Unlock()
	type answer struct {
		v   any
		err error
	}
	got := make(chan answer, 1)
	go func() {
		v, err := cdp.Send("Page.captureScreenshot", map[string]any{"format": "png", "optimizeForSpeed": true})
		got <- answer{v, err}
	}()
	var a answer
	select {
	case a = <-got:
	case <-time.After(quickShotWait):
		sh.mu.Lock()
		if sh.cdp == cdp {
			sh.cdp, sh.cdpPage = nil, nil
		}
		sh.mu.Unlock()
		go func() { _ = cdp.Detach() }()
		return nil, errors.New("the page gave no picture in time")
	}
	if a.err != nil {
		return nil, a.err
	}
	m, _ := a.v.(map[string]any)
	data, _ := m["data"].(string)
	if data == "" {
		return nil, errors.New("screenshot: the browser sent no picture")
	}
	return base64.StdEncoding.DecodeString(data)
}

// quickShotWait is how long quickShot waits for the browser's picture.
const quickShotWait = 3 * time.Second
