package plan

import "strings"

// A list of values each put in its field, the value first and unquoted as often as not:
// "enter Lab-Room in the Name field, Lab printers in the Description field and Lab, ground
// floor in the field labelled Location". Where each part ends is told by its field, not
// by the commas: a value may hold a comma, a field's phrase never runs past one.

// fieldNouns end "the X field" as a field's phrase.
var fieldNouns = setOf("field box textbox input area textarea list dropdown drop-down")

// valueIn is one part of such a list: its value as written, and its link and field
// ("in the Name field").
type valueIn struct{ value, field string }

// splitValueIn splits s (what follows a fill verb) into parts "VALUE in FIELD", at the
// end of each field's phrase; nil when s is not two or more such parts, one after another
// with nothing left over.
func splitValueIn(s string) []valueIn {
	ts := tokenize(s)
	var parts []valueIn
	start := 0
	for start < len(ts) {
		link, end := nextValueIn(ts, start)
		if link < 0 {
			return nil
		}
		parts = append(parts, valueIn{value: strings.TrimSpace(s[ts[start].start:ts[link].start]), field: s[ts[link].start:ts[end-1].end]})
		start = end
		if start < len(ts) && ts[start].text == "," {
			start++
		}
		if start < len(ts) && ts[start].low == "and" {
			start++
		}
		if start == end && start < len(ts) {
			return nil
		}
	}
	if len(parts) < 2 {
		return nil
	}
	return parts
}

// nextValueIn finds the part that starts at ts[start]: the first "in" or "into" after at
// least one token of value that a field's phrase follows, ending at a comma, an "and" or
// the end. It gives the link's index and the part's end, or -1.
func nextValueIn(ts []tok, start int) (link, end int) {
	for i := start + 1; i < len(ts); i++ {
		if ts[i].low != "in" && ts[i].low != "into" && ts[i].low != "as" {
			continue
		}
		for j := i + 2; j <= len(ts); j++ {
			if j < len(ts) && ts[j].text != "," && ts[j].low != "and" {
				continue
			}
			if fieldPhrase(ts[i+1:j]) || ts[i].low == "as" && asField(ts[i+1:j]) {
				return i, j
			}
		}
	}
	return -1, -1
}

// fieldPhrase reports a field named as people name one in such a list: "the Name field",
// "the field labelled Location", "Name" or "E-mail address" (a capital first, three words
// at most), or a quoted name (with "field" or "box" after it or not). No phrase holds a
// link word: "the back in the Location field" is a value and its field.
func fieldPhrase(ts []tok) bool {
	for _, t := range ts {
		if t.low == "in" || t.low == "into" || t.low == "with" || t.kind == tPunct && t.text != "-" && t.text != "." {
			return false
		}
	}
	n := 0
	for _, t := range ts {
		if t.kind != tPunct {
			n++
		}
	}
	switch {
	case n == 0:
		return false
	case ts[0].kind == tQuote:
		return n == 1 || n == 2 && fieldNouns[ts[1].low]
	case ts[0].low == "the" && n >= 3 && (ts[1].low == "field" || ts[1].low == "box") && labelledWords[ts[2].low]:
		return n >= 4 && n <= 7
	case ts[0].low == "the":
		return n >= 3 && n <= 6 && fieldNouns[ts[len(ts)-1].low]
	default:
		return n <= 3 && ts[0].kind == tWord && capitalised(ts[0].text)
	}
}

// asField is the field after "as" ("Lab-Room as the name, Lab printers as the
// description"): "the" and a field's name in one or two words.
func asField(ts []tok) bool {
	if len(ts) < 2 || len(ts) > 3 || ts[0].low != "the" {
		return false
	}
	for _, t := range ts[1:] {
		if t.kind != tWord || t.low == "in" || t.low == "into" || t.low == "as" || t.low == "with" {
			return false
		}
	}
	return true
}

// labelledWords say that a field's name follows: "the field labelled X".
var labelledWords = setOf("labelled labeled named called marked")

// splitColonPairs splits s (what follows a fill verb) written as a form's labels and
// values, "Name: Lab-Room, Description: Lab printers, Location: Lab, ground floor": each
// label (a quoted name, or one to three words, a capital first) ends at its colon, and its
// value runs to the comma or "and" before the next label. nil when s is not two or more
// such pairs.
func splitColonPairs(s string) []valueIn {
	ts := tokenize(s)
	type label struct{ from, colon int }
	var labels []label
	for i, t := range ts {
		if t.text != ":" || i == 0 {
			continue
		}
		from, words := i-1, 1
		for from > 0 && words < 3 && (ts[from-1].kind == tWord || ts[from-1].text == "-" && !ts[from].space) && ts[from-1].low != "and" {
			from--
			if ts[from].kind == tWord && ts[from+1].text != "-" {
				words++
			}
		}
		for from < i-1 && !(ts[from].kind == tQuote || capitalised(ts[from].text)) {
			from++
		}
		if f := ts[from]; f.kind != tQuote && !capitalised(f.text) {
			return nil
		}
		labels = append(labels, label{from, i})
	}
	if len(labels) < 2 || labels[0].from != 0 {
		return nil
	}
	var parts []valueIn
	for k, l := range labels {
		end := len(ts)
		if k+1 < len(labels) {
			end = labels[k+1].from
			for end > l.colon+1 && (ts[end-1].text == "," || ts[end-1].low == "and") {
				end--
			}
		}
		if end <= l.colon+1 {
			return nil
		}
		parts = append(parts, valueIn{value: strings.TrimSpace(s[ts[l.colon+1].start:ts[end-1].end]), field: "into " + s[ts[l.from].start:ts[l.colon-1].end]})
	}
	return parts
}

// replaceThere is "replace what is there with Room 204 in the Location field" (a place
// said before the step, "In the Location field, replace what is there with …", is written
// after it): the field's text, whatever it is, replaced by the value.
var replaceThere = seq(word("replace", "overwrite"), word("what is there", "what's there", "whatever is there", "what it holds", "what it says",
	"its text", "its content", "its contents", "its value", "the text", "the value", "the current value", "the current text", "the content", "the contents"),
	word("with", "by"), grab("rest", all), end)

// readReplaceThere reads replaceThere: the value runs to the last "in" or "into" that a
// field's phrase follows to the end.
func readReplaceThere(c string, quotes []string) (Step, string, bool) {
	m := read(replaceThere, c)
	if m == nil {
		return Step{}, "", false
	}
	rest := m.get("rest")
	ts := tokenize(rest)
	for i := len(ts) - 2; i > 0; i-- {
		if (ts[i].low == "in" || ts[i].low == "into") && fieldPhrase(ts[i+1:]) {
			v, unclear := exactValue(strings.TrimSpace(rest[:ts[i].start]), quotes)
			t := rest[ts[i+1].start:]
			return found(exact(Step{Action: Type, Value: v, TargetDescription: cleanOperand(t, quotes)}, t, quotes, unclear))
		}
	}
	return Step{}, "", false
}
