package plan

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The readers of the actions people write beside clicks and typing: a double or right
// click, a drag, an upload, emptying a field.

// readDoubleOrRightClick reads a double click ("double-click "Buy milk"") or a right click
// ("right-click the row "Q4"", "open the context menu of X"): actions of their own, never a
// single click in their place.
func readDoubleOrRightClick(c string, quotes []string) (Step, string, bool) {
	if unsupported(c) != "" {
		return Step{}, "", false // "double-click X twice": refused as a repetition
	}
	if m := reDoubleClick.FindStringSubmatch(c); m != nil {
		return found(exact(Step{Action: DoubleClick, TargetDescription: cleanOperand(m[1], quotes)}, m[1], quotes, ""))
	}
	if m := reRightClick.FindStringSubmatch(c); m != nil {
		t := m[1] + m[2] + m[3] // one of the forms matched
		return found(exact(Step{Action: RightClick, TargetDescription: cleanOperand(t, quotes)}, t, quotes, ""))
	}
	return Step{}, "", false
}

// readDrag reads dragging an element onto another ("drag "Card 3" onto "Done"") or a
// slider to a value ("drag the slider to 40"); both ends are held to exact names.
func readDrag(c string, quotes []string) (Step, string, bool) {
	m := reDrag.FindStringSubmatch(c)
	if m == nil {
		return Step{}, "", false
	}
	to := strings.TrimSpace(m[2])
	if n := strings.TrimSpace(unmask(to, quotes, false)); reNumber.MatchString(n) {
		return found(exact(Step{Action: Drag, TargetDescription: cleanOperand(m[1], quotes), Value: n}, m[1], quotes, ""))
	}
	if reason := exactTarget(to, quotes); reason != "" {
		return found(Step{}, reason)
	}
	return found(exact(Step{Action: Drag, TargetDescription: cleanOperand(m[1], quotes), Value: cleanOperand(to, quotes)}, m[1], quotes, ""))
}

// readUpload reads giving a file to a page: `upload "report.pdf" into "Attachment"`,
// `attach "cv.pdf" with the "Browse" button`. The file is one the run was given, named
// by its quoted name; where it goes is held to an exact name, like any target.
func readUpload(c string, quotes []string) (Step, string, bool) {
	m := reUpload.FindStringSubmatch(c)
	if m == nil {
		return Step{}, "", false
	}
	file := strings.TrimSpace(m[1])
	if !reLoneQuote.MatchString(file) {
		return found(Step{}, fmt.Sprintf("say which of the run's files to upload by its quoted name, e.g. upload \"report.pdf\" into \"Attachment\", not %s", unmask(file, quotes, true)))
	}
	return found(exact(Step{Action: Upload, TargetDescription: cleanOperand(m[2], quotes), Value: unmask(file, quotes, false)}, m[2], quotes, ""))
}

// reNumber is a value a slider takes.
var reNumber = regexp.MustCompile(`^-?\d+(?:\.\d+)?%?$`)

// readClear reads emptying a field: "clear "Search"", "clear the text in the "Notes" field"
// ("clear the checkbox X" is unticking it, read with the checkboxes).
func readClear(c string, quotes []string) (Step, string, bool) {
	m := reClear.FindStringSubmatch(c)
	if m == nil || reUncheck.MatchString(c) {
		return Step{}, "", false
	}
	return found(exact(Step{Action: Clear, TargetDescription: cleanOperand(m[1], quotes)}, m[1], quotes, ""))
}

// reSelectText is highlighting an element's whole text: "highlight the text in the
// paragraph below", `select all of the text in "Notes"`.
var reSelectText = regexp.MustCompile(`(?i)^(?:highlight|select)\s+(?:all\s+(?:of\s+)?)?the\s+(?:whole\s+)?text\s+(?:in|of|inside)\s+(.+)$`)

// readSelectText reads selecting the whole text of an element; the paragraph "below" is
// the page's one paragraph, which the browser holds to being one.
func readSelectText(c string, quotes []string) (Step, string, bool) {
	m := reSelectText.FindStringSubmatch(c)
	if m == nil {
		return Step{}, "", false
	}
	t := reParagraphPlace.ReplaceAllString(strings.TrimSpace(m[1]), "$1")
	return found(exact(Step{Action: SelectText, TargetDescription: cleanOperand(t, quotes)}, t, quotes, ""))
}

// reSelectWords is selecting part of an element's text: `select the word "Neque" in the
// text editor`. The words are quoted; "the text" or "the word" before them keeps the
// sentence apart from choosing an option (`select "Blue" in "Color"`).
var reSelectWords = regexp.MustCompile(`(?i)^(?:highlight|select)\s+the\s+(?:text|words?|phrase)\s+\x01(\d+)\x02\s+(?:in|inside|within|of)\s+(.+)$`)

// readSelectWords reads selecting quoted words within an element's text; the browser
// selects them where they occur once, and refuses them anywhere else.
func readSelectWords(c string, quotes []string) (Step, string, bool) {
	m := reSelectWords.FindStringSubmatch(c)
	if m == nil {
		return Step{}, "", false
	}
	n, _ := strconv.Atoi(m[1])
	return found(exact(Step{Action: SelectText, TargetDescription: cleanOperand(m[2], quotes), Value: quotes[n]}, m[2], quotes, ""))
}

// reParagraphPlace is "the paragraph below": the word says where the instruction's reader
// looks, not which paragraph.
var reParagraphPlace = regexp.MustCompile(`(?i)^((?:the\s+)?(?:\d+(?:st|nd|rd|th)\s+|first\s+|second\s+|third\s+)?paragraph)\s+(?:below|above)$`)
