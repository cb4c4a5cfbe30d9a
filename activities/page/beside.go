package page

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
