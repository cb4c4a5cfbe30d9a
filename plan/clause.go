package plan

import (
	"regexp"
	"strconv"
	"strings"
)

// parseClause reads one masked sentence; a non-empty reason says why it could not. It
// tries the rows of readings in turn, and the first that recognises the sentence reads
// it; a sentence none recognises gets the reason unreadable gives.
func parseClause(c string, quotes []string) (Step, string) {
	for _, r := range readings {
		if s, reason, ok := r.read(c, quotes); ok {
			return s, reason
		}
	}
	return Step{}, unreadable(c)
}

// A clauseReader reads one kind of sentence: ok says it recognised the sentence, and then
// the step is what it says, or reason says why it is not one.
type clauseReader func(c string, quotes []string) (s Step, reason string, ok bool)

// A reading is one row of the planner's table: the kind of sentence, sentences of that
// kind (each read by this row and no earlier one, which the tests check), and its reader.
type reading struct {
	name     string
	examples []string
	read     clauseReader
}

// readings are the rows parseClause tries, in order. The order matters where the
// patterns overlap: an assertion or a wait is read before an unsupported action is
// refused, scrolling to an element before scrolling the page, "press Enter" before "press
// Save", typing before selecting, a checkbox before a click, copying text before reading
// it. Sentences of several steps of one kind (fields and their values, boxes to tick) are
// read before these, by readSeveral; the idioms of whole goals before that, by
// rewriteIdioms.
var readings = []reading{
	{"an action when a number on the page meets a bound", []string{`click "Buy" when the price is less than $47.10`, "wait until the total is above 100"}, readWhen},
	{"a check of the page's text", []string{`check that "Apollo" is visible`, `the page shows "Saved"`, `"Draft" disappears`, `verify "Done"`}, readAssert},
	{"a wait", []string{"wait 2 seconds", `wait for "Results" to appear`}, readWait},
	{"the pointer over an element", []string{`hover over "Account"`, `move the mouse over the "Help" icon`}, readHover},
	{"a double or right click", []string{`double-click "Buy milk"`, `right-click the row "Q4"`, `open the context menu of "Report.pdf"`}, readDoubleOrRightClick},
	{"emptying a field", []string{`clear "Search"`, `clear the text in the "Notes" field`}, readClear},
	{"a resize by the element's grip", []string{"resize the textarea so that the height is larger than its initial size", `make "Notes" wider`}, readResize},
	{"a drag along a list or in a direction", []string{"drag Olwen up by one position", `drag "Milk" to the 3rd position`, "drag the item right"}, readDragBy},
	{"a list sorted by dragging its items", []string{"sort the numbers in increasing order, starting with the lowest number at the top of the list", "sort the list in descending order"}, readSort},
	{"a drag, or a slider set", []string{`drag "Card 3" onto "Done"`, "drag the slider to 40"}, readDrag},
	{"a file given to the page", []string{`upload "report.pdf" into "Attachment"`, `attach "cv.pdf" with the "Browse" button`}, readUpload},
	{"selecting an element's whole text", []string{"highlight the text in the paragraph below", `select all of the text in "Notes"`}, readSelectText},
	{"selecting words within an element's text", []string{`select the word "Neque" in the text editor`, `highlight the text "due Friday" in "Notes"`}, readSelectWords},
	{"an action the agent does not have", []string{`triple-click "Title"`, `click "Next" twice`, "draw a circle"}, refuseUnsupported},
	{"a scroll", []string{"scroll down", "scroll to the bottom of the text area", "scroll the textarea to the bottom of the text", `scroll to "Pricing"`}, readScroll},
	{"a key", []string{"press Enter", `press ctrl+a in "Notes"`}, readKeyPress},
	{"going to an address, back or forward", []string{"go to https://example.com/login", "go back", "reload the page"}, readNavigation},
	{"adding to what a field holds", []string{`add the line "* 26 December" at the end of the text box`, `append "Ask the front desk." to "Notes"`}, readAppend},
	{"a form filled from the page's table", []string{"fill each labelled field with its value from the table"}, readFromTable},
	{"filling a form", []string{`type "Apollo" into "Project name"`, `fill "Email" with "a@b.co"`, `select "High" from "Priority"`, `tick "Private"`, `uncheck "Private"`, "select -5 with the spinner", "select 5 with the slider"}, readInput},
	{"an intent said with the control that does it", []string{"stop every program at once with the Stop All button at the top of the page"}, readIntentWith},
	{"a sign-in with its button alone", []string{"log in with Login", "sign in using the Log In button"}, readSignInButton},
	{"a click", []string{`click "New project"`, "submit the form", "submit when done", "save the changes", "expand the section below", "focus into the 3rd input textbox", `open the "Billing" tab`, "close the dialog", `dismiss the "Newsletter" popup`}, readClick},
	{"reading text off the page", []string{`copy the text in "Notes"`, `paste it into "Reply"`, `extract the first row's name as "first"`}, readExtraction},
}

// found is a reader's answer for a sentence it recognised: the step, or why it is not one.
func found(s Step, reason string) (Step, string, bool) { return s, reason, true }

// readWait reads a wait, for a time ("wait 2 seconds") or for an element ("wait for the
// results to appear").
func readWait(c string, quotes []string) (Step, string, bool) {
	if m := read(waitTime, c); m != nil {
		return Step{Action: Wait, Value: strings.TrimSpace(m.get("v"))}, "", true
	}
	if m := read(waitFor, c); m != nil {
		return Step{Action: Wait, TargetDescription: cleanOperand(m.get("t"), quotes)}, "", true
	}
	return Step{}, "", false
}

// readHover reads moving the pointer over an element.
func readHover(c string, quotes []string) (Step, string, bool) {
	m := read(hover, c)
	if m == nil {
		return Step{}, "", false
	}
	t := m.get("t")
	return found(exact(Step{Action: Hover, TargetDescription: cleanOperand(t, quotes)}, t, quotes, ""))
}

// refuseUnsupported recognises a sentence that asks for an action the agent does not
// take, and says why.
func refuseUnsupported(c string, _ []string) (Step, string, bool) {
	reason := unsupported(c)
	return Step{}, reason, reason != ""
}

// readScroll reads a scroll: to the edge of an element ("to the bottom of the text area",
// that element's own scroll, not the page's), to an element, or of the page, down by
// default.
func readScroll(c string, quotes []string) (Step, string, bool) {
	edges := map[string]string{"bottom": "bottom", "end": "bottom", "top": "top", "start": "top"}
	if m := read(scrollElem, c); m != nil && read(thePage, cleanOperand(m.get("t"), quotes)) == nil {
		t := m.get("t")
		return found(exact(Step{Action: Scroll, TargetDescription: cleanOperand(t, quotes), Value: edges[m.low("edge")]}, t, quotes, ""))
	}
	if m := read(scrollIn, c); m != nil {
		t, edge := m.get("t"), edges[m.low("edge")]
		if read(thePage, strings.TrimSpace(cleanOperand(t, quotes))) != nil {
			return Step{Action: Scroll, Value: edge}, "", true
		}
		return found(exact(Step{Action: Scroll, TargetDescription: cleanOperand(t, quotes), Value: edge}, t, quotes, ""))
	}
	if m := read(scrollTo, c); m != nil && read(edgeOnly, m.get("t")) == nil {
		return Step{Action: Scroll, TargetDescription: cleanOperand(m.get("t"), quotes)}, "", true
	}
	m := read(scrollPage, c)
	if m == nil {
		return Step{}, "", false
	}
	dir := m.low("dir")
	switch {
	case dir == "":
		dir = "down"
	case strings.HasSuffix(dir, "bottom"):
		dir = "bottom"
	case strings.HasSuffix(dir, "top"):
		dir = "top"
	}
	if px := m.get("px"); px != "" {
		dir += " " + strings.TrimRight(px, " \tpixelsPIXELS")
	}
	return Step{Action: Scroll, Value: dir}, "", true
}

// readNavigation reads a move in the history (back, forward, reload) or going to an
// address, which it reads unmasked, since an address may be quoted.
func readNavigation(c string, quotes []string) (Step, string, bool) {
	if m := read(history, c); m != nil {
		v := m.low("v")
		if v == "refresh" {
			v = "reload"
		}
		return Step{Action: Navigate, Value: v}, "", true
	}
	if m := read(navigate, unmask(c, quotes, false)); m != nil {
		return Step{Action: Navigate, Value: strings.TrimRight(m.get("v"), ".,;")}, "", true
	}
	return Step{}, "", false
}

// readInput reads what fills a form: typing into a field (or, without one, into the
// focused element), selecting an option, ticking or unticking a checkbox.
func readInput(c string, quotes []string) (Step, string, bool) {
	if m := read(setWith, c); m != nil {
		if m.low("kind") == "slider" {
			return Step{Action: Drag, TargetDescription: "the slider", Value: m.get("v")}, "", true
		}
		return Step{Action: Type, TargetDescription: "the spinner", Value: m.get("v")}, "", true
	}
	if m := read(pasteValue, c); m != nil && read(seq(alt(word("it", "that", "them"), seq(the, opt(word("copied")), word("text"))), end), m.get("v")) == nil {
		v, unclear := m.get("v"), ""
		if qs := quotesIn(v); len(qs) == 1 && read(seq(theWords, anyTokens, quoteTok, end), v) != nil {
			v = quotes[qs[0]] // "paste the magnet link "x" into …": the quoted value, whatever it is called
		} else {
			v, unclear = exactValue(v, quotes)
		}
		return found(exact(Step{Action: Type, Value: v, TargetDescription: cleanOperand(m.get("t"), quotes)}, m.get("t"), quotes, unclear))
	}
	m := read(typeIntoQuoted, c)
	if m == nil || len(quotesIn(m.get("v"))) > 0 {
		m = read(typeInto, c)
	}
	if m != nil {
		v, unclear := exactValue(m.get("v"), quotes)
		if read(openedField, m.get("t")) != nil {
			return found(Step{Action: Type, Value: v, TargetDescription: FocusedField}, unclear)
		}
		t := inPlaceOf.ReplaceAllString(m.get("t"), "")
		return found(exact(Step{Action: Type, Value: v, TargetDescription: cleanOperand(t, quotes)}, t, quotes, unclear))
	}
	if s, reason, ok := readReplaceThere(c, quotes); ok {
		return s, reason, true
	}
	for _, r := range []rule{soItHolds, replaceIn, replaceWithIn, changeFrom, fillWith} {
		if m := read(r, c); m != nil {
			v, t := placeAfterValue(m.get("v"), stripStart(valueOfField, m.get("t")))
			v, unclear := exactValue(v, quotes)
			return found(exact(Step{Action: Type, Value: v, TargetDescription: cleanOperand(t, quotes)}, t, quotes, unclear))
		}
	}
	if s, reason, ok := readNaming(c, quotes); ok {
		return s, reason, true
	}
	if m := readTypeOnly(c); m != nil && read(seq(intoWords, end), m.get("v")) == nil {
		// "double-click "Buy milk", type "Buy oat milk"": into the field the page has
		// focused (the editor the double-click opened); with none focused the step fails.
		v, unclear := exactValue(m.get("v"), quotes)
		if unclear != "" {
			return found(Step{}, unclear)
		}
		return Step{Action: Type, Value: v, TargetDescription: FocusedField}, "", true
	}
	if m := read(selectFrom, c); m != nil {
		if s, reason, ok := selectAsClick(m, quotes); ok {
			return s, reason, true
		}
		if read(appearedPlace, "from "+strings.TrimSpace(m.get("t"))) != nil {
			// "choose Wholesale from the list that appears": a click on the item the list
			// the step before opened shows, not a value chosen from a list box.
			v, unclear := exactValue(m.get("v"), quotes)
			return found(Step{Action: Click, TargetDescription: strconv.Quote(v) + " in the list that appears"}, unclear)
		}
		if n, ok := itemInList(m.get("v"), m.get("t")); ok {
			// `select the torrent "x" in the list`: a click on the item the list shows, not
			// a value chosen from a list box.
			t := quotes[n] + ` in the list`
			return found(exact(Step{Action: Click, TargetDescription: strconv.Quote(quotes[n]) + " in the list"}, t, nil, ""))
		}
		v, unclear := exactValue(m.get("v"), quotes)
		if several, ok := quotedList(m.get("v"), quotes); ok {
			// `select "Front Door" and "Front Gate" in "Monitor"`: both, in a list that
			// takes several (the browser refuses a list that takes one).
			v, unclear = several, ""
		}
		return found(exact(Step{Action: Select, Value: v, TargetDescription: cleanOperand(m.get("t"), quotes)}, m.get("t"), quotes, unclear))
	}
	return readTicks(c, quotes)
}

// placeAfterValue moves a place written after a quoted value onto the field it was said
// of: `replace the Name with "Office" in the Connect form` (the place a step started with
// is written after it, leadPlaces).
func placeAfterValue(v, t string) (string, string) {
	ts := tokenize(strings.TrimSpace(v))
	if len(ts) < 3 || ts[0].kind != tQuote || !ts[1].space || readStart(placeLead, strings.TrimSpace(v)[ts[1].start:]) == nil {
		return v, t
	}
	v = strings.TrimSpace(v)
	return v[:ts[0].end], strings.TrimSpace(t) + " " + v[ts[1].start:]
}

// FocusedField is the target of a TYPE that names no field: the one the page has focused.
const FocusedField = "the focused field"

// readClick reads a click: submitting the form (its Submit button) or clicking, tapping,
// opening or switching to an element.
func readClick(c string, quotes []string) (Step, string, bool) {
	if read(submit, c) != nil {
		return Step{Action: Click, TargetDescription: "Submit"}, "", true
	}
	if m := read(saveIt, c); m != nil {
		v := m.low("v")
		return Step{Action: Click, TargetDescription: upperFirst(v)}, "", true
	}
	if read(goOn, c) != nil && capitalised(strings.TrimSpace(c)) { // "…, Continue, and Continue": the button's name
		return Step{Action: Click, TargetDescription: strings.TrimSpace(c)}, "", true
	}
	if read(expand, c) != nil {
		return Step{Action: Click, TargetDescription: "the collapsed section"}, "", true
	}
	if m := read(confirmWith, c); m != nil {
		return found(exact(Step{Action: Click, TargetDescription: cleanOperand(m.get("t"), quotes)}, m.get("t"), quotes, ""))
	}
	if m := read(openByIts, c); m != nil {
		n, _ := loneQuote(m.get("q"))
		t := "the " + strings.TrimSpace(m.get("t")) + " in the row " + strconv.Quote(quotes[n])
		return found(exact(Step{Action: Click, TargetDescription: unmask(t, quotes, true)}, t, quotes, ""))
	}
	if m := read(openWith, c); m != nil {
		return found(exact(Step{Action: Click, TargetDescription: cleanOperand(m.get("t"), quotes)}, m.get("t"), quotes, ""))
	}
	if m := read(closeBox, c); m != nil {
		box := "dialog"
		if name := m.get("name"); name != "" {
			box = unmask(name, quotes, true) + " dialog"
		}
		return Step{Action: Click, TargetDescription: "close in the " + box}, "", true
	}
	if m := read(click, c); m != nil {
		t := dropUnquotedPurpose(dropPurpose(m.get("t")))
		if name, ok := nounThenAddress(t); ok {
			return Step{Action: Click, TargetDescription: strconv.Quote(name)}, "", true
		}
		return found(exact(Step{Action: Click, TargetDescription: cleanOperand(t, quotes)}, t, quotes, ""))
	}
	return Step{}, "", false
}

// readExtraction reads what takes text from the page: copying the text of an element (the
// value a later "paste it into" types, under the name Copied), pasting it, or reading a
// value under a name, given or made from what is read.
func readExtraction(c string, quotes []string) (Step, string, bool) {
	if m := read(copyText, c); m != nil {
		return found(exact(Step{Action: Extract, TargetDescription: cleanOperand(m.get("t"), quotes), Value: Copied}, m.get("t"), quotes, ""))
	}
	if m := read(pasteIt, c); m != nil {
		return found(exact(Step{Action: Type, TargetDescription: cleanOperand(m.get("t"), quotes), Value: "{{" + Copied + "}}"}, m.get("t"), quotes, ""))
	}
	if m := read(extract, c); m != nil {
		name := cleanOperand(m.get("v"), quotes)
		if name == "" {
			name = slug(cleanOperand(m.get("t"), quotes))
		}
		return Step{Action: Extract, TargetDescription: cleanOperand(m.get("t"), quotes), Value: name}, "", true
	}
	return Step{}, "", false
}

// unreadable says why no reader recognised a sentence: it asks to go on without saying
// how, it starts with no action the planner knows, or its operands could not be read.
func unreadable(c string) string {
	if read(goOn, c) != nil {
		return `it does not say what to click to go on: name the button, e.g. click "Continue"`
	}
	if !startsWithVerb(c) {
		return "it does not start with an action the offline planner knows (click, double-click, right-click, type, clear, select, check, press, hover, go to, scroll, wait, verify, extract)"
	}
	return "it starts with an action but its target or value could not be read; quote them, as in type \"Apollo\" into \"Project name\""
}

// exact passes a step on unless its value was unclear (reason) or its target, as written
// (target, still masked), names several elements or words the resolver cannot place.
func exact(s Step, target string, quotes []string, reason string) (Step, string) {
	if reason != "" {
		return Step{}, reason
	}
	if t := stripStart(articleStart, strings.TrimSpace(target)); s.TargetDescription != "" {
		if n, ok := loneQuote(t); ok && ParseTarget(quotes[n]) != (Target{Name: quotes[n]}) {
			// `click "New field"` is the control named so: the quoted words are its name as
			// the page writes it, never a kind ("field") and a name ("New"); they stay quoted.
			s.TargetDescription = unmask(t, quotes, true)
		}
	}
	return s, exactTarget(target, quotes)
}

func hasAssertVerbOrQuote(c string) bool {
	return readStart(verbsFor(sAssert), c) != nil || strings.HasPrefix(c, "\x01")
}

// cleanOperand unmasks a target or value: a lone quoted string is taken as written, and an
// unquoted one loses a leading article or "on".
func cleanOperand(s string, quotes []string) string {
	s = stripStart(articleStart, strings.TrimSpace(s))
	if n, ok := loneQuote(s); ok {
		return quotes[n]
	}
	return strings.TrimSpace(unmask(s, quotes, true))
}

// assertText picks the text an ASSERT looks for: the quoted string when the subject holds
// exactly one ("the toast 'Project created'"), else the subject itself.
func assertText(subject string, quotes []string) string {
	if qs := quotesIn(subject); len(qs) == 1 {
		return quotes[qs[0]]
	}
	s := stripStart(textPrefix, strings.TrimSpace(subject))
	return cleanOperand(s, quotes)
}

// itemInList reads `the torrent "x"` chosen in `the list` (the torrent list, the table): an
// item of a list a person selects by clicking it, named by its noun and its quoted name.
// It gives the quote's index.
func itemInList(v, t string) (int, bool) {
	m := read(seq(theWords, where(asciiWord, func(w string) bool { return itemNounSet[strings.ToLower(w)] }), grab("q", quoteTok), end), v)
	if m == nil || read(seq(the, opt(asciiWord), word("list", "table", "grid"), end), t) == nil {
		return 0, false
	}
	qs := quotesIn(m.get("q"))
	if len(qs) != 1 {
		return 0, false
	}
	return qs[0], true
}

// inPlaceOf is the value a field holds now, said after it: `type "Keller Home" into
// "Homebridge Name" in place of "Homebridge Loft"`. The field named is the one typed into
// whatever it holds; the old value is how the person found it.
var inPlaceOf = regexp.MustCompile(`(?i)\s+(?:in\s+place\s+of|instead\s+of|replacing)\s+(?:\x01\d+\x02|[^\s,;]+|its\s+\S+)\s*$`)
