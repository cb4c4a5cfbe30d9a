package plan

import (
	"fmt"
	"regexp"
)

// No verb is mapped to another action: a sentence that asks for an action the agent does
// not have (a triple click, a drag, an upload) is refused with what was asked for,
// never read as the nearest action it does have. A single click in place of a double click
// changes the page too, so nothing after it would notice the substitution.

// unsupportedAction is one phrase for an action the agent does not have, and its name.
type unsupportedAction struct {
	re   *regexp.Regexp
	name string
	// example is a sentence the row refuses (the tests check it).
	example string
	// hint says what the writer may mean instead, when the agent has a way to do it.
	hint string
}

// unsupportedActions are read before any verb the agent has, so that "click X twice" or
// "select the text in X" is never taken for the click or the selection it starts like.
var unsupportedActions = []unsupportedAction{
	{regexp.MustCompile(`(?i)^triple[\s-]?(?:click|tap)\b`), "triple-click", `triple-click "Title"`, ""},
	{regexp.MustCompile(`(?i)^(?:(?:double|right)[\s-]?click|click|tap|press|hit|push)\b.*\b(?:twice|thrice|(?:two|three|four|five|\d+)\s+times)$|^(?:click|tap|press)\s+(?:twice|thrice)\b`), "doing a step several times", `click "Next" twice`,
		"if separate clicks or key presses are meant, write the step once for each"},
	{regexp.MustCompile(`(?i)^middle[\s-]?click\b|^(?:click|tap)\b.*\bwith\s+the\s+middle(?:\s+mouse)?\s+button$`), "middle-click", `middle-click the "Docs" link`, ""},
	{regexp.MustCompile(`(?i)^drop\b|^move\s+.+\s+(?:onto|into|to)\s+.+$`), "drag and drop", `move "Card 3" onto "Done"`,
		`write it as a drag: drag "Card 3" onto "Done"`},
	{regexp.MustCompile(`(?i)^(?:long[\s-]?press|press\s+and\s+hold|click\s+and\s+hold|tap\s+and\s+hold|hold(?:\s+down)?)\b`), "press and hold", `press and hold "Record"`, ""},
	{regexp.MustCompile(`(?i)^(?:swipe|flick|pinch|zoom)\b`), "swipe or zoom", "swipe left", ""},
	{regexp.MustCompile(`(?i)^(?:highlight\b|(?:select|mark)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:text|words?|characters?|letters?|sentence|paragraph)(?:\s+(?:in|of|inside|from|that)\b|\s*\x01|$))`), "selecting a text without saying where it is", `select the word "Neque"`,
		"write where the words are: select the text \"Neque\" in the text editor; to select an element's whole text, write highlight the text in \"X\"; to read text, write extract the text in \"X\"; to copy it into a field, copy the text in \"X\", then paste it into \"Y\""},
	{regexp.MustCompile(`(?i)^(?:upload|attach)\b`), "uploading a file without saying where", `upload "report.pdf"`,
		`write where it goes: upload "report.pdf" into "Attachment"`},
	{regexp.MustCompile(`(?i)^(?:draw|sketch|paint)\b`), "drawing", "draw a circle around the dot", ""},
	{regexp.MustCompile(`(?i)^(?:open|click|visit)\b.*\bin\s+(?:a\s+)?new\s+(?:browser\s+)?(?:tab|window)$`), "opening in a new tab or window", `open "Docs" in a new tab`,
		"click the link where it is; a window the page itself opens is followed"},
	{regexp.MustCompile(`(?i)^switch\s+to\s+(?:the\s+)?(?:(?:new|other|next|previous|original|first|second|last)\s+)?(?:browser\s+)?(?:window|popup|pop-up|iframe|frame)$|^switch\s+to\s+(?:the\s+)?(?:new|other|next|previous|original)\s+(?:browser\s+)?tab$`), "switching browser windows or tabs", "switch to the new window",
		"a tab inside the page is clicked by its name, e.g. click the \"Billing\" tab"},
}

// unsupported gives the reason a masked sentence asks for an action the agent does not
// have, or "" when it asks for none of them.
func unsupported(c string) string {
	for _, a := range unsupportedActions {
		if !a.re.MatchString(c) {
			continue
		}
		hint := a.hint
		if hint == "" {
			hint = "write the step with one of those only if that is really what is meant"
		}
		return fmt.Sprintf("%s is not an action this agent has yet, and it is not done as another action "+
			"(a single click, a hover) in its place; the agent clicks, double-clicks, right-clicks, drags, uploads the run's files, types, clears fields, selects, "+
			"ticks, presses keys, hovers, scrolls, waits, reads and checks text: %s", a.name, hint)
	}
	return ""
}
