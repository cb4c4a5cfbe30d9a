package plan

import (
	"fmt"
	"strings"
)

// Places a step starts with, written before its verb.

// placeLead is a preposition a step may start with to say where its target is: "In the
// Work calendar, click Edit", "Under "Delete data" click "Empty"".
var placeLead = word("in", "inside", "within", "under", "on", "next to", "beside")

// placedStep reports a step that starts with its place: `in the field labelled "Last
// name" enter "Lindgren"`, a quoted place then a verb, or up to six words then one.
func placedStep(c string) bool {
	if readStart(placeLead, c) == nil {
		return false
	}
	ts := tokenize(c)
	for k := 1; k < len(ts) && k <= 8; k++ {
		if sentenceEnd(ts[k]) {
			return false // `on "Settings". Check …`: a sentence ended before any verb
		}
		if ts[k].kind == tWord && ts[k].space && startsWithVerb(c[ts[k].start:]) && !inName(ts, k) {
			return k <= 6 || len(quotesIn(c[:ts[k].start])) > 0
		}
	}
	return false
}

// sentenceEnd is a token that ends a sentence.
func sentenceEnd(t tok) bool { return t.text == "." || t.text == "!" || t.text == "?" || t.text == ";" }

// gapVerbs gives a clause that is its verb's object alone, with the preposition that
// verb took, the verb of the clause before: "Click on "Security" and then on "Settings""
// is two clicks. Only the same preposition after a verb that took it: "on "Settings""
// after "type … into …" stays as written (and is refused).
func gapVerbs(clauses []string) []string {
	out := append([]string(nil), clauses...)
	for i := 1; i < len(out); i++ {
		c := strings.TrimSpace(stripFillers(strings.TrimSpace(out[i])))
		prev := strings.TrimSpace(stripFillers(strings.TrimSpace(out[i-1])))
		ts := tokenize(prev)
		m, e := matchAt(ts, prev, seq(grab("v", verbsFor(sClick)), word("on")), 0)
		if m == nil || e >= len(ts) || startsWithVerb(c) || read(seq(word("on"), qt), c) == nil {
			continue
		}
		out[i] = m.get("v") + " " + c
	}
	return out
}

// leadPlaces writes a place a step starts with after the step, where a target
// description holds it: "In the Work calendar, click Edit" is "click Edit in the Work
// calendar". A place with a comma after it is a clause of its own and goes on the next;
// one with no comma ends where a step's verb starts. The target is then read, or refused,
// with the place as any other part of it.
func leadPlaces(clauses []string) []string {
	var out []string
	for i := 0; i < len(clauses); i++ {
		c := strings.TrimSpace(stripFillers(strings.TrimSpace(clauses[i])))
		from := readStart(word("from"), c) != nil
		if !startsWithVerb(c) && appPlace(c) {
			continue // "From the Etherpad start page," alone: the app the steps are in
		}
		if to, step, ok := pageTrail(c); ok {
			out = append(out, to, step)
			continue
		}
		if startsWithVerb(c) || (readStart(placeLead, c) == nil && !from) || dropLeadWhen(c) != c || strings.Contains(c, ":") {
			out = append(out, clauses[i])
			continue
		}
		ts := tokenize(c)
		k := 1
		for ; k < len(ts) && !(ts[k].kind == tWord && ts[k].space && startsWithVerb(c[ts[k].start:]) && !inName(ts, k)); k++ {
		}
		if from && (k == len(ts) || readStart(verbsFor(sChoose), c[ts[k].start:]) == nil) {
			// "From the action list choose "Delete"" is a choice from that list; "from"
			// before any other step is no place.
			out = append(out, clauses[i])
			continue
		}
		place := c
		if k < len(ts) {
			place = c[:ts[k].start]
		}
		if to, ok := pageLead(place); ok {
			// "On the Administration page click Add Printer": the page is gone to first,
			// by its link (or its tab), never by a button of that name.
			out = append(out, to)
			if k < len(ts) {
				out = append(out, c[ts[k].start:])
			}
			continue
		}
		if hereOnly(place) || appPlace(place) {
			// "On her page click …", "On this page, …": the page the step is on, no place
			// to hold its target to.
			if k < len(ts) {
				out = append(out, c[ts[k].start:])
			}
			continue
		}
		if path, ok := menuPathPlace(place); ok {
			// "Under Admin > Queues, press Create": the place is a menu's path, gone to first.
			out = append(out, "open "+path)
			if k < len(ts) {
				out = append(out, c[ts[k].start:])
			}
			continue
		}
		switch {
		case k < len(ts):
			out = append(out, c[ts[k].start:]+" "+strings.TrimRight(c[:ts[k].start], ", "))
		case i+1 < len(clauses) && startsWithVerb(strings.TrimSpace(stripFillers(strings.TrimSpace(clauses[i+1])))):
			out = append(out, strings.TrimSpace(clauses[i+1])+" "+c)
			i++
		default:
			out = append(out, clauses[i])
		}
	}
	return out
}

// menuPathPlace reads a place that is a menu's path ("under Admin > Queues"): the path.
func menuPathPlace(place string) (string, bool) {
	p := strings.TrimRight(strings.TrimSpace(place), ", ")
	for _, lead := range []string{"under ", "in ", "from "} {
		if rest, ok := strings.CutPrefix(strings.ToLower(p), lead); ok && len(splitMenuPath(rest)) > 1 {
			if path, ok := barePath(strings.TrimSpace(p[len(lead):]), nil); ok {
				return path, true
			}
		}
	}
	return "", false
}

// appPlace reads a place that is the app or its first page, not a part of a page: "in the
// ejabberd web admin", "on the Etherpad home page", "from the start page". The steps are
// in it; a page named by its own name ("on the Settings page") is not one of these.
func appPlace(place string) bool {
	return read(seq(word("in", "on", "from", "at"), word("the"), optLazy(seq(oneWord, optLazy(oneWord), optLazy(oneWord))),
		alt(seq(opt(word("web")), word("admin", "admin panel", "admin area", "administration", "interface", "ui", "console", "app", "application")),
			seq(word("home", "start", "main", "front", "landing", "welcome"), word("page", "screen"))), end),
		strings.TrimRight(strings.TrimSpace(place), ", ")) != nil
}

// hereOnly reads a place that is the page the step is on: "on her page", "on this page",
// "on the same page".
func hereOnly(place string) bool {
	return read(seq(word("on"), word("her", "his", "their", "its", "this", "that", "the same", "the next"), word("page", "screen"), end),
		strings.TrimRight(strings.TrimSpace(place), ", ")) != nil
}

// pageOrTab is a page or a tab named as people name one before a step: "on the
// Administration page", "in the "Jobs" tab".
var pageOrTab = seq(word("on", "in", "at"), word("the"), alt(qt, grab("uq", seq(capWord, optLazy(capWord), optLazy(capWord)))), grab("noun", word("page", "tab", "screen")), end)

// pageLead reads a place that is a page or a tab of the app as the step that goes there:
// a click on the link so named (a page), or on the tab. Where the page already is, that
// click leads nowhere new, and the step says so.
func pageLead(place string) (string, bool) {
	m := read(pageOrTab, strings.TrimRight(strings.TrimSpace(place), ", "))
	if m == nil {
		return "", false
	}
	return pageStep(m), true
}

// pageStep is the click that goes to the page or the tab pageOrTab read.
func pageStep(m *match) string {
	if m.get("noun") == "tab" {
		return fmt.Sprintf("click the %s%s tab", m.get("uq"), m.get("q"))
	}
	if q := m.get("q"); q != "" {
		return fmt.Sprintf("click the %s link", q)
	}
	// "the Printers page" is the link "Printers", or the one "Front page": the resolver
	// takes the name with "page" where the page shows it so, and without it where not.
	return fmt.Sprintf("click the %s page link", m.get("uq"))
}

// pageTrail reads a step that ends with the page it is on ("click "Lab-Inkjet" on the
// Printers page"): the page is gone to first, as pageLead says, then the step. A tab so
// said stays the target's own place (`"Account Number" on the "Account" tab`: refused
// while another tab is open).
func pageTrail(c string) (to, step string, ok bool) {
	if !startsWithVerb(c) {
		return "", "", false
	}
	ts := tokenize(c)
	for i := len(ts) - 3; i > 0; i-- {
		if ts[i].low != "on" && ts[i].low != "in" {
			continue
		}
		if m := read(pageOrTab, strings.TrimRight(c[ts[i].start:], ".!; ")); m != nil && m.get("noun") != "tab" {
			return pageStep(m), strings.TrimSpace(c[:ts[i].start]), true
		}
	}
	return "", "", false
}

// inName reports a verb's word that is a name's ("On the Add Class page", "in the Open
// Files tab"): written with a capital right after "the" or after another capitalised word
// of the place, it starts no step.
func inName(ts []tok, k int) bool {
	if k < 2 || !capitalised(ts[k].text) {
		return false
	}
	p := ts[k-1]
	return p.low == "the" || p.low == "its" || p.low == "their" || p.low == "this" || (p.kind == tWord && capitalised(p.text) && ts[k-2].low != "," && !sentenceEnd(ts[k-2]))
}
