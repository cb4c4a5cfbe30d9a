package plan

import "strings"

// kindNouns are the words just before a quoted name that say what kind of thing it is:
// "the book "Winter Crossing"", "the cover of "Winter Crossing"", "the mailing list called
// "Staff"". The name is held exactly, and two things of that name stay a tie; the words
// only say what the person calls it, as "the post" and "the user" do. Up to four
// lower-case words, with "of", "called" or "named" among them. Words of how a thing
// looks that the page cannot be asked ("big", "shiny") are not among them: a description
// with one is refused.
func kindNouns(s string) map[string]bool {
	out := map[string]bool{}
	ts := tokenize(s)
	for q, t := range ts {
		if t.kind != tQuote {
			continue
		}
		for i, n := q-1, 0; i >= 0 && n < 4; i, n = i-1, n+1 {
			w := ts[i]
			if w.low == "the" && i > 0 && ts[i-1].low == "of" {
				continue // "the cover of the book "X""
			}
			if w.kind != tWord || w.text != w.low || strings.Trim(w.low, "abcdefghijklmnopqrstuvwxyz") != "" || looksWords[w.low] || pronouns[w.low] || relationWords[w.low] {
				break
			}
			out[w.low] = true
		}
		if w, ok := nounAfter(ts, q); ok {
			out[w] = true
		}
	}
	return out
}

// nounAfter is the one lower-case word just after the quote at q that says what kind of
// thing it names, as a word before it does ("the "CT CHEST" study" is "the study "CT
// CHEST""): the description ends after it, or a word of place or relation follows
// ("under", "in", "of"). Never a word of how a thing looks, an ordinal ("the "Edit"
// last"), or a word of when or how often ("now", "again", "twice").
func nounAfter(ts []tok, q int) (string, bool) {
	if q+1 >= len(ts) {
		return "", false
	}
	w := ts[q+1]
	if w.kind != tWord || w.text != w.low || len(w.low) < 3 || strings.Trim(w.low, "abcdefghijklmnopqrstuvwxyz") != "" ||
		looksWords[w.low] || pronouns[w.low] || relationWords[w.low] || notNouns[w.low] {
		return "", false
	}
	if q+2 < len(ts) && !(ts[q+2].kind == tWord && relationWords[ts[q+2].low]) {
		return "", false
	}
	return w.low, true
}

// notNouns are words that may follow a quoted name and are no kind of thing: ordinals and
// words of when, how often or how much.
var notNouns = setOf(strings.Join(ordinalWords, " ") + " now again twice thrice once only too also instead here there then later soon immediately quickly")

// relationWords relate a thing to the quoted name rather than say what it is ("words
// similar to "big"", "the one next to "Save""): a description with one is read, or
// refused, as it was.
var relationWords = setOf("to similar like than with without near as from by for in on at into onto and or not no any some all every each " +
	"containing contains matching match matches starting ending begins ends after before above below under over beside between within inside")

// looksWords say how a thing looks, which no page states: never a kind of thing.
var looksWords = setOf("big bigger biggest small smaller smallest large larger largest tiny huge little long short tall wide narrow thin thick shiny pretty nice ugly bright dark light faded round square")
