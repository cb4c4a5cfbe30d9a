package plan

import "strings"

// Where on the page a description places its element: its position ("at the top
// right", "in the left-hand panel"), the band of the page it is in ("in the footer"), or
// a blank spot outside what is focused ("outside it").

// readWhere reads what is left of where the element is once its row, box and window are
// read: a place an unquoted description ends with, its position on the page, and the band
// of the page it is in ("in the footer").
func (t *Target) readWhere(x *desc) {
	t.readUnquotedPlace(x)
	if band, from, to := findBand(x); band != "" && t.Container == "" {
		t.Container = band
		x.cut(from, to)
	}
	t.readPosition(x)
}

// findBand finds the band of the page a description ends with ("in the footer", "in the
// top bar"): "header" or "footer", and the bytes it spans; "" when there is none.
func findBand(x *desc) (string, int, int) {
	m, from, to := x.find(bandContext)
	if m == nil || from == 0 {
		return "", 0, 0
	}
	if m.has("band") {
		return m.low("band"), from, to
	}
	return map[string]string{"top": "header", "bottom": "footer"}[m.low("edge")], from, to
}

// readPosition reads the position words of the description into t and drops them.
func (t *Target) readPosition(x *desc) {
	m, from, to := x.find(positionWords)
	if m == nil {
		return
	}
	for _, q := range tokenize(x.d[:from]) {
		// Words of a quoted name ("Stay on the left" names a link) come first: no place.
		if q.kind == tQuote && positionInName(x.quotes[q.quote]) {
			return
		}
	}
	var words []string
	for _, g := range []string{"p1", "p2", "p3"} {
		if m.has(g) {
			words = append(words, m.low(g))
		}
	}
	if m.has("p3") {
		to = m.ts[m.caps["p3"][1]-1].end // keep the quote the adjective stood before
	}
	if t.Position != "" {
		// "at the top of the menu on the left": a side said after a height, one place; a
		// second place of another kind stays, for the exact check to refuse.
		if !strings.Contains(t.Position, " ") && len(words) == 1 && vertical(t.Position) != vertical(words[0]) {
			t.Position = strings.Join(append([]string{t.Position}, words...), " ")
			x.cut(from, to)
		}
		return
	}
	x.cut(from, to)
	t.Position = strings.Join(words, " ")
	t.readPosition(x)
}

// vertical reports a position word that says a height (top, bottom), not a side.
func vertical(w string) bool {
	return w != "left" && w != "right" && w != "leftmost" && w != "rightmost"
}

// positionInName reports position words inside a quoted name.
func positionInName(name string) bool {
	ts := tokenizeLoose(name + `"`)
	m, _, _ := search(ts, name, alt(positionWords, seq(word("top", "bottom", "upper", "lower", "leftmost", "rightmost", "topmost", "bottommost"), one(func(t tok) bool { return t.text == `"` && t.space }))))
	return m != nil
}

// wholeTarget reads a description that is one thing whole, no part of which is read
// apart: a part of the page's sign-in form, or a blank spot outside what is focused.
func wholeTarget(d string) (Target, bool) {
	if t, ok := signInTarget(d); ok {
		return t, true
	}
	if read(outsideIt, d) != nil {
		return Target{Outside: true}, true
	}
	return Target{}, false
}

// outsideIt is a blank spot of the page away from what the step before focused: "outside
// it", "somewhere outside the box", "somewhere else on the page", "an empty part of the
// page".
var outsideIt = alt(
	seq(opt(word("somewhere")), word("outside"), opt(word("of")), word("it", "the box", "the field", "the editor", "the text box", "the textbox",
		"the text area", "the paragraph", "the input", "the cell", "that box", "that field", "the edit box", "the editing box"), end),
	seq(word("somewhere"), word("else"), opt(word("on", "in"), the, word("page")), end),
	seq(opt(word("on")), opt(word("an", "a", "the")), word("empty", "blank"), word("part", "area", "spot", "space"), opt(word("of"), the, word("page")), end))
