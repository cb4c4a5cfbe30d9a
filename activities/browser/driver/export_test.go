package driver

import (
	"errors"

	"github.com/webagent-dev/webagent/activities/page"
)

// ClickableNow says whether a click on the element sel names (on the page, or in the
// open shadow root of #host) would be pressed at once, with the page's own checks
// (clickPointJS), given the box an observation saw moved right by dx pixels.
func (s *Session) ClickableNow(sel string, dx int) (bool, error) {
	h, err := s.page.EvaluateHandle(`(sel) => document.querySelector(sel) || document.getElementById("host").shadowRoot.querySelector(sel)`, sel)
	if err != nil {
		return false, err
	}
	el := h.AsElement()
	if el == nil {
		return false, errors.New("no element " + sel)
	}
	v, err := el.Evaluate(`(el) => { const r = el.getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, r.height].map(Math.round); }`)
	if err != nil {
		return false, err
	}
	var b []int
	if err := decode(v, &b); err != nil || len(b) != 4 {
		return false, errors.New("no box for " + sel)
	}
	a := &action{s: s, el: el, out: &Outcome{Target: &page.Element{Box: page.Box{X: b[0] + dx, Y: b[1], W: b[2], H: b[3]}}}}
	_, _, ok := a.clickable()
	return ok, nil
}
