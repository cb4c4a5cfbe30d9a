package plan

import (
	"strings"
)

// Reading a target description into its parts (ParseTarget), with the grammar over the
// description's tokens, its quoted names masked.

var (
	qt = grab("q", one(func(t tok) bool { return t.kind == tQuote && !t.single }))
	// rowContext is "in the row "Q4"", "in the "Q4" row", "next to "Q4"".
	rowContext = alt(
		seq(word("in", "on", "of", "for", "from"), the, word("row", "line", "item", "entry", "card"), opt(word("for", "of", "named", "called")), qt),
		seq(word("in", "on", "of", "for"), the, qt, word("row", "line", "item", "entry", "card")),
		seq(word("next to", "beside", "for"), qt),
		// "next to the bookmark "X"": the row of the item so named.
		seq(word("next to", "beside"), word("the"), nounWord, qt),
		// "Edit for the user "alice"": the row of the item so named.
		seq(word("for", "of"), word("the"), one(func(t tok) bool { return itemNounSet[t.low] }), qt))
	// openedItem is what "its" names after a step that opened an item: "of the item "X"
	// or the page it opened" (Target.Opened).
	openedItem = seq(word("of"), word("the"), word("item"), qt, word("or the page it opened"))
	// nounContext is "in the email from "Helena"", "inside the panel "Trash"" or "in the
	// "Trash" panel": the target is inside the thing named, and is not that thing.
	nounContext = alt(
		// "the Edit link of the "Friends" address book", "Edit for the "Work" calendar".
		seq(word("in", "inside", "within", "of", "for"), the, qt, grab("noun", seq(nounWord, nounWord)), end),
		seq(word("in", "inside", "within", "of", "for"), the, qt, grab("noun", nounWord)),
		seq(word("in", "inside", "within", "on"), opt(word("the", "a", "an")), grab("noun", seq(asciiWord, optLazy(asciiWord))),
			opt(grab("conn", word("from", "by", "named", "called", "titled", "about", "for", "of", "with", "to"))), qt))
	// namedPlace is "in the Music panel": a place named by a few unquoted words before the
	// noun, at the end of a description that names its target first.
	namedPlace = seq(word("in", "inside", "within", "of"), word("the"), grab("uq", seq(asciiWord, optLazy(asciiWord), optLazy(asciiWord))),
		grab("noun", nounWord), end)
	boxWords = word("menu", "dialog", "modal", "popup", "form", "navigation", "nav", "sidebar", "toolbar", "tool bar",
		"button bar", "buttons bar", "bar of buttons", "row of buttons", "action bar")
	boxContext = seq(word("in", "inside", "within", "from", "of"), the, opt(qt), opt(word("side")), grab("box", boxWords))
	// bandContext is "in the footer", "in the page header", "in the top bar", "in the bar
	// at the bottom of the window" at the end: the band across the top or the bottom of a
	// page, which a person names as a place (Element.Band), not a table's header row nor a
	// column's header (words or a quote around it say those).
	bandContext = seq(word("in", "inside", "within", "on", "at"), the, alt(
		seq(opt(word("page", "site", "page's", "site's")), grab("band", word("footer", "header"))),
		seq(grab("edge", word("top", "bottom")), word("bar")),
		seq(word("bar"), word("at"), word("the"), grab("edge", word("top", "bottom")))),
		opt(word("of"), the, word("page", "screen", "window")), end)
	// tabPlace is "on the "Account" tab", "in the Contact Info tab": the tab whose panel
	// the element is on, named by its quoted or capitalised words.
	tabPlace = seq(word("on", "in", "under", "within"), the, alt(qt, grab("uq", seq(capWord, optLazy(capWord), optLazy(capWord)))), word("tab"), end)
	// startsWith and endsWith are "that starts with "Egy"" and "and ends with "gypt"".
	startsWith = seq(opt(word("that", "which")), word("starts", "start", "starting", "begins", "begin", "beginning"), word("with"), qt)
	endsWith   = seq(opt(one(func(t tok) bool { return t.text == "," })), opt(word("and", "that", "which")), word("ends", "end", "ending"), word("with"), qt)
	// everyWord is "every" before a quoted name: each element so named.
	everyWord = seq(opt(word("on")), the, word("every"), qt)
	// mainMenu is the page's own menu, which its menu button opens: "the main menu".
	mainMenu = seq(the, word("main", "hamburger", "app", "application"), word("menu"), opt(word("button", "icon")), end)
	// placeContext is a place named by quoted words alone, at the end of a description that
	// quotes its target's own name first: `the "Edit" button in "Trip ideas"`.
	placeContext = seq(word("in", "inside", "within", "under", "of"), qt, end)
	// positionWords are where a description says the element is on the page: "at the top
	// right", "on the left", "the bottom "Save" button". They choose among elements that
	// satisfy every other part and tie; they never stand in for a name.
	positionWords = alt(
		seq(word("at", "on", "in"), word("the"), grab("p1", word("top", "bottom", "left", "right")),
			opt(alt(seq(hyphens, grabJoined("p2", one(leftOrRight))), grab("p2", word("left", "right")))),
			// "in the left-hand panel", "in the right one": a side of a page laid out in two
			// or more panels.
			opt(alt(seq(hyphens, one(func(t tok) bool { return t.low == "hand" })), word("hand"))),
			opt(word("corner", "side", "edge", "panel", "pane", "one", "half", "part")), opt(word("of"), word("the", "this", "his", "her", "their", "its"), word("page", "screen", "window"))),
		seq(grab("p3", word("top", "bottom", "upper", "lower", "leftmost", "rightmost", "topmost", "bottommost")), qt))
	// numberedKind is "Tab #2", "step #3": an element of a kind counted by its number, the
	// page's second tab (the number is how such a page names its tabs).
	numberedKind = seq(word("tab", "step", "slide", "page", "item", "option"), one(func(t tok) bool { return t.text == "#" }), number)
	ordinalTok   = one(func(t tok) bool { _, ok := ordinals[t.low]; return ok || isNumberedOrdinal(t) })
	ofCount      = seq(ordinalTok, grab("of", seq(word("of"), alt(word("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), one(func(t tok) bool { return t.kind == tNumber && isDigits(t.low) })))))
	resultsOf    = seq(opt(word("search")), word("result", "results"), end)
)

var (
	capWord   = one(func(t tok) bool { return t.kind == tWord && capitalised(t.text) })
	asciiWord = one(func(t tok) bool { return t.kind == tWord && strings.Trim(t.low, "abcdefghijklmnopqrstuvwxyz") == "" })
	hyphens   = seq(one(func(t tok) bool { return t.text == "-" }), many(one(func(t tok) bool { return t.text == "-" })))
)

func leftOrRight(t tok) bool { return t.low == "left" || t.low == "right" }

// A desc is a description being read: its text with the quoted names masked, the names,
// and the reader's tokens of it.
type desc struct {
	d      string
	quotes []string
}

// find is the leftmost match of r in the description, and the bytes it spans.
func (x *desc) find(r rule) (*match, int, int) {
	ts := tokenizeLoose(x.d)
	m, i, j := search(ts, x.d, r)
	if m == nil {
		return nil, 0, 0
	}
	return m, ts[i].start, ts[j-1].end
}

// cut writes a space in place of the bytes from..to.
func (x *desc) cut(from, to int) { x.d = x.d[:from] + " " + x.d[to:] }

// quote is the name a match captured as q.
func (x *desc) quote(m *match) string {
	if !m.has("q") {
		return ""
	}
	n, _ := loneQuote(m.get("q"))
	return x.quotes[n]
}

// controlPlurals are kinds of controls, many: "the row of buttons" is a bar of them, no
// item named "buttons".
var controlPlurals = map[string]bool{"buttons": true, "icons": true, "controls": true, "tabs": true, "links": true}

// ParseTarget reads a target description into its parts.
func ParseTarget(description string) Target {
	var t Target
	if t, ok := wholeTarget(description); ok {
		return t
	}
	d := possessiveRow(quoteCalled(dropBetween(strings.NewReplacer("“", `"`, "”", `"`, "‘", `'`, "’", `'`).Replace(description))))
	masked, quotes := maskTarget(singleToDouble(d))
	x := &desc{d: masked, quotes: quotes}
	if m := readStart(everyWord, x.d); m != nil {
		t.Every = true
		x.d = " " + x.d[m.ts[m.caps["q"][0]].start:] // the quote stays
	}
	if m, from, to := x.find(startsWith); m != nil {
		t.Starts = x.quote(m)
		x.cut(from, to)
	}
	if m, from, to := x.find(endsWith); m != nil {
		t.Ends = x.quote(m)
		x.cut(from, to)
	}
	if m, from, to := x.find(tabPlace); m != nil && from > 0 && strings.TrimSpace(x.d[:from]) != "" {
		// `"Account Number" on the "Account" tab`: on that tab's panel.
		t.Tab = x.quote(m)
		if t.Tab == "" {
			t.Tab = m.get("uq")
		}
		x.cut(from, to)
	}
	t.readListPlace(x)
	t.readHeading(x)
	if m := readStart(seq(valueOfLabelWords, qt), x.d); m != nil {
		// Read before the row: "the value for "Phone"" is not the row "Phone".
		t.Labelled = true
		x.d = x.d[m.ts[m.caps["q"][0]].start:] // the quote stays
	}
	if m, from, to := x.find(openedItem); m != nil {
		// "the Name of the item "X" or the page it opened": what "its Name" is.
		t.Row, t.Opened = x.quote(m), true
		x.cut(from, to)
	} else if m, from, to := x.find(rowContext); m != nil {
		t.Row, t.Beside = x.quote(m), besideWords.MatchString(x.d[from:to])
		x.cut(from, to)
	} else if m, from, to := x.find(unquotedRow); m != nil && from > 0 && !pronouns[strings.ToLower(strings.Fields(m.get("uq"))[0])] && !sideWords[strings.ToLower(m.get("uq"))] &&
		!controlPlurals[strings.ToLower(m.get("uq"))] {
		// ("in the row of buttons" is a toolbar, read below: no item's row.)
		// `"Delete" on the row with Stapler`: the row named by the words that end it.
		t.Row, t.Beside = unmask(m.get("uq"), x.quotes, true), besideWords.MatchString(x.d[from:to])
		x.cut(from, to)
	}
	t.readColumn(x)
	if m, from, to := x.find(boxContext); m != nil {
		t.Container = strings.TrimSpace(boxKinds[m.low("box")] + " " + x.quote(m))
		x.cut(from, to)
	} else {
		t.readWindow(x)
	}
	if t.Row == "" {
		t.readNounContext(x)
	}
	if m, from, to := x.find(namedPlace); m != nil && t.Row == "" && t.Container == "" && from > 0 && strings.TrimSpace(x.d[:from]) != "" {
		// "the Pause button in the Music panel": inside the item those words name.
		if namesPlace(m) {
			t.Row, t.RowNoun = m.get("uq"), m.low("noun")
			x.cut(from, to)
		}
	}
	if m, from, to := x.find(placeContext); m != nil && t.Row == "" && t.Container == "" && from > 0 && strings.ContainsRune(reSpace, rune(x.d[from-1])) && namesBefore(x.d[:from]) {
		// `the "Edit" button in "Trip ideas"`: inside the item the quoted words name.
		t.Row, t.RowNoun = x.quote(m), "item named"
		x.cut(from, to)
	}
	t.readWhere(x)
	t.readOrdinal(x)
	t = t.readName(x)
	if n, ok := strings.CutSuffix(t.Name, " box"); ok && t.Kind == "" && !t.Quoted && t.Row != "" && n != "" {
		// "the Value box of "email"": a field of that item, named by the words before.
		t.Name, t.Kind = n, "field"
	}
	return t
}

// singleToDouble writes single quotes as double quotes where they quote: after the
// start, a space or a parenthesis, around a name.
func singleToDouble(d string) string {
	b := []byte(d)
	for i := 0; i < len(b); i++ {
		if b[i] != '\'' || (i > 0 && !strings.ContainsRune(reSpace+"(", rune(b[i-1]))) {
			continue
		}
		j := strings.IndexByte(d[i+1:], '\'')
		if j <= 0 {
			continue
		}
		b[i], b[i+1+j] = '"', '"'
		i += 1 + j
	}
	return string(b)
}

// maskTarget masks the quoted names of a description as \x01N\x02, a name in single
// quotes left as such (\x01'N\x02): it names the element, but no place.
func maskTarget(d string) (string, []string) {
	var out strings.Builder
	var quotes []string
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c == '"' || c == '\'' {
			if j := strings.IndexByte(d[i+1:], c); j > 0 {
				single := ""
				if c == '\'' {
					single = "'"
				}
				out.WriteString("\x01" + single + itoa(len(quotes)) + "\x02")
				quotes = append(quotes, d[i+1:i+1+j])
				i += 1 + j
				continue
			}
		}
		out.WriteByte(c)
	}
	return out.String(), quotes
}

// readNounContext reads "in the email from "X"" (a row: X's item holds the target) or
// "in the "X" dialog" (a container), and drops it. A thing named directly ("the email
// from "X"") is the target itself, not where it sits: only "in", "inside", "within" and
// "on" make it a place.
func (t *Target) readNounContext(x *desc) {
	m, from, to := x.find(nounContext)
	if m == nil {
		return
	}
	noun, name, conn := m.low("noun"), x.quote(m), m.low("conn")
	words := strings.Fields(noun)
	last := words[len(words)-1]
	if notPlaces[last] || notPlaces[words[0]] || roleWord(last) != "" {
		// "in the "Name" column", "in the "Notes" field": not something the target is in.
		return
	}
	if kind, ok := boxKinds[last]; ok {
		t.Container = kind + " " + name
	} else {
		t.Row, t.RowNoun = name, strings.TrimSpace(noun+" "+conn)
	}
	x.cut(from, to)
}

// notPlaces are nouns a description may follow "in the" with that observations do not
// place an element in.
var notPlaces = map[string]bool{"the": true, "a": true, "an": true, "column": true, "page": true, "screen": true, "window": true, "tab": true, "table": true, "list": true, "box": true}

// roleWord is the kind a single word names, or "".
func roleWord(w string) string {
	for i, k := range kinds {
		if k.phrases != nil && hasKindWord(w, kindRules[i]) {
			return k.role
		}
	}
	return ""
}

func hasKindWord(s string, r rule) bool {
	i, _ := findWord(tokenizeLoose(s), r)
	return i >= 0
}

// readOrdinal reads "the 2nd of 3" into t and drops it. A quoted name is the name as the
// page writes it, never read for an ordinal: `the "First name" field` is the field named
// "First name", not the first field named " name".
func (t *Target) readOrdinal(x *desc) {
	if text, drop := x.findOutside(ofCount, "of"); text != "" {
		t.Of = countOf(text)
		drop("") // the ordinal stays
	}
	if text, drop := x.findOutside(numberedKind, ""); text != "" {
		f := strings.Fields(strings.ReplaceAll(text, "#", " "))
		t.Ordinal = ReadOrdinal(f[len(f)-1])
		drop(" " + f[0] + " ")
		return
	}
	if text, drop := x.findOutside(ordinalTok, ""); text != "" {
		t.Ordinal = ReadOrdinal(text)
		drop(" ")
	}
}

// findOutside finds the leftmost match of r in the description outside its quoted names:
// the text of its operand group (or of the whole match when group is ""), and a function
// that writes something in its place.
func (x *desc) findOutside(r rule, group string) (string, func(with string)) {
	ts := tokenizeLoose(x.d)
	for n, tk := range ts {
		if tk.kind != tWord {
			continue
		}
		m, j := matchAt(ts, x.d, r, n)
		if m == nil {
			continue
		}
		i := n
		if group != "" {
			i, j = m.caps[group][0], m.caps[group][1]
		}
		s, from, to := x.d, ts[i].start, ts[j-1].end
		return s[from:to], func(with string) { x.d = s[:from] + with + s[to:] }
	}
	return "", nil
}

// readName reads the kind and the name from what is left of the description.
func (t Target) readName(x *desc) Target {
	first := -1
	for _, q := range tokenize(x.d) {
		if q.kind == tQuote {
			first = q.quote
			break
		}
	}
	if first < 0 && read(mainMenu, x.d) != nil {
		// "the main menu" is the page's menu button, an icon of three bars.
		t.Name, t.Kind = "menu", "icon"
		return t
	}
	if first < 0 {
		if n, ok := titledName(x.d); ok {
			t.Name = n // "List Users": a page's name for it, a kind's word first
			return t
		}
	}
	outside := replaceQuotes(x.d, " ")
	for i, k := range kinds {
		if k.phrases == nil && read(seq(the, word(k.role), opt(word("field")), end), outside) != nil || k.phrases != nil && hasKindWord(outside, kindRules[i]) {
			t.Kind = k.role
			break
		}
	}
	if first >= 0 {
		t.Name, t.Quoted, t.Picture = x.quotes[first], true, pictureOf(outside)
		return t
	}
	d := x.d
	for i, k := range kinds {
		if k.phrases != nil {
			d = replaceWords(d, kindRules[i], " ")
		}
	}
	// "the button" leaves no phrase: matchScore then matches on the role alone.
	t.Name = strings.Join(strings.Fields(Fillers.ReplaceAllString(d, " ")), " ")
	if rest, ok := strings.CutPrefix(t.Name, "for "); ok && t.Kind != "" && rest != "" {
		// "the checkbox for Home NAS": the box that is for it, named so.
		t.Name = rest
	}
	if read(resultsOf, t.Name) != nil {
		// "the 2nd search result link" names no link: it counts the links of a list.
		t.Name, t.InList = "", true
	}
	return t
}

// lastWord is the last word of s.
func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}
