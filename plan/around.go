package plan

import (
	"strconv"
	"strings"
)

// The words a person writes around a step that say nothing the step does not: a label
// before it ("Sign in: click "Login""), an aside in brackets after a name ("the Delete
// button (the trash can)", ""#ff0000" (red)"), and a name written after "then" with the
// click before it understood ("click "Databases", then "shop""). Each is read only where
// what is left is a step the planner reads whole; what it cannot read stays refused.

// labelWords is how many words a label before steps may have.
const labelWords = 16

// dropLabels drops the labels a line's sentences start with: words and a colon before
// steps, a name for what the steps after it do ("Sign in first: click the Login link",
// "Remove the torrent "x" with its files: right-click its row", "Sign in: in the Login
// window, fill …"). What follows the colon must start with a step's verb or a place
// before one; a label that says how often, whether or in parallel ("Twice:", "If it
// asks:") is more than a name and is kept, and so is a colon that introduces anything
// else ("type the following: hello"). What the label names is not a step, and nothing
// after it may lean on it: "its row" after it still asks for an item named in a step.
func dropLabels(line string) string {
	for from := 0; ; {
		i := strings.Index(line[from:], ": ")
		if i < 0 {
			return line
		}
		colon := from + i
		start := sentenceStart(line, colon)
		rest := strings.TrimSpace(line[colon+1:])
		// A colon the steps' joining words follow ("tick Download (kB/s): and type …")
		// ends a name, not a label.
		if labelOK(line[start:colon]) && readStart(word("and", "then", "or"), rest) == nil && (startsWithVerb(stripFillers(rest)) || readStart(placeLead, rest) != nil) {
			line = line[:start] + rest
			from = start
			continue
		}
		if strings.ContainsAny(line[start:colon], ">→»") && startsWithVerb(stripFillers(rest)) {
			// "Administration > Set Default Options: set Media Size to A4": a path, then a
			// step; the colon separates them as a comma would.
			line = line[:colon] + "," + line[colon+1:]
			from = colon + 1
			continue
		}
		from = colon + 1
	}
}

// sentenceStart is where the sentence holding line[at] starts: after the last full stop,
// semicolon, exclamation or question mark and a space before it, or the line's start.
func sentenceStart(line string, at int) int {
	start := 0
	for _, sep := range []string{". ", "; ", "! ", "? "} {
		if j := strings.LastIndex(line[:at], sep); j >= 0 && j+len(sep) > start {
			start = j + len(sep)
		}
	}
	return start
}

// labelOK reports whether words before a colon are a label: at most labelWords words,
// none of which says how often, whether or in parallel the steps run.
func labelOK(label string) bool {
	words := 0
	for _, t := range tokenize(label) {
		if t.kind == tWord {
			words++
			if labelKeeps[t.low] {
				return false // "In parallel:", "If it asks:": more than a name for the steps
			}
		}
		if t.text == ">" || t.text == "→" || t.text == "»" || t.low == "then" {
			// "Printers > Office-Laser, then Administration > Set Default Options: set …":
			// steps before the colon, not a name for the ones after it.
			return false
		}
	}
	return words > 0 && words <= labelWords
}

// asideKeeps are the words that make a bracketed aside part of what the step does ("(twice)",
// "(if shown)", "(not the first)"): such an aside is kept, and the step read with it.
var asideKeeps = setOf("twice again times if unless when while until only not no don't never except optional optionally " +
	"first second third last every all both each parallel simultaneously same together repeat " +
	"done checked unchecked ticked selected completed active inactive disabled enabled empty required")

var (
	// notThatOne is an aside that says which thing is not meant: "(not lab.example.org)",
	// "(careful, not anna)", "(not the default Contributor)", "(not /invoices)". The name
	// before it is what the step is held to, exactly; the aside only warns of a near miss.
	// An aside that picks by place or count ("(not the first)") is not one of these.
	notThatOne = seq(opt(word("careful", "careful,", "careful:", "but")), opt(seq(word("the"), optLazy(some), word("one"))),
		opt(one(func(t tok) bool { return t.text == "," || t.text == ":" })),
		word("not"), where(all, func(s string) bool { return !hasWord(s, word(ordinalWords...)) }))
	// leaveAlone is an aside that says what to leave as it is: "(leave omar@example.org
	// alone)", "(keep anna and tom)", "(leave the checkboxes as they are)". The steps do
	// nothing the goal does not ask for; the aside asks for nothing.
	leaveAlone = seq(word("leave", "keep"), where(all, func(s string) bool {
		return !hasWord(s, word("checked", "unchecked", "ticked", "unticked", "selected", "on", "off", "at", "set to"))
	}))
)

// ordinalWords pick one of several by place or count.
var ordinalWords = []string{"first", "second", "third", "fourth", "fifth", "last", "next", "previous", "other", "every", "all", "both", "each", "top", "bottom", "left", "right"}

// labelKeeps are the words that make a label before a colon more than a name for the
// steps after it ("In parallel:", "If it asks:", "Twice:"): such a label is kept.
var labelKeeps = setOf("twice times if unless when while until each every parallel simultaneously same repeat")

// dropAsides drops the asides in brackets a masked goal writes after a name or a value: a
// second description of the same thing ("(the trash can)", "(red)", "(the ☰ icon at the
// top right)"). The name before it is what the step is held to. An aside that quotes a
// name, or says how often, whether or which ("(twice)", "(if shown)", "(the second one)"),
// is kept, and read or refused with the step.
func dropAsides(masked string) string {
	var b strings.Builder
	for {
		i := strings.Index(masked, " (")
		if i < 0 {
			b.WriteString(masked)
			return b.String()
		}
		j := strings.IndexByte(masked[i+2:], ')')
		if j >= 0 {
			if with, ok := signInWith(masked[:i], masked[i+2:i+2+j]); ok {
				// "log in (Login button)": the sign-in is that button's click.
				b.WriteString(with)
				masked = masked[i+2+j+1:]
				continue
			}
			if click, ok := rowControl(masked[:i], masked[i+2:i+2+j]); ok {
				// "cancel the job named X (the Cancel Job button in its row)": that click.
				b.WriteString(click)
				masked = masked[i+2+j+1:]
				continue
			}
			if m := read(theOneIn, masked[i+2:i+2+j]); m != nil {
				// "Settings (the one under Security, not under Server)": the place it says.
				b.WriteString(masked[:i] + " " + m.get("p") + " " + strings.TrimSpace(m.get("x")))
				masked = masked[i+2+j+1:]
				continue
			}
		}
		if j < 0 || !droppableAside(masked[i+2:i+2+j]) || partOfName(masked[:i], masked[i+2:i+2+j]) {
			b.WriteString(masked[:i+2])
			masked = masked[i+2:]
			continue
		}
		b.WriteString(masked[:i])
		masked = masked[i+2+j+1:]
	}
}

// theOneIn is an aside that says where the thing named before it is: "(the one under
// Security, not under Server)", "(the one in the toolbar)".
var theOneIn = seq(word("the", "i.e.", "i.e"), opt(word("one")), grab("p", word("under", "in", "inside")), grab("x", some),
	opt(seq(one(func(t tok) bool { return t.text == "," }), opt(word("and", "but")), word("not"), some)), end)

// partOfName reports an aside that is part of the unquoted name before it, as the page
// writes it: "Place on a Tree (Network)" (a capitalised word or two, right after a
// capitalised word). After a quoted name it is a second description: `"ewilson" (Emma
// Wilson)`.
func partOfName(before, aside string) bool {
	ts, as := tokenize(before), tokenize(aside)
	if len(ts) == 0 || len(as) == 0 || len(as) > 2 {
		return false
	}
	capital := func(t tok) bool { return t.kind == tWord && capitalised(t.text) }
	return capital(ts[len(ts)-1]) && capital(as[0])
}

func droppableAside(s string) bool {
	if strings.TrimSpace(s) == "" || strings.ContainsAny(s, "(\n") {
		return false
	}
	if read(notThatOne, s) != nil || read(leaveAlone, s) != nil {
		return true
	}
	for _, t := range tokenize(s) {
		if t.kind == tQuote || t.kind == tNumber || asideKeeps[t.low] || strings.ContainsAny(t.text, "0123456789") {
			return false // a quote, a number ("(-1,0)") or how often, whether or which
		}
	}
	return true
}

// bareName is a clause that is only a name: a quote, or up to three words, each of which
// may be written with dots, slashes, at signs or dashes inside ("lab.example.org",
// "omar@example.org", "/wiki-old").
func bareName(c string) bool {
	ts := tokenize(c)
	if len(ts) == 1 && ts[0].kind == tQuote {
		return true
	}
	words := 0
	for i, t := range ts {
		if i == 0 || t.space {
			words++
		}
		if t.kind != tWord && !strings.Contains("./@-_", t.text) {
			return false
		}
	}
	return words > 0 && words <= 3
}

// clickedName reads a clause that is only a name, after a click, as a click on it: "click
// "Databases", then "shop", then "customers"" clicks each in turn. A clause the planner
// read (no reason), or could not read as a click either, keeps its own reading.
func clickedName(s Step, reason, c string, quotes []string, before []Step, more bool) (Step, string) {
	// "press Go and then Continue": a capital makes "Continue" the button's name.
	named := read(goOn, c) != nil && capitalised(c)
	// "Login, then Settings > Site Settings: …": a goal's first step may be a button's
	// name alone, one or two words as the page writes it (a capital first), steps after
	// it (a goal that is a name alone, "Buy milk", says what is wanted, not what to click).
	first := len(before) == 0 && more && capitalised(strings.TrimSpace(c)) && len(strings.Fields(c)) <= 2
	// A verb's word written with a capital after a step, that reads as no step, is a
	// name's ("then Add Contact": the button, not "add" what); first in a goal, a capital
	// is the sentence's ("Find Clementine").
	if first && startsWithVerb(c) {
		return s, reason
	}
	// "change the TAG to LAB-B, then OK": after a form's step, the one word of a button
	// that takes a form, written as the page writes it.
	commit := len(before) > 0 && before[len(before)-1].Action.FillsForm() && commitWords[strings.TrimSpace(c)]
	if reason == "" || (!first && !commit && (len(before) == 0 || before[len(before)-1].Action != Click || before[len(before)-1].AcceptDialog)) || !bareName(c) || (startsWithVerb(c) && !named && !capitalised(strings.TrimSpace(c))) {
		return s, reason
	}
	if named, why := parseClause("click "+c, quotes); why == "" && named.Action == Click {
		return named, ""
	}
	return s, reason
}

// commitWords are the buttons that take a form, as pages write them.
var commitWords = map[string]bool{"OK": true, "Ok": true, "Save": true, "Submit": true, "Apply": true, "Update": true, "Send": true, "Done": true, "Confirm": true}

// keyNamedBefore reads the Delete key pressed where a click before it named a control
// "Delete" ("choose Delete, and press Delete again to confirm") as a click on that
// control: the goal calls the page's "Delete" so, not the key. Enter, Tab, Escape and the
// others stay keys whatever was clicked ("Enter" a site's button, then Enter in a form).
func keyNamedBefore(s Step, before []Step) Step {
	if s.Action != Press || s.TargetDescription != "" || s.Value != "Delete" {
		return s
	}
	for _, b := range before {
		if b.Action == Click && strings.EqualFold(strings.Trim(b.TargetDescription, `"`), s.Value) {
			return Step{Action: Click, TargetDescription: s.Value}
		}
	}
	return s
}

// purpose is "to confirm", "to delete it" after a quoted control: why it is clicked.
var purpose = seq(quoteTok, grab("why", seq(word("to", "so as to", "in order to"), one(func(t tok) bool {
	return t.kind == tWord && t.low != "the" && t.low != "a" && t.low != "an"
}), anyTokens)), end)

// dropPurpose drops the purpose written after a quoted control (`press "Yes" to confirm`):
// the control is the step; why it is pressed is no part of which one.
func dropPurpose(t string) string {
	ts := tokenize(t)
	for i, tk := range ts {
		if tk.kind != tQuote {
			continue
		}
		if m, e := matchAt(ts, t, purpose, i); m != nil && e == len(ts) {
			return strings.TrimSpace(t[:ts[i].end])
		}
	}
	return t
}

// purposeVerbs are verbs a purpose after a target starts with ("the plus icon to add a
// tree", "the + next to Local IRC to join a channel").
var purposeVerbs = word("add", "create", "make", "join", "open", "start", "save", "send", "remove", "delete", "edit", "change", "see", "show",
	"leave", "confirm", "expand", "collapse", "close", "upload", "invite", "connect", "begin", "set up", "sign", "log", "define", "enter", "write")

// unquotedPurpose is " to add a tree" at the end of a target: a purpose verb and its object.
var unquotedPurpose = seq(word("to"), purposeVerbs, opt(word("in", "up", "out")), word("a", "an", "the", "it", "them", "this", "one", "new", "him", "her", "his", "its", "their", "my", "me", "us"), anyTokens, end)

// dropUnquotedPurpose drops the purpose that ends an unquoted target ("the plus icon to
// add a tree"): why the control is pressed is no part of which one.
func dropUnquotedPurpose(t string) string {
	ts := tokenize(t)
	for i := 1; i < len(ts); i++ {
		if ts[i].low != "to" || !ts[i].space || ts[i-1].low == "next" {
			continue
		}
		if m, e := matchAt(ts, t, unquotedPurpose, i); m != nil && e == len(ts) {
			return strings.TrimSpace(t[:ts[i].start])
		}
	}
	return t
}

// A referent word stands for the thing the step before named: "type "x" into it", "click
// its Edit button".
var (
	itWords  = setOf("it there")
	itsWords = setOf("its their")
)

// answerWords name the control that answers a page's question.
var answerWords = setOf("ok yes confirm accept continue")

// questionBox are the places an answer is said to be in that name no box of the page's
// own: none, "the confirmation dialog", "the browser's dialog" ("the dialog" may be one
// the page draws, whose OK is clicked as written).
var questionBox = map[string]bool{"": true, "dialog confirmation": true, "dialog confirm": true, "dialog browser": true, "dialog browser's": true}

// answerQuestions reads a click on "OK" (or "Yes", "Confirm") right after a click as the
// answer to the question that click may ask: the click before accepts the page's own
// confirm(), if it shows one, and the OK is then done (AnswersDialog); a question the page
// draws itself is answered by clicking its OK as written.
func answerQuestions(steps []Step) []Step {
	for i := 1; i < len(steps); i++ {
		if steps[i].Action != Click || steps[i-1].Action != Click {
			continue
		}
		t := ParseTarget(steps[i].TargetDescription)
		if answerWords[strings.ToLower(t.Name)] && t.Row == "" && questionBox[t.Container] && t.Ordinal == 0 {
			steps[i-1].AcceptDialog, steps[i].AnswersDialog = true, true
		}
	}
	return steps
}

// soThat is what a "so that" after a step says: the effect the step is for ("so that the
// downloaded file is deleted too", ", so that it moves to the top of the queue"). The
// value a field is to hold ("so that it holds "x"") is soItHolds's, and is kept.
var (
	soThat   = seq(opt(one(func(t tok) bool { return t.text == "," })), word("so that", "so as to", "in order that"))
	soItSays = seq(word("so that", "so"), word("it"), word("holds", "reads", "says"))
)

// soThatSteps are the steps whose "so that" says what they are for, never how they are
// done: a click, a choice, a tick. ("resize the box so that the height is larger" says
// how.) A place before the step, or a bare name after a click, is read as one too.
var soThatSteps = alt(verbsFor(sClick), verbsFor(sChoose), verbsFor(sTick), verbsFor(sUntick), verbsFor(sDoubleClick), verbsFor(sRightClick), placeLead)

// dropSoThat drops the effect a step is said to be for, written after it: the step is
// what is done, and a check the goal states is what verifies it.
func dropSoThat(c string) string {
	ts := tokenize(c)
	for i := 1; i < len(ts); i++ {
		m, _ := matchAt(ts, c, soThat, i)
		if m == nil || !ts[i].space && ts[i].text != "," {
			continue
		}
		if s, _ := matchAt(ts, c, soItSays, i); s != nil {
			return c
		}
		if before := strings.TrimSpace(c[:ts[i].start]); before != "" && (readStart(soThatSteps, stripFillers(before)) != nil || !startsWithVerb(before) && len(strings.Fields(before)) <= 3) {
			return before
		}
		return c
	}
	return c
}

// besideIt writes "the list beside it" as the list beside what the step before named:
// `type dave into "Username", choose example.org from the list beside it` is the list
// beside "Username".
func besideIt(s Step, before []Step) (Step, bool) {
	d := strings.TrimSpace(s.TargetDescription)
	low := strings.ToLower(d)
	var rest string
	for _, tail := range []string{" next to it", " beside it", " by it"} {
		if strings.HasSuffix(low, tail) {
			rest = strings.TrimSpace(d[:len(d)-len(tail)])
			break
		}
	}
	if rest == "" || len(before) == 0 {
		return s, false
	}
	last := before[len(before)-1]
	if last.TargetDescription == "" || last.Action == Navigate || last.Action == Assert {
		return s, false
	}
	name := ParseTarget(last.TargetDescription).Name
	if name == "" || strings.ContainsRune(name, '"') {
		return s, false
	}
	s.TargetDescription = rest + " beside " + strconv.Quote(name)
	return s, true
}
