package driver

import (
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
)

// shots are the session's screenshots: the one the last step ended with, which the next
// may reuse (beforeShot), and the DevTools session of cdpPage, for quickShot.
type shots struct {
	last shot
	// mu guards the protocol session quickShot takes pictures through: settle takes one
	// in the background while the step goes on.
	mu      sync.Mutex
	cdp     playwright.CDPSession
	cdpPage playwright.Page
}

// shot is a screenshot and the page it shows.
type shot struct {
	fingerprint, url string
	png              []byte
	at               time.Time
}

// reuseShot is how long the screenshot taken at the end of a step stands for the page at
// the start of the next, when the page's elements have not changed since.
const reuseShot = 2 * time.Second

// remember keeps the screenshot a step ended with (taken at, at the latest, now).
func (sh *shots) remember(obs page.Observation, png []byte, at time.Time) {
	sh.last = shot{fingerprint: obs.Fingerprint, url: obs.URL, png: png, at: at}
}
