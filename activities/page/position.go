package page

import (
	"regexp"
	"strings"
)

// positionWords are where a description says the element is on the page: "at the top
// right", "on the left", "the bottom "Save" button". They choose among elements that
// satisfy every other part and tie; they never stand in for a name.
var positionWords = regexp.MustCompile(`(?i)\b(?:at|on|in)\s+the\s+(top|bottom|left|right)(?:[\s-]+(left|right))?\b|\b(top|bottom|upper|lower|leftmost|rightmost|topmost|bottommost)\b\s+"`)

// readPosition reads the position words of d into t and returns d without them.
func (t *Target) readPosition(d string) string {
	m := positionWords.FindStringSubmatchIndex(d)
	if m == nil {
		return d
	}
	for _, q := range quoted.FindAllStringIndex(d, -1) {
		if m[0] > q[0] && m[0] < q[1] {
			return d // words of a quoted name: "Stay on the left" names a link
		}
	}
	var words []string
	for g := 1; g <= 3; g++ {
		if m[2*g] >= 0 {
			words = append(words, strings.ToLower(d[m[2*g]:m[2*g+1]]))
		}
	}
	t.Position = strings.Join(words, " ")
	end := m[1]
	if m[6] >= 0 {
		end = m[7] // keep the quote the adjective stood before
	}
	return d[:m[0]] + " " + d[end:]
}

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
