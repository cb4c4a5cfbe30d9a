package plan

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// ParseError says which sentence of a goal the offline planner could not read.
type ParseError struct {
	// Index is the 1-based position of the sentence in the goal.
	Index    int
	Sentence string
	Reason   string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("cannot read step %d %q: %s. The offline planner understands explicit steps such as "+
		`Click "New project", type "Apollo" into "Project name", then check that "Apollo" is visible; `+
		"open-ended goals need a Gemini key (set GEMINI_API_KEY)", e.Index, e.Sentence, e.Reason)
}

// Parse turns an explicit, step-by-step goal written in plain English into a plan, without
// a model. Steps may be joined by commas, "and", "then", semicolons, full stops, new lines
// or list markers; targets and values may be quoted with single, double or curly quotes, or
// left unquoted where that is unambiguous. A sentence it cannot read gives a *ParseError.
func Parse(goal string) ([]Step, error) {
	goal, perr := rewriteIdioms(goal)
	if perr != nil {
		return nil, perr
	}
	goal = dropRestated(goal)
	masked, quotes := mask(goal)
	masked = plainWords(dropSituations(dropAsides(dashAsides(doubledStop.ReplaceAllString(masked, "$1.$2")))))
	if strings.TrimSpace(masked) == "" {
		return nil, &ParseError{Index: 1, Sentence: goal, Reason: "the goal is empty"}
	}
	var steps []Step
	clauses := splitClauses(dropFindAnd(masked))
	for i, clause := range clauses {
		if pairs, ok := readSeveral(clause, quotes); ok {
			for _, s := range pairs {
				// The target as written, its quotes masked again as one clause's are.
				if reason := exactTarget(mask(s.TargetDescription)); reason != "" {
					return nil, &ParseError{Index: i + 1, Sentence: unmask(clause, quotes, true), Reason: reason}
				}
				s.Step = len(steps) + 1
				describe(&s)
				if err := s.Validate(); err != nil {
					return nil, &ParseError{Index: i + 1, Sentence: unmask(clause, quotes, true), Reason: err.Error()}
				}
				steps = append(steps, s)
			}
			continue
		}
		if path, reason, ok := readClicks(clause, quotes); ok {
			if reason != "" {
				return nil, &ParseError{Index: i + 1, Sentence: unmask(clause, quotes, true), Reason: reason}
			}
			for _, s := range path {
				s.Step = len(steps) + 1
				describe(&s)
				steps = append(steps, s)
			}
			continue
		}
		if read(confirmIt, clause) != nil {
			var ok bool
			if steps, ok = confirmed(steps); ok {
				continue
			}
			return nil, &ParseError{Index: i + 1, Sentence: unmask(clause, quotes, true), Reason: "there is no click before it whose confirmation to accept"}
		}
		s, reason := parseClause(clause, quotes)
		s, reason = clickedName(s, reason, clause, quotes, steps, i+1 < len(clauses))
		s = keyNamedBefore(s, steps)
		if means, ok := readMeans(clause, quotes); ok && reason != "" {
			s, reason = means, ""
		}
		if reason != "" {
			return nil, &ParseError{Index: i + 1, Sentence: unmask(clause, quotes, true), Reason: reason}
		}
		if s.Action == Type && s.Value == "{{"+Copied+"}}" && !slices.ContainsFunc(steps, func(e Step) bool { return e.Action == Extract && e.Into == Copied }) {
			return nil, &ParseError{Index: i + 1, Sentence: unmask(clause, quotes, true), Reason: "nothing was copied before it: copy the text first, e.g. copy the text in \"Notes\", then paste it into \"Reply\""}
		}
		if s, reason = referTo(s, steps); reason != "" {
			return nil, &ParseError{Index: i + 1, Sentence: unmask(clause, quotes, true), Reason: reason}
		}
		s.Step = len(steps) + 1
		describe(&s)
		// Exact or silent: a step that would not be a valid plan step is refused here,
		// with the sentence, rather than guessed at.
		if err := s.Validate(); err != nil {
			reason := err.Error()
			if s.Action == Type && s.TargetDescription == "" {
				reason = fmt.Sprintf("it says what to type (%q) but not where: name the field, e.g. type %q into \"Name\"", s.Value, s.Value)
			}
			return nil, &ParseError{Index: i + 1, Sentence: unmask(clause, quotes, true), Reason: reason}
		}
		steps = append(steps, s)
	}
	if len(steps) == 0 {
		return nil, &ParseError{Index: 1, Sentence: goal, Reason: "it holds no step to take"}
	}
	return answerQuestions(textInputs(steps)), nil
}

// confirmed answers yes to the question the last click asks ("click "Delete" and
// confirm", "press Add and then Confirm"), whether the browser asks it (its confirm(),
// accepted) or the page draws it (its Confirm, clicked): a step of its own. A question
// nobody asked leaves that step undone, never taken as answered. ok is false when no click
// comes before.
func confirmed(steps []Step) ([]Step, bool) {
	n := len(steps)
	if n == 0 || (steps[n-1].Action != Click && steps[n-1].Action != Press) {
		return steps, false
	}
	steps[n-1].AcceptDialog = true
	a := Step{Action: Click, TargetDescription: "Confirm", AnswersDialog: true, Step: n + 1}
	describe(&a)
	return append(steps, a), true
}

// readClicks reads a clause that is several clicks: an item chosen from a menu named by
// its control, a menu's path, or one click verb for two things; or a search, typed and
// sent.
func readClicks(clause string, quotes []string) ([]Step, string, bool) {
	for _, read := range []func(string, []string) ([]Step, string, bool){readFromMenu, parseMenuPath, readBothClicks, readSearch} {
		if path, reason, ok := read(clause, quotes); ok {
			return path, reason, true
		}
	}
	return nil, "", false
}

// Copied is the name a "copy the text in X" step reads under, for the "paste it into Y"
// after it.
const Copied = "copied"

// leadFillers are words a step may start with that say nothing of it: "once you are in"
// says only that the step comes after the sign-in, as the order of the steps does.
var leadFillers = word("and", "then", "first", "firstly", "next", "finally", "lastly", "also", "now", "after that", "afterwards", "please",
	"once you are in", "once you're in", "once you are logged in", "once you're logged in", "once you are signed in", "once you're signed in",
	"once logged in", "once signed in", "once inside", "when you are in", "when you're in", "after signing in", "after logging in")

// stripFillers drops the words a sentence starts with that say nothing of its step, with
// the commas after them.
func stripFillers(s string) string {
	ts := tokenize(s)
	m := &match{ts: ts, caps: map[string][2]int{}, anywhere: true}
	i := 0
	for {
		j := -1
		leadFillers(m, i, func(e int) bool { j = e; return true })
		if j > i && ts[j-1].low == "next" && j < len(ts) && ts[j].low == "to" {
			break // "Next to the bookmark "X", click ...": a place, not a filler
		}
		if j < 0 || (j < len(ts) && ts[j].kind == tWord && !ts[j].space) {
			break
		}
		for j < len(ts) && ts[j].text == "," {
			j++
		}
		i = j
	}
	if i == 0 {
		return s
	}
	if i == len(ts) {
		return ""
	}
	return s[ts[i].start:]
}

// stripListMarker drops a list marker a line starts with: "1.", "2)", "-", "*", "•",
// "step 3:".
func stripListMarker(line string) string {
	s := strings.TrimLeft(line, " \t\r\f\v")
	n := len(s) - len(strings.TrimLeft(s, "0123456789"))
	switch {
	case n > 0 && n < len(s) && (s[n] == '.' || s[n] == ')'):
		s = s[n+1:]
	case strings.HasPrefix(s, "-") || strings.HasPrefix(s, "*"):
		s = s[1:]
	case strings.HasPrefix(s, "•"):
		s = s[len("•"):]
	case strings.HasPrefix(s, "step ") || strings.HasPrefix(s, "step\t"):
		rest := strings.TrimLeft(s[4:], " \t\r\f\v")
		d := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
		if d == 0 {
			return line
		}
		rest = strings.TrimLeft(rest[d:], " \t\r\f\v")
		if rest == "" || !strings.ContainsRune(":.)-", rune(rest[0])) {
			return line
		}
		s = rest[1:]
	default:
		return line
	}
	return strings.TrimLeft(s, " \t\r\f\v")
}

// A separator is where one step may end and the next begin: its tokens, and whether it
// always splits (a semicolon, a full stop, "then") or only before a verb (a comma, "and").
type separator struct {
	from, to int
	strong   bool
}

// separators finds the separators of a line's tokens, left to right, each as long as it
// can be: ", and then", "; then", ". ", " and ".
func separators(ts []tok) []separator {
	var out []separator
	m := &match{ts: ts, caps: map[string][2]int{}}
	then := []rule{word("and then"), word("then"), word("and")}
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		var j int
		switch {
		case t.text == ";" || t.text == ",":
			j = sepWords(m, i+1, then)
		case t.text == "." && i+1 < len(ts) && ts[i+1].space && (i == 0 || ts[i-1].text != "." || t.space):
			// A full stop; the last dot of "Preferences..." is part of a name.
			j = sepWords(m, i+1, then[:2])
		case t.space && (t.low == "and" || t.low == "then") && i > 0:
			if j = sepWords(m, i, then); j == i {
				continue
			}
		default:
			continue
		}
		strong := t.text == ";" || t.text == "." || hasThen(ts[i:j])
		out = append(out, separator{i, j, strong})
		i = j - 1
	}
	return out
}

// sepWords is where the words a separator may end with ("and then", "then", "and") end,
// when one of them starts at i and white space follows it; else i.
func sepWords(m *match, i int, words []rule) int {
	for _, w := range words {
		e := -1
		w(m, i, func(x int) bool { e = x; return true })
		if e > i && e < len(m.ts) && m.ts[e].space {
			return e
		}
	}
	return i
}

func hasThen(ts []tok) bool {
	return slices.ContainsFunc(ts, func(t tok) bool { return t.low == "then" })
}

// findAnd is "find and click X": the click on X, which the browser finds.
var findAnd = word("find and click", "find and tap", "find and press", "find and select", "find and choose", "find and pick", "find and open")

// allTextCleared is "delete all of its text", "remove all the text": the field the step
// before opened cleared, as "clear its text" says. soonWords are "right away", "at once"
// after a step: when, which the order of the steps says already.
var (
	allTextCleared = regexp.MustCompile(`(?i)\b(?:delete|remove|erase|wipe)\s+all\s+(?:of\s+)?(?:its|the)\s+(?:text|content|contents)\b`)
	soonWords      = regexp.MustCompile(`(?i)\s+(?:right away|at once|immediately|straight away|straight after(?:wards)?|right after(?:wards)?|without delay)(\s*[,.;\n]|\s*$|\s+(?:and|then)\b)`)
)

// plainWords writes a masked goal's idioms of a step as its plain words: "delete all of
// its text" as "clear its text", "click Confirm right away" as "click Confirm".
func plainWords(masked string) string {
	return soonWords.ReplaceAllString(allTextCleared.ReplaceAllString(masked, "clear its text"), "$1")
}

// dropFindAnd writes "find and click X" as "click X".
func dropFindAnd(s string) string {
	for {
		ts := tokenize(s)
		i, j := findWord(ts, findAnd)
		if i < 0 {
			return s
		}
		s = s[:ts[i].start] + s[ts[j-1].start:]
	}
}

// trailingSubmit is a Submit written after a step with no word between ("scroll the
// textarea to the bottom of the text hit submit"): a step of its own.
var trailingSubmit = seq(word("hit", "press", "click"), opt(word("the")), word("submit"), opt(word("button")), end)

// splitSubmit splits a trailing Submit off a step: the step before and the Submit, or ok
// false.
func splitSubmit(c string) (string, string, bool) {
	ts := tokenize(c)
	m := &match{ts: ts, src: c, caps: map[string][2]int{}}
	for i := len(ts) - 1; i > 0; i-- {
		if ts[i].space && trailingSubmit(m, i, func(int) bool { return true }) {
			return c[:ts[i-1].end], c[ts[i].start:], true
		}
	}
	return "", "", false
}

// splitClauses splits the masked goal into the sentences that each describe one step.
func splitClauses(masked string) []string {
	var clauses []string
	for _, line := range strings.Split(masked, "\n") {
		line = strings.TrimSpace(dropLabels(stripListMarker(line)))
		line = strings.TrimRight(line, ".;, ")
		if line == "" {
			continue
		}
		ts := tokenize(line)
		start := 0
		for _, sep := range separators(ts) {
			rest := ""
			if sep.to < len(ts) {
				rest = stripFillers(strings.TrimSpace(line[ts[sep.to].start:]))
			}
			if rest == "" || (!sep.strong && !startsWithVerb(dropLeadWhen(rest)) && !placedStep(rest)) || (!sep.strong && bothOpen(line[start:ts[sep.from].start])) {
				continue
			}
			clauses = append(clauses, line[start:ts[sep.from].start])
			start = ts[sep.to].start
		}
		clauses = append(clauses, line[start:])
	}
	var out []string
	for i, c := range clauses {
		clauses[i] = dropSoThat(c)
	}
	asked := ""
	for _, c := range leadPlaces(gapVerbs(clauses)) {
		c = strings.TrimSpace(stripFillers(strings.TrimSpace(c)))
		c = strings.TrimRight(c, ".;,! ")
		if m := read(askedFor, c); m != nil {
			asked = m.get("f") // "when it asks for the password": said of the step after it
			continue
		}
		c, asked = askedInto(c, asked), ""
		if before, f, ok := trailingAsk(c); ok {
			c, asked = before, f // "click Login, and when it asks for the password": the next step's field
		}
		if before, submit, ok := splitSubmit(c); ok && startsWithVerb(before) {
			out = append(out, before, submit) // "scroll the text to the bottom hit submit"
			continue
		}
		c = strings.TrimRight(dropTrailingJoin(strings.TrimRight(dropWhen(dropLeaving(c)), ".;,! ")), ".;,! ")
		if read(seq(whenWords, end), c) != nil {
			continue // "when asked "Delete it?"" alone: said of the step after it
		}
		if read(leaveAsIs, c) != nil {
			continue // "leave the other fields empty": what no step touches
		}
		if m := read(clickPair, c); m != nil {
			// `press "Mark" and "As unread"`: one verb, two quoted controls, in turn.
			out = append(out, m.get("v")+" "+m.get("a"), m.get("v")+" "+m.get("b"))
			continue
		}
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

var (
	// clickPair is one click verb before two quoted names: `press "Mark" and "As unread"`.
	clickPair = seq(grab("v", word("click", "click on", "press", "tap", "hit", "push")), grab("a", quoteTok),
		opt(one(func(t tok) bool { return t.text == "," })), word("and", "then", "and then"), grab("b", quoteTok), end)
)

// bothOpen reports a clause that ends in "both" and a name, waiting for its "and": "in both
// Change Password and Confirm Password" is one step's two fields, not a step "confirm".
func bothOpen(clause string) bool {
	ts := tokenize(clause)
	for i := len(ts) - 1; i >= 0 && i >= len(ts)-5; i-- {
		switch ts[i].low {
		case "both":
			// "both text fields and …" counts its fields; a name waits for its "and".
			last := ts[len(ts)-1]
			return i < len(ts)-1 && !(last.kind == tWord && strings.HasSuffix(last.low, "s"))
		case "and", ",":
			return false
		}
	}
	return false
}
