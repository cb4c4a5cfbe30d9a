package plan

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Exact or silent: the offline planner maps a sentence to steps only when it is sure what
// to type and where; anything else is refused with the phrase it could not place, never
// turned into a step that types or clicks something else.

// purposeWords name an icon-only control by what it does ("the delete button in the row
// "Ann"", "the star icon"): the resolver holds them to the control's own aria-label, title,
// class, icon name or glyph (page's iconGroups), never to a guess.
const purposeList = "delete remove trash bin edit pencil close dismiss add plus more search star favorite favourite reply share like settings gear download upload copy refresh info help bold italic underline strikethrough x × " +
	"lock padlock unlock eye printer envelope paperclip"

// purposeWords are purposeList as a pattern's alternatives.
var purposeWords = strings.Join(strings.Fields(purposeList), "|")

// readSeveral reads a sentence that is several steps of one kind: fields given a value each
// (parsePairs) or a list of boxes to tick (parseTickList).
func readSeveral(c string, quotes []string) ([]Step, bool) {
	if steps, ok := readFillMany(c, quotes); ok {
		return steps, true
	}
	if steps, ok := parsePairs(c, quotes); ok {
		return steps, true
	}
	if steps, ok := parseBoth(c, quotes); ok {
		return steps, true
	}
	return parseTickList(c, quotes)
}

var (
	// typeBoth is one value typed into, or one tick of, both of two elements of a kind:
	// `enter the password "x" into both text fields`, "tick both checkboxes".
	typeBoth  = seq(verbsFor(sType), grab("v", some), intoWords, word("both"), the, grab("t", all), end)
	typeTwice = seq(verbsFor(sType), grab("v", some), alt(intoWords, word("as")), the, grab("t", some), word("twice"), end)
	checkBoth = seq(word("check", "tick"), word("both"), the, grab("t", all), end)
	// bothKinds are the plural kinds "both" may count, and the kind of one of them.
	bothKinds = map[string]string{"fields": "field", "text fields": "text field", "textboxes": "textbox", "text boxes": "text box",
		"inputs": "input", "text inputs": "text input", "password fields": "field", "text areas": "text area", "textareas": "textarea",
		"checkboxes": "checkbox", "check boxes": "checkbox"}
)

// parseBoth reads one value for both of two fields, or a tick of both of two boxes: a step
// for each, "the 1st of 2" and "the 2nd of 2", so that the page is held to having exactly
// two (the resolver refuses a page with another number of them).
func parseBoth(c string, quotes []string) ([]Step, bool) {
	action, value, noun := Type, "", ""
	if m := read(typeTwice, c); m != nil {
		// "enter x as the password twice": both fields of that name, a new password and
		// its confirmation.
		v, unclear := exactValue(m.get("v"), quotes)
		t := cleanOperand(m.get("t"), quotes)
		if unclear != "" || exactTarget(m.get("t"), quotes) != "" || strings.ContainsAny(t, `"`) {
			return nil, false
		}
		return []Step{
			{Action: Type, Value: v, TargetDescription: "the 1st of 2 " + strconv.Quote(t) + " field"},
			{Action: Type, Value: v, TargetDescription: "the 2nd of 2 " + strconv.Quote(t) + " field"},
		}, true
	}
	if m := read(typeBoth, c); m != nil {
		v, unclear := exactValue(m.get("v"), quotes)
		if unclear != "" {
			return nil, false
		}
		value, noun = v, m.get("t")
	} else if m := read(checkBoth, c); m != nil {
		action, value, noun = Check, "true", m.get("t")
	} else {
		return nil, false
	}
	if steps, ok := bothNamed(action, value, noun, quotes); ok {
		return steps, true
	}
	name := ""
	if m := read(seq(grab("q", quoteTok), grab("k", all), end), strings.TrimSpace(noun)); m != nil {
		// `both "Password" fields`: two of that kind, both named so.
		n, _ := loneQuote(m.get("q"))
		name, noun = strconv.Quote(quotes[n])+" ", m.get("k")
	}
	kind, ok := bothKinds[strings.ToLower(strings.TrimSpace(noun))]
	if !ok || (action == Check) != (kind == "checkbox") {
		return nil, false
	}
	return []Step{
		{Action: action, Value: value, TargetDescription: "the 1st of 2 " + name + kind},
		{Action: action, Value: value, TargetDescription: "the 2nd of 2 " + name + kind},
	}, true
}

var (
	tickList = seq(verbsFor(sTickList), grab("t", all), end)
	// pairsVerb starts a sentence that may give several fields their values:
	// 'Fill in the email "u" and the name "p"', 'Enter the username "k" and the password "x" into the text fields'.
	pairsVerb = seq(alt(verbsFor(sType), word("fill out", "set")), grab("t", all), end)
)

// isListItem reports one item of a list to tick: a quoted name, or one unquoted word.
func isListItem(s string) bool {
	if _, ok := loneQuote(s); ok {
		return true
	}
	for i, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) && (i == 0 || !strings.ContainsRune("'_-", r)) {
			return false
		}
	}
	return s != ""
}

// parseTickList reads "select ZMhn, LU and QMz" as a tick of each box: two or more items,
// each a quoted name or a single word, and nothing else. ok is false otherwise (one item
// is the plain click or tick; "words similar to happy" is not a list of names).
func parseTickList(c string, quotes []string) ([]Step, bool) {
	m := read(tickList, c)
	if m == nil {
		return nil, false
	}
	items := splitList(strings.TrimSpace(m.get("t")))
	if len(items) < 2 {
		return nil, false
	}
	var steps []Step
	for _, it := range items {
		it = strings.TrimSpace(it)
		if !isListItem(it) || isTargetWord(it) {
			return nil, false
		}
		steps = append(steps, Step{Action: Check, Value: "true", TargetDescription: "the " + strconv.Quote(unmask(it, quotes, false)) + " checkbox"})
	}
	return steps, true
}

// parsePairs reads a sentence that gives one or more fields a quoted value each, named by
// the words before the value. ok is false when the sentence is not of that shape.
func parsePairs(c string, quotes []string) ([]Step, bool) {
	m := read(pairsVerb, c)
	if m == nil {
		return nil, false
	}
	all := strings.TrimSpace(m.get("t"))
	rest, into := cutIntoForms(all)
	var steps []Step
	for _, part := range splitList(rest) {
		field, n, ok := readPair(strings.TrimSpace(part))
		if !ok {
			return nil, false
		}
		field = strings.TrimSpace(field)
		// Words that end "into" or "with", or hold "into" or "in the", name no field before the value:
		// the quote after them is what "type admin into (the field labelled) "User ID""
		// types into, or "fill Password with "x"" fills a field with, read by the sentence's
		// own shape.
		if reDescriptorOnly(field) || read(seq(opt(some), alt(intoWords, word("with", "as")), end), field) != nil ||
			read(seq(some, alt(word("into"), seq(intoWords, theWords)), some), field) != nil {
			return nil, false
		}
		steps = append(steps, Step{Action: Type, Value: quotes[n], TargetDescription: field})
	}
	// One pair is the plain "type <value> into <field>" shape read the usual way, unless
	// nothing else names the field.
	if len(steps) == 1 && into {
		return nil, false
	}
	return steps, len(steps) > 0
}

// reDescriptorOnly reports a "field" that only says what the value is ("code", "text"):
// it names no field.
func reDescriptorOnly(field string) bool {
	switch strings.ToLower(field) {
	case "code", "text", "word", "value", "string", "phrase", "following", "following text":
		return true
	}
	return false
}

// exactValue reads the value operand of a TYPE or SELECT: a quoted string, alone or after
// words that only say what it is ("the code "abc""); unquoted words as they are. Anything
// else — two quoted strings, a quoted string among other words — is refused.
func exactValue(s string, quotes []string) (string, string) {
	s = strings.TrimSpace(s)
	var toks []tok
	for _, t := range tokenize(s) {
		if t.kind == tQuote {
			toks = append(toks, t)
		}
	}
	switch {
	case len(toks) == 0:
		// An unquoted value that starts with an article, or says what the value is rather
		// than being it ("the value of Gender", "the text below", "a name"), is a
		// description: the planner does not know the text.
		if startsSpaced(articleStart, s) || findText(s, valueWords) != "" {
			return "", fmt.Sprintf("%q describes the text to type rather than giving it: quote the exact text", s)
		}
		return cleanOperand(s, quotes), ""
	case len(toks) == 1:
		before, after := strings.TrimSpace(s[:toks[0].start]), strings.TrimSpace(s[toks[0].end:])
		if after == "" && (before == "" || isDescriptor(before)) {
			return quotes[toks[0].quote], ""
		}
	}
	if gluedValue(s) {
		// `type alertname="DiskSpaceLow" into "Matchers"`: one run of characters with its
		// quotes inside it is the text to type, quotes and all.
		return unmask(s, quotes, true), ""
	}
	return "", fmt.Sprintf("what to type is unclear in %q: quote exactly the text to type, once per field", unmask(s, quotes, true))
}

// dropTags drops the words a "#" or an "@" is glued to: a channel's or a person's name as
// written ("#random", "@any"), never a judgement.
func dropTags(s string) string {
	ts := tokenize(s)
	var b strings.Builder
	last := 0
	for i := 0; i+1 < len(ts); i++ {
		if (ts[i].text == "#" || ts[i].text == "@") && !ts[i+1].space && ts[i+1].kind == tWord {
			b.WriteString(s[last:ts[i].start])
			last = ts[i+1].end
		}
	}
	return b.String() + s[last:]
}

// gluedValue reports a value written as one run of characters with no space in it, a
// quoted part glued to a name by a sign: `alertname="DiskSpaceLow"`, `instance=~"web-.*"`.
func gluedValue(s string) bool {
	ts := tokenize(s)
	if len(ts) < 3 || strings.ContainsAny(s, reSpace) {
		return false
	}
	quoted, sign := false, false
	for _, t := range ts {
		quoted = quoted || t.kind == tQuote
		sign = sign || strings.ContainsAny(t.text, "=:")
	}
	return quoted && sign && ts[0].kind == tWord
}

// A targetRule is one way an unquoted target fails to name one element the page shows,
// with an example the tests check and the reason it gives.
type targetRule struct {
	name, example string
	// refuse gives the reason s is refused, or "".
	refuse func(s string) string
}

// unquotedRules are the rules an unquoted target is held to, in order.
var unquotedRules = []targetRule{
	{"several elements", "ZMhn, LU", func(s string) string {
		if strings.Contains(s, ",") {
			return fmt.Sprintf("%q names several elements: write one step per element, each quoted", s)
		}
		return ""
	}},
	{"what to use, not what to click", "green with the color picker", func(s string) string {
		if m := findText(s, word("with")); m != "" {
			return fmt.Sprintf("%q says what to use rather than what to click (%q): quote the element's visible text", s, m)
		}
		return ""
	}},
	// "the text area below" points at the page under the instruction, not at another
	// element: the word says nothing of which one.
	{"a judgement", "the numbers in ascending order", func(s string) string {
		if m := findText(joinedName.ReplaceAllString(dropTags(dropTrailingPlace(itsRowTail.ReplaceAllString(s, ""))), "name"), vagueWords); m != "" {
			return fmt.Sprintf("%q describes the target by judgement (%q), not by what the page shows: quote its visible text", s, m)
		}
		return ""
	}},
	{"any one of a kind", "a rectangle", func(s string) string {
		if startsSpaced(seq(opt(word("on")), word("a", "an")), s) {
			return fmt.Sprintf("%q names a kind of element, not one the page shows by name: quote its visible text", s)
		}
		return ""
	}},
	{"too long to be a name", "the thing at the far end of the second row of cards", func(s string) string {
		if n := len(strings.Fields(stripStart(articleStart, trailingBox.ReplaceAllString(withoutPosition(s), "")))); n > 6 {
			return fmt.Sprintf("%q is too long to be the name of one element: quote its visible text", s)
		}
		return ""
	}},
}

// joinedName is a name of parts joined by hyphens, dots, colons or underscores
// ("order-1042", "report-q1.txt", "billing:invoice-sync"): a word of it is no word of the
// sentence ("order" in "order-1042" says no order).
var joinedName = regexp.MustCompile(`[\pL\pN]+(?:[-_:.@/][\pL\pN]+)+`)

// trailingBox is a place that ends a description and is not part of the name: the box
// the control is in ("in the toolbar", "in the menu") or the row of one thing named in
// one word ("in the row of omar@example.org"). The name before it is held to the limit.
var trailingBox = regexp.MustCompile(`(?i)\s+(?:(?:in|on|inside|within|at)\s+the\s+(?:toolbar|tool bar|menu bar|menu|side menu|sidebar|dialog|popup|form|navigation|nav)|in\s+the\s+row\s+(?:of\s+)?\S+)\s*$`)

// pluralAsName is a plural word that names one control of a kind: "the Options tab",
// "the Items menu". The word before the kind is its name, not several elements.
var pluralAsName = regexp.MustCompile(`(?i)\b(options|items|entries|tabs|links|buttons|fields|boxes|inputs)\s+(tab|button|link|menu|field|page|panel|section|dialog|window|box)\b`)

// verbAll is "all" right after a name's first word, written with a capital ("Save all
// changes", "Delete all"): part of one control's name, as a page writes it, not every
// element ("all Like buttons" says all first).
var verbAll = regexp.MustCompile(`^(\s*\p{Lu}\p{L}*)\s+all\b`)

// capitalisedWords are words written with a capital, as a page writes a name ("Entries
// per page", "Options"): a plural among them is part of one control's name.
var capitalisedWords = regexp.MustCompile(`\b\p{Lu}\p{L}*`)

// exactTarget refuses a target that names several elements, or that mixes a quoted name
// with words the resolver cannot place ("words similar to "big""), or an unquoted one that
// one of unquotedRules refuses.
func exactTarget(s string, quotes []string) string {
	// "the value of "Phone"" names the value beside a label (Target.Labelled): the words
	// before the label say so, and say nothing else about the target. "That starts with
	// "Egy" and ends with "gypt"" is a part the resolver holds exactly too.
	if signInPart(s) != "" {
		return "" // a part of the sign-in form, named by what it is there (signin.go)
	}
	if read(outsideIt, s) != nil {
		return "" // a blank spot of the page (Target.Outside)
	}
	s = itsRowTail.ReplaceAllString(dropBetween(dropValueOf(s)), "") // "… in its row": read by inItsRow
	for _, tail := range []string{" next to it", " beside it", " by it"} {
		// `the "+" button next to it`: beside what the step before named (besideIt).
		if strings.HasSuffix(strings.ToLower(strings.TrimSpace(s)), tail) && len(quotesIn(s)) > 0 {
			s = strings.TrimSpace(s)[:len(strings.TrimSpace(s))-len(tail)]
		}
	}
	outside := replaceQuotes(dropAffixes(withoutPosition(withoutPlaces(s))), " ")
	if everyUnquoted(s) {
		return fmt.Sprintf("%q names several elements (%q): write every before a quoted name (every \"Like\" icon), or one step per element", unmask(s, quotes, true), "every")
	}
	if m := findText(capitalisedWords.ReplaceAllString(pluralAsName.ReplaceAllString(verbAll.ReplaceAllString(outside, "$1"), "$2"), " "), pluralWords); m != "" {
		return fmt.Sprintf("%q names several elements (%q): write one step per element", unmask(s, quotes, true), m)
	}
	if len(quotesIn(s)) == 0 {
		// "in the Add Torrents window" is the place the resolver holds it to, not a name.
		bare := withoutPlaces(s)
		for _, r := range unquotedRules {
			if reason := r.refuse(bare); reason != "" {
				return reason
			}
		}
		return ""
	}
	if name, ok := namedInPlace(s, quotes); ok {
		// "the Edit link of the "Work" calendar": the quote names the place, and the
		// words before it name the element, as an unquoted name does.
		return exactTarget(name, nil)
	}
	fields := strings.Fields(outside)
	nouns := kindNouns(s)
	for i, w := range fields {
		if nouns[strings.ToLower(strings.Trim(w, ",.:;!?"))] {
			continue
		}
		if isDigits(w) && i > 0 && strings.EqualFold(fields[i-1], "of") {
			continue // "the 1st of 2 "Password" fields": how many the page shows
		}
		if i+1 < len(fields) && itemNounSet[strings.ToLower(fields[i+1])] && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "" {
			// "the published post "Ferry Schedule"": a word of what the item is; its name
			// is held exactly, and two items of that name stay a tie.
			continue
		}
		if !isTargetWord(strings.Trim(w, ",.:;!?")) {
			return fmt.Sprintf("in %q the planner cannot tell what %q says about the target: name it by its visible text alone", unmask(s, quotes, true), w)
		}
	}
	return ""
}

// ListItems reads "A, B and C" as its items, split where the planner splits a list of
// field values; a value with no separator is one item.
func ListItems(v string) []string {
	var out []string
	for _, p := range splitList(strings.TrimSpace(v)) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
