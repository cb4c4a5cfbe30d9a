package driver

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
)

//go:embed observe.js
var observeJS string

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
		s.secrets.observation(&obs)
		s.fresh.mark(&obs)
		s.near.mark(&obs)
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
