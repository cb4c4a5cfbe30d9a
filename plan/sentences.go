package plan

import "strings"

// The shapes of the sentences the readers read, in the grammar of grammar.go, their
// verbs from the lexicon. Operands are captured by name: t is a target, v a value.

var (
	the      = opt(word("the"))
	theWords = word("the")
	// visibleWords say a text is on the page.
	visibleWords = word("visible", "shown", "displayed", "listed", "present", "there", "on the page", "on page", "on the screen", "on screen")
	// assertLead is how a check may start: "check that", "verify".
	assertLead = opt(verbsFor(sAssert), opt(word("that")))
	assertIs   = seq(assertLead, grab("t", some), word("is", "are"), opt(grab("not", word("not", "no longer"))), alt(visibleWords, inTheList), end)
	// inTheList is where a check looks that names the list it looks in: "is no longer in
	// the list", "is in the host list", "is on the page". The text is looked for on the page.
	inTheList = seq(word("in", "on"), the, optLazy(asciiWord), word("list", "page", "table", "results", "grid"), end)
	// assertUnder is `check that "#helpdesk" appears under Local IRC`: the text in the
	// item named after "under" (its element's text, or its row's).
	assertUnder = seq(assertLead, grab("t", quoteTok), alt(seq(word("is", "are"), opt(grab("not", word("not", "no longer"))), visibleWords),
		grab("verb", word("appears", "shows up", "is gone", "disappears", "does not appear", "doesn't appear", "no longer appears"))),
		word("under", "in", "inside", "within", "beside", "next to"), grab("p", all), end)
	assertVerb = seq(assertLead, grab("t", some), grab("verb", word("appears", "shows up", "is gone", "disappears", "does not appear", "doesn't appear", "no longer appears")), end)
	assertPage = seq(assertLead, word("the page"), grab("verb", word("shows", "contains", "displays", "says", "reads", "does not say", "does not show", "doesn't show", "does not contain", "doesn't contain", "no longer shows")), grab("t", all), end)
	// assertHolds is "make sure the field labelled "Login DN" holds cn=admin", "check that
	// "family-recipes" shows "Paused"": what one element holds or shows, or its row.
	assertHolds = seq(verbsFor(sAssert), opt(word("that")), grab("t", some), word("holds", "contains", "reads", "says", "shows", "displays", "has the value", "is set to"), grab("v", all), end)
	// keepAs is "keep admin as the User name", "leave the Destination Branch at [root]":
	// the field is to hold what it already holds, a check of its value. assertIsValue is
	// "make sure User name is slindgren", the same check ("is visible", "is checked" are
	// not values).
	keepAs        = seq(word("keep", "leave"), grab("a", some), word("as", "at", "set to", "on"), grab("b", all), end)
	assertIsValue = seq(word("make sure", "ensure"), opt(word("that")), grab("t", some), word("is"), grab("v", where(all, func(v string) bool { return !hasWord(v, stateWords) })), end)
	stateWords    = word("visible", "shown", "displayed", "listed", "present", "there", "not", "no longer", "gone", "checked", "unchecked", "ticked", "unticked",
		"selected", "enabled", "disabled", "empty", "open", "closed", "expanded", "collapsed", "hidden", "active", "inactive", "on the page", "on screen")
	assertSee = seq(alt(seq(word("verify", "expect", "assert"), opt(word("to see"))), word("see"),
		seq(word("check", "make sure", "ensure"), opt(word("that")), word("you", "i", "we"), opt(word("can")), word("see"))), grab("t", all), end)

	waitTime = seq(word("wait"), opt(word("for")), grab("v", where(all, isDuration)), end)
	waitFor  = seq(word("wait"), word("for", "until"), grab("t", some),
		opt(alt(seq(word("to"), word("appear", "show up", "be visible", "load")), word("appears", "shows up", "is visible", "is shown", "loads"))), end)

	edgeWords  = word("bottom", "end", "top", "start")
	scrollPage = seq(word("scroll"), opt(the, word("page")), opt(grab("dir", word("down", "up", "to the bottom", "to the top", "to bottom", "to top"))), opt(opt(word("by")), grab("px", pixels)), end)
	scrollIn   = seq(word("scroll"), opt(word("down", "up")), word("to the"), grab("edge", edgeWords), word("of"), grab("t", all), end)
	scrollTo   = seq(word("scroll"), opt(word("down", "up")), word("to"), grab("t", all), end)
	scrollElem = seq(word("scroll"), opt(word("down", "up")), grab("t", alt(seq(theWords, where(some, noComma)), quoteTok)), opt(word("all the way")), word("to"), opt(word("the", "its")), grab("edge", edgeWords), opt(word("of"), the, word("text", "it", "its text", "content")), end)
	thePage    = seq(the, word("page", "window", "screen"), end)
	edgeOnly   = seq(the, word("bottom", "top"), end)
	pressKey   = seq(verbsFor(sKey), the, grab("v", keyName), opt(word("key")), opt(word("in", "on", "inside"), grab("t", all)), end)
	history    = alt(seq(word("go"), grab("v", word("back", "forward"))), seq(grab("v", word("reload", "refresh")), opt(word("the page"))))
	navigate   = seq(verbsFor(sGo), the, opt(word("url", "page", "website", "site", "address")), grab("v", where(all, isURL)), end)
	intoWords  = word("into", "in", "inside", "to")
	typeInto   = seq(verbsFor(sType), grab("v", some), alt(intoWords, word("as")), grab("t", all), end)
	// typeIntoQuoted is `write Standup moved to 10:30 in "Write to #general"`: a field
	// quoted at the end, and all before it, "to"s and all, the value.
	typeIntoQuoted = seq(verbsFor(sType), grab("v", some), word("into", "in", "inside"), grab("t", seq(the, quoteTok, opt(word("field", "box", "input")))), end)
	fillWith       = seq(verbsFor(sFillWith), grab("t", some), word("with", "to", "as"), grab("v", all), end)
	// changeFrom is "change "Purge after" from 60 to 30": the value the field shows now,
	// then the one it is to hold; replaceIn is "replace "New York" in "City" with
	// "Arlington"". The field and the new value are the step; the old value is how the
	// person found the field, and the field named is the one typed into whatever it holds.
	// soItHolds is "change the Tags field so that it holds "a b"": the value it is to hold.
	soItHolds  = seq(verbsFor(sFillWith), grab("t", some), word("so that it holds", "so it holds", "so that it reads", "so it reads", "so that it says", "so it says"), grab("v", all), end)
	changeFrom = seq(verbsFor(sFillWith), grab("t", some), word("from"), grab("old", some), word("to"), grab("v", all), end)
	replaceIn  = seq(word("replace"), grab("old", some), word("in", "inside"), grab("t", some), word("with", "by"), grab("v", all), end)
	// replaceWithIn is "replace "30" with "0" in the field between …": the old value, the
	// new one (a quote, a word or a number), then the field.
	replaceWithIn = seq(word("replace"), grab("old", some), word("with", "by"), grab("v", alt(quoteTok, one(func(t tok) bool { return t.kind == tWord || t.kind == tNumber }))),
		word("in", "inside", "into"), grab("t", all), end)
	// valueOfField is "the value of" before a field a value is typed into: the field.
	valueOfField = seq(the, word("value", "text", "content", "contents"), word("of", "in"))
	// findIt is "find "Quarterly report"", "locate the "Apollo" row", "find the job called
	// "Quarterly report"": a check that the
	// page shows the name quoted (an unquoted "find" describes; it is not a name).
	findIt = seq(word("find", "locate", "look for"), opt(word("the")), opt(asciiWord), opt(word("called", "named", "titled")), grab("t", alt(quoteTok, addressRun, hyphenRun)), opt(word("row", "item", "entry", "link", "card")),
		opt(findPlace), opt(findPlace), end)
	// findPlace is where a thing found is looked for: "in the Name column", "in the
	// Supervisor status table" (a check that the page shows it says nothing of where).
	findPlace = seq(word("in", "on"), word("the"), optLazy(seq(oneWord, optLazy(oneWord), optLazy(oneWord))), word("column", "table", "list", "page"), opt(seq(word("of"), oneWord)))
	// findRow is "go to the row with the path /wiki-old", "find the row whose Path is
	// "/inventory"": the row is found by the one thing it shows, a check that the page
	// shows it; "in its row" after it is that row.
	findRow = seq(word("find", "locate", "go to", "look for"), word("the"), word("row", "line", "entry"), word("with", "whose", "that has", "that shows", "for", "of", "named", "called"),
		opt(seq(opt(word("the")), asciiWord, opt(word("is", "of")))), grab("t", alt(quoteTok, addressRun, hyphenRun)), opt(findPlace), end)
	// leaveAsIs is "leave the text below it alone", "leave the Site description as it is",
	// "leave the other fields empty": what the steps do not touch, no step of its own.
	leaveAsIs = alt(seq(word("leave", "keep"), some, word("alone", "as it is", "as they are", "as is", "unchanged", "untouched", "intact",
		"running", "stopped", "paused", "seeding", "where it is", "where they are", "in place"), end),
		// "don't touch episode 41", "change nothing else": what no step does.
		seq(word("don't touch", "do not touch", "don't change", "do not change", "don't edit", "do not edit"), some, end),
		seq(word("change", "touch", "edit"), word("nothing else", "nothing more", "nothing"), end),
		seq(word("leave"), word("the other", "the others", "the rest", "all other", "all the other", "everything else", "any other"), optLazy(some),
			word("empty", "blank", "alone", "as they are", "unchanged", "untouched"), end))
	// confirmWith is "confirm with "OK"", "accept by clicking "Yes"": the click on the
	// control named.
	confirmWith = seq(alt(word("confirm", "accept"), seq(word("send", "submit", "post", "save", "apply"), opt(word("it", "that", "them", "the message", "the form", "the change", "the changes")))), opt(alt(word("it", "that"), seq(theWords, word("change", "changes", "deletion", "removal", "action", "update", "dialog", "question", "prompt", "warning", "popup", "confirmation"),
		opt(word("that pops up", "that appears", "that opens", "that follows", "which pops up", "which appears"))))), word("with", "by clicking", "by pressing", "using", "by clicking on"), grab("t", all), end)
	// nameIt is "name it "Branch Offices"", "call it Office": the thing being made is
	// named in the field the page calls Name.
	nameIt = seq(word("name", "call"), word("it", "this", "the new one"), grab("v", all), end)
	// nameThe is "name the new monitor Garage", "call the group "Front Entrances"", "give it
	// the name Garage": the words in lower case after "the" say what is named, and the name
	// (quoted, or starting in upper case or with a digit: nameIs) goes into the Name field.
	nameThe = alt(seq(word("name", "call"), word("the"), opt(word("new")), lowerWord, optLazy(lowerWord), grab("v", all), end),
		seq(word("give"), word("it", "this"), word("the name", "a name"), grab("v", all), end))
	// giveThe is "give it the description Lab printers": a field a person names in one word
	// of the few a form's fields are commonly called, and its value.
	giveThe = seq(word("give"), word("it", "this", "her", "him", "them"), word("the", "a"),
		grab("f", word("title", "description", "location", "label", "email", "e-mail", "address", "category", "priority", "comment", "note", "summary", "subject", "nickname", "username", "phone")), grab("v", all), end)
	typeOnly   = seq(verbsFor(sTypeOnly), grab("v", all), end)
	selectFrom = seq(verbsFor(sChoose), grab("v", some), word("from", "in", "for", "under", "as"), grab("t", all), end)
	tick       = seq(verbsFor(sTick), grab("t", all), end)
	// switchTo is a switch or a box set on or off, the state said after it: "switch
	// "Admin User?" off", "turn the Dark mode toggle on".
	switchTo = seq(word("switch", "turn", "toggle", "flip", "set"), grab("t", some), opt(word("so that it is", "so that it's", "so it is", "so it's", "so that it shows", "to")), grab("state", word("on", "off")), end)
	untick   = seq(verbsFor(sUntick), grab("t", all), end)
	// tickState is a box left or made to be in a state: "leave "Also delete the files"
	// unchecked", "make sure the box "Private" is ticked", "ensure Remember me is not
	// checked". The box ends in that state, ticked or cleared only when it is not.
	tickState = seq(alt(word("leave", "keep"), seq(word("make sure", "ensure"), opt(word("that")))), grab("t", some),
		opt(word("is", "stays", "remains")), opt(grab("not", word("not"))),
		grab("state", word("unchecked", "unticked", "unselected", "checked", "ticked", "selected")), end)
	click       = seq(verbsFor(sClick), opt(word("on")), grab("t", all), end)
	setWith     = seq(verbsFor(sSetWith), grab("v", signedNumber), word("with", "on", "using", "in"), the, grab("kind", word("slider", "spinner", "spin box", "spinbox", "spin button", "spinbutton")), end)
	sectionWord = word("section", "panel", "accordion", "group", "details", "menu", "node")
	expand      = alt(seq(word("expand", "unfold"), the, opt(oneWord), sectionWord, opt(word("below", "above", "here")), end),
		seq(word("open"), the, opt(oneWord), sectionWord, word("below", "above", "here"), end))
	// openedField is "the edit field in the row", "the text field that opened": the field a
	// double-click or a button has just opened, which the page focuses (FocusedField).
	fieldWord   = word("field", "box", "input", "text box", "textbox", "text field", "input field")
	openedField = seq(the, alt(seq(word("edit", "editing"), fieldWord),
		seq(opt(word("text", "edit", "input", "new")), fieldWord, word("that", "which"), opt(word("just", "has", "has just")),
			word("opened", "appeared", "opens", "appears", "popped up"))),
		opt(word("in", "of"), the, word("row", "item", "entry")), end)
	// closeBox is "close the dialog", "dismiss the "Newsletter" popup": the click on the
	// open box's own close control, found by its purpose (a "Close", an "×", a "Dismiss").
	// A window a page opens over itself is such a box ("close the window", "close the
	// Preferences window"); with none open, no dialog is there to close and the step says so.
	closeBox = seq(word("close", "dismiss"), the, opt(grab("name", alt(quoteTok, seq(asciiWord, optLazy(asciiWord), optLazy(asciiWord))))),
		grab("box", word("dialog", "modal", "popup", "pop-up", "pop up", "window")), opt(word("box", "window")), end)
	// openWith is "open the Preferences dialog with the Edit Preferences button": the
	// click on the control named after "with"; what it opens is how the person knows it.
	openWith = seq(word("open", "bring up", "show"), the, some, word("dialog", "window", "panel", "popup", "pop-up", "menu", "preferences", "settings", "inspector"),
		word("with", "using", "via", "by clicking", "by pressing", "through"), grab("t", all), end)
	// openByIts is `open the group "sales" with its Edit icon`: the click on that control
	// in the row of the item named.
	openByIts = seq(word("open", "edit"), the, opt(nounWord), grab("q", quoteTok), word("with", "using", "via", "by clicking"), word("its", "their"), grab("t", all), end)
	confirmIt = seq(word("confirm", "accept"), opt(alt(word("it", "that"), seq(theWords, word("dialog", "confirmation", "prompt", "popup", "warning")))), end)
	goOn      = seq(word("continue", "proceed"), end)
	// saveIt is "save", "save the changes", "apply them", "publish it": a click on the
	// button the verb names ("Save"), as "submit" is one on "Submit".
	saveIt = seq(grab("v", word("save", "apply", "publish")), opt(alt(word("it", "them", "this", "that", "everything", "all"),
		seq(opt(word("the", "your", "my", "these", "those")), word("changes", "change", "form", "settings", "page", "record", "entry", "item", "post", "configuration", "config", "edits")))),
		opt(word("when", "once"), word("done", "finished", "you're done", "you are done")), end)
	submit      = seq(word("submit"), opt(alt(word("it"), seq(word("the", "this"), word("form")))), opt(word("when", "once"), word("done", "finished", "you're done", "you are done")), end)
	doubleClick = seq(verbsFor(sDoubleClick), opt(word("on")), grab("t", all), end)
	rightClick  = alt(seq(verbsFor(sRightClick), opt(word("on")), grab("t", all), end), seq(word("click", "tap"), opt(word("on")), grab("t", some), word("with the right"), opt(word("mouse")), word("button"), end), seq(word("open the context menu"), word("of", "on", "for"), grab("t", all), end))
	clearField  = seq(verbsFor(sClear), opt(the, word("text", "content", "contents", "value"), word("of", "in", "from")), grab("t", all), end)
	dragOnto    = seq(word("drag"), opt(word("and drop")), grab("t", some), word("onto", "on to", "on", "into", "to", "over"), grab("v", all), end)
	upload      = seq(verbsFor(sUpload), grab("v", some), word("into", "in", "to", "with", "using", "through", "via", "for"), grab("t", all), end)
	hover       = alt(seq(verbsFor(sHover), opt(word("over", "on", "onto", "at", "to")), grab("t", all), end), seq(word("move", "put"), word("the"), word("mouse", "pointer", "cursor"), word("over", "on", "onto"), grab("t", all), end))
	copyText    = seq(word("copy"), the, word("text", "value", "contents", "content", "words", "word"), word("in", "from", "of", "inside"), grab("t", all), end)
	// pasteValue is "paste "magnet:?xt=…" into the URL field", "paste the magnet link
	// "x" into "Url"": the value typed in. What was copied before ("paste it into …") is
	// pasteIt's.
	pasteValue   = seq(word("paste"), grab("v", some), intoWords, grab("t", all), end)
	pasteIt      = seq(word("paste"), alt(word("it", "that", "them"), seq(theWords, opt(word("copied")), word("text"))), word("into", "in", "to"), grab("t", all), end)
	extract      = seq(verbsFor(sExtract), grab("t", some), opt(word("as", "into"), grab("v", all)), end)
	articleStart = seq(opt(word("on")), word("the", "a", "an"))
	textPrefix   = seq(the, word("text", "message", "words", "word"))
)

// oneWord is any one word.
var oneWord = one(func(t tok) bool { return t.kind == tWord })

// noComma accepts a text with no comma in it.
func noComma(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			return false
		}
	}
	return true
}

// signedNumber is a number with a minus before it or not: "-5", "40".
var signedNumber = alt(seq(one(func(t tok) bool { return t.text == "-" }), glued(number)), number)

// pixels is a number of pixels: "300", "300 px", "300px".
var pixels rule = func(m *match, i int, k func(int) bool) bool {
	if i >= len(m.ts) {
		return false
	}
	t := m.ts[i]
	for _, unit := range []string{"px", "pixels"} {
		if n, ok := strings.CutSuffix(t.low, unit); ok && t.kind == tWord && isDigits(n) {
			return k(i + 1)
		}
	}
	if t.kind != tNumber || !isDigits(t.low) {
		return false
	}
	return word("px", "pixels")(m, i+1, k) || k(i+1)
}

// stripStart drops what r matches at the start of s, when white space follows it.
func stripStart(r rule, s string) string {
	ts := tokenize(s)
	m := &match{ts: ts, src: s, caps: map[string][2]int{}}
	j := -1
	r(m, 0, func(e int) bool {
		if e < len(ts) && ts[e].space {
			j = e
			return true
		}
		return false
	})
	if j < 0 {
		return s
	}
	return s[ts[j].start:]
}

// startsSpaced reports whether r matches the start of s with white space after it.
func startsSpaced(r rule, s string) bool { return stripStart(r, s) != s }
