package plan

import (
	"strings"
	"unicode"
)

// The words the exactness rules read (exact.go): what makes a target several elements, a
// judgement, or a description of a value, and the words a quoted target may stand among.

var (
	// pluralWords name several targets at once.
	pluralWords = word("both", "all", "each", "fields", "boxes", "checkboxes", "buttons", "links", "inputs", "options", "items", "entries", "tabs")
	// valueWords make an unquoted value a description of it.
	valueWords = word("value", "number", "total", "sum", "result", "answer", "text", "word", "below", "above", "following", "shown", "given", "of", "that", "which")
	// vagueWords make an unquoted target a judgement rather than a name: "the button that
	// best describes the figure", "as many circles as possible".
	vagueWords = word("that", "which", "who", "whose", "where", "best", "most", "least", "many", "much", "possible", "below", "above", "correct",
		"appropriate", "matching", "match", "similar", "corresponding", "same", "following", "according", "describe", "describes", "shown", "given",
		"random", "any", "some", "largest", "smallest", "biggest", "closest", "nearest", "highest", "lowest", "until", "using", "ascending",
		"descending", "order", "colored", "coloured", "shaped", "sized", "shortest", "longest", "greatest", "fewest", "cheapest", "center",
		"centre", "middle", "mid-point", "midpoint")
	// descriptorWords say what a quoted value is: "the code "abc"".
	descriptorWords = setOf("code text word words value number string phrase name term query message answer password username email date time amount title")
	// placeKinds are the kinds "below" or "above" may follow without saying which one: "the
	// text area below".
	placeKinds = word("text area", "textarea", "text box", "textbox", "text field", "field", "input", "list", "button", "checkbox", "dropdown")
	// affix is "that starts with "X"" and "and ends with "Y"" said of a target, masked.
	affix = seq(opt(word("that", "which", "and")), word("starts", "start", "starting", "begins", "begin", "beginning", "ends", "end", "ending"), word("with"), quoteTok)
	// valueOfLabel is "the value of" before a quoted label, masked (see Target.Labelled).
	valueOfLabelWords = seq(the, word("value"), word("of", "for", "beside", "next to"), the, opt(word("label")))
	// intoForms is a trailing "into the text fields" that names no field of its own.
	intoForms = seq(word("into", "in", "on"), the, opt(word("text", "input", "form")), word("fields", "boxes", "inputs", "form"), end)
)

// targetWordSet are the words a click target may hold beside a quoted name: articles,
// role words, places and ordinals, which the resolver reads; purposeWords and itemNouns
// too.
var targetWordSet = setOf("the a an on every button btn link field text box textbox input area textarea editor check checkbox radio " +
	"slider switch toggle column lane tab icon menu item menuitem option record list dropdown select section header heading panel entry row line " +
	"card dialog modal popup form sidebar toolbar footer side navigation nav in inside within of for from next to beside under named called labelled labeled with " +
	"first second third fourth fifth sixth seventh eighth ninth tenth last by about " +
	// What a field is for, said before its kind ("the title field labelled "Add title""):
	// the quoted label names it.
	"title name email password username search subject description body address phone " +
	// What it shows, said of it: "the block that says "Type / to choose a block"".
	"block that which says reads shows saying reading showing " +
	// How it looks, which Fillers drop: the name and the kind are what it is held to.
	"red blue green grey gray white black primary " + purposeList + " " + itemNounList)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// isTargetWord reports a word the resolver reads beside a quoted name: one of
// targetWordSet, an ordinal in digits ("2nd") or a possessive ("user's").
func isTargetWord(w string) bool {
	w = strings.ToLower(w)
	if targetWordSet[w] {
		return true
	}
	if n, ok := strings.CutSuffix(w, "'s"); ok && n != "" && strings.Trim(n, "abcdefghijklmnopqrstuvwxyz") == "" {
		return true
	}
	return isNumberedOrdinal(tok{low: w})
}

// findText is the first of the phrases in s, as written, or "". It reads words as a
// pattern's word boundary does: "that's" holds "that".
func findText(s string, words rule) string {
	ts := tokenizeLoose(s)
	i, j := findWord(ts, words)
	if i < 0 {
		return ""
	}
	return s[ts[i].start:ts[j-1].end]
}

// tokenizeLoose splits s as tokenize does, but at apostrophes too.
func tokenizeLoose(s string) []tok {
	var out []tok
	for _, t := range tokenize(s) {
		if t.kind != tWord || !strings.Contains(t.text, "'") {
			out = append(out, t)
			continue
		}
		start := t.start
		for n, part := range strings.Split(t.text, "'") {
			if n > 0 {
				out = append(out, tok{text: "'", low: "'", start: start, end: start + 1, kind: tPunct})
				start++
			}
			out = append(out, tok{text: part, low: strings.ToLower(part), start: start, end: start + len(part), space: n == 0 && t.space, kind: tWord})
			start += len(part)
		}
	}
	return out
}

// isDescriptor reports words that only say what a quoted value after them is: "the
// code", "the new password:".
func isDescriptor(s string) bool {
	s = strings.TrimSuffix(strings.Trim(s, reSpace), ":")
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 0 || !descriptorWords[f[len(f)-1]] {
		return false
	}
	lead := f[:len(f)-1]
	if len(lead) > 0 && (lead[0] == "the" || lead[0] == "a" || lead[0] == "an") && len(lead) <= 3 && allLetterWords(lead[1:]) {
		return true
	}
	return len(lead) <= 2 && allLetterWords(lead)
}

func allLetterWords(ws []string) bool {
	for _, w := range ws {
		if w[0] < 'a' || w[0] > 'z' || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz-") != "" {
			return false
		}
	}
	return true
}

// readPair reads one "the <field> "<value>"" of several: the field's words and the
// value's quote; ok is false when part is not of that shape.
func readPair(part string) (field string, quote int, ok bool) {
	ts := tokenize(part)
	if len(ts) < 2 || ts[len(ts)-1].kind != tQuote {
		return "", 0, false
	}
	before := strings.TrimRight(part[:ts[len(ts)-1].start], reSpace)
	switch {
	case strings.HasSuffix(before, ":") || strings.HasSuffix(before, "="):
		before = before[:len(before)-1]
	default:
		for _, sep := range []string{"as", "of"} {
			if n := len(before) - len(sep); n > 0 && strings.EqualFold(before[n:], sep) && strings.ContainsRune(reSpace, rune(before[n-1])) {
				before = before[:n]
				break
			}
		}
	}
	before = strings.TrimRight(before, reSpace)
	for _, article := range []string{"the", "a", "an", "your", "my"} {
		if n := len(article); len(before) > n && strings.EqualFold(before[:n], article) && strings.ContainsRune(reSpace, rune(before[n])) {
			if f := strings.TrimLeft(before[n:], reSpace); isFieldWords(f) {
				return f, ts[len(ts)-1].quote, true
			}
		}
	}
	return before, ts[len(ts)-1].quote, isFieldWords(before)
}

// isFieldWords reports a field's name as a list of values gives it: a letter, then up to
// 40 letters, digits, spaces, apostrophes and hyphens.
func isFieldWords(s string) bool {
	if s == "" || len(s) > 41 || !isASCIILetter(rune(s[0])) {
		return false
	}
	for _, r := range s {
		if !isASCIILetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" '-", r) || r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// splitList splits "A, B and C" where the planner splits a list: at each comma (and an
// "and" after it) and at each "and" between words.
func splitList(s string) []string {
	ts := tokenize(s)
	m := &match{ts: ts, src: s, caps: map[string][2]int{}}
	and := []rule{word("and")}
	var out []string
	start := 0
	for i := 0; i < len(ts); i++ {
		var j int
		switch {
		case ts[i].text == ",":
			j = sepWords(m, i+1, and)
		case ts[i].low == "and" && ts[i].space && i+1 < len(ts) && ts[i+1].space:
			j = i + 1
		default:
			continue
		}
		out = append(out, strings.TrimRight(s[start:ts[i].start], reSpace))
		if j < len(ts) {
			start = ts[j].start
		} else {
			start = len(s)
		}
		i = j - 1
	}
	return append(out, s[start:])
}

// splitMenuPath splits "File > Save as" at its arrows, each with the spaces around it.
func splitMenuPath(s string) []string {
	var parts []string
	start := 0
	for i, r := range s {
		if r == '>' || r == '→' || r == '›' || r == '»' {
			parts = append(parts, strings.TrimRight(s[start:i], reSpace))
			start = i + len(string(r))
			for start < len(s) && strings.ContainsRune(reSpace, rune(s[start])) {
				start++
			}
		}
	}
	return append(parts, s[start:])
}

// dropValueOf drops "the value of" before a quoted label: what is left is the label.
func dropValueOf(s string) string {
	if m := readStart(seq(valueOfLabelWords, grab("q", quoteTok)), strings.TrimLeft(s, reSpace)); m != nil {
		return m.src[m.ts[m.caps["q"][0]].start:]
	}
	return s
}

// replaceQuotes writes with in place of each quoted string of masked s.
func replaceQuotes(s, with string) string {
	var b strings.Builder
	last := 0
	for _, t := range tokenize(s) {
		if t.kind == tQuote {
			b.WriteString(s[last:t.start])
			b.WriteString(with)
			last = t.end
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// dropAffixes writes a space in place of each "that starts with "X"" of masked s.
func dropAffixes(s string) string {
	for {
		ts := tokenize(s)
		i, j := findWord(ts, affix)
		if i < 0 {
			return s
		}
		s = s[:ts[i].start] + " " + s[ts[j-1].end:]
	}
}

// everyUnquoted reports "every" before anything but a quoted name: "every "Like" icon" is
// read (each element so named), "every checkbox" is not.
func everyUnquoted(s string) bool {
	ts := tokenizeLoose(s)
	for i, t := range ts {
		if t.low == "every" && (i+1 == len(ts) || ts[i+1].kind != tQuote) {
			return true
		}
	}
	return false
}

// cutIntoForms cuts a trailing "into the text fields" off s, and says whether it did.
func cutIntoForms(s string) (string, bool) {
	ts := tokenize(s)
	m := &match{ts: ts, src: s, caps: map[string][2]int{}}
	for i := 1; i < len(ts); i++ {
		if ts[i].space && intoForms(m, i, func(int) bool { return true }) {
			return s[:ts[i-1].end], true
		}
	}
	return s, false
}

// dropTrailingPlace drops a last "below" or "above" after a field's or a control's kind
// ("the text area below"), with nothing after it.
func dropTrailingPlace(s string) string {
	ts := tokenizeLoose(s)
	n := len(ts) - 1
	if n < 1 || !ts[n].space || (ts[n].low != "below" && ts[n].low != "above") {
		return s
	}
	m := &match{ts: ts, src: s, caps: map[string][2]int{}, anywhere: true}
	for i := 0; i < n; i++ {
		if placeKinds(m, i, func(j int) bool { return j == n }) {
			return s[:ts[n-1].end]
		}
	}
	return s
}

// itemNouns are what people call the item of a list a target sits in ("the star icon in
// the email from "Helena"", "the reply link on the post by "@ann""): the resolver places
// the target inside the item the quoted words name, never on the item itself.
const itemNounList = "email emails message messages mail post posts comment comments tweet tweets thread threads task tasks todo todos result results user users contact contacts conversation conversations notification notifications file files folder folders product products order orders ticket tickets issue issues card cards identity identities page pages article articles note notes event events project projects document documents account accounts device devices group groups category categories tag tags draft drafts member members customer customers invoice invoices feed feeds calendar calendars bookmark bookmarks database databases torrent torrents service services host hosts entry entries server servers job jobs queue queues exchange exchanges channel channels network networks module modules plugin plugins extension extensions resource resources principal principals key keys role roles dashboard dashboards collection collections notebook notebooks subscription subscriptions report reports repository repositories domain domains mailbox mailboxes alias aliases site sites token tokens hash hashes"

// itemNouns are itemNounList as a pattern's alternatives.
var itemNouns = strings.Join(strings.Fields(itemNounList), "|")
