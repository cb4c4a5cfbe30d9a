package plan

import "strings"

// What a page asks for before a step, and the join a clause is left with.

// dropTrailingJoin drops the ", and" that joined a clause to the next one and was left at
// its end ("click the Login button, and" before "when it asks for the password, enter …").
func dropTrailingJoin(c string) string {
	ts := tokenize(c)
	// "Open the Speed Limits menu and, in its UPLOAD part, click …": the "and" before the
	// comma that starts a place joins the step after it.
	if n := len(ts); n > 2 && ts[n-1].kind == tWord && (ts[n-1].low == "and" || ts[n-1].low == "then") && (ts[n-2].text == "," || ts[n-2].kind != tPunct) {
		return strings.TrimSpace(c[:ts[n-1].start])
	}
	return c
}

// askedFor is a page asking for what the step then gives it: "when it asks for the
// password, enter "…"".
var askedFor = seq(word("when", "once"), opt(word("the")), opt(oneWord), word("asks", "asked", "prompts", "prompted"), word("for"),
	opt(word("the", "a", "an", "your", "its")), grab("f", seq(oneWord, optLazy(oneWord), optLazy(oneWord))))

// askedInto writes a value given at a page's asking into the field the page asked for:
// "when it asks for the password, enter "…"" is `enter "…" into the password field`, in
// one clause or in two (asked, the asking clause before). A step that names its own
// field, or anything but a value, is left as it is.
func askedInto(c, asked string) string {
	ts := tokenize(c)
	if m, e := matchAt(ts, c, seq(askedFor, one(func(t tok) bool { return t.text == "," })), 0); m != nil && e < len(ts) {
		c, asked = strings.TrimSpace(c[ts[e].start:]), m.get("f")
	}
	if asked == "" || read(seq(verbsFor(sType), quoteTok), c) == nil {
		return c
	}
	return c + " into the " + asked + " field"
}

// trailingAsk parts a clause from the page's asking at its end ("click the Login button,
// and when it asks for the password"): the clause before it, and what is asked for.
func trailingAsk(c string) (string, string, bool) {
	ts := tokenize(c)
	for i := 1; i < len(ts); i++ {
		if m, j := matchAt(ts, c, seq(askedFor, end), i); m != nil && j == len(ts) {
			return strings.TrimSpace(c[:ts[i].start]), m.get("f"), true
		}
	}
	return c, "", false
}
