package plan

import "fmt"

// No verb is mapped to another action: a sentence that asks for an action the agent does
// not have (a triple click, a drag, an upload) is refused with what was asked for,
// never read as the nearest action it does have. A single click in place of a double click
// changes the page too, so nothing after it would notice the substitution.

// unsupportedAction is one phrase for an action the agent does not have, and its name.
type unsupportedAction struct {
	read rule
	name string
	// example is a sentence the row refuses (the tests check it).
	example string
	// hint says what the writer may mean instead, when the agent has a way to do it.
	hint string
}

// unsupportedActions are read before any verb the agent has, so that "click X twice" or
// "select the text in X" is never taken for the click or the selection it starts like.
var unsupportedActions = []unsupportedAction{
	{seq(word("triple-click", "triple click", "tripleclick", "triple-tap", "triple tap", "tripletap"), anyTokens), "triple-click", `triple-click "Title"`, ""},
	{alt(seq(word("double-click", "double click", "doubleclick", "right-click", "right click", "rightclick", "click", "tap", "press", "hit", "push"), anyTokens, timesWords, end),
		seq(word("click", "tap", "press"), word("twice", "thrice"), anyTokens)), "doing a step several times", `click "Next" twice`,
		"if separate clicks or key presses are meant, write the step once for each"},
	{alt(seq(word("middle-click", "middle click", "middleclick"), anyTokens), seq(word("click", "tap"), anyTokens, word("with the middle"), opt(word("mouse")), word("button"), end)), "middle-click", `middle-click the "Docs" link`, ""},
	{alt(seq(word("drop"), anyTokens), seq(word("move"), some, word("onto", "into", "to"), some, end)), "drag and drop", `move "Card 3" onto "Done"`,
		`write it as a drag: drag "Card 3" onto "Done"`},
	{seq(word("long-press", "long press", "longpress", "press and hold", "click and hold", "tap and hold", "hold down", "hold"), anyTokens), "press and hold", `press and hold "Record"`, ""},
	{seq(word("swipe", "flick", "pinch", "zoom"), anyTokens), "swipe or zoom", "swipe left", ""},
	{alt(seq(word("highlight"), anyTokens), seq(word("select", "mark"), opt(word("all")), opt(word("of")), the,
		word("text", "word", "words", "character", "characters", "letter", "letters", "sentence", "paragraph"),
		alt(seq(word("in", "of", "inside", "from", "that"), anyTokens), seq(quoteTok, anyTokens), end))), "selecting a text without saying where it is", `select the word "Neque"`,
		"write where the words are: select the text \"Neque\" in the text editor; to select an element's whole text, write highlight the text in \"X\"; to read text, write extract the text in \"X\"; to copy it into a field, copy the text in \"X\", then paste it into \"Y\""},
	{seq(word("upload", "attach"), anyTokens), "uploading a file without saying where", `upload "report.pdf"`,
		`write where it goes: upload "report.pdf" into "Attachment"`},
	{seq(word("draw", "sketch", "paint"), anyTokens), "drawing", "draw a circle around the dot", ""},
	{seq(word("open", "click", "visit"), anyTokens, word("in"), opt(word("a")), word("new"), opt(word("browser")), word("tab", "window"), end), "opening in a new tab or window", `open "Docs" in a new tab`,
		"click the link where it is; a window the page itself opens is followed"},
	{alt(seq(word("switch to"), the, opt(word("new", "other", "next", "previous", "original", "first", "second", "last")), opt(word("browser")), word("window", "popup", "pop-up", "iframe", "frame"), end),
		seq(word("switch to"), the, word("new", "other", "next", "previous", "original"), opt(word("browser")), word("tab"), end)), "switching browser windows or tabs", "switch to the new window",
		"a tab inside the page is clicked by its name, e.g. click the \"Billing\" tab"},
}

// timesWords end a sentence that asks for a step more than once: "twice", "3 times".
var timesWords = alt(word("twice", "thrice"), seq(alt(word("two", "three", "four", "five"), number), word("times")))

// unsupported gives the reason a masked sentence asks for an action the agent does not
// have, or "" when it asks for none of them.
func unsupported(c string) string {
	for _, a := range unsupportedActions {
		if read(a.read, c) == nil {
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
