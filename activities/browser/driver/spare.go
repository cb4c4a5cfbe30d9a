package driver

import (
	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/internal/egress"
)

// spare is a browser context opened ahead of need, with its page and the page script,
// for the next run that restores no saved state. A new page starts a renderer process —
// about 200 ms on two cores, most of opening a browser — which the run then need not
// wait for.
type spare struct {
	browser playwright.Browser
	ctx     playwright.BrowserContext
	page    playwright.Page
	// proxy is the context's egress proxy, with no policy until a run takes the spare:
	// until then the context reaches nothing.
	proxy *egress.Proxy
}

// close closes the context and then its proxy, in the background.
func (sp *spare) close() {
	go func() {
		_ = sp.ctx.Close()
		_ = sp.proxy.Close()
	}()
}
