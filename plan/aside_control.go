package plan

import (
	"slices"
	"strings"
)

// An intent followed by the control that does it, in brackets: "cancel the job named
// Quarterly report (the Cancel Job button in its row)", "edit davina (the pencil icon in
// her row)". The brackets name the exact control and say its row is the item's: the step
// is a click on it there. The intent's verb says why, and is one people use for what a
// row's control does.

// rowControlAside is the bracket: the control, its kind, and "in its row".
var rowControlAside = seq(word("the"), grab("c", some), grab("k", word("button", "icon", "link")), word("in", "on"),
	word("its", "her", "his", "their", "that"), word("row", "line"), opt(seq(word("of", "in"), word("the"), optLazy(seq(oneWord, optLazy(oneWord))), word("table", "list"))), end)

// rowIntent is the intent at the end of the clause before the bracket: its verb, what
// kind of item it names (said or not), and the item's name.
var rowIntent = seq(intentVerbs,
	opt(seq(word("the"), lowerWord, opt(word("of")))), opt(word("named", "called")), grab("x", some), end)

// intentVerbs are what people say a row's or a page's control is for.
var intentVerbs = word("cancel", "edit", "delete", "remove", "open", "stop", "start", "pause", "resume", "disable", "enable",
	"rename", "view", "change", "modify", "restart", "release", "hold", "approve", "reject", "archive", "restore", "clear", "empty")

// intentWith is an intent said with the control that does it: "Stop every program at once
// with the Stop All button at the top of the Supervisor page". The control is named
// exactly, and is the step; the words before it say why.
var intentWith = seq(intentVerbs, some, word("with", "using", "via", "by clicking", "by pressing"), word("the"), grab("c", some), grab("k", word("button", "link")),
	opt(seq(word("at"), word("the"), grab("p", word("top", "bottom")), opt(seq(word("of"), word("the"), optLazy(seq(oneWord, optLazy(oneWord))), word("page", "screen", "table", "list"))))), end)

// readIntentWith reads intentWith as a click on its control.
func readIntentWith(c string, quotes []string) (Step, string, bool) {
	m := read(intentWith, c)
	if m == nil || !slices.ContainsFunc(tokenize(m.get("c")), func(t tok) bool { return t.kind == tQuote || capitalised(t.text) }) {
		return Step{}, "", false // "with the red button": no name the page writes
	}
	t := m.get("c") + " " + m.get("k")
	if p := m.get("p"); p != "" {
		t += " at the " + p
	}
	return found(exact(Step{Action: Click, TargetDescription: cleanOperand(t, quotes)}, t, quotes, ""))
}

// rowControl rewrites the clause that ends masked (before its bracket, aside) as a click on
// the control the bracket names, in the item's row; ok is false when they are not so.
func rowControl(masked, aside string) (string, bool) {
	a := read(rowControlAside, aside)
	if a == nil {
		return "", false
	}
	ts := tokenize(masked)
	for k := len(ts) - 1; k >= 0 && k >= len(ts)-8; k-- {
		if ts[k].kind != tWord {
			continue
		}
		m, e := matchAt(ts, masked, rowIntent, k)
		if m == nil || e != len(ts) {
			continue
		}
		x := strings.TrimSpace(m.get("x"))
		if xs := tokenize(x); (len(xs) != 1 || xs[0].kind != tQuote) && (len(strings.Fields(x)) > 4 || strings.ContainsAny(x, ",;:\x01")) {
			continue // a name is one quote, or up to four words as the page writes them
		}
		return masked[:ts[k].start] + "click the " + a.get("c") + " " + a.get("k") + " in the row of " + x, true
	}
	return "", false
}

// signInAlone is a sign-in with nothing after it but the button it is done with: "log in
// with Login", "sign in using the Log In button", "log in (Login button)" (the bracket is
// written as "with" before it is read). A page that signs in at a click (a local
// back end's Login) asks for no more.
var signInAlone = seq(signInWords,
	word("with", "using", "via", "by clicking", "by pressing", "by hitting"), the, grab("t", some), opt(word("button")), end)

// signInWords say a sign-in: "log in", "sign in first".
var signInWords = seq(word("log in", "login", "log on", "sign in", "signin", "sign on"), opt(word("first")))

// signInButton is the bracket that names the button a bare sign-in is done with.
var signInButton = seq(opt(word("the")), grab("t", some), word("button"), end)

// signInWith writes a bare sign-in followed by the bracket that names its button as the
// sign-in with that button; ok is false when they are not so.
func signInWith(masked, aside string) (string, bool) {
	b := read(signInButton, aside)
	if b == nil {
		return "", false
	}
	ts := tokenize(masked)
	for k := len(ts) - 1; k >= 0 && k >= len(ts)-3; k-- {
		if m, e := matchAt(ts, masked, seq(signInWords, end), k); m != nil && e == len(ts) {
			return masked + " with the " + b.get("t") + " button", true
		}
	}
	return "", false
}

// readSignInButton reads signInAlone as a click on the button it names.
func readSignInButton(c string, quotes []string) (Step, string, bool) {
	m := read(signInAlone, c)
	if m == nil {
		return Step{}, "", false
	}
	return found(exact(Step{Action: Click, TargetDescription: cleanOperand(m.get("t"), quotes) + " button"}, m.get("t"), quotes, ""))
}

// dashAsides writes an aside set off by dashes ("open "Autumn Planting Guide" — the
// planting one, not the pruning guide — and …") in brackets, where it is one dropAsides
// drops (which one is not meant, what to leave alone).
func dashAsides(masked string) string {
	for from := 0; ; {
		i := strings.Index(masked[from:], " — ")
		if i < 0 {
			return masked
		}
		i += from
		rest := masked[i+len(" — "):]
		j := strings.IndexAny(rest, ".;—")
		if j < 0 {
			j = len(rest)
		}
		aside := strings.TrimSpace(rest[:j])
		if read(notThatOne, aside) == nil && read(leaveAlone, aside) == nil {
			from = i + len(" — ")
			continue
		}
		after := rest[j:]
		after = strings.TrimPrefix(after, "—")
		masked = masked[:i] + " (" + aside + ")" + after
		from = i
	}
}

// leavingTail is what a step says it leaves as it is, after it: ", leaving the rest of
// the post alone", "without touching the Tagline or the Description".
var leavingTail = seq(opt(one(func(t tok) bool { return t.text == "," })), alt(
	seq(word("leaving", "keeping"), some, word("alone", "as it is", "as they are", "as is", "unchanged", "untouched", "intact", "in place")),
	seq(word("without touching", "without changing", "without editing"), some)), end)

// dropLeaving drops leavingTail from the end of a step.
func dropLeaving(c string) string { return cutTail(c, leavingTail) }
