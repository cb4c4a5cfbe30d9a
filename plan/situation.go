package plan

import "strings"

// People write why before how: "Annika forgot her password. In Virtual Hosts choose
// example.org, ...", "We no longer need the archived wiki.", "The other lighthouse draft
// must stay." Such a sentence states a situation, a motive or what must be left alone; it
// asks for no step of its own, and the steps around it say what to do. It is read as
// context and dropped, where the goal has steps besides it.
//
// What is dropped is narrow, so that no instruction is lost: a whole sentence, with no
// quoted text, that starts with its subject (a pronoun, a determiner or a name, never
// "you") and has a statement's verb ("forgot", "wants", "is no longer needed", "must
// stay"). A modal before a step's verb is an instruction ("we need to click Save") and is
// kept, to be read or refused. A sentence that asks for a state to be reached ("the title
// should be Foo") is dropped only before the first step, where a person states the intent
// the steps after it carry out; after a step it is kept, and refused.

// subjectWords start a sentence's subject; a capitalised word or a possessive does too.
var subjectWords = setOf("we i she he they it this that these those our my her his their its the a an there everyone nobody someone")

// prepositions start a place or a time, not a subject: "Under Create, click New Device".
var prepositions = setOf("in on under from at to for with by after before once when while if into onto inside within below above beside next near")

// statementVerbs are a statement's finite verbs: "Annika forgot", "the account is".
var statementVerbs = setOf("is are was were has have had wants want needs need forgot forgets joins joined lost " +
	"moved starts started got gets belongs belong uses used asked asks does doesn't did didn't do don't isn't aren't wasn't")

// modalVerbs ask for something: before a step's verb they are an instruction, before a
// state a requirement.
var modalVerbs = setOf("should must will would can cannot can't could shall")

// keepVerbs after a modal, or alone, say what is to be left as it is ("must stay").
var keepVerbs = setOf("stay stays remain remains")

// dropSituations drops the sentences of a masked goal that state a situation, as above.
func dropSituations(masked string) string {
	lines := strings.Split(masked, "\n")
	stepSeen := false
	type sentence struct{ line, from, to int }
	var drop []sentence
	kept := 0
	for li, line := range lines {
		for _, s := range sentencesOf(line) {
			text := strings.TrimSpace(line[s[0]:s[1]])
			if text == "" {
				continue
			}
			switch situation(text) {
			case sitFact:
				drop = append(drop, sentence{li, s[0], s[1]})
			case sitIntent:
				if !stepSeen {
					drop = append(drop, sentence{li, s[0], s[1]})
					continue
				}
				kept++
			default:
				stepSeen = true
				kept++
			}
		}
	}
	if kept == 0 || len(drop) == 0 {
		return masked
	}
	for i := len(drop) - 1; i >= 0; i-- {
		d := drop[i]
		l := lines[d.line]
		lines[d.line] = l[:d.from] + l[d.to:]
	}
	return strings.Join(lines, "\n")
}

// sentencesOf splits a line at its full stops: the byte ranges of its sentences, each with
// its full stop.
func sentencesOf(line string) [][2]int {
	var out [][2]int
	ts := tokenize(line)
	from := 0
	for i, t := range ts {
		if (t.text == "." || t.text == "!") && (i+1 == len(ts) || ts[i+1].space) && (i == 0 || ts[i-1].text != ".") {
			out = append(out, [2]int{from, t.end})
			from = t.end
		}
	}
	if from < len(line) {
		out = append(out, [2]int{from, len(line)})
	}
	return out
}

type sitKind int

const (
	sitStep   sitKind = iota // a step, or anything not plainly a statement
	sitFact                  // a situation, a motive, or what is to stay as it is
	sitIntent                // a state to be reached: the intent the steps carry out
)

// situation reads one sentence.
func situation(s string) sitKind {
	s = strings.TrimRight(strings.TrimSpace(s), ".!")
	if startsWithVerb(stripFillers(s)) || placedStep(s) {
		return sitStep
	}
	ts := tokenize(s)
	if len(ts) < 2 {
		return sitStep
	}
	for _, t := range ts {
		if t.kind == tQuote || t.text == ":" || t.text == "{" {
			return sitStep // a quote is a name or a value; a colon lists steps
		}
	}
	if !subject(ts[0]) {
		return sitStep
	}
	for i, t := range ts {
		if i > 0 && (t.text == "," || t.low == "then") && startsWithVerb(stripFillers(s[t.end:])) {
			return sitStep // "Under Create in the menu on the left, click New Device"
		}
	}
	if hasWord(s, word("please", "so")) {
		// "The file is out of date, so please get rid of it": a request, the intent the
		// steps after it carry out.
		return sitIntent
	}
	for i, words := 1, 1; i < len(ts) && words <= 8; i++ {
		if ts[i].space {
			words++ // "omar@lab.example.org" is one word of many tokens
		}
		w := ts[i].low
		switch {
		case keepVerbs[w]:
			return sitFact
		case modalVerbs[w] || ((w == "need" || w == "needs" || w == "has" || w == "have") && i+1 < len(ts) && ts[i+1].low == "to"):
			rest := strings.TrimSpace(s[ts[i].end:])
			rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(rest, "to "), "not "))
			next := tokenize(rest)
			switch {
			case len(next) > 0 && keepVerbs[next[0].low]:
				return sitFact
			case startsWithVerb(rest) || len(next) == 0 || next[0].low != "be":
				return sitStep // "we need to click Save": an instruction
			}
			return sitIntent
		case statementVerbs[w]:
			return sitFact
		}
	}
	return sitStep
}

// subject reports a word a statement may start with: a pronoun, a determiner, a
// capitalised name or a possessive; never "you", whose sentences instruct.
func subject(t tok) bool {
	if t.kind != tWord || t.low == "you" {
		return false
	}
	return subjectWords[t.low] || (capitalised(t.text) && !prepositions[t.low]) || strings.HasSuffix(t.low, "'s")
}
