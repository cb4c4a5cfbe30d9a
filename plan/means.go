package plan

import (
	"strconv"
	"strings"
)

// People name what a step is for, then the control that does it: "stop /inventory with
// the Stop button of its row", "undeploy /wiki-old by clicking Undeploy in its row",
// "clear the colours with the Clear Authorship Colors button in the toolbar". The control
// named is the step: a click on it, in the row of the thing named when the sentence says
// "its row", in the place named when it names one. The purpose is how the person knows
// the control, not a second action: it is never acted on.
//
// The row's thing must be named exactly, as the page writes it: quoted, or an address
// ("/inventory", "stats.example.org"). Otherwise the sentence is left to the other
// readers, which refuse it with their reason.

var (
	meansWords = word("with", "using", "by clicking", "by pressing", "by hitting", "by clicking on", "via", "through")
	// meansOf is "<what it is for> with the <name> button [in its row] [in the toolbar]";
	// meansDash is "<what it is for> - <name> button in its row".
	controlNoun = word("button", "icon", "link")
	itsRow      = seq(word("in", "of", "from"), word("its", "their", "that", "the same"), opt(word("row's")), word("row"), opt(word("of", "in"), the, some))
	meansTail   = seq(opt(word("the", "its", "their")), grab("t", some), opt(grab("noun", controlNoun)),
		opt(alt(grab("row", itsRow), grab("place", seq(word("in", "on", "at"), the, word("toolbar", "tool bar", "menu bar", "side menu", "sidebar", "navigation"))))), end)
	meansOf   = seq(grab("purpose", some), grab("how", meansWords), meansTail)
	meansDash = seq(grab("purpose", some), one(func(t tok) bool { return t.text == "-" || t.text == "–" || t.text == "—" }), meansTail)
)

// readMeans reads such a sentence as the click on its control. It is the reading of last
// resort, tried only where no other reads the sentence: "fill Name with John" is a fill.
// A purpose that carries data the click would not use ("add omar@example.org with Add
// Jabber ID", which needs the address typed first) is refused: the click is not the whole
// of it.
func readMeans(c string, quotes []string) (Step, bool) {
	m := read(meansOf, c)
	if m == nil {
		m = read(meansDash, c)
	}
	if m == nil {
		return Step{}, false
	}
	purpose := m.get("purpose")
	if ts := tokenize(purpose); len(ts) == 0 || ts[0].kind != tWord || subjectWords[ts[0].low] || (m.get("noun") == "" && m.get("row") == "" && m.get("place") == "" && !hasWord(m.get("how"), word("by clicking", "by pressing", "by hitting", "by clicking on"))) {
		return Step{}, false // "the suggestion ending with "land"" describes; it is no purpose
	}
	name := strings.TrimSpace(m.get("t"))
	if !bareName(name) || (len(quotesIn(name)) == 0 && !capitalised(name)) {
		return Step{}, false // the control is named as the page writes it, or not at all
	}
	target := cleanOperand(name, quotes)
	if len(quotesIn(name)) == 0 {
		target = strconv.Quote(target)
	}
	row, data := rowThing(purpose, quotes)
	switch {
	case m.get("row") != "":
		if data != 1 {
			return Step{}, false
		}
		target += " in the row " + strconv.Quote(row)
	case data > 0:
		return Step{}, false
	case m.get("place") != "":
		target += " " + m.get("place")
	}
	return Step{Action: Click, TargetDescription: target}, true
}

// rowThing is the data a purpose carries: its quoted names, its address-like words
// ("/inventory", "stats.example.org") and its numbers, how many, and the first of them,
// which names a row when it is the only one.
func rowThing(purpose string, quotes []string) (string, int) {
	var found []string
	for _, t := range tokenize(purpose) {
		switch t.kind {
		case tQuote:
			found = append(found, quotes[t.quote])
		case tNumber:
			found = append(found, t.text)
		}
	}
	for _, w := range strings.Fields(replaceQuotes(purpose, "")) {
		if w = strings.Trim(w, ",;:()"); addressLike(w) {
			found = append(found, w)
		}
	}
	if len(found) == 0 {
		return "", 0
	}
	return found[0], len(found)
}
