package plan

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
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
	masked, quotes := mask(goal)
	if strings.TrimSpace(masked) == "" {
		return nil, &ParseError{Index: 1, Sentence: goal, Reason: "the goal is empty"}
	}
	var steps []Step
	for i, clause := range splitClauses(masked) {
		if pairs, ok := parsePairs(clause, quotes); ok {
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
		if s.Action == Type && s.Value == "{{"+Copied+"}}" && !slices.ContainsFunc(steps, func(e Step) bool { return e.Action == Extract && e.Value == Copied }) {
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
	verbStart  = regexp.MustCompile(`(?i)^(?:click|double[\s-]click|double-tap|dblclick|right[\s-]click|triple-click|drag|long-press|highlight|upload|tap|press|hit|push|select|choose|pick|type|enter|input|write|put|fill|set|open|go|goto|navigate|visit|load|browse|head|reload|refresh|submit|expand|collapse|continue|proceed|accept|check|uncheck|tick|untick|verify|confirm|ensure|make sure|assert|expect|see|scroll|wait|extract|read|get|copy|grab|switch|paste|hover)\b`)
)

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
	out := clauses[:0]
	for _, c := range clauses {
		c = strings.TrimSpace(leadFiller.ReplaceAllString(strings.TrimSpace(c), ""))
		c = strings.TrimRight(c, ".;,! ")
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

const (
	keyName = `(?:(?:ctrl|control|shift|alt|option|meta|cmd|command)\s*\+\s*)*` +
		`(?:enter|return|tab|escape|esc|backspace|delete|del|space|spacebar|arrow\s*(?:up|down|left|right)|` +
		`up|down|left|right|home|end|page\s*up|page\s*down|f[1-9]|f1[0-2])` +
		`|(?:(?:ctrl|control|shift|alt|option|meta|cmd|command)\s*\+\s*)+[a-z0-9]`
	urlPat = `(?:https?://\S+|localhost(?::\d+)?(?:/\S*)?|(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?(?:/\S*)?|` +
		`[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?::\d+)?(?:/\S*)?|/\S*)`
	visibleWords = `visible|shown|displayed|present|there|on (?:the )?(?:page|screen)`
)

var (
	reAssertIs        = regexp.MustCompile(`(?i)^(?:(?:check|verify|confirm|ensure|make sure|assert|expect)(?:\s+that)?\s+)?(.+?)\s+(?:is|are)\s+(not\s+)?(?:` + visibleWords + `)$`)
	reAssertVerb      = regexp.MustCompile(`(?i)^(?:(?:check|verify|confirm|ensure|make sure|assert|expect)(?:\s+that)?\s+)?(.+?)\s+(appears|shows up|is gone|disappears|does not appear|doesn't appear|no longer appears)$`)
	reAssertPage      = regexp.MustCompile(`(?i)^(?:(?:check|verify|confirm|ensure|make sure|assert|expect)(?:\s+that)?\s+)?the\s+page\s+(shows|contains|displays|does not show|doesn't show|does not contain|doesn't contain|no longer shows)\s+(.+)$`)
	reAssertSee       = regexp.MustCompile(`(?i)^(?:(?:verify|expect|assert)(?:\s+to\s+see)?|see|(?:check|make sure|ensure)\s+(?:that\s+)?(?:you|i|we)\s+(?:can\s+)?see)\s+(.+)$`)
	reWaitTime        = regexp.MustCompile(`(?i)^wait(?:\s+for)?\s+(\d+(?:\.\d+)?\s*(?:ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?)$`)
	reWaitFor         = regexp.MustCompile(`(?i)^wait\s+(?:for|until)\s+(.+?)(?:\s+(?:to\s+(?:appear|show up|be visible|load)|appears|shows up|is visible|is shown|loads))?$`)
	reScroll          = regexp.MustCompile(`(?i)^scroll(?:\s+(?:the\s+)?page)?(?:\s+(down|up|to\s+the\s+bottom|to\s+the\s+top|to\s+bottom|to\s+top))?(?:\s+(?:by\s+)?(\d+)\s*(?:px|pixels)?)?$`)
	reScrollWithin    = regexp.MustCompile(`(?i)^scroll\s+(?:down\s+|up\s+)?to\s+the\s+(bottom|end|top|start)\s+of\s+(.+)$`)
	reThePage         = regexp.MustCompile(`(?i)^(?:the\s+)?(?:page|window|screen)$`)
	reScrollTo        = regexp.MustCompile(`(?i)^scroll\s+(?:down\s+|up\s+)?to\s+(.+)$`)
	rePressKey        = regexp.MustCompile(`(?i)^(?:press|hit|push|tap)\s+(?:the\s+)?(` + keyName + `)(?:\s+key)?(?:\s+(?:in|on|inside)\s+(.+))?$`)
	reNavigate        = regexp.MustCompile(`(?i)^(?:go\s+to|goto|open|navigate\s+to|visit|load|browse\s+to|head\s+to)\s+(?:the\s+)?(?:url|page|website|site|address)?\s*(` + urlPat + `)$`)
	reHistory         = regexp.MustCompile(`(?i)^(?:go\s+(back|forward)|(reload|refresh)(?:\s+the\s+page)?)$`)
	reTypeInto        = regexp.MustCompile(`(?i)^(?:type|enter|input|write|put|fill\s+in|fill|key\s+in)\s+(.+?)\s+(?:into|in|inside|to|as)\s+(.+)$`)
	reFillWith        = regexp.MustCompile(`(?i)^(?:fill(?:\s+in|\s+out)?|complete|set)\s+(.+?)\s+(?:with|to|as)\s+(.+)$`)
	reTypeOnly        = regexp.MustCompile(`(?i)^(?:type|write|input|key\s+in)\s+(.+)$`)
	reSelectFrom      = regexp.MustCompile(`(?i)^(?:select|choose|pick)\s+(.+?)\s+(?:from|in|for|under|as)\s+(.+)$`)
	reCheck           = regexp.MustCompile(`(?i)^(?:check|tick|mark)\s+(.+)$`)
	reUncheck         = regexp.MustCompile(`(?i)^(?:uncheck|untick|unmark|clear\s+the\s+checkbox)\s+(.+)$`)
	reClick           = regexp.MustCompile(`(?i)^(?:click|tap|press|hit|push|select|choose|pick|open|expand|collapse|go\s+to|switch\s+to)(?:\s+on)?\s+(.+)$`)
	reEdge            = regexp.MustCompile(`(?i)^(?:the\s+)?(?:bottom|top)$`)
	rePreposition     = regexp.MustCompile(`(?i)^(?:into|in|inside|to)$`)
	reAssertVerbStart = regexp.MustCompile(`(?i)^(?:check|verify|confirm|ensure|make sure|assert|expect)\b`)
	reArticle         = regexp.MustCompile(`(?i)^(?:on\s+)?(?:the|a|an)\s+`)
	reLoneQuote       = regexp.MustCompile("^\x01(\\d+)\x02$")
	reTextPrefix      = regexp.MustCompile(`(?i)^(?:the\s+)?(?:text|message|words?)\s+`)
	reNavWords        = regexp.MustCompile(`(?i)\b(tab|link|menu|page|back|next|previous)\b`)
	reDuration        = regexp.MustCompile(`(?i)^\s*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\s*$`)
	reConfirm         = regexp.MustCompile(`(?i)^(?:confirm|accept)(?:\s+(?:it|that|the\s+(?:dialog|confirmation|prompt|popup|warning)))?$`)
	reContinue        = regexp.MustCompile(`(?i)^(?:continue|proceed)$`)
	reSubmit          = regexp.MustCompile(`(?i)^submit(?:\s+(?:the|this)\s+form)?$`)
	reHover           = regexp.MustCompile(`(?i)^(?:hover|mouse)\s+(?:over|on|onto)\s+(.+)$|^(?:move|put)\s+the\s+(?:mouse|pointer|cursor)\s+(?:over|on|onto)\s+(.+)$`)
	reCopy            = regexp.MustCompile(`(?i)^copy\s+(?:the\s+)?(?:text|value|contents?|words?)\s+(?:in|from|of|inside)\s+(.+)$`)
	rePaste           = regexp.MustCompile(`(?i)^paste\s+(?:it|that|them|the\s+(?:copied\s+)?text)\s+(?:into|in|to)\s+(.+)$`)
	reExtract         = regexp.MustCompile(`(?i)^(?:extract|read|get|copy|grab|record)\s+(.+?)(?:\s+(?:as|into)\s+(.+))?$`)
)

// parseClause reads one masked sentence; a non-empty reason says why it could not.
func parseClause(c string, quotes []string) (Step, string) {
	text := func(s string) string { return cleanOperand(s, quotes) }
	if m := reAssertPage.FindStringSubmatch(c); m != nil {
		neg := strings.Contains(strings.ToLower(m[1]), "n't") || strings.Contains(strings.ToLower(m[1]), "not") || strings.Contains(strings.ToLower(m[1]), "no longer")
		return Step{Action: Assert, Value: assertText(m[2], quotes), Negated: neg}, ""
	}
	if m := reAssertIs.FindStringSubmatch(c); m != nil && hasAssertVerbOrQuote(c) {
		return Step{Action: Assert, Value: assertText(m[1], quotes), Negated: m[2] != ""}, ""
	}
	if m := reAssertVerb.FindStringSubmatch(c); m != nil && hasAssertVerbOrQuote(c) {
		v := strings.ToLower(m[2])
		neg := v != "appears" && v != "shows up"
		return Step{Action: Assert, Value: assertText(m[1], quotes), Negated: neg}, ""
	}
	if m := reAssertSee.FindStringSubmatch(c); m != nil {
		return Step{Action: Assert, Value: assertText(m[1], quotes)}, ""
	}
	if m := reWaitTime.FindStringSubmatch(c); m != nil {
		return Step{Action: Wait, Value: strings.TrimSpace(m[1])}, ""
	}
	if m := reWaitFor.FindStringSubmatch(c); m != nil {
		return Step{Action: Wait, TargetDescription: text(m[1])}, ""
	}
	if m := reHover.FindStringSubmatch(c); m != nil {
		t := m[1] + m[2] // one of the two forms matched
		return exact(Step{Action: Hover, TargetDescription: text(t)}, t, quotes, "")
	}
	if reason := unsupported(c); reason != "" {
		return Step{}, reason
	}
	if m := reScrollWithin.FindStringSubmatch(c); m != nil {
		// "to the bottom of the text area": that element's own scroll, not the page's.
		edge := map[string]string{"bottom": "bottom", "end": "bottom", "top": "top", "start": "top"}[strings.ToLower(m[1])]
		if reThePage.MatchString(strings.TrimSpace(text(m[2]))) {
			return Step{Action: Scroll, Value: edge}, ""
		}
		return exact(Step{Action: Scroll, TargetDescription: text(m[2]), Value: edge}, m[2], quotes, "")
	}
	if m := reScrollTo.FindStringSubmatch(c); m != nil && !reEdge.MatchString(m[1]) {
		return Step{Action: Scroll, TargetDescription: text(m[1])}, ""
	}
	if m := reScroll.FindStringSubmatch(c); m != nil {
		dir := strings.ToLower(m[1])
		switch {
		case dir == "":
			dir = "down"
		case strings.HasSuffix(dir, "bottom"):
			dir = "bottom"
		case strings.HasSuffix(dir, "top"):
			dir = "top"
		}
		if m[2] != "" {
			dir += " " + m[2]
		}
		return Step{Action: Scroll, Value: dir}, ""
	}
	if m := rePressKey.FindStringSubmatch(c); m != nil {
		return Step{Action: Press, Value: keyFor(m[1]), TargetDescription: text(m[2])}, ""
	}
	if m := reHistory.FindStringSubmatch(c); m != nil {
		v := strings.ToLower(m[1] + m[2])
		if v == "refresh" {
			v = "reload"
		}
		return Step{Action: Navigate, Value: v}, ""
	}
	if m := reNavigate.FindStringSubmatch(unmask(c, quotes, false)); m != nil {
		return Step{Action: Navigate, Value: strings.TrimRight(m[1], ".,;")}, ""
	}
	if m := reTypeInto.FindStringSubmatch(c); m != nil {
		v, reason := exactValue(m[1], quotes)
		return exact(Step{Action: Type, Value: v, TargetDescription: text(m[2])}, m[2], quotes, reason)
	}
	if m := reFillWith.FindStringSubmatch(c); m != nil {
		v, reason := exactValue(m[2], quotes)
		return exact(Step{Action: Type, Value: v, TargetDescription: text(m[1])}, m[1], quotes, reason)
	}
	if m := reTypeOnly.FindStringSubmatch(c); m != nil && !rePreposition.MatchString(m[1]) {
		return Step{Action: Type, Value: text(m[1])}, ""
	}
	if m := reSelectFrom.FindStringSubmatch(c); m != nil {
		v, reason := exactValue(m[1], quotes)
		return exact(Step{Action: Select, Value: v, TargetDescription: text(m[2])}, m[2], quotes, reason)
	}
	if m := reUncheck.FindStringSubmatch(c); m != nil {
		return exact(Step{Action: Check, Value: "false", TargetDescription: text(m[1])}, m[1], quotes, "")
	}
	if m := reCheck.FindStringSubmatch(c); m != nil {
		return exact(Step{Action: Check, Value: "true", TargetDescription: text(m[1])}, m[1], quotes, "")
	}
	if m := reSubmit.FindStringSubmatch(c); m != nil {
		return Step{Action: Click, TargetDescription: "Submit"}, ""
	}
	if m := reClick.FindStringSubmatch(c); m != nil {
		return exact(Step{Action: Click, TargetDescription: text(m[1])}, m[1], quotes, "")
	}
	if m := reCopy.FindStringSubmatch(c); m != nil {
		return exact(Step{Action: Extract, TargetDescription: text(m[1]), Value: Copied}, m[1], quotes, "")
	}
	if m := rePaste.FindStringSubmatch(c); m != nil {
		return exact(Step{Action: Type, TargetDescription: text(m[1]), Value: "{{" + Copied + "}}"}, m[1], quotes, "")
	}
	if m := reExtract.FindStringSubmatch(c); m != nil {
		name := text(m[2])
		if name == "" {
			name = slug(text(m[1]))
		}
		return Step{Action: Extract, TargetDescription: text(m[1]), Value: name}, ""
	}
	if reContinue.MatchString(c) {
		return Step{}, `it does not say what to click to go on: name the button, e.g. click "Continue"`
	}
	if !verbStart.MatchString(c) {
		return Step{}, "it does not start with an action the offline planner knows (click, type, select, check, press, go to, scroll, wait, verify, extract)"
	}
	return Step{}, "it starts with an action but its target or value could not be read; quote them, as in type \"Apollo\" into \"Project name\""
}

// exact passes a step on unless its value was unclear (reason) or its target, as written
// (target, still masked), names several elements or words the resolver cannot place.
func exact(s Step, target string, quotes []string, reason string) (Step, string) {
	if reason != "" {
		return Step{}, reason
	}
	return s, exactTarget(target, quotes)
}

func hasAssertVerbOrQuote(c string) bool {
	return reAssertVerbStart.MatchString(c) || strings.HasPrefix(c, "\x01")
}

// cleanOperand unmasks a target or value: a lone quoted string is taken as written, and an
// unquoted one loses a leading article or "on".
func cleanOperand(s string, quotes []string) string {
	s = reArticle.ReplaceAllString(strings.TrimSpace(s), "")
	if m := reLoneQuote.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[1])
		return quotes[n]
	}
	return strings.TrimSpace(unmask(s, quotes, true))
}

// assertText picks the text an ASSERT looks for: the quoted string when the subject holds
// exactly one ("the toast 'Project created'"), else the subject itself.
func assertText(subject string, quotes []string) string {
	if ms := quoteToken.FindAllStringSubmatch(subject, -1); len(ms) == 1 {
		n, _ := strconv.Atoi(ms[0][1])
		return quotes[n]
	}
	s := reTextPrefix.ReplaceAllString(strings.TrimSpace(subject), "")
	return cleanOperand(s, quotes)
}
