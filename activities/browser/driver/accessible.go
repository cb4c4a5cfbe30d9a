package driver

import "github.com/playwright-community/playwright-go"

// accessible turns the browser's accessibility tree on for the page, before it loads
// what the run opens: observe.js then reads each element's role and accessible name as
// Chromium computes them (the role a submit input has, the name a label gives its field),
// at a few microseconds an element. With the tree off, every element would have it built
// for it afresh, a thousand times slower. The protocol session stays open with the page;
// where it cannot be opened, the page script says what the page alone tells.
func accessible(bctx playwright.BrowserContext, p playwright.Page) {
	cdp, err := bctx.NewCDPSession(p)
	if err != nil {
		return
	}
	if _, err := cdp.Send("Accessibility.enable", nil); err != nil {
		_ = cdp.Detach()
	}
}
