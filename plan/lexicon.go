package plan

import (
	"slices"
	"strings"
)

// The lexicon: the words the planner knows, as data. A verb is listed once with every
// sense it has; the readers ask for a sense ("the verbs that type"), and splitting a goal
// into steps asks for every verb that starts one. A new synonym is one row here.

// A sense is one thing a verb may mean in a sentence.
type sense uint8

const (
	sClick       sense = iota // click X
	sKey                      // press Enter
	sType                     // type V into X
	sTypeOnly                 // type V (into the focused field)
	sFillWith                 // fill X with V
	sChoose                   // select V from X
	sSetWith                  // set 5 with the slider
	sTick                     // tick X
	sUntick                   // untick X
	sTickList                 // select A, B and C (each box)
	sAssert                   // check that X is visible
	sGo                       // go to an address
	sMenuPath                 // select File > Save
	sDoubleClick              // double-click X
	sRightClick               // right-click X
	sClear                    // clear X
	sUpload                   // upload F into X
	sExtract                  // extract X as name
	sHover                    // hover over X
)

// A verb is a word or phrase that starts a step, and what it may mean. inner marks a verb
// read only inside a sentence's own shape, never where a goal's steps are split: "mark"
// after a comma goes on the step before it.
type verb struct {
	phrase string
	senses []sense
	inner  bool
}

var verbs = []verb{
	{phrase: "click", senses: []sense{sClick, sMenuPath}},
	{phrase: "click on", senses: []sense{sMenuPath}, inner: true},
	{phrase: "tap", senses: []sense{sClick, sKey}},
	{phrase: "press", senses: []sense{sClick, sKey}},
	{phrase: "hit", senses: []sense{sClick, sKey}},
	{phrase: "push", senses: []sense{sClick, sKey}},
	{phrase: "select", senses: []sense{sClick, sChoose, sSetWith, sTickList, sMenuPath}},
	{phrase: "choose", senses: []sense{sClick, sChoose, sSetWith, sMenuPath}},
	{phrase: "pick", senses: []sense{sClick, sChoose, sSetWith, sMenuPath}},
	{phrase: "open", senses: []sense{sClick, sGo, sMenuPath}},
	// "follow the link "click here to get one."": a click on the link.
	{phrase: "follow", senses: []sense{sClick}},
	{phrase: "expand", senses: []sense{sClick}},
	{phrase: "unfold", senses: []sense{sClick}},
	{phrase: "collapse", senses: []sense{sClick}},
	{phrase: "go to", senses: []sense{sClick, sGo, sMenuPath}},
	{phrase: "go", senses: nil},
	// "search for X": typed into the page's search box and sent (search.go).
	{phrase: "search", senses: nil},
	// "add the line "X" at the end of the text box", "append "X" to "Notes"": typed after
	// what the field holds (append.go).
	{phrase: "add", senses: nil},
	{phrase: "append", senses: nil},
	{phrase: "switch to", senses: []sense{sClick}},
	// "close the dialog", "dismiss the "Newsletter" popup": its close control (closeBox).
	{phrase: "close", senses: nil, inner: true},
	{phrase: "dismiss", senses: nil, inner: true},
	{phrase: "switch", senses: []sense{sFillWith}}, // "switch Permissions from Read Only to Read/Write"
	{phrase: "focus", senses: []sense{sClick}},
	{phrase: "focus into", senses: []sense{sClick}},
	{phrase: "focus in", senses: []sense{sClick}},
	{phrase: "focus to", senses: []sense{sClick}},
	{phrase: "type", senses: []sense{sType, sTypeOnly}},
	{phrase: "enter", senses: []sense{sType, sSetWith}},
	{phrase: "input", senses: []sense{sType, sTypeOnly}},
	{phrase: "write", senses: []sense{sType, sTypeOnly}},
	{phrase: "put", senses: []sense{sType}},
	{phrase: "fill in", senses: []sense{sType, sFillWith}},
	{phrase: "fill", senses: []sense{sType, sFillWith}},
	{phrase: "key in", senses: []sense{sType, sTypeOnly}, inner: true},
	{phrase: "fill out", senses: []sense{sFillWith}},
	{phrase: "complete", senses: []sense{sFillWith}, inner: true},
	{phrase: "set", senses: []sense{sFillWith, sSetWith}},
	// "change "Title" to "Office"", "replace "Title" with "Office"": the field's value
	// becomes the one given.
	{phrase: "change", senses: []sense{sFillWith}},
	{phrase: "replace", senses: []sense{sFillWith}},
	{phrase: "update", senses: []sense{sFillWith}},
	// "find "PostgreSQL manual"": a check that the page shows it.
	{phrase: "find", senses: nil},
	{phrase: "locate", senses: nil},
	{phrase: "check", senses: []sense{sTick, sTickList, sAssert}},
	{phrase: "tick", senses: []sense{sTick, sTickList}},
	{phrase: "mark", senses: []sense{sTick, sTickList}, inner: true},
	{phrase: "uncheck", senses: []sense{sUntick}},
	{phrase: "untick", senses: []sense{sUntick}},
	{phrase: "unmark", senses: []sense{sUntick}, inner: true},
	{phrase: "clear the checkbox", senses: []sense{sUntick}},
	// "switch on "Notifications"", "turn off Active": a switch or a checkbox set so.
	{phrase: "switch on", senses: []sense{sTick}},
	{phrase: "turn on", senses: []sense{sTick}},
	{phrase: "switch off", senses: []sense{sUntick}},
	{phrase: "turn off", senses: []sense{sUntick}},
	// "enable "Share printers"", "disable Debug logging": a setting's box set so.
	{phrase: "enable", senses: []sense{sTick}},
	{phrase: "disable", senses: []sense{sUntick}},
	{phrase: "verify", senses: []sense{sAssert}},
	{phrase: "confirm", senses: []sense{sAssert}},
	{phrase: "ensure", senses: []sense{sAssert}},
	{phrase: "make sure", senses: []sense{sAssert}},
	{phrase: "assert", senses: []sense{sAssert}},
	{phrase: "expect", senses: []sense{sAssert}},
	{phrase: "see", senses: nil},
	// "keep admin as the User name", "leave the Destination Branch at [root]": a check
	// that the field already holds the value (sentences.go, keepAs).
	{phrase: "keep", senses: nil},
	// "name it "Branch Offices"": typed into the field called Name (clause.go, nameIt).
	{phrase: "name it", senses: nil},
	{phrase: "name the", senses: nil},
	{phrase: "call the", senses: nil},
	{phrase: "give it", senses: nil},
	// "send it with the "Send message" button": the click on that control (confirmWith).
	{phrase: "send it", senses: nil},
	{phrase: "call it", senses: nil},
	{phrase: "leave", senses: nil},
	{phrase: "goto", senses: []sense{sGo}},
	{phrase: "navigate to", senses: []sense{sGo, sMenuPath}},
	{phrase: "navigate", senses: nil},
	{phrase: "visit", senses: []sense{sGo}},
	{phrase: "load", senses: []sense{sGo}},
	{phrase: "browse to", senses: []sense{sGo}},
	{phrase: "browse", senses: nil},
	{phrase: "head to", senses: []sense{sGo, sMenuPath}},
	{phrase: "head", senses: nil},
	{phrase: "reload", senses: nil},
	{phrase: "refresh", senses: nil},
	{phrase: "submit", senses: nil},
	// "save", "save the changes", "apply": a click on the button the verb names (saveIt).
	{phrase: "save", senses: nil},
	{phrase: "apply", senses: nil},
	{phrase: "publish", senses: nil},
	{phrase: "continue", senses: nil},
	{phrase: "proceed", senses: nil},
	{phrase: "accept", senses: nil},
	{phrase: "double-click", senses: []sense{sDoubleClick}},
	{phrase: "double click", senses: []sense{sDoubleClick}},
	{phrase: "doubleclick", senses: []sense{sDoubleClick}, inner: true},
	{phrase: "double-tap", senses: []sense{sDoubleClick}},
	{phrase: "double tap", senses: []sense{sDoubleClick}, inner: true},
	{phrase: "doubletap", senses: []sense{sDoubleClick}, inner: true},
	{phrase: "dblclick", senses: []sense{sDoubleClick}},
	{phrase: "dbl-click", senses: []sense{sDoubleClick}, inner: true},
	{phrase: "dbl click", senses: []sense{sDoubleClick}, inner: true},
	{phrase: "right-click", senses: []sense{sRightClick}},
	{phrase: "right click", senses: []sense{sRightClick}},
	{phrase: "rightclick", senses: []sense{sRightClick}, inner: true},
	{phrase: "context-click", senses: []sense{sRightClick}},
	{phrase: "context click", senses: []sense{sRightClick}, inner: true},
	{phrase: "contextclick", senses: []sense{sRightClick}, inner: true},
	{phrase: "secondary-click", senses: []sense{sRightClick}, inner: true},
	{phrase: "secondary click", senses: []sense{sRightClick}, inner: true},
	{phrase: "secondaryclick", senses: []sense{sRightClick}, inner: true},
	{phrase: "triple-click", senses: nil},
	{phrase: "long-press", senses: nil},
	{phrase: "drag", senses: nil},
	{phrase: "highlight", senses: nil},
	{phrase: "upload", senses: []sense{sUpload}},
	{phrase: "attach", senses: []sense{sUpload}},
	{phrase: "choose the file", senses: []sense{sUpload}},
	{phrase: "clear", senses: []sense{sClear}},
	{phrase: "empty", senses: []sense{sClear}},
	{phrase: "erase", senses: []sense{sClear}},
	{phrase: "scroll", senses: nil},
	{phrase: "wait", senses: nil},
	{phrase: "extract", senses: []sense{sExtract}},
	{phrase: "read", senses: []sense{sExtract}},
	{phrase: "get", senses: []sense{sExtract}},
	{phrase: "copy", senses: []sense{sExtract}},
	{phrase: "grab", senses: []sense{sExtract}},
	{phrase: "record", senses: []sense{sExtract}, inner: true},
	{phrase: "paste", senses: nil},
	{phrase: "hover", senses: []sense{sHover}},
	{phrase: "mouse", senses: []sense{sHover}, inner: true},
	// "point at Users", "point to the Admin menu": the pointer held over it.
	{phrase: "point", senses: []sense{sHover}},
	// "move the mouse over X" starts a step of its own (a hover, read by its sentence's
	// shape), after a comma too.
	{phrase: "move the mouse", senses: nil},
	{phrase: "move the pointer", senses: nil},
	{phrase: "move the cursor", senses: nil},
	{phrase: "resize", senses: nil},
	{phrase: "sort", senses: nil},
}

// verbsFor is the rule for the verbs with a sense, the longer phrases first ("fill in"
// before "fill").
func verbsFor(s sense) rule {
	var ps []string
	for _, v := range verbs {
		if slices.Contains(v.senses, s) {
			ps = append(ps, v.phrase)
		}
	}
	return word(longestFirst(ps)...)
}

// stepVerbs is every verb a step may start with: where a goal's steps split.
var stepVerbs = func() rule {
	var ps []string
	for _, v := range verbs {
		if !v.inner {
			ps = append(ps, v.phrase)
		}
	}
	return word(longestFirst(ps)...)
}()

func longestFirst(ps []string) []string {
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b string) int { return len(tokenize(b)) - len(tokenize(a)) })
	return ps
}

// startsWithVerb reports whether the masked sentence starts with a verb a step may start
// with.
func startsWithVerb(c string) bool { return readStart(stepVerbs, strings.TrimSpace(c)) != nil }

// A kind is a word for a kind of element and the role it means; kinds are tried in order,
// the first the description holds is its kind.
type kind struct {
	role    string
	phrases []string
}

var kinds = []kind{
	// "the collapsed section": the one control the page shows collapsed, whatever it
	// calls itself.
	{"collapsed", []string{"collapsed section", "collapsed panel", "collapsed accordion", "collapsed group", "collapsed details", "collapsed menu", "collapsed node", "collapsed"}},
	// "the focused field": the one the page has focused, whatever it is called.
	{"focused", []string{"focused field", "focused element", "focused input", "focused box", "focused text box", "focused textbox", "focused"}},
	{"menuitem", []string{"menu item", "menuitem"}},
	{"checkbox", []string{"check box", "checkbox"}},
	{"radio", []string{"radio button", "radiobutton", "radio"}},
	{"button", []string{"button", "btn"}},
	{"link", []string{"link"}},
	{"icon", []string{"icon"}},
	{"textarea", []string{"text area", "textarea"}},
	// A text editor is the box a rich-text editor draws, or else a text area.
	{"editor", []string{"rich text editor", "rich-text editor", "richtext editor", "rich editor", "rich-editor", "richeditor", "text editor", "editor"}},
	// "the text input" is an <input>, not a text area.
	{"input", []string{"text input", "textinput", "input field", "inputfield", "input box", "inputbox", "input"}},
	// A search box is the field a page searches by: its search form's, or one that says so.
	{"search", []string{"search box", "searchbox", "search field", "search bar", "search input"}},
	{"textbox", []string{"text field", "textfield", "text box", "textbox"}},
	// A field, said plainly, is any form field: a list to choose from is one too.
	{"field", []string{"field"}},
	{"combobox", []string{"dropdown", "drop-down", "select box", "selectbox", "select", "combo box", "combobox", "picker", "list box", "listbox", "scroll list", "scrolling list", "selection list", "list"}},
	{"treeitem", []string{"tree item", "treeitem"}},
	{"slider", []string{"slider"}},
	{"switch", []string{"switch", "toggle"}},
	// A date or time field is named by its kind when nothing else names it.
	{"date", nil},
	{"time", nil},
	{"tab", []string{"tab"}},
	{"option", []string{"option", "item", "entry", "record", "suggestion"}},
}

// kindRules are the kinds' phrases as rules, in the order of kinds.
var kindRules = func() []rule {
	rs := make([]rule, len(kinds))
	for i, k := range kinds {
		rs[i] = word(k.phrases...)
	}
	return rs
}()
