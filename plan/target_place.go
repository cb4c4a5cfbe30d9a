package plan

import (
	"regexp"
	"slices"
	"strings"
)

// Where a description places its element: the words that say where on the page, and a
// place named by a relation to an item or a box, read beside the element's own name.

// withoutPosition is a description without the words that say where on the page its
// element is ("at the top of the page"): they choose among candidates, and are no part of
// the name.
func withoutPosition(s string) string {
	x := &desc{d: s}
	if m, from, to := x.find(positionWords); m != nil && !m.has("p3") {
		x.cut(from, to)
		if m.has("p2") {
			return x.d
		}
		// "at the top of the menu on the left": the side said after, as readPosition
		// reads it.
		if n, from, to := x.find(positionWords); n != nil && !n.has("p2") && !n.has("p3") && vertical(m.low("p1")) != vertical(n.low("p1")) {
			x.cut(from, to)
		}
	}
	return x.d
}

// withoutPlaces drops what names a quoted target's place in unquoted words, as
// ParseTarget reads it, so that the words left are held to being the target's: "in the
// Login window" (the dialog so titled) and "under My LDAP Server" at the end (the item so
// named).
func withoutPlaces(s string) string {
	x := &desc{d: s}
	if m, from, to := columnAt(x); m != nil {
		x.cut(from, to)
	}
	if m, from, to := x.find(appearedPlace); m != nil && from > 0 {
		x.cut(from, to)
	}
	if m, from, to := x.find(tabPlace); m != nil && from > 0 && strings.TrimSpace(x.d[:from]) != "" {
		x.cut(from, to)
	}
	if m, from, to := x.find(windowContext); m != nil && from > 0 && namedWindow(m) {
		x.cut(from, to)
	}
	if m, from, to := x.find(underPlace); m != nil && from > 0 && len(quotesIn(x.d[:from])) > 0 {
		x.cut(from, to)
	}
	if m, from, to := x.find(listPlace); m != nil && from > 0 && (len(quotesIn(x.d[:from])) > 0 || hasNameWord(tokenize(x.d[:from]))) {
		// `"site" in the key tree`: a row of that list (Target.InList).
		x.cut(from, to)
	}
	if m, from, to := x.find(dataRow); m != nil && from > 0 {
		x.cut(from, to)
	}
	if m, from, to := x.find(namedPlace); m != nil && from > 0 && strings.TrimSpace(x.d[:from]) != "" && namesPlace(m) {
		// "Save in the Vessel Base Data card": inside the item those words name.
		x.cut(from, to)
	}
	if m, from, to := x.find(sectionPlace); m != nil && from > 0 && len(quotesIn(x.d[:from])) > 0 {
		// `the field labelled "Nick" in the User preferences section`: under that heading.
		x.cut(from, to)
	}
	if band, from, to := findBand(x); band != "" {
		x.cut(from, to) // "in the top bar": the page's header
	}
	if m, from, to := x.find(boxContext); m != nil && from > 0 && strings.Contains(m.low("box"), " ") {
		// "in the row of buttons", "in the button bar": a toolbar, whose words name no
		// element (its plural none either).
		x.cut(from, to)
	}
	return x.d
}

// namedInPlace reads a description whose one quote names the place of its element, not
// the element ("the Edit link of the "Work" calendar", "the + next to "Work"", "the Value
// box in the row "name""): the element's unquoted name, and ok. The name is then held to
// the rules of every unquoted name.
func namedInPlace(s string, quotes []string) (string, bool) {
	qs := quotesIn(s)
	t := ParseTarget(unmask(s, quotes, true))
	if len(qs) == 1 && t.Quoted && t.Name == quotes[qs[0]] && t.Row != "" {
		if m := read(seq(anyTokens, unquotedRow), s); m != nil && m.get("uq") == t.Row {
			// `"Delete" on the row with Stapler`: the quote names the element, the words
			// at the end its row; nothing else is left to hold.
			return quotes[qs[0]], true
		}
	}
	if len(qs) != 1 {
		return "", false
	}
	if t.Quoted || t.Name == "" || (t.Row != quotes[qs[0]] && !strings.HasSuffix(t.Container, " "+quotes[qs[0]])) {
		return "", false
	}
	return t.Name, true
}

// namesBefore reports a name before a place: a quote (`the "Edit" button in "Trip
// ideas"`) or an unquoted word no description reads as anything else (`the Go button at
// the bottom of "Table options"`). With nothing before it, the quote is the name itself.
func namesBefore(s string) bool {
	ts := tokenize(s)
	if slices.ContainsFunc(ts, func(t tok) bool { return t.kind == tQuote }) {
		return true
	}
	// Unquoted: a name, then a kind, then where ("the Go button at the bottom of").
	n := len(ts)
	for n > 0 && positionWord[ts[n-1].low] || n > 0 && ts[n-1].low == "the" {
		n--
	}
	if n < 2 || (roleWord(ts[n-1].low) == "" && ts[n-1].low != "box") {
		return false
	}
	return hasNameWord(ts[:n-1])
}

// hasNameWord reports a word that may be part of a name: not an article, a kind or a
// position.
func hasNameWord(ts []tok) bool {
	return slices.ContainsFunc(ts, func(t tok) bool {
		return t.kind == tWord && !articleWords[t.low] && roleWord(t.low) == "" && !positionWord[t.low]
	})
}

var articleWords = setOf("the a an its their this that")

var positionWord = setOf("at top bottom left right upper lower corner side edge")

// nounWord is a word that may name a kind of thing ("calendar", "feed"), not a word that
// joins a sentence ("as", "and").
// nameTok is a word of an unquoted name: letters, digits and the marks names carry
// ("ci-bot", "#helpdesk").
var nameTok = one(func(t tok) bool { return t.kind == tWord || t.kind == tNumber })

var nounWord = where(asciiWord, func(w string) bool { return !joinWords[strings.ToLower(w)] })

var joinWords = setOf("as and or to with then in on at by of for from into onto so if when but is are was below above here there")

// The places read at the end of a description whose name is not quoted.
var (
	// listPlace is "in the list of articles", "in the feed list", "in the results", "in
	// the key tree", "in the list": the list a row is in.
	listPlace = alt(seq(word("in", "from"), word("the"), nounWord, word("list", "tree", "table"), opt(sideOf), end),
		seq(word("in", "from"), word("the"), word("tree", "table", "grid", "list"), opt(sideOf), end),
		seq(word("in", "from"), word("the"), word("list"), word("of"), nounWord, end),
		seq(word("in", "among", "from"), word("the"), opt(word("search")), word("results"), end))
	// underPlace is "under Old Projects" at the end of an unquoted description: the item
	// its one to three words name.
	underPlace = seq(word("under"), grab("uq", seq(asciiWord, optLazy(asciiWord), optLazy(asciiWord))), end)
	// unquotedRow is "on the row with Stapler", "in the row for Grace Hopper": a row named
	// by the one to three words that end the description.
	// So is "Edit next to alice": the row of the words after "next to" or "beside".
	unquotedRow = alt(
		seq(word("in", "on"), the, word("row", "line", "entry"), word("with", "containing", "for", "of", "named", "called"),
			grab("uq", alt(addressRun, hyphenRun, seq(asciiWord, optLazy(asciiWord), optLazy(asciiWord)))), end),
		seq(word("next to", "beside"), grab("uq", seq(asciiWord, optLazy(asciiWord), optLazy(asciiWord))), end),
		// "Edit for the user alice", "the Edit link of the user alice": the row of the item
		// named after its noun.
		seq(word("for", "of", "next to", "beside"), word("the"), one(func(t tok) bool { return itemNounSet[t.low] }),
			grab("uq", seq(nameTok, optLazy(nameTok), optLazy(nameTok))), end),
		dataRow)
	// sectionPlace is "in the User preferences section": the part of the page under
	// that heading (Target.Row, RowNoun "section").
	sectionPlace = seq(word("in", "inside", "within", "under"), word("the"), seq(asciiWord, optLazy(asciiWord), optLazy(asciiWord)), word("section", "panel", "group"), end)
	// dataRow is `"Edit" on the silence job=blackbox`, "the alert with instance=web-02",
	// "next to the job=blackbox silence": an item named by its data, as the page writes it.
	dataRow = alt(seq(word("on", "in", "for", "of", "next to", "beside"), word("the"), nounWord, opt(word("with", "whose"), opt(the, nounWord, opt(word("is")))),
		grab("uq", dataRun), end),
		seq(word("on", "in", "for", "of", "next to", "beside"), word("the"), grab("uq", dataRun), nounWord, end))
)

// dataRun is an item's data as a page writes it: one run of characters with no space in
// it and a "=" ("job=blackbox", `instance="web-02:9100"`, a quoted part kept quoted).
var dataRun rule = func(m *match, i int, k func(int) bool) bool {
	if i >= len(m.ts) {
		return false
	}
	j := i + 1
	for j < len(m.ts) && !m.ts[j].space {
		j++
	}
	run := m.src[m.ts[i].start:m.ts[j-1].end]
	return j > i+1 && strings.Contains(run, "=") && !strings.HasPrefix(run, "=") && k(j)
}

// rowNouns are the kind words that name an item a target sits in: "in the Old Projects
// item".
var rowNouns = map[string]bool{"item": true, "entry": true, "row": true, "card": true, "record": true}

// readUnquotedPlace reads a place an unquoted description ends with, "under Old Projects"
// (the item so named), and drops it.
func (t *Target) readUnquotedPlace(x *desc) {
	if m, from, to := x.find(underPlace); m != nil && t.Row == "" && t.Container == "" && from > 0 &&
		(len(quotesIn(x.d)) == 0 && hasNameWord(tokenize(x.d[:from])) || len(quotesIn(x.d[:from])) > 0) {
		// "Delete under Old Projects", `the "login" link under My LDAP Server`: inside the
		// item the words after "under" name.
		t.Row, t.RowNoun = m.get("uq"), "item named"
		x.cut(from, to)
	}
}

// headingPlace is `under the "files-02" heading`, `below the "Server" title`: the part of
// the page (a menu's, a form's) that heading is over; headingNoun is what names it so.
var (
	headingNoun  = word("heading", "header", "title", "part", "section")
	headingPlace = seq(word("under", "below", "beneath", "in"), the, qt, headingNoun)
)

// readHeading reads the heading a description places its element under, as the section
// it is in (Element.Section, or its box), and drops it.
func (t *Target) readHeading(x *desc) {
	if m, from, to := x.find(headingPlace); m != nil && from > 0 {
		t.Row, t.RowNoun = x.quote(m), "section"
		x.cut(from, to)
	}
}

// readListPlace reads the list an item is said to be in, at the end of a description that
// names the item first ("Uncategorized in the feed list", "beside "X" in the list of
// articles", "the Edit icon of "X" in the results"), and drops it: an item of a list.
func (t *Target) readListPlace(x *desc) {
	if m, from, to := x.find(appearedPlace); m != nil && from > 0 {
		t.Appeared = true // "in the list that appears": not a list the page already shows
		x.cut(from, to)
	}
	if m, from, to := x.find(listPlace); m != nil && from > 0 && (len(quotesIn(x.d[:from])) > 0 || hasNameWord(tokenize(x.d[:from]))) {
		t.InList = true
		x.cut(from, to)
	}
}

// appearedPlace is "in the list that appears", "from the dropdown that opens", "in the
// new box": what the step before brought onto the page (an autocomplete's suggestions, the
// paragraph a "+" added), Target.Appeared.
var appearedPlace = alt(
	seq(word("in", "from", "on"), the, word("list", "menu", "dropdown", "drop-down", "popup", "pop-up", "suggestions", "suggestion list", "options", "results", "search results", "box", "field", "row", "item", "paragraph", "editor", "card"),
		opt(word("that", "which")), opt(word("just")), word("appears", "appear", "opens", "open", "pops up", "pop up", "drops down", "drop down", "shows up", "show up", "comes up", "come up", "is shown", "are shown", "was added", "is added"), end),
	seq(word("in", "inside", "within", "on"), the, word("new", "newly added", "new empty"), word("box", "field", "row", "item", "paragraph", "editor", "card", "line"), end))

// sideOf is the side of the page a list is on: "the tree on the left".
var sideOf = seq(word("on"), the, word("left", "right"))

// The dialog a page draws, named by its title.
var (
	// windowContext is "in the Login window", `in the "Add Torrents" window`: the dialog a
	// page draws, named by its title. A window with no name ("at the bottom of the
	// window") is the page's, a position.
	windowContext = alt(seq(word("in", "inside", "within", "on"), the, alt(qt, grab("uq", seq(asciiWord, optLazy(asciiWord), optLazy(asciiWord)))),
		word("window", "dialog", "popup", "pop-up", "dialog box")),
		seq(word("in", "inside", "within", "on"), the, grab("uq", word("confirmation")), opt(word("prompt", "message", "box", "question")), end), // its box unsaid
		// "in the Sign In box" at the end: a box titled so (namedWindow).
		seq(word("in", "inside", "within"), the, grab("uq", seq(asciiWord, optLazy(asciiWord), optLazy(asciiWord))), grab("noun", word("box")), end))
	// notWindowNames are words before "window" that say which browser window, not which
	// dialog: "in a new window".
	notWindowNames = setOf("new another separate same this current other private incognito main browser")
)

// namedWindow reports a windowContext match that names a dialog by its title, not a
// browser window ("in a new window").
func namedWindow(m *match) bool {
	f := strings.Fields(strings.ToLower(m.get("uq")))
	for len(f) > 0 && (f[0] == "a" || f[0] == "an" || f[0] == "the") {
		f = f[1:]
	}
	if m.low("noun") == "box" {
		// "in the Sign In box": a box titled so, its words written as the page writes
		// them; "in the search box" is a field, not a place.
		return allCapitalised(m.get("uq"))
	}
	return m.get("uq") == "" || len(f) > 0 && !notWindowNames[f[0]]
}

// allCapitalised reports words that each start with a capital.
func allCapitalised(s string) bool {
	for _, w := range strings.Fields(s) {
		if !capitalised(w) {
			return false
		}
	}
	return s != ""
}

// readWindow reads "in the Login window", `in the "Add Torrents" window` in a
// description, and drops it: the dialog so titled.
func (t *Target) readWindow(x *desc) {
	if m, from, to := x.find(windowContext); m != nil && from > 0 && namedWindow(m) {
		name := m.get("uq")
		if name == "" {
			name = x.quote(m)
		}
		t.Container = "dialog " + name
		x.cut(from, to)
	}
}

// pronouns stand for something named before, and articles for a thing described, not for
// an item's name: "next to it" and "beside the label" name no row (around.go reads what
// "it" was).
var pronouns = map[string]bool{"the": true, "a": true, "an": true, "it": true, "them": true, "this": true, "that": true, "these": true, "those": true, "him": true, "her": true}

// sideWords name a side of the page, not an item ("in the side panel", "the main section"),
// the position words among them ("in the top panel": a place readPosition reads).
var sideWords = map[string]bool{"top": true, "bottom": true, "left": true, "right": true, "upper": true, "lower": true, "side": true, "main": true, "first": true, "last": true, "same": true, "other": true, "next": true, "new": true, "open": true}

// titledName reads an unquoted name written as a page writes its menu entries, each word
// capitalised, that starts with a kind's word and does not end with one: "List Users",
// "Select All", "Link Accounts" name an entry; "the Users list" says a kind.
func titledName(d string) (string, bool) {
	f := strings.Fields(d)
	if len(f) > 0 && strings.EqualFold(f[0], "the") {
		f = f[1:]
	}
	if len(f) < 2 || len(f) > 4 || roleWord(strings.ToLower(f[0])) == "" || roleWord(strings.ToLower(f[len(f)-1])) != "" {
		return "", false
	}
	for _, w := range f {
		if !capitalised(w) {
			return "", false
		}
	}
	return strings.Join(f, " "), true
}

// namesPlace reports a namedPlace match that names an item the target is in ("in the
// Music panel", "of the Vessel Base Data card"), not a kind of control, a list, a side or
// a box of the page's ("of the Price field", "in the left menu").
func namesPlace(m *match) bool {
	noun := m.low("noun")
	last := strings.ToLower(lastWord(m.get("uq")))
	return roleWord(last) == "" && !notPlaces[last] && !sideWords[last] &&
		(roleWord(m.low("uq")+" "+noun) == "" || rowNouns[noun]) && !notPlaces[noun] && boxKinds[noun] == "" && !positionWord[noun] && !strings.HasSuffix(noun, "s")
}

var (
	// columnPlace is "in the "Budgeted" column", "under the Amount column": the column of
	// a table whose header says so.
	columnPlace = seq(word("in", "under"), the, alt(qt, grab("uq", seq(capWord, optLazy(capWord), optLazy(capWord)))), word("column"))
	// cellOf is `the "Budgeted" amount`, `the "Notes" cell`: what a row shows under that
	// column, named by the column's header and what it holds.
	cellOf = seq(opt(word("the")), qt, word("amount", "value", "cell", "figure", "number", "total", "entry"))
)

// readColumn reads the column of a table the target is in and drops it: the column said
// as a place, or the cell said by its column's header (the name is then no more than it).
func (t *Target) readColumn(x *desc) {
	m, from, to := columnAt(x)
	if m == nil {
		return
	}
	t.Column = x.quote(m)
	if t.Column == "" {
		t.Column = m.get("uq")
	}
	x.cut(from, to)
}

// cellNoun is what a description says of a cell it names by its column alone.
var cellNoun = regexp.MustCompile(`(?i)^\s*(?:the\s+)?(?:amount|value|cell|figure|number|total|entry)\s*$`)

// columnAt finds where the description says a column.
func columnAt(x *desc) (*match, int, int) {
	if m, from, to := x.find(columnPlace); m != nil {
		if cellNoun.MatchString(x.d[:from]) {
			from = 0 // "the amount in the "Budgeted" column": that column's cell
		}
		return m, from, to
	}
	if m, from, to := x.find(cellOf); m != nil && strings.TrimSpace(x.d[:from]) == "" {
		return m, from, to
	}
	return nil, 0, 0
}
