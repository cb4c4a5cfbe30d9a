// Package skills is the agent's memory: every validated success is kept in Weaviate as a
// reusable plan, parameterised so that a later goal that means the same — with other
// values — runs from it with few or no model calls.
package skills

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/webagent-dev/webagent/plan"
)

// Slot is a value of a goal that changes between runs of the same skill.
type Slot struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

var (
	slotPatterns = []struct {
		kind string
		re   *regexp.Regexp
	}{
		{"text", regexp.MustCompile(`"([^"]+)"|“([^”]+)”|(?:^|[\s(])'([^']+)'`)},
		{"url", regexp.MustCompile(`\bhttps?://[^\s"']+`)},
		{"email", regexp.MustCompile(`\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b`)},
		{"date", regexp.MustCompile(`(?i)\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}(?:, \d{4})?|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*(?: \d{4})?)\b`)},
		{"number", regexp.MustCompile(`\b[\w-]*\d[\w.-]*\b`)},
		// Capitalised words after the first word: names and values ("priority High",
		// "for Acme Corp").
		{"name", regexp.MustCompile(`\b[A-Z][\w-]*(?: [A-Z][\w-]*)*\b`)},
	}
	stopwords = map[string]bool{
		"the": true, "a": true, "an": true, "to": true, "into": true, "in": true, "on": true, "with": true, "as": true,
		"of": true, "for": true, "from": true, "and": true, "then": true, "is": true, "at": true, "by": true, "my": true,
		"our": true, "its": true, "it": true, "that": true, "this": true, "be": true,
	}
	// verbs are the offline planner's and everyday imperative verbs: a slot after one is
	// named "value", not after the verb.
	verbs = map[string]bool{
		"click": true, "press": true, "tap": true, "select": true, "choose": true, "pick": true, "type": true, "enter": true,
		"fill": true, "write": true, "input": true, "open": true, "go": true, "visit": true, "check": true, "uncheck": true,
		"verify": true, "expect": true, "see": true, "wait": true, "extract": true, "read": true, "create": true,
		"archive": true, "delete": true, "rename": true, "add": true, "remove": true, "find": true, "search": true,
		"make": true, "set": true, "show": true, "get": true, "send": true, "invite": true, "assign": true, "move": true,
	}
	nameWords = map[string]string{"named": "name", "called": "name", "titled": "title", "name": "name", "title": "title"}
)

// Template turns a goal into its template — the goal with its values replaced by
// {{slot}} placeholders — and the slots: quoted strings, URLs, emails, dates, numbers and
// words with digits, and capitalised words after the first. Each slot is named after the
// word before it ("named" → name, "priority" → priority), or by its kind; a value named
// twice is one slot.
//
//	Create a project named "Apollo" with priority High
//	→ Create a project named {{name}} with priority {{priority}}; name=Apollo, priority=High
func Template(goal string) (string, []Slot) {
	goal = strings.Join(strings.Fields(goal), " ")
	type span struct {
		start, end  int
		value, kind string
	}
	var spans []span
	taken := make([]bool, len(goal)+1)
	for _, p := range slotPatterns {
		for _, m := range p.re.FindAllStringSubmatchIndex(goal, -1) {
			start, end := m[0], m[1]
			value := goal[start:end]
			for g := 2; g+1 < len(m); g += 2 {
				if m[g] >= 0 {
					value = goal[m[g]:m[g+1]]
					break
				}
			}
			if p.kind == "text" {
				start += len(goal[start:end]) - len(strings.TrimLeft(goal[start:end], " ("))
			}
			if p.kind == "name" && start == firstWordEnd(goal) {
				continue
			}
			if p.kind == "name" && start < firstWordEnd(goal) {
				// The goal's first word is capitalised as a sentence; only what follows it
				// in the same run of capitals is a value.
				rest := strings.TrimSpace(goal[firstWordEnd(goal):end])
				if rest == "" || !unicode.IsUpper([]rune(rest)[0]) {
					continue
				}
				start, value = end-len(rest), rest
			}
			overlap := false
			for i := start; i < end; i++ {
				if taken[i] {
					overlap = true
					break
				}
			}
			if overlap || strings.TrimSpace(value) == "" {
				continue
			}
			for i := start; i < end; i++ {
				taken[i] = true
			}
			spans = append(spans, span{start, end, value, p.kind})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	var slots []Slot
	used := map[string]int{}
	// A value the goal names again is the same slot: the plan types it and checks it
	// under one name, so a new value binds into every place ("type "Zeus"", "check
	// that "Zeus" is visible"). A goal with two values where this one repeats one has
	// other slots, and so never reuses its skill.
	named := map[string]string{}
	last := 0
	for _, sp := range spans {
		name, again := named[strings.ToLower(sp.value)]
		if !again {
			name = slotName(goal[last:sp.start], sp.kind)
			used[name]++
			if used[name] > 1 {
				name = fmt.Sprintf("%s_%d", name, used[name])
			}
			named[strings.ToLower(sp.value)] = name
			slots = append(slots, Slot{Name: name, Value: sp.value})
		}
		b.WriteString(goal[last:sp.start])
		b.WriteString("{{" + name + "}}")
		last = sp.end
	}
	b.WriteString(goal[last:])
	return b.String(), slots
}

func firstWordEnd(s string) int {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return i
	}
	return len(s)
}

// slotName names a slot after the word before it (in the text since the previous slot),
// skipping little words; after a verb, or with no such word, by its kind.
func slotName(before, kind string) string {
	byKind := kind
	if kind == "text" {
		byKind = "value"
	}
	words := strings.FieldsFunc(strings.ToLower(before), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	for i := len(words) - 1; i >= 0 && i >= len(words)-3; i-- {
		w := strings.Trim(words[i], "-")
		switch {
		case nameWords[w] != "":
			return nameWords[w]
		case stopwords[w]:
			continue
		case verbs[w]:
			return byKind
		case w != "":
			return w
		}
	}
	return byKind
}

// Parameterize replaces the slots' values in a plan's targets and values with their
// {{slot}} placeholders, longest value first, so that the plan can be run with others.
func Parameterize(steps []plan.Step, slots []Slot) []plan.Step {
	order := append([]Slot{}, slots...)
	sort.SliceStable(order, func(i, j int) bool { return len(order[i].Value) > len(order[j].Value) })
	out := make([]plan.Step, len(steps))
	for i, s := range steps {
		for _, sl := range order {
			hole := "{{" + sl.Name + "}}"
			s = s.MapTexts(func(t string) string {
				if len([]rune(sl.Value)) < 2 {
					// A one-letter value is a slot only where it is the whole field:
					// inside a description it could be a word ("a") as well.
					if strings.EqualFold(t, sl.Value) {
						return hole
					}
					return t
				}
				return replaceFold(t, sl.Value, hole)
			})
		}
		if s.Target != nil {
			// The target is read again from the description with its slots, so that a
			// run binds its own values into the same parts.
			s.Target = nil
			s = s.WithTarget()
		}
		out[i] = s
	}
	return out
}

// replaceFold replaces old in s, ignoring case, where it is not part of a longer word.
func replaceFold(s, old, repl string) string {
	re := regexp.MustCompile(`(?i)(^|[^\pL\pN])` + regexp.QuoteMeta(old) + `($|[^\pL\pN])`)
	for {
		next := re.ReplaceAllString(s, "${1}"+strings.ReplaceAll(repl, "$", "$$")+"${2}")
		if next == s {
			return s
		}
		s = next
	}
}

// Leaks returns the old values that a bound plan still holds where the new run has other
// values: replaying them would act on the old run's data.
func Leaks(steps []plan.Step, old, now map[string]string) []string {
	var leaks []string
	for name, v := range old {
		if strings.EqualFold(v, now[name]) {
			continue
		}
		holds := func(t string) bool {
			if len([]rune(v)) < 2 {
				return strings.EqualFold(t, v)
			}
			return replaceFold(t, v, "\x00") != t
		}
		for _, s := range steps {
			if slices.ContainsFunc(s.Texts(), holds) {
				leaks = append(leaks, v)
				break
			}
		}
	}
	sort.Strings(leaks)
	return leaks
}

// Unbound returns the slots whose value this run changes but which the plan never uses:
// replaying it would ignore the new value and do what the earlier run did.
func Unbound(steps []plan.Step, old, now map[string]string) []string {
	var out []string
	for name, v := range now {
		if strings.EqualFold(v, old[name]) {
			continue
		}
		used := false
		for _, s := range steps {
			if strings.Contains(strings.Join(s.Texts(), "\x00"), "{{"+name+"}}") {
				used = true
				break
			}
		}
		if !used {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
