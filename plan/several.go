package plan

import (
	"fmt"
	"slices"
	"strings"
)

// Sentences that are several steps: one verb for several fields, and an item chosen from
// a menu named by its control.

// fillMany is one verb for several fields, each with its value: `fill "Title" with "A",
// "Tags" with "b" and "Notes" with "c"`.
var fillMany = seq(grab("verb", alt(verbsFor(sFillWith), verbsFor(sType))), grab("rest", all), end)

// readFillMany reads one fill verb before several "field with value" pairs as one step per
// field; ok is false when the sentence is not of that shape.
func readFillMany(c string, quotes []string) ([]Step, bool) {
	m := read(fillMany, c)
	if m == nil {
		return nil, false
	}
	if parts := splitValueIn(m.get("rest")); parts != nil {
		return valuesIn(m.get("verb"), parts, quotes)
	}
	if parts := splitColonPairs(m.get("rest")); parts != nil {
		return valuesIn(m.get("verb"), parts, quotes)
	}
	parts := splitPairs(m.get("rest"))
	if len(parts) < 2 {
		return nil, false
	}
	var steps []Step
	for _, p := range parts {
		if ts := tokenize(p); len(ts) < 3 || !slices.ContainsFunc(ts[1:len(ts)-1], func(t tok) bool { return read(seq(pairLink, end), t.low) != nil }) {
			return nil, false // `type "a" and "b" into "Name"`: a part with no field of its own
		}
		if both, ok := parseBoth(m.get("verb")+" "+p, quotes); ok {
			steps = append(steps, both...) // `"x" in both "New" and "Again"`
			continue
		}
		s, reason := parseClause(m.get("verb")+" "+p, quotes)
		if reason != "" || s.Action != Type {
			return nil, false
		}
		steps = append(steps, s)
	}
	return steps, true
}

// valuesIn reads each "VALUE in FIELD" part as the verb's one step, its value quoted as
// the list's shape tells it ("Room in the back" in the Location field); ok is false when
// one is not a step that types.
func valuesIn(verb string, parts []valueIn, quotes []string) ([]Step, bool) {
	var steps []Step
	for _, p := range parts {
		v := p.value
		if ts := tokenize(v); len(ts) != 1 || ts[0].kind != tQuote {
			v = fmt.Sprintf("\x01%d\x02", len(quotes))
			quotes = append(slices.Clip(quotes), p.value)
		}
		s, reason := parseClause(verb+" "+v+" "+p.field, quotes)
		if reason != "" || s.Action != Type {
			return nil, false
		}
		steps = append(steps, s)
	}
	return steps, true
}

// pairLink is the word between a field and its value, or a value and its field: "with",
// "to", "into", "in", "as" ("admin as the Username").
var pairLink = word("with", "to", "into", "in", "as")

// splitPairs splits "A with x, B with y and C with z" (or "x into A and y into B") at its
// commas and its "and"s that come before a quoted name, "the" and a quoted name, or an
// unquoted word, each followed by a word that links a field and its value (pairStarts); a
// list that is not so is one part.
func splitPairs(s string) []string {
	ts := tokenize(s)
	var parts []string
	start := 0
	for i := 0; i < len(ts); i++ {
		j := i
		if ts[j].text == "," {
			j++
		}
		if j < len(ts) && ts[j].low == "and" && ts[j].space {
			j++
		}
		k := j
		if k < len(ts) && ts[k].low == "the" {
			k++
		}
		if j == i || k >= len(ts) || !pairStarts(ts, s, k) {
			continue
		}
		parts = append(parts, strings.TrimSpace(s[start:ts[i].start]))
		start = ts[j].start
		i = j
	}
	return append(parts, strings.TrimSpace(s[start:]))
}

// pairStarts reports a pair starting at ts[k]: a quoted name or value followed by a link
// (or by one word and a link: `"Hours" field with 2`), or an unquoted word followed by a
// link at once (`and errands into "Tags"`).
func pairStarts(ts []tok, s string, k int) bool {
	switch ts[k].kind {
	case tQuote:
		return linkAfter(ts, s, k+1)
	case tWord, tNumber:
		// A value of one run of characters ("web-01", "192.0.2.50"), then its link.
		e := k + 1
		for e < len(ts) && !ts[e].space {
			e++
		}
		if m, _ := matchAt(ts, s, pairLink, e); m != nil {
			return true
		}
		// "and Last name with Lindgren", "and Entry sorting to Oldest": a field's name of
		// two or three words, written as the page writes it (a capital first), then "with",
		// "into" or "to".
		if capitalised(ts[k].text) {
			for at := k + 1; at < len(ts) && at <= k+2 && ts[at].kind == tWord; at++ {
				if m, _ := matchAt(ts, s, word("with", "into", "to"), at+1); m != nil {
					return true
				}
			}
		}
	}
	return false
}

// linkAfter reports a pairLink at ts[i] or after one word ("field", "box") there.
func linkAfter(ts []tok, s string, i int) bool {
	for _, at := range []int{i, i + 1} {
		if m, _ := matchAt(ts, s, pairLink, at); m != nil && (at == i || ts[i].kind == tWord) {
			return true
		}
	}
	return false
}

// fromMenu is "open Preferences... from the ☰ menu", `select "Add category" from the
// "Categories" menu`: the item, in the menu the named control opens.
var fromMenu = seq(alt(verbsFor(sMenuPath), verbsFor(sClick)), grab("t", some), word("from", "in", "on", "under"), alt(word("the"), grab("m", word("its", "their"))),
	opt(grab("m", some)), word("menu"), opt(grab("where", positionWords)), end)

// underMenu is "open Host groups under Configuration in the menu on the left": the item
// under its header in a menu the page shows.
var underMenu = seq(alt(verbsFor(sMenuPath), verbsFor(sClick)), grab("t", some), word("under"), grab("m", some), word("in", "on", "from"), the,
	opt(word("side", "left", "main", "navigation")), word("menu", "sidebar", "navigation"), opt(grab("where", positionWords)), end)

// popMenu are the words of a menu that opens at the pointer, named by no control.
var popMenu = setOf("context right-click pop-up popup")

// notMenuNames say what kind of menu it is, not which control opens it.
var notMenuNames = setOf("context main hamburger app application drop-down dropdown pop-up popup right-click options select selection side left right top bottom navigation nav")

// readFromMenu reads an item chosen from a menu named by its control: a click on the
// control, then one on the item it showed; ok is false when the sentence
// is not of that shape. Each part is held as any target is.
func readFromMenu(c string, quotes []string) ([]Step, string, bool) {
	if m := read(underMenu, c); m != nil {
		// The item under its header: the header is pointed at or opened when the item is
		// folded away (a click on it may leave the page, as a menu's link does).
		t := strings.TrimSpace(m.get("t")) + " under " + strings.TrimSpace(m.get("m"))
		if reason := exactTarget(t, quotes); reason != "" {
			return nil, reason, true
		}
		return []Step{{Action: Click, TargetDescription: cleanOperand(t, quotes)}}, "", true
	}
	m := read(fromMenu, c)
	if m != nil && m.get("where") == "" && (strings.TrimSpace(m.get("m")) == "" || popMenu[m.low("m")]) && len(quotesIn(m.get("t"))) <= 1 &&
		strings.Contains(strings.ToLower(c), " from ") {
		// "right-click X, choose Set Tags from the menu" (from the context menu): an item
		// of the menu the step before opened, as "from the menu that opens" is.
		t := strings.TrimSpace(m.get("t")) + " in the list that appears"
		if reason := exactTarget(t, quotes); reason != "" {
			return nil, reason, true
		}
		return []Step{{Action: Click, TargetDescription: cleanOperand(t, quotes)}}, "", true
	}
	if m == nil || strings.TrimSpace(m.get("m")) == "" || roleWord(m.low("m")) != "" || notMenuNames[m.low("m")] {
		return nil, "", false // "from the dropdown menu": no control named
	}
	if read(seq(qt, headingNoun, opt(word("of")), opt(word("the")), end), m.get("m")) != nil {
		// `"Edit Config" under the "files-02" heading of the menu`: the item in the part
		// of the menu that heading is over, clicked where it is; the heading opens nothing.
		return nil, "", false
	}
	if owner := m.low("m"); strings.HasSuffix(owner, "'s") || strings.HasSuffix(owner, "’s") || owner == "its" || owner == "their" {
		// "People in the ticket's menu": the menu of the page's ticket, named by what it is
		// about and not by a control that opens it: the item is clicked where it is.
		item := strings.TrimSpace(m.get("t"))
		if reason := exactTarget(item, quotes); reason != "" {
			return nil, reason, true
		}
		return []Step{{Action: Click, TargetDescription: cleanOperand(item, quotes)}}, "", true
	}
	opener := strings.TrimSpace(m.get("m") + " " + m.get("where"))
	// The item by its name alone: many a menu is a list the page shows, with no role
	// that says it is one; the click on its control comes first.
	item := strings.TrimSpace(m.get("t"))
	var steps []Step
	for _, t := range []string{opener, item} {
		if reason := exactTarget(t, quotes); reason != "" {
			return nil, reason, true
		}
		steps = append(steps, Step{Action: Click, TargetDescription: cleanOperand(t, quotes)})
	}
	return steps, "", true
}

// bothClicks is "open the Queues tab and the queue orders": one click verb for two
// things, each said with what it is (a kind, an item's noun), the second after "and the".
var bothClicks = seq(verbsFor(sClick), grab("a", some), word("and"), opt(grab("the", word("the"))), grab("b", some), end)

// readBothClicks reads one click verb for two things as two clicks, in the order written.
// Each must say what it is at its edge ("the Queues tab", "the events exchange", "the
// queue orders"), or the first its kind and the second be a short name ("the Admin tab
// and Virtual Hosts"): a name with "and" inside it says neither, and is read whole.
func readBothClicks(c string, quotes []string) ([]Step, string, bool) {
	m := read(bothClicks, c)
	if m == nil {
		return nil, "", false
	}
	a, b := strings.TrimSpace(m.get("a")), strings.TrimSpace(m.get("b"))
	says := func(w string) bool {
		w = strings.ToLower(strings.Trim(w, ",."))
		return roleWord(w) != "" || itemNounSet[w]
	}
	af, bf := strings.Fields(a), strings.Fields(b)
	if len(af) < 2 || !says(af[len(af)-1]) {
		return nil, "", false
	}
	if m.get("the") == "" {
		// "open the Admin tab and Virtual Hosts": a kind said before "and", and a name of
		// a word or three after it, none a verb.
		if roleWord(strings.ToLower(af[len(af)-1])) == "" || len(bf) > 3 || startsWithVerb(b) {
			return nil, "", false
		}
	} else if len(bf) < 2 || !(says(bf[0]) || says(bf[len(bf)-1])) {
		return nil, "", false
	}
	var steps []Step
	for _, t := range []string{a, "the " + b} {
		if reason := exactTarget(t, quotes); reason != "" {
			return nil, reason, true
		}
		steps = append(steps, Step{Action: Click, TargetDescription: cleanOperand(t, quotes)})
	}
	return steps, "", true
}

// bothNamed reads "both Change Password and Confirm Password": two elements, each named, for
// one value or one tick: a step for each, each name held exact.
func bothNamed(action Action, value, noun string, quotes []string) ([]Step, bool) {
	m := read(seq(grab("a", some), word("and"), the, grab("b", all), end), strings.TrimSpace(noun))
	if m == nil {
		return nil, false
	}
	a, b := m.get("a"), m.get("b")
	if w := strings.Fields(b); len(w) > 1 {
		// "both the Password and Confirm Password fields": the kind, said once in the
		// plural, is each one's.
		if kind, ok := bothKinds[strings.ToLower(w[len(w)-1])]; ok {
			b = strings.Join(w[:len(w)-1], " ") + " " + kind
			a += " " + kind
		}
	}
	var steps []Step
	for _, t := range []string{a, b} {
		if exactTarget(t, quotes) != "" {
			return nil, false
		}
		steps = append(steps, Step{Action: action, Value: value, TargetDescription: cleanOperand(t, quotes)})
	}
	return steps, true
}
