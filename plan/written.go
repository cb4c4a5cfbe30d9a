package plan

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// How people write what the reader takes as the page writes it: a full stop typed twice,
// a name said after "called" without quotes, "the text box" beside "the text area", and
// several quoted choices joined by "and".

// doubledStop is a full stop written twice by mistake ("… the Household Budget file.. In
// the account …", as a sentence pasted after another's stop gives): one full stop. Three
// are an ellipsis, and a stop inside quotes is masked.
var doubledStop = regexp.MustCompile(`([^.])\.\.(\s|$)`)

// calledName is a name said after "called" or "named" and written as the page writes
// names, in words that start in upper case or with a digit ("the budget file called
// Household Budget", "a group named Front Entrances"): quoted, it is held exactly, and the
// words before it say what kind of thing it is. The name ends at the first word in lower
// case that joins no two of its words, or at punctuation.
var calledName = regexp.MustCompile(`\b(called|named)\s+([\p{Lu}\d][\pL\pN'’&-]*(?:\s+(?:(?:of|and|the|for|de|du|la|&)\s+)?(?:[\p{Lu}\d][\pL\pN'’&-]*|\([\p{Lu}\d][^()"]{0,20}\)))*)`)

// quoted is a span in quotes, which quoteCalled leaves as it is.
var quoted = regexp.MustCompile(`"[^"]*"|“[^”]*”`)

// quoteCalled quotes each name said after "called" or "named" outside quotes.
func quoteCalled(goal string) string {
	var b strings.Builder
	at := 0
	for _, q := range quoted.FindAllStringIndex(goal, -1) {
		b.WriteString(calledName.ReplaceAllString(goal[at:q[0]], `$1 "$2"`))
		b.WriteString(goal[q[0]:q[1]])
		at = q[1]
	}
	b.WriteString(calledName.ReplaceAllString(goal[at:], `$1 "$2"`))
	return b.String()
}

// textInputs reads "the text box" as a one-line field where the goal also names a text
// area ("copy the text in the textarea, paste it into the textbox"): the two words tell
// two boxes apart. Said alone, a text box is any box one types text into, a text area
// too (a wiki's edit box), and the resolver holds two of them a tie.
func textInputs(steps []Step) []Step {
	if !slices.ContainsFunc(steps, func(s Step) bool { return ParseTarget(s.TargetDescription).Kind == "textarea" }) {
		return steps
	}
	for i, s := range steps {
		if t := ParseTarget(s.TargetDescription); t.Kind == "textbox" && t.Name == "" {
			steps[i].TargetDescription = textBoxWord.ReplaceAllString(s.TargetDescription, "text input")
		}
	}
	return steps
}

// textBoxWord is the word a step says "text box" with.
var textBoxWord = regexp.MustCompile(`(?i)\b(?:text\s*box|text\s*field)\b`)

// quotedList reads `"A", "B" and "C"`: two quoted values or more, joined by commas or
// "and" and nothing else, as the list "A, B and C" (ListItems splits it back). ok is false
// for anything else.
func quotedList(s string, quotes []string) (string, bool) {
	var items []string
	sep := true
	for _, t := range tokenize(s) {
		switch {
		case t.kind == tQuote && sep:
			items = append(items, quotes[t.quote])
			sep = false
		case !sep && (t.text == "," || t.low == "and"):
			sep = true
		case sep && t.low == "and" && len(items) > 0:
			// ", and"
		default:
			return "", false
		}
	}
	if sep || len(items) < 2 {
		return "", false
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1], true
}

// possessive is "Back Door's box", "the Bills group's Add category button": the element
// of a control's kind in the row or item of that name, with any place after it ("… in the
// monitor list"). The owner is quoted, or words that start in upper case or with a digit,
// and the rest ends with a kind of control, so that "today's date" or a link named
// "Nina's profile" is read as it was.
var possessive = regexp.MustCompile(`^\s*(?:the\s+)?(?:"([^"]+)"|([\p{Lu}\d][\pL\pN-]*(?:\s+[\p{Lu}\d][\pL\pN-]*){0,4}))(?:\s+(?:row|item|entry|line|card|group|camera|monitor))?['’]s\s+(.*?\b(?:box|checkbox|check box|tick box|button|link|icon|toggle|switch))(\s+(?i:in|on|at|of)\s+.*)?$`)

// possessiveRow writes "X's box" as `checkbox in the row "X"`, and "X's Edit button" as
// `Edit button in the row "X"`.
func possessiveRow(d string) string {
	m := possessive.FindStringSubmatch(d)
	if m == nil {
		return d
	}
	rest := m[3]
	if b := strings.ToLower(rest); b == "box" || b == "tick box" {
		rest = "checkbox"
	}
	return fmt.Sprintf("%s in the row %q%s", rest, m[1]+m[2], m[4])
}

// besideWords start a place said as "next to" or "beside" something.
var besideWords = regexp.MustCompile(`(?i)^\s*(?:next\s+to|beside)\b`)

// lowerWord is a word written in lower case: what kind of thing is named, in "name the new
// monitor Garage".
var lowerWord = one(func(t tok) bool { return t.kind == tWord && t.text == t.low })

// nameIs reports a name as a person writes one: quoted, or starting in upper case or with
// a digit ("Garage", "2nd floor"), not more words of the sentence.
func nameIs(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(v)
	return r == '\x01' || r == '"' || unicode.IsUpper(r) || unicode.IsDigit(r)
}
