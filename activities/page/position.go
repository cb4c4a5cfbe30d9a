package page

import (
	"strings"
)

// byPosition keeps the candidates at the edge the position words name: the topmost for
// "top", then the rightmost of those for "right". Boxes within half a height (or width) of
// the edge count as at it, so two buttons side by side are both "at the top".
func byPosition(pos string, cands []Element) []Element {
	for _, w := range strings.Fields(pos) {
		var key func(Box) int
		var tol func(Box) int
		switch w {
		case "top", "upper", "topmost":
			key, tol = func(b Box) int { return -(b.Y + b.H/2) }, func(b Box) int { return b.H / 2 }
		case "bottom", "lower", "bottommost":
			key, tol = func(b Box) int { return b.Y + b.H/2 }, func(b Box) int { return b.H / 2 }
		case "left", "leftmost":
			key, tol = func(b Box) int { return -(b.X + b.W/2) }, func(b Box) int { return b.W / 2 }
		case "right", "rightmost":
			key, tol = func(b Box) int { return b.X + b.W/2 }, func(b Box) int { return b.W / 2 }
		default:
			continue
		}
		best := key(cands[0].Box)
		for _, c := range cands[1:] {
			best = max(best, key(c.Box))
		}
		cands = filterAll(cands, func(e Element) bool { return key(e.Box) >= best-tol(e.Box) })
	}
	return cands
}
