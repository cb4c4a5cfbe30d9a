package plan

import (
	"regexp"
	"strconv"
	"strings"
)

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
	reAssertIs     = regexp.MustCompile(`(?i)^(?:(?:check|verify|confirm|ensure|make sure|assert|expect)(?:\s+that)?\s+)?(.+?)\s+(?:is|are)\s+(not\s+)?(?:` + visibleWords + `)$`)
	reAssertVerb   = regexp.MustCompile(`(?i)^(?:(?:check|verify|confirm|ensure|make sure|assert|expect)(?:\s+that)?\s+)?(.+?)\s+(appears|shows up|is gone|disappears|does not appear|doesn't appear|no longer appears)$`)
	reAssertPage   = regexp.MustCompile(`(?i)^(?:(?:check|verify|confirm|ensure|make sure|assert|expect)(?:\s+that)?\s+)?the\s+page\s+(shows|contains|displays|does not show|doesn't show|does not contain|doesn't contain|no longer shows)\s+(.+)$`)
	reAssertSee    = regexp.MustCompile(`(?i)^(?:(?:verify|expect|assert)(?:\s+to\s+see)?|see|(?:check|make sure|ensure)\s+(?:that\s+)?(?:you|i|we)\s+(?:can\s+)?see)\s+(.+)$`)
	reWaitTime     = regexp.MustCompile(`(?i)^wait(?:\s+for)?\s+(\d+(?:\.\d+)?\s*(?:ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?)$`)
	reWaitFor      = regexp.MustCompile(`(?i)^wait\s+(?:for|until)\s+(.+?)(?:\s+(?:to\s+(?:appear|show up|be visible|load)|appears|shows up|is visible|is shown|loads))?$`)
	reScroll       = regexp.MustCompile(`(?i)^scroll(?:\s+(?:the\s+)?page)?(?:\s+(down|up|to\s+the\s+bottom|to\s+the\s+top|to\s+bottom|to\s+top))?(?:\s+(?:by\s+)?(\d+)\s*(?:px|pixels)?)?$`)
	reScrollWithin = regexp.MustCompile(`(?i)^scroll\s+(?:down\s+|up\s+)?to\s+the\s+(bottom|end|top|start)\s+of\s+(.+)$`)
	reThePage      = regexp.MustCompile(`(?i)^(?:the\s+)?(?:page|window|screen)$`)
	reScrollTo     = regexp.MustCompile(`(?i)^scroll\s+(?:down\s+|up\s+)?to\s+(.+)$`)
	rePressKey     = regexp.MustCompile(`(?i)^(?:press|hit|push|tap)\s+(?:the\s+)?(` + keyName + `)(?:\s+key)?(?:\s+(?:in|on|inside)\s+(.+))?$`)
	reNavigate     = regexp.MustCompile(`(?i)^(?:go\s+to|goto|open|navigate\s+to|visit|load|browse\s+to|head\s+to)\s+(?:the\s+)?(?:url|page|website|site|address)?\s*(` + urlPat + `)$`)
	reHistory      = regexp.MustCompile(`(?i)^(?:go\s+(back|forward)|(reload|refresh)(?:\s+the\s+page)?)$`)
	reTypeInto     = regexp.MustCompile(`(?i)^(?:type|enter|input|write|put|fill\s+in|fill|key\s+in)\s+(.+?)\s+(?:into|in|inside|to|as)\s+(.+)$`)
	reFillWith     = regexp.MustCompile(`(?i)^(?:fill(?:\s+in|\s+out)?|complete|set)\s+(.+?)\s+(?:with|to|as)\s+(.+)$`)
	reTypeOnly     = regexp.MustCompile(`(?i)^(?:type|write|input|key\s+in)\s+(.+)$`)
	reSelectFrom   = regexp.MustCompile(`(?i)^(?:select|choose|pick)\s+(.+?)\s+(?:from|in|for|under|as)\s+(.+)$`)
	reCheck        = regexp.MustCompile(`(?i)^(?:check|tick|mark)\s+(.+)$`)
	reUncheck      = regexp.MustCompile(`(?i)^(?:uncheck|untick|unmark|clear\s+the\s+checkbox)\s+(.+)$`)
	reClick        = regexp.MustCompile(`(?i)^(?:click|tap|press|hit|push|select|choose|pick|open|expand|collapse|go\s+to|switch\s+to|focus(?:\s+(?:into|in|to))?)(?:\s+on)?\s+(.+)$`)
	// reExpand is opening the one collapsed section, panel or menu of the page ("expand
	// the section below"): the page settles which, by the one control it shows collapsed.
	// "Open the main menu" names a menu: only "expand", or "open" with the place it is
	// ("open the section below"), asks for the collapsed one.
	reExpand = regexp.MustCompile(`(?i)^(?:(?:expand|unfold)\s+(?:the\s+)?(?:[a-z]+\s+)?(?:section|panel|accordion|group|details|menu|node)(?:\s+(?:below|above|here))?|open\s+(?:the\s+)?(?:[a-z]+\s+)?(?:section|panel|accordion|group|details|menu|node)\s+(?:below|above|here))$`)
	// reSetWith is a number set with the one control of its kind: "select 5 with the
	// slider", "select -5 with the spinner".
	reSetWith = regexp.MustCompile(`(?i)^(?:select|set|choose|pick|enter)\s+(-?\d+(?:\.\d+)?)\s+(?:with|on|using|in)\s+(?:the\s+)?(slider|spinner|spin\s*box|spin\s*button)$`)
	// reScrollElem is "scroll the text area to the bottom (of the text)".
	reScrollElem      = regexp.MustCompile(`(?i)^scroll\s+(?:down\s+|up\s+)?(the\s+[^,]+?|\x01\d+\x02)\s+(?:all\s+the\s+way\s+)?to\s+(?:the\s+|its\s+)?(bottom|end|top|start)(?:\s+of\s+(?:the\s+)?(?:text|it|its\s+text|content))?$`)
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
	reSubmit          = regexp.MustCompile(`(?i)^submit(?:\s+(?:it|the\s+form|this\s+form))?(?:\s+(?:when|once)\s+(?:done|finished|you(?:'re|\s+are)\s+done))?$`)
	reDoubleClick     = regexp.MustCompile(`(?i)^(?:double[\s-]?(?:click|tap)|dbl[\s-]?click|dblclick)(?:\s+on)?\s+(.+)$`)
	reRightClick      = regexp.MustCompile(`(?i)^(?:right[\s-]?click|context[\s-]?click|secondary[\s-]?click)(?:\s+on)?\s+(.+)$|^(?:click|tap)(?:\s+on)?\s+(.+?)\s+with\s+the\s+right(?:\s+mouse)?\s+button$|^open\s+the\s+context\s+menu\s+(?:of|on|for)\s+(.+)$`)
	reClear           = regexp.MustCompile(`(?i)^(?:clear|empty|erase)(?:\s+(?:the\s+)?(?:text|contents?|value)\s+(?:of|in|from))?\s+(.+)$`)
	reDrag            = regexp.MustCompile(`(?i)^(?:drag(?:\s+and\s+drop)?)\s+(.+?)\s+(?:onto|on\s+to|on|into|to|over)\s+(.+)$`)
	reUpload          = regexp.MustCompile(`(?i)^(?:upload|attach|choose\s+the\s+file)\s+(.+?)\s+(?:into|in|to|with|using|through|via|for)\s+(.+)$`)
	reHover           = regexp.MustCompile(`(?i)^(?:hover|mouse)\s+(?:over|on|onto)\s+(.+)$|^(?:move|put)\s+the\s+(?:mouse|pointer|cursor)\s+(?:over|on|onto)\s+(.+)$`)
	reCopy            = regexp.MustCompile(`(?i)^copy\s+(?:the\s+)?(?:text|value|contents?|words?)\s+(?:in|from|of|inside)\s+(.+)$`)
	rePaste           = regexp.MustCompile(`(?i)^paste\s+(?:it|that|them|the\s+(?:copied\s+)?text)\s+(?:into|in|to)\s+(.+)$`)
	reExtract         = regexp.MustCompile(`(?i)^(?:extract|read|get|copy|grab|record)\s+(.+?)(?:\s+(?:as|into)\s+(.+))?$`)
)

// parseClause reads one masked sentence; a non-empty reason says why it could not. It
// tries the rows of readings in turn, and the first that recognises the sentence reads
// it; a sentence none recognises gets the reason unreadable gives.
func parseClause(c string, quotes []string) (Step, string) {
	for _, r := range readings {
		if s, reason, ok := r.read(c, quotes); ok {
			return s, reason
		}
	}
	return Step{}, unreadable(c)
}

// A clauseReader reads one kind of sentence: ok says it recognised the sentence, and then
// the step is what it says, or reason says why it is not one.
type clauseReader func(c string, quotes []string) (s Step, reason string, ok bool)

// A reading is one row of the planner's table: the kind of sentence, sentences of that
// kind (each read by this row and no earlier one, which the tests check), and its reader.
type reading struct {
	name     string
	examples []string
	read     clauseReader
}

// readings are the rows parseClause tries, in order. The order matters where the
// patterns overlap: an assertion or a wait is read before an unsupported action is
// refused, scrolling to an element before scrolling the page, "press Enter" before "press
// Save", typing before selecting, a checkbox before a click, copying text before reading
// it. Sentences of several steps of one kind (fields and their values, boxes to tick) are
// read before these, by readSeveral; the idioms of whole goals before that, by
// rewriteIdioms.
var readings = []reading{
	{"an action when a number on the page meets a bound", []string{`click "Buy" when the price is less than $47.10`, "wait until the total is above 100"}, readWhen},
	{"a check of the page's text", []string{`check that "Apollo" is visible`, `the page shows "Saved"`, `"Draft" disappears`, `verify "Done"`}, readAssert},
	{"a wait", []string{"wait 2 seconds", `wait for "Results" to appear`}, readWait},
	{"the pointer over an element", []string{`hover over "Account"`, `move the mouse over the "Help" icon`}, readHover},
	{"a double or right click", []string{`double-click "Buy milk"`, `right-click the row "Q4"`, `open the context menu of "Report.pdf"`}, readDoubleOrRightClick},
	{"emptying a field", []string{`clear "Search"`, `clear the text in the "Notes" field`}, readClear},
	{"a resize by the element's grip", []string{"resize the textarea so that the height is larger than its initial size", `make "Notes" wider`}, readResize},
	{"a drag along a list or in a direction", []string{"drag Olwen up by one position", `drag "Milk" to the 3rd position`, "drag the item right"}, readDragBy},
	{"a list sorted by dragging its items", []string{"sort the numbers in increasing order, starting with the lowest number at the top of the list", "sort the list in descending order"}, readSort},
	{"a drag, or a slider set", []string{`drag "Card 3" onto "Done"`, "drag the slider to 40"}, readDrag},
	{"a file given to the page", []string{`upload "report.pdf" into "Attachment"`, `attach "cv.pdf" with the "Browse" button`}, readUpload},
	{"selecting an element's whole text", []string{"highlight the text in the paragraph below", `select all of the text in "Notes"`}, readSelectText},
	{"selecting words within an element's text", []string{`select the word "Neque" in the text editor`, `highlight the text "due Friday" in "Notes"`}, readSelectWords},
	{"an action the agent does not have", []string{`triple-click "Title"`, `click "Next" twice`, "draw a circle"}, refuseUnsupported},
	{"a scroll", []string{"scroll down", "scroll to the bottom of the text area", "scroll the textarea to the bottom of the text", `scroll to "Pricing"`}, readScroll},
	{"a key", []string{"press Enter", `press ctrl+a in "Notes"`}, readKeyPress},
	{"going to an address, back or forward", []string{"go to https://example.com/login", "go back", "reload the page"}, readNavigation},
	{"a form filled from the page's table", []string{"fill each labelled field with its value from the table"}, readFromTable},
	{"filling a form", []string{`type "Apollo" into "Project name"`, `fill "Email" with "a@b.co"`, `select "High" from "Priority"`, `tick "Private"`, `uncheck "Private"`, "select -5 with the spinner", "select 5 with the slider"}, readInput},
	{"a click", []string{`click "New project"`, "submit the form", "submit when done", "expand the section below", "focus into the 3rd input textbox", `open the "Billing" tab`}, readClick},
	{"reading text off the page", []string{`copy the text in "Notes"`, `paste it into "Reply"`, `extract the first row's name as "first"`}, readExtraction},
}

// found is a reader's answer for a sentence it recognised: the step, or why it is not one.
func found(s Step, reason string) (Step, string, bool) { return s, reason, true }

// readAssert reads a check that a text is, or is not, on the page: "the page shows X",
// "check that X is visible", "X disappears", "verify X".
func readAssert(c string, quotes []string) (Step, string, bool) {
	if m := reAssertPage.FindStringSubmatch(c); m != nil {
		neg := strings.Contains(strings.ToLower(m[1]), "n't") || strings.Contains(strings.ToLower(m[1]), "not") || strings.Contains(strings.ToLower(m[1]), "no longer")
		return Step{Action: Assert, Value: assertText(m[2], quotes), Negated: neg}, "", true
	}
	if m := reAssertIs.FindStringSubmatch(c); m != nil && hasAssertVerbOrQuote(c) {
		return Step{Action: Assert, Value: assertText(m[1], quotes), Negated: m[2] != ""}, "", true
	}
	if m := reAssertVerb.FindStringSubmatch(c); m != nil && hasAssertVerbOrQuote(c) {
		v := strings.ToLower(m[2])
		neg := v != "appears" && v != "shows up"
		return Step{Action: Assert, Value: assertText(m[1], quotes), Negated: neg}, "", true
	}
	if m := reAssertSee.FindStringSubmatch(c); m != nil {
		return Step{Action: Assert, Value: assertText(m[1], quotes)}, "", true
	}
	return Step{}, "", false
}

// readWait reads a wait, for a time ("wait 2 seconds") or for an element ("wait for the
// results to appear").
func readWait(c string, quotes []string) (Step, string, bool) {
	if m := reWaitTime.FindStringSubmatch(c); m != nil {
		return Step{Action: Wait, Value: strings.TrimSpace(m[1])}, "", true
	}
	if m := reWaitFor.FindStringSubmatch(c); m != nil {
		return Step{Action: Wait, TargetDescription: cleanOperand(m[1], quotes)}, "", true
	}
	return Step{}, "", false
}

// readHover reads moving the pointer over an element.
func readHover(c string, quotes []string) (Step, string, bool) {
	m := reHover.FindStringSubmatch(c)
	if m == nil {
		return Step{}, "", false
	}
	t := m[1] + m[2] // one of the two forms matched
	return found(exact(Step{Action: Hover, TargetDescription: cleanOperand(t, quotes)}, t, quotes, ""))
}

// refuseUnsupported recognises a sentence that asks for an action the agent does not
// take, and says why.
func refuseUnsupported(c string, _ []string) (Step, string, bool) {
	reason := unsupported(c)
	return Step{}, reason, reason != ""
}

// readScroll reads a scroll: to the edge of an element ("to the bottom of the text area",
// that element's own scroll, not the page's), to an element, or of the page, down by
// default.
func readScroll(c string, quotes []string) (Step, string, bool) {
	if m := reScrollElem.FindStringSubmatch(c); m != nil && !reThePage.MatchString(cleanOperand(m[1], quotes)) {
		edge := map[string]string{"bottom": "bottom", "end": "bottom", "top": "top", "start": "top"}[strings.ToLower(m[2])]
		return found(exact(Step{Action: Scroll, TargetDescription: cleanOperand(m[1], quotes), Value: edge}, m[1], quotes, ""))
	}
	if m := reScrollWithin.FindStringSubmatch(c); m != nil {
		edge := map[string]string{"bottom": "bottom", "end": "bottom", "top": "top", "start": "top"}[strings.ToLower(m[1])]
		if reThePage.MatchString(strings.TrimSpace(cleanOperand(m[2], quotes))) {
			return Step{Action: Scroll, Value: edge}, "", true
		}
		return found(exact(Step{Action: Scroll, TargetDescription: cleanOperand(m[2], quotes), Value: edge}, m[2], quotes, ""))
	}
	if m := reScrollTo.FindStringSubmatch(c); m != nil && !reEdge.MatchString(m[1]) {
		return Step{Action: Scroll, TargetDescription: cleanOperand(m[1], quotes)}, "", true
	}
	m := reScroll.FindStringSubmatch(c)
	if m == nil {
		return Step{}, "", false
	}
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
	return Step{Action: Scroll, Value: dir}, "", true
}

// readKeyPress reads pressing a key or a shortcut, on the page or in an element.
func readKeyPress(c string, quotes []string) (Step, string, bool) {
	if m := rePressKey.FindStringSubmatch(c); m != nil {
		return Step{Action: Press, Value: keyFor(m[1]), TargetDescription: cleanOperand(m[2], quotes)}, "", true
	}
	return Step{}, "", false
}

// readNavigation reads a move in the history (back, forward, reload) or going to an
// address, which it reads unmasked, since an address may be quoted.
func readNavigation(c string, quotes []string) (Step, string, bool) {
	if m := reHistory.FindStringSubmatch(c); m != nil {
		v := strings.ToLower(m[1] + m[2])
		if v == "refresh" {
			v = "reload"
		}
		return Step{Action: Navigate, Value: v}, "", true
	}
	if m := reNavigate.FindStringSubmatch(unmask(c, quotes, false)); m != nil {
		return Step{Action: Navigate, Value: strings.TrimRight(m[1], ".,;")}, "", true
	}
	return Step{}, "", false
}

// readInput reads what fills a form: typing into a field (or, without one, into the
// focused element), selecting an option, ticking or unticking a checkbox.
func readInput(c string, quotes []string) (Step, string, bool) {
	if m := reSetWith.FindStringSubmatch(c); m != nil {
		if strings.EqualFold(m[2], "slider") {
			return Step{Action: Drag, TargetDescription: "the slider", Value: m[1]}, "", true
		}
		return Step{Action: Type, TargetDescription: "the spinner", Value: m[1]}, "", true
	}
	if m := reTypeInto.FindStringSubmatch(c); m != nil {
		v, unclear := exactValue(m[1], quotes)
		return found(exact(Step{Action: Type, Value: v, TargetDescription: cleanOperand(m[2], quotes)}, m[2], quotes, unclear))
	}
	if m := reFillWith.FindStringSubmatch(c); m != nil {
		v, unclear := exactValue(m[2], quotes)
		return found(exact(Step{Action: Type, Value: v, TargetDescription: cleanOperand(m[1], quotes)}, m[1], quotes, unclear))
	}
	if m := reTypeOnly.FindStringSubmatch(c); m != nil && !rePreposition.MatchString(m[1]) {
		// "double-click "Buy milk", type "Buy oat milk"": into the field the page has
		// focused (the editor the double-click opened); with none focused the step fails.
		v, unclear := exactValue(m[1], quotes)
		if unclear != "" {
			return found(Step{}, unclear)
		}
		return Step{Action: Type, Value: v, TargetDescription: FocusedField}, "", true
	}
	if m := reSelectFrom.FindStringSubmatch(c); m != nil {
		v, unclear := exactValue(m[1], quotes)
		return found(exact(Step{Action: Select, Value: v, TargetDescription: cleanOperand(m[2], quotes)}, m[2], quotes, unclear))
	}
	if m := reUncheck.FindStringSubmatch(c); m != nil {
		return found(exact(Step{Action: Check, Value: "false", TargetDescription: cleanOperand(m[1], quotes)}, m[1], quotes, ""))
	}
	if m := reCheck.FindStringSubmatch(c); m != nil {
		return found(exact(Step{Action: Check, Value: "true", TargetDescription: cleanOperand(m[1], quotes)}, m[1], quotes, ""))
	}
	return Step{}, "", false
}

// FocusedField is the target of a TYPE that names no field: the one the page has focused.
const FocusedField = "the focused field"

// readClick reads a click: submitting the form (its Submit button) or clicking, tapping,
// opening or switching to an element.
func readClick(c string, quotes []string) (Step, string, bool) {
	if reSubmit.MatchString(c) {
		return Step{Action: Click, TargetDescription: "Submit"}, "", true
	}
	if reExpand.MatchString(c) {
		return Step{Action: Click, TargetDescription: "the collapsed section"}, "", true
	}
	if m := reClick.FindStringSubmatch(c); m != nil {
		return found(exact(Step{Action: Click, TargetDescription: cleanOperand(m[1], quotes)}, m[1], quotes, ""))
	}
	return Step{}, "", false
}

// readExtraction reads what takes text from the page: copying the text of an element (the
// value a later "paste it into" types, under the name Copied), pasting it, or reading a
// value under a name, given or made from what is read.
func readExtraction(c string, quotes []string) (Step, string, bool) {
	if m := reCopy.FindStringSubmatch(c); m != nil {
		return found(exact(Step{Action: Extract, TargetDescription: cleanOperand(m[1], quotes), Value: Copied}, m[1], quotes, ""))
	}
	if m := rePaste.FindStringSubmatch(c); m != nil {
		return found(exact(Step{Action: Type, TargetDescription: cleanOperand(m[1], quotes), Value: "{{" + Copied + "}}"}, m[1], quotes, ""))
	}
	if m := reExtract.FindStringSubmatch(c); m != nil {
		name := cleanOperand(m[2], quotes)
		if name == "" {
			name = slug(cleanOperand(m[1], quotes))
		}
		return Step{Action: Extract, TargetDescription: cleanOperand(m[1], quotes), Value: name}, "", true
	}
	return Step{}, "", false
}

// unreadable says why no reader recognised a sentence: it asks to go on without saying
// how, it starts with no action the planner knows, or its operands could not be read.
func unreadable(c string) string {
	if reContinue.MatchString(c) {
		return `it does not say what to click to go on: name the button, e.g. click "Continue"`
	}
	if !verbStart.MatchString(c) {
		return "it does not start with an action the offline planner knows (click, double-click, right-click, type, clear, select, check, press, hover, go to, scroll, wait, verify, extract)"
	}
	return "it starts with an action but its target or value could not be read; quote them, as in type \"Apollo\" into \"Project name\""
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
