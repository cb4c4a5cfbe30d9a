package plan

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Exact or silent: the offline planner maps a sentence to steps only when it is sure what
// to type and where; anything else is refused with the phrase it could not place, never
// turned into a step that types or clicks something else.

var (
	// rePairsVerb starts a sentence that may give several fields their values:
	// 'Fill in the email "u" and the name "p"', 'Enter the username "k" and the password "x" into the text fields'.
	rePairsVerb = regexp.MustCompile(`(?i)^(?:type|enter|input|write|put|fill\s+in|fill\s+out|fill|key\s+in|set)\s+(.+)$`)
	// rePairsInto is a trailing "into the text fields" that names no field of its own.
	rePairsInto = regexp.MustCompile(`(?i)\s+(?:into|in|on)\s+(?:the\s+)?(?:(?:text|input|form)\s+)?(?:fields|boxes|inputs|form)$`)
	rePairsSep  = regexp.MustCompile(`(?i)\s*,\s*(?:and\s+)?|\s+and\s+`)
	// rePair is one "the <field> "<value>"".
	rePair = regexp.MustCompile(`(?i)^(?:the\s+|a\s+|an\s+|your\s+|my\s+)?([a-z][a-z0-9 '\-]{0,40}?)\s*(?::|=|\s+as|\s+of)?\s*\x01(\d+)\x02$`)
	// reDescriptor is what may stand before a quoted value and say what it is: "the code",
	// "the text", "the word".
	reDescriptor = regexp.MustCompile(`(?i)^(?:the\s+|a\s+|an\s+)?(?:[a-z][a-z\-]*\s+){0,2}(?:code|text|word|words|value|number|string|phrase|name|term|query|message|answer|password|username|email|date|time|amount|title)\s*:?$`)
	// rePlural names several targets at once.
	rePlural = regexp.MustCompile(`(?i)\b(?:both|all|each)\b|\b(?:fields|boxes|checkboxes|buttons|links|inputs|options|items|entries|tabs)\b`)
	// reEvery is "every" before anything but a quoted name: "every "Like" icon" is read
	// (each element so named), "every checkbox" is not.
	reEvery = regexp.MustCompile(`(?i)\bevery\b\s*(?:[^\x01\s]|$)`)
	// reValueWords are words that make an unquoted value a description of it.
	reValueWords = regexp.MustCompile(`(?i)\b(?:value|number|total|sum|result|answer|text|word|below|above|following|shown|given|of|that|which)\b`)
	// reWith says what to use rather than what to click ("5 with the slider").
	reWith = regexp.MustCompile(`(?i)\bwith\b`)
	// reVague are words that make an unquoted target a judgement rather than a name: "the
	// button that best describes the figure", "as many circles as possible".
	reVague = regexp.MustCompile(`(?i)\b(?:that|which|who|whose|where|best|most|least|many|much|possible|below|above|correct|appropriate|matching|match|similar|corresponding|same|following|according|describes?|shown|given|random|any|some|largest|smallest|biggest|closest|nearest|highest|lowest|until|using|ascending|descending|order|colou?red|shaped|sized|shortest|longest|greatest|fewest|cheapest|center|centre|middle|mid-?point)\b`)
	// reTrailingPlace is a last "below" or "above" after a field's or a control's kind
	// ("the text area below"), with nothing after it.
	reTrailingPlace = regexp.MustCompile(`(?i)\b((?:text\s*area|textarea|text\s*box|textbox|text\s*field|field|input|list|button|checkbox|dropdown))\s+(?:below|above)\s*$`)
	// reIndefinite starts an unquoted target that is any one of a kind: "a rectangle".
	reIndefinite = regexp.MustCompile(`(?i)^(?:on\s+)?(?:a|an)\s+\S`)
	// targetWords are the words a click target may hold beside a quoted name: articles,
	// role words, places and ordinals, which the resolver reads.
	targetWords = regexp.MustCompile(`(?i)^(?:the|a|an|on|every|button|btn|link|field|text|box|textbox|input|area|textarea|editor|check|checkbox|radio|slider|switch|toggle|column|lane|tab|icon|menu|item|menuitem|option|list|dropdown|select|section|header|heading|panel|entry|row|line|card|dialog|modal|popup|form|sidebar|navigation|nav|in|inside|within|of|for|from|next|to|beside|named|called|labelled|labeled|with|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d+(?:st|nd|rd|th)|[a-z]+'s|by|about|` + purposeWords + `|` + itemNouns + `)$`)
)

// affixWords are "that starts with "X"" and "and ends with "Y"" said of a target, masked.
var affixWords = regexp.MustCompile("(?i)\\b(?:(?:that|which|and)\\s+)?(?:starts?|starting|begins?|beginning|ends?|ending)\\s+with\\s+\x01\\d+\x02")

// purposeWords name an icon-only control by what it does ("the delete button in the row
// "Ann"", "the star icon"): the resolver holds them to the control's own aria-label, title,
// class, icon name or glyph (page's iconGroups), never to a guess.
const purposeWords = `delete|remove|trash|bin|edit|pencil|close|dismiss|add|plus|more|search|star|favorite|favourite|reply|share|like|settings|gear|download|upload|copy|refresh|info|help|bold|italic|underline|strikethrough|x|×`

// itemNouns are what people call the item of a list a target sits in ("the star icon in
// the email from "Helena"", "the reply link on the post by "@ann""): the resolver places
// the target inside the item the quoted words name, never on the item itself.
const itemNouns = `emails?|messages?|mail|posts?|comments?|tweets?|threads?|tasks?|todos?|results?|users?|contacts?|conversations?|notifications?|files?|folders?|products?|orders?|tickets?|issues?|cards?`

// readSeveral reads a sentence that is several steps of one kind: fields given a value each
// (parsePairs) or a list of boxes to tick (parseTickList).
func readSeveral(c string, quotes []string) ([]Step, bool) {
	if steps, ok := parsePairs(c, quotes); ok {
		return steps, true
	}
	if steps, ok := parseBoth(c, quotes); ok {
		return steps, true
	}
	return parseTickList(c, quotes)
}

var (
	// reBoth is one value typed into, or one tick of, both of two elements of a kind:
	// `enter the password "x" into both text fields`, "tick both checkboxes".
	reTypeBoth  = regexp.MustCompile(`(?i)^(?:type|enter|input|write|put|fill\s+in|fill)\s+(.+?)\s+(?:into|in|inside|to)\s+both\s+(?:the\s+)?(.+)$`)
	reCheckBoth = regexp.MustCompile(`(?i)^(?:check|tick)\s+both\s+(?:the\s+)?(.+)$`)
	// bothKinds are the plural kinds "both" may count, and the kind of one of them.
	bothKinds = map[string]string{"fields": "field", "text fields": "text field", "textboxes": "textbox", "text boxes": "text box",
		"inputs": "input", "text inputs": "text input", "password fields": "field", "text areas": "text area", "textareas": "textarea",
		"checkboxes": "checkbox", "check boxes": "checkbox"}
)

// parseBoth reads one value for both of two fields, or a tick of both of two boxes: a step
// for each, "the 1st of 2" and "the 2nd of 2", so that the page is held to having exactly
// two (the resolver refuses a page with another number of them).
func parseBoth(c string, quotes []string) ([]Step, bool) {
	action, value, noun := Type, "", ""
	if m := reTypeBoth.FindStringSubmatch(c); m != nil {
		v, unclear := exactValue(m[1], quotes)
		if unclear != "" {
			return nil, false
		}
		value, noun = v, m[2]
	} else if m := reCheckBoth.FindStringSubmatch(c); m != nil {
		action, value, noun = Check, "true", m[1]
	} else {
		return nil, false
	}
	kind, ok := bothKinds[strings.ToLower(strings.TrimSpace(noun))]
	if !ok || (action == Check) != (kind == "checkbox") {
		return nil, false
	}
	return []Step{
		{Action: action, Value: value, TargetDescription: "the 1st of 2 " + kind},
		{Action: action, Value: value, TargetDescription: "the 2nd of 2 " + kind},
	}, true
}

var (
	reTickList = regexp.MustCompile(`(?i)^(?:select|check|tick|mark)\s+(.+)$`)
	// reListItem is one item of a list to tick: a quoted name, or one unquoted word.
	reListItem = regexp.MustCompile(`^(?:\x01\d+\x02|[\pL\pN][\pL\pN'_-]*)$`)
)

// parseTickList reads "select ZMhn, LU and QMz" as a tick of each box: two or more items,
// each a quoted name or a single word, and nothing else. ok is false otherwise (one item
// is the plain click or tick; "words similar to happy" is not a list of names).
func parseTickList(c string, quotes []string) ([]Step, bool) {
	m := reTickList.FindStringSubmatch(c)
	if m == nil {
		return nil, false
	}
	items := rePairsSep.Split(strings.TrimSpace(m[1]), -1)
	if len(items) < 2 {
		return nil, false
	}
	var steps []Step
	for _, it := range items {
		it = strings.TrimSpace(it)
		if !reListItem.MatchString(it) || targetWords.MatchString(it) {
			return nil, false
		}
		steps = append(steps, Step{Action: Check, Value: "true", TargetDescription: "the " + strconv.Quote(unmask(it, quotes, false)) + " checkbox"})
	}
	return steps, true
}

// parsePairs reads a sentence that gives one or more fields a quoted value each, named by
// the words before the value. ok is false when the sentence is not of that shape.
func parsePairs(c string, quotes []string) ([]Step, bool) {
	m := rePairsVerb.FindStringSubmatch(c)
	if m == nil {
		return nil, false
	}
	rest := rePairsInto.ReplaceAllString(strings.TrimSpace(m[1]), "")
	var steps []Step
	for _, part := range rePairsSep.Split(rest, -1) {
		p := rePair.FindStringSubmatch(strings.TrimSpace(part))
		if p == nil {
			return nil, false
		}
		field := strings.TrimSpace(p[1])
		if reDescriptorOnly(field) || read(seq(intoWords, end), field) != nil {
			return nil, false
		}
		n, _ := strconv.Atoi(p[2])
		steps = append(steps, Step{Action: Type, Value: quotes[n], TargetDescription: field})
	}
	// One pair is the plain "type <value> into <field>" shape read the usual way, unless
	// nothing else names the field.
	if len(steps) == 1 && rePairsInto.MatchString(strings.TrimSpace(m[1])) {
		return nil, false
	}
	return steps, len(steps) > 0
}

// reDescriptorOnly reports a "field" that only says what the value is ("code", "text"):
// it names no field.
func reDescriptorOnly(field string) bool {
	switch strings.ToLower(field) {
	case "code", "text", "word", "value", "string", "phrase", "following", "following text":
		return true
	}
	return false
}

// exactValue reads the value operand of a TYPE or SELECT: a quoted string, alone or after
// words that only say what it is ("the code "abc""); unquoted words as they are. Anything
// else — two quoted strings, a quoted string among other words — is refused.
func exactValue(s string, quotes []string) (string, string) {
	s = strings.TrimSpace(s)
	toks := quoteToken.FindAllStringSubmatchIndex(s, -1)
	switch {
	case len(toks) == 0:
		// An unquoted value that starts with an article, or says what the value is rather
		// than being it ("the value of Gender", "the text below", "a name"), is a
		// description: the planner does not know the text.
		if readStart(articleStart, s) != nil && startsSpaced(articleStart, s) || reValueWords.MatchString(s) {
			return "", fmt.Sprintf("%q describes the text to type rather than giving it: quote the exact text", s)
		}
		return cleanOperand(s, quotes), ""
	case len(toks) == 1:
		before, after := strings.TrimSpace(s[:toks[0][0]]), strings.TrimSpace(s[toks[0][1]:])
		n, _ := strconv.Atoi(s[toks[0][2]:toks[0][3]])
		if after == "" && (before == "" || reDescriptor.MatchString(before)) {
			return quotes[n], ""
		}
	}
	return "", fmt.Sprintf("what to type is unclear in %q: quote exactly the text to type, once per field", unmask(s, quotes, true))
}

// A targetRule is one way an unquoted target fails to name one element the page shows,
// with an example the tests check and the reason it gives.
type targetRule struct {
	name, example string
	// refuse gives the reason s is refused, or "".
	refuse func(s string) string
}

// unquotedRules are the rules an unquoted target is held to, in order.
var unquotedRules = []targetRule{
	{"several elements", "ZMhn, LU", func(s string) string {
		if strings.Contains(s, ",") {
			return fmt.Sprintf("%q names several elements: write one step per element, each quoted", s)
		}
		return ""
	}},
	{"what to use, not what to click", "green with the color picker", func(s string) string {
		if m := reWith.FindString(s); m != "" {
			return fmt.Sprintf("%q says what to use rather than what to click (%q): quote the element's visible text", s, m)
		}
		return ""
	}},
	// "the text area below" points at the page under the instruction, not at another
	// element: the word says nothing of which one.
	{"a judgement", "the numbers in ascending order", func(s string) string {
		if m := reVague.FindString(reTrailingPlace.ReplaceAllString(s, "$1")); m != "" {
			return fmt.Sprintf("%q describes the target by judgement (%q), not by what the page shows: quote its visible text", s, m)
		}
		return ""
	}},
	{"any one of a kind", "a rectangle", func(s string) string {
		if reIndefinite.MatchString(s) {
			return fmt.Sprintf("%q names a kind of element, not one the page shows by name: quote its visible text", s)
		}
		return ""
	}},
	{"too long to be a name", "the thing at the far end of the second row of cards", func(s string) string {
		if n := len(strings.Fields(stripStart(articleStart, s))); n > 6 {
			return fmt.Sprintf("%q is too long to be the name of one element: quote its visible text", s)
		}
		return ""
	}},
}

// exactTarget refuses a target that names several elements, or that mixes a quoted name
// with words the resolver cannot place ("words similar to "big""), or an unquoted one that
// one of unquotedRules refuses.
func exactTarget(s string, quotes []string) string {
	// "the value of "Phone"" names the value beside a label (Target.Labelled): the words
	// before the label say so, and say nothing else about the target. "That starts with
	// "Egy" and ends with "gypt"" is a part the resolver holds exactly too.
	s = reValueOf.ReplaceAllString(s, "$1")
	outside := quoteToken.ReplaceAllString(affixWords.ReplaceAllString(s, " "), " ")
	if m := reEvery.FindString(s); m != "" {
		return fmt.Sprintf("%q names several elements (%q): write every before a quoted name (every \"Like\" icon), or one step per element", unmask(s, quotes, true), "every")
	}
	if m := rePlural.FindString(outside); m != "" {
		return fmt.Sprintf("%q names several elements (%q): write one step per element", unmask(s, quotes, true), m)
	}
	if !quoteToken.MatchString(s) {
		for _, r := range unquotedRules {
			if reason := r.refuse(s); reason != "" {
				return reason
			}
		}
		return ""
	}
	for _, w := range strings.Fields(outside) {
		if !targetWords.MatchString(strings.Trim(w, ",.:;!?")) {
			return fmt.Sprintf("in %q the planner cannot tell what %q says about the target: name it by its visible text alone", unmask(s, quotes, true), w)
		}
	}
	return ""
}

var (
	// reValueOf is "the value of" before a quoted label, masked (see valueOfLabel).
	reValueOf = regexp.MustCompile("(?i)^\\s*(?:the\\s+)?value\\s+(?:of|for|beside|next\\s+to)\\s+(?:the\\s+)?(?:label\\s+)?(\x01)")
	// reMenuPath is "Select File > Save as": a path through a menu, one click per item.
	reMenuPath = regexp.MustCompile(`(?i)^(?:select|choose|pick|open|click(?:\s+on)?|go\s+to|navigate\s+to)\s+(?:the\s+)?(?:menu\s+(?:item\s+|path\s+)?)?(.+?)(?:\s+(?:from|in)\s+the\s+menu)?$`)
	reMenuSep  = regexp.MustCompile(`\s*(?:>|→|›|»)\s*`)
)

// parseMenuPath reads a path through a menu ("Select Jinny>Lynett", 'open "File" > "Save
// as"') as a person takes it: the pointer over each item that opens the next, then a click
// on the last. (A click on a parent item chooses it on many menus.) ok is false when the
// sentence is not of that shape; reason says why a path cannot be read exactly.
func parseMenuPath(c string, quotes []string) (steps []Step, reason string, ok bool) {
	m := reMenuPath.FindStringSubmatch(c)
	if m == nil || !reMenuSep.MatchString(m[1]) {
		return nil, "", false
	}
	parts := reMenuSep.Split(m[1], -1)
	if len(parts) < 2 {
		return nil, "", false
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		name := unmask(p, quotes, false)
		if name == "" {
			return nil, fmt.Sprintf("the menu path %q has an empty item", unmask(m[1], quotes, true)), true
		}
		if quoteToken.MatchString(p) && strings.TrimSpace(quoteToken.ReplaceAllString(p, "")) != "" {
			return nil, fmt.Sprintf("in the menu path %q the item %q is not one name: quote each item alone", unmask(m[1], quotes, true), unmask(p, quotes, true)), true
		}
		if r := exactTarget(p, quotes); r != "" {
			return nil, r, true
		}
		steps = append(steps, Step{Action: Hover, TargetDescription: strconv.Quote(name)})
	}
	steps[len(steps)-1].Action = Click
	return steps, "", true
}

// ListItems reads "A, B and C" as its items, split where the planner splits a list of
// field values; a value with no separator is one item.
func ListItems(v string) []string {
	var out []string
	for _, p := range rePairsSep.Split(strings.TrimSpace(v), -1) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
