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
	masked, quotes := mask(goal)
	if strings.TrimSpace(masked) == "" {
		return nil, &ParseError{Index: 1, Sentence: goal, Reason: "the goal is empty"}
	}
	var steps []Step
	for i, clause := range splitClauses(findAnd.ReplaceAllString(masked, "$1")) {
		if pairs, ok := readSeveral(clause, quotes); ok {
			for _, s := range pairs {
				if reason := exactTarget(s.TargetDescription, quotes); reason != "" {
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
		if path, reason, ok := parseMenuPath(clause, quotes); ok {
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
		if reConfirm.MatchString(clause) {
			// "click "Delete" and confirm": the click's dialog is to be accepted.
			if n := len(steps); n > 0 && (steps[n-1].Action == Click || steps[n-1].Action == Press) {
				steps[n-1].AcceptDialog = true
				continue
			}
			return nil, &ParseError{Index: i + 1, Sentence: unmask(clause, quotes, true), Reason: "there is no click before it whose confirmation to accept"}
		}
		s, reason := parseClause(clause, quotes)
		if reason != "" {
			return nil, &ParseError{Index: i + 1, Sentence: unmask(clause, quotes, true), Reason: reason}
		}
		if s.Action == Type && s.Value == "{{"+Copied+"}}" && !slices.ContainsFunc(steps, func(e Step) bool { return e.Action == Extract && e.Into == Copied }) {
			return nil, &ParseError{Index: i + 1, Sentence: unmask(clause, quotes, true), Reason: "nothing was copied before it: copy the text first, e.g. copy the text in \"Notes\", then paste it into \"Reply\""}
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
	return steps, nil
}

// Copied is the name a "copy the text in X" step reads under, for the "paste it into Y"
// after it.
const Copied = "copied"

var (
	listMarker = regexp.MustCompile(`^\s*(?:\d+[.)]|[-*•]|step\s+\d+\s*[:.)-])\s*`)
	// separator matches the places where one step may end and the next begin. Whether it
	// does is decided by splitClauses: strong separators always split, weak ones (a comma,
	// "and") only when a verb follows.
	separator  = regexp.MustCompile(`(?i)\s*[;,]\s*(?:and\s+then\s+|then\s+|and\s+)?|\.\s+(?:and\s+then\s+|then\s+)?|\s+(?:and\s+then|then|and)\s+`)
	leadFiller = regexp.MustCompile(`(?i)^(?:(?:and|then|first|firstly|next|finally|lastly|also|now|after that|afterwards|please)\b[,\s]*)+`)
	verbStart  = regexp.MustCompile(`(?i)^(?:click|double[\s-]click|double-tap|dblclick|right[\s-]click|triple-click|drag|long-press|highlight|upload|tap|press|hit|push|select|choose|pick|type|enter|input|write|put|fill|set|open|go|goto|navigate|visit|load|browse|head|reload|refresh|submit|expand|collapse|continue|proceed|accept|check|uncheck|tick|untick|verify|confirm|ensure|make sure|assert|expect|see|scroll|wait|extract|read|get|copy|grab|switch|paste|hover|clear|empty|erase|context-click|attach|focus|resize|sort)\b`)
	// findAnd is "find and click X": the click on X, which the browser finds.
	findAnd = regexp.MustCompile(`(?i)\bfind\s+and\s+(click|tap|press|select|choose|pick|open)\b`)
)

// trailingSubmit is a Submit written after a step with no word between ("scroll the
// textarea to the bottom of the text hit submit"): a step of its own.
var trailingSubmit = regexp.MustCompile(`(?i)^(.*\S)\s+((?:hit|press|click)\s+(?:the\s+)?submit(?:\s+button)?)$`)

// splitClauses splits the masked goal into the sentences that each describe one step.
func splitClauses(masked string) []string {
	var clauses []string
	for _, line := range strings.Split(masked, "\n") {
		line = strings.TrimSpace(listMarker.ReplaceAllString(line, ""))
		line = strings.TrimRight(line, ".;, ")
		if line == "" {
			continue
		}
		start := 0
		for _, loc := range separator.FindAllStringIndex(line, -1) {
			sep := strings.ToLower(line[loc[0]:loc[1]])
			rest := leadFiller.ReplaceAllString(strings.TrimSpace(line[loc[1]:]), "")
			strong := strings.ContainsAny(sep, ";.") || strings.Contains(sep, "then")
			if rest == "" || (!strong && !verbStart.MatchString(rest)) {
				continue
			}
			clauses = append(clauses, line[start:loc[0]])
			start = loc[1]
		}
		clauses = append(clauses, line[start:])
	}
	var out []string
	for _, c := range clauses {
		c = strings.TrimSpace(leadFiller.ReplaceAllString(strings.TrimSpace(c), ""))
		c = strings.TrimRight(c, ".;,! ")
		if m := trailingSubmit.FindStringSubmatch(c); m != nil && verbStart.MatchString(m[1]) {
			out = append(out, m[1], m[2]) // "scroll the text to the bottom hit submit"
			continue
		}
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}
