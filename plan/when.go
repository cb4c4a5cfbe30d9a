package plan

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A Condition is what a step waits for before it acts: a number the page shows, named as
// a person names it ("the price"), compared with a bound ("< 47.10"). "Buy when the price
// is less than $47.10" is a click that waits until the price shown is below the bound and
// then clicks at once; the browser finds the one element showing that number, watches it
// and clicks in the same moment it sees the condition hold, so that a value that moves
// every few milliseconds cannot change between the look and the click.
type Condition struct {
	// Subject names the number on the page: "the price", `"Total"`.
	Subject string
	// Op is one of <, <=, >, >=.
	Op string
	// Bound is the number compared with, as written ("$47.10"); Number is its value.
	Bound  string
	Number float64
}

// MaxWhen caps how long a step waits for its condition: as long as a person would watch
// the page for it, not a watch that outlives the run.
const MaxWhen = time.Minute

// numberPat is a number as pages and goals write amounts: an optional sign and currency,
// thousands separated by commas, decimals after a point.
const numberPat = `[-+]?[$€£¥]?\s?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`

// comparisons are the words a goal compares with, and the operator each means.
var comparisons = map[string]string{
	"less than": "<", "lower than": "<", "below": "<", "under": "<", "smaller than": "<",
	"greater than": ">", "more than": ">", "higher than": ">", "above": ">", "over": ">", "bigger than": ">",
	"at most": "<=", "no more than": "<=", "less than or equal to": "<=",
	"at least": ">=", "no less than": ">=", "greater than or equal to": ">=",
}

// compareWords matches any of comparisons, longest first.
const compareWords = `(?:less\s+than\s+or\s+equal\s+to|greater\s+than\s+or\s+equal\s+to|no\s+more\s+than|no\s+less\s+than|less\s+than|lower\s+than|smaller\s+than|greater\s+than|more\s+than|higher\s+than|bigger\s+than|at\s+most|at\s+least|below|under|above|over)`

// compareRule matches any of comparisons, longest first.
var compareRule = word(longestFirst(slices.Sorted(maps.Keys(comparisons)))...)

// conditionWords is a condition as a goal says it: "the price is less than $47.10",
// "the total goes above 100".
var conditionWords = seq(grab("t", some), word("is", "goes", "drops", "falls", "rises", "gets", "becomes"), opt(word("to")), grab("op", compareRule), grab("v", where(all, isNumberWord)), end)

// ParseCondition reads a condition as a step carries it ("the price < 47.10").
func ParseCondition(s string) (Condition, error) {
	for i := 1; i < len(s); i++ {
		for _, op := range []string{"<=", ">=", "<", ">"} {
			if !strings.HasPrefix(s[i:], op) {
				continue
			}
			subject, bound := strings.Trim(s[:i], reSpace), strings.Trim(s[i+len(op):], reSpace)
			if subject != "" && isNumberWord(bound) {
				return newCondition(subject, op, bound)
			}
		}
	}
	return Condition{}, fmt.Errorf("the condition %q is not a number on the page compared with a bound, as in: the price < 47.10", s)
}

// conditionFromWords reads a condition as a goal says it; ok is false when it is not one.
func conditionFromWords(s string) (Condition, bool) {
	m := read(conditionWords, strings.TrimSpace(s))
	if m == nil {
		return Condition{}, false
	}
	c, err := newCondition(m.get("t"), comparisons[m.low("op")], m.get("v"))
	return c, err == nil
}

func newCondition(subject, op, bound string) (Condition, error) {
	subject = strings.TrimSpace(subject)
	if subject == "" {
		return Condition{}, fmt.Errorf("the condition names no value on the page")
	}
	n, ok := ParseNumber(bound)
	if !ok {
		return Condition{}, fmt.Errorf("%q is not a number", bound)
	}
	return Condition{Subject: subject, Op: op, Bound: strings.TrimSpace(bound), Number: n}, nil
}

// ParseNumber reads a number or an amount of money as written ("$48.30", "1,200", "-3.5");
// anything else, even with a number inside, is not one.
func ParseNumber(s string) (float64, bool) {
	s = strings.Trim(s, reSpace)
	sign1, s := cutAny(s, "-", "+")
	_, s = cutAny(s, "$", "€", "£", "¥")
	sign2, s := cutAny(s, "-", "+")
	if !isDigitsAmount(s) {
		return 0, false
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	if err != nil {
		return 0, false
	}
	if sign1 == "-" || sign2 == "-" {
		n = -n
	}
	return n, true
}

// cutAny cuts the first of prefixes s starts with, and the white space after it.
func cutAny(s string, prefixes ...string) (string, string) {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return p, strings.TrimLeft(rest, reSpace)
		}
	}
	return "", s
}

// Holds reports whether the value v meets the condition.
func (c Condition) Holds(v float64) bool {
	switch c.Op {
	case "<":
		return v < c.Number
	case "<=":
		return v <= c.Number
	case ">":
		return v > c.Number
	case ">=":
		return v >= c.Number
	}
	return false
}

// String is the condition as a step carries it.
func (c Condition) String() string { return fmt.Sprintf("%s %s %s", c.Subject, c.Op, c.Bound) }

// Words is the condition as people read it: "the price is less than $47.10".
func (c Condition) Words() string {
	w := map[string]string{"<": "less than", "<=": "at most", ">": "greater than", ">=": "at least"}[c.Op]
	return fmt.Sprintf("%s is %s %s", c.Subject, w, c.Bound)
}

var (
	// whenClause is an action and the condition it waits for: `click "Buy" when the
	// price is less than 47.10`.
	whenClause = seq(grab("act", some), word("when", "once", "as soon as"), grab("cond", all), end)
	// waitUntil is a wait for a condition alone: "wait until the total is above 100".
	waitUntil = seq(word("wait"), word("until", "till"), grab("cond", all), end)
)

// readWhen reads a click that waits for a number on the page to meet a bound, or a wait
// for that alone. A sentence whose "when" is not such a condition is left to the other
// readings (which refuse it, as they refuse any sentence they cannot read exactly).
func readWhen(c string, quotes []string) (Step, string, bool) {
	if m := read(waitUntil, c); m != nil {
		if cond, ok := conditionFromWords(unmask(m.get("cond"), quotes, true)); ok {
			return Step{Action: Wait, Condition: &cond}, "", true
		}
		return Step{}, "", false
	}
	m := read(whenClause, c)
	if m == nil {
		return Step{}, "", false
	}
	act := m.get("act")
	cond, ok := conditionFromWords(unmask(m.get("cond"), quotes, true))
	if !ok {
		return Step{}, "", false
	}
	_, _, key := readKeyPress(act, quotes)
	s, reason, ok := readClick(act, quotes)
	switch {
	case key || !ok:
		return found(Step{}, fmt.Sprintf("only a click waits for a number on the page before it acts, not %q", unmask(act, quotes, true)))
	case reason != "":
		return found(Step{}, reason)
	}
	s.Condition = &cond
	return s, "", true
}

var (
	// whenWords say when a step is taken, not what it acts on: "on the next page",
	// "again" (the goal asks for the click once more: a step of its own).
	whenWords = alt(seq(word("on", "in"), word("the"), word("next", "following", "confirmation", "new", "resulting"), word("page", "screen")),
		// "press Delete again to confirm": why, after when, says nothing of which control.
		seq(opt(word("again", "once more")), word("to confirm"), opt(word("it", "this", "that"))),
		word("again", "once more"),
		// "when asked "Delete it?"": the question the page asks before the step.
		seq(word("when", "once", "if"), opt(word("the")), opt(oneWord), word("asked", "asks", "prompted", "prompts"), opt(alt(quoteTok, seq(word("whether", "if", "to", "for"), some)))))
	// leadWhen is whenWords before the step ("on the next page, click ...").
	leadWhen = seq(whenWords, opt(one(func(t tok) bool { return t.text == "," })))
)

// dropWhen drops the words that say when a step is taken, at its start or its end: `press
// "Remove" on the confirmation page`, `click the Remove button again`.
func dropWhen(c string) string {
	return cutTail(dropLeadWhen(c), seq(whenWords, end))
}

// cutTail drops from c the first run of its words after the first that r reads to c's end
// (r ends with end), or gives c as it is.
func cutTail(c string, r rule) string {
	ts := tokenize(c)
	for i := 1; i < len(ts); i++ {
		if m, j := matchAt(ts, c, r, i); m != nil && j == len(ts) {
			return strings.TrimSpace(c[:ts[i].start])
		}
	}
	return c
}

// dropLeadWhen drops whenWords at the start of a step: "on the next page, click ...".
func dropLeadWhen(c string) string {
	ts := tokenize(c)
	if m, e := matchAt(ts, c, leadWhen, 0); m != nil && e < len(ts) {
		return strings.TrimSpace(c[ts[e].start:])
	}
	return c
}
