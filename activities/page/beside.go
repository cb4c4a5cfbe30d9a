package page

import (
	"slices"
	"strings"
)

// besideGap is how far apart, in CSS pixels, two elements on one line may be and still
// be next to each other.
const besideGap = 48

// besideOne reads "the box next to "Search"" where no item named "Search" holds a box:
// the elements of pool that sit right before or right after the one element of the page
// named so, on its line, with nothing between them (Gitit's search box before its Search
// button). Two elements named so, or none, give nothing: which one is meant is not known.
func (t Target) besideOne(pool, elems []Element) []Element {
	var anchor []Element
	for _, e := range elems {
		if norm(e.Name) == norm(t.Row) {
			anchor = append(anchor, e)
		}
	}
	if len(anchor) != 1 {
		return nil
	}
	a := anchor[0]
	var left, right *Element
	for i := range elems {
		e := &elems[i]
		if e.Index == a.Index || e.Frame != a.Frame || !sameLine(e.Box, a.Box) {
			continue
		}
		switch {
		case e.Box.X+e.Box.W <= a.Box.X+2 && (left == nil || e.Box.X > left.Box.X):
			left = e
		case e.Box.X >= a.Box.X+a.Box.W-2 && (right == nil || e.Box.X < right.Box.X):
			right = e
		}
	}
	var out []Element
	for _, n := range []*Element{left, right} {
		if n == nil || gapBetween(n.Box, a.Box) > besideGap {
			continue
		}
		for _, p := range pool {
			if p.Index == n.Index {
				out = append(out, p)
			}
		}
	}
	return out
}

// sameLine reports two boxes whose middles are at one height, give or take half the
// lower one's height.
func sameLine(a, b Box) bool {
	d := (2*a.Y + a.H) - (2*b.Y + b.H)
	return max(d, -d) <= min(a.H, b.H)
}

// gapBetween is the horizontal space between two boxes on one line.
func gapBetween(a, b Box) int {
	if a.X > b.X {
		a, b = b, a
	}
	return max(0, b.X-(a.X+a.W))
}

// sideColumn is a side of the page that holds a column of controls, as a sidebar does:
// the elements left of a line down the page that no element crosses, with the rest of
// the page's elements right of it (or the other way round), where the side holds at least
// sideColumnMin of them. A page with no such column has no sidebar.
func sideColumn(elems []Element) func(Element) bool {
	shown := filterAll(elems, func(e Element) bool { return e.Box.W > 0 })
	split := func(at int) (left, right int, ok bool) {
		for _, e := range shown {
			switch {
			case e.Box.X+e.Box.W <= at:
				left++
			case e.Box.X >= at:
				right++
			default:
				return 0, 0, false
			}
		}
		return left, right, left > 0 && right > 0
	}
	edges := make([]int, 0, 2*len(shown))
	for _, e := range shown {
		edges = append(edges, e.Box.X+e.Box.W, e.Box.X)
	}
	slices.Sort(edges)
	for _, at := range edges {
		if left, _, ok := split(at); ok && left >= sideColumnMin {
			// The narrowest left column: the first line that leaves enough on its left.
			return func(e Element) bool { return e.Box.W > 0 && e.Box.X+e.Box.W <= at }
		}
	}
	for i := len(edges) - 1; i >= 0; i-- {
		if _, right, ok := split(edges[i]); ok && right >= sideColumnMin {
			at := edges[i]
			return func(e Element) bool { return e.Box.W > 0 && e.Box.X >= at }
		}
	}
	return func(Element) bool { return false }
}

// sideColumnMin is how many controls a side of the page holds to be a sidebar.
const sideColumnMin = 4

// sideWord reports a position that names a side of the page: "left", "right", "top left"
// ("at the top of the menu on the left").
func sideWord(position string) bool {
	return slices.ContainsFunc(strings.Fields(position), func(w string) bool { return w == "left" || w == "right" })
}

// buttonLine is "the toolbar" of a page that marks none: the buttons that sit on one line
// with two or more others (the same middle height, within a few pixels), none in a row
// of a table or list (Flood's Add, Stop and Remove Torrent above its list).
func buttonLine(elems []Element) func(Element) bool {
	button := func(e Element) bool {
		return (e.Role == "button" || e.Tag == "button") && e.Row == "" && e.Box.W > 0 && !e.Offscreen
	}
	mid := func(e Element) int { return e.Box.Y + e.Box.H/2 }
	on := map[int]bool{}
	for _, e := range elems {
		if button(e) && othersOnLine(elems, e, func(o Element) bool { return button(o) && abs(mid(o)-mid(e)) <= 4 }) >= 2 {
			on[e.Index] = true
		}
	}
	return func(e Element) bool { return on[e.Index] }
}

// othersOnLine counts the elements of elems other than e that beside says sit on e's line:
// how a bar of tabs drawn as links, or a toolbar the page marks as none, is told.
func othersOnLine(elems []Element, e Element, beside func(o Element) bool) int {
	n := 0
	for _, o := range elems {
		if o.Index != e.Index && beside(o) {
			n++
		}
	}
	return n
}
