package plan

import (
	"fmt"
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
	if m := read(doubleClick, c); m != nil {
		t := dropUnquotedPurpose(dropPurpose(m.get("t"))) // "… in the table to edit it"
		return found(exact(Step{Action: DoubleClick, TargetDescription: cleanOperand(t, quotes)}, t, quotes, ""))
	}
	if m := read(rightClick, c); m != nil {
		t := dropUnquotedPurpose(dropPurpose(m.get("t")))
		return found(exact(Step{Action: RightClick, TargetDescription: cleanOperand(t, quotes)}, t, quotes, ""))
	}
	return Step{}, "", false
}

// readDrag reads dragging an element onto another ("drag "Card 3" onto "Done"") or a
// slider to a value ("drag the slider to 40"); both ends are held to exact names.
func readDrag(c string, quotes []string) (Step, string, bool) {
	m := read(dragOnto, c)
	if m == nil {
		return Step{}, "", false
	}
	t, to := m.get("t"), strings.TrimSpace(m.get("v"))
	if n := strings.TrimSpace(unmask(to, quotes, false)); isSliderValue(n) {
		return found(exact(Step{Action: Drag, TargetDescription: cleanOperand(t, quotes), Value: n}, t, quotes, ""))
	}
	if reason := exactTarget(to, quotes); reason != "" {
		return found(Step{}, reason)
	}
	return found(exact(Step{Action: Drag, TargetDescription: cleanOperand(t, quotes), Value: cleanOperand(to, quotes)}, t, quotes, ""))
}

// readUpload reads giving a file to a page: `upload "report.pdf" into "Attachment"`,
// `attach "cv.pdf" with the "Browse" button`. The file is one the run was given, named
// by its quoted name; where it goes is held to an exact name, like any target.
func readUpload(c string, quotes []string) (Step, string, bool) {
	m := read(upload, c)
	if m == nil {
		return Step{}, "", false
	}
	file, t := strings.TrimSpace(m.get("v")), m.get("t")
	if _, ok := loneQuote(file); !ok {
		return found(Step{}, fmt.Sprintf("say which of the run's files to upload by its quoted name, e.g. upload \"report.pdf\" into \"Attachment\", not %s", unmask(file, quotes, true)))
	}
	return found(exact(Step{Action: Upload, TargetDescription: cleanOperand(t, quotes), Value: unmask(file, quotes, false)}, t, quotes, ""))
}

// isSliderValue reports a value a slider takes: "40", "-5", "2.5", "30%".
func isSliderValue(s string) bool {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "-"), "%")
	whole, frac, dot := strings.Cut(s, ".")
	return isDigits(whole) && (!dot || isDigits(frac))
}

// leaveEmpty is a field left empty: "leave Save path empty", "keep the Notes field blank".
var leaveEmpty = seq(word("leave", "keep"), grab("t", some), word("empty", "blank"), end)

// readClear reads emptying a field: "clear "Search"", "clear the text in the "Notes" field"
// ("clear the checkbox X" is unticking it, read with the checkboxes).
func readClear(c string, quotes []string) (Step, string, bool) {
	m := read(clearField, c)
	if m == nil {
		// "leave Save path empty": the field ends empty, emptied only when it is not.
		m = read(leaveEmpty, c)
	}
	if m == nil || read(untick, c) != nil {
		return Step{}, "", false
	}
	if k := ParseTarget(unmask(m.get("t"), quotes, true)).Kind; k == "checkbox" || k == "switch" {
		// "clear the Delete data checkbox": a box is cleared by unticking it.
		return found(exact(Step{Action: Check, Uncheck: true, TargetDescription: cleanOperand(m.get("t"), quotes)}, m.get("t"), quotes, ""))
	}
	return found(exact(Step{Action: Clear, TargetDescription: cleanOperand(m.get("t"), quotes)}, m.get("t"), quotes, ""))
}

// selectText is highlighting an element's whole text: "highlight the text in the
// paragraph below", `select all of the text in "Notes"`.
var selectText = seq(word("highlight", "select"), opt(word("all"), opt(word("of"))), theWords, opt(word("whole")), word("text"), word("in", "of", "inside"), grab("t", all), end)

// readSelectText reads selecting the whole text of an element; the paragraph "below" is
// the page's one paragraph, which the browser holds to being one.
func readSelectText(c string, quotes []string) (Step, string, bool) {
	m := read(selectText, c)
	if m == nil {
		return Step{}, "", false
	}
	t := strings.TrimSpace(m.get("t"))
	if p := read(paragraphPlace, t); p != nil {
		t = p.get("p")
	}
	return found(exact(Step{Action: SelectText, TargetDescription: cleanOperand(t, quotes)}, t, quotes, ""))
}

// reSelectWords is selecting part of an element's text: `select the word "Neque" in the
// text editor`. The words are quoted; "the text" or "the word" before them keeps the
// sentence apart from choosing an option (`select "Blue" in "Color"`).
var selectWords = seq(word("highlight", "select"), theWords, word("text", "words", "word", "phrase"), grab("v", quoteTok), word("in", "inside", "within", "of"), grab("t", all), end)

// readSelectWords reads selecting quoted words within an element's text; the browser
// selects them where they occur once, and refuses them anywhere else.
func readSelectWords(c string, quotes []string) (Step, string, bool) {
	m := read(selectWords, c)
	if m == nil {
		return Step{}, "", false
	}
	n, _ := loneQuote(m.get("v"))
	return found(exact(Step{Action: SelectText, TargetDescription: cleanOperand(m.get("t"), quotes), Value: quotes[n]}, m.get("t"), quotes, ""))
}

// paragraphPlace is "the paragraph below": the word says where the instruction's reader
// looks, not which paragraph.
var paragraphPlace = seq(grab("p", seq(the, opt(alt(one(isNumberedOrdinal), word("first", "second", "third"))), word("paragraph"))), word("below", "above"), end)

// isNumberedOrdinal reports an ordinal written in digits: "2nd", "14th".
func isNumberedOrdinal(t tok) bool {
	w := t.low
	if len(w) < 3 || !isDigits(w[:len(w)-2]) {
		return false
	}
	switch w[len(w)-2:] {
	case "st", "nd", "rd", "th":
		return true
	}
	return false
}

// enterOnly is "enter 180", "enter "Water"": a value alone after "enter", typed into the
// field the page has focused (the box a click on an amount opened). Only a number or a
// quoted value: "enter Settings" may be a place one goes into.
var enterOnly = seq(word("enter"), grab("v", alt(quoteTok, seq(number, optLazy(seq(one(func(t tok) bool { return (t.text == "." || t.text == ",") && !t.space }), number))))), end)

// readTypeOnly reads a value typed with no field named: "type "Buy oat milk"", "enter 180".
func readTypeOnly(c string) *match {
	if m := read(typeOnly, c); m != nil {
		return m
	}
	return read(enterOnly, c)
}

// readNaming reads a thing named as it is made ("name it "Branch Offices"", "name the new
// monitor Garage"): the name typed into the field called Name.
func readNaming(c string, quotes []string) (Step, string, bool) {
	if g := read(giveThe, c); g != nil {
		v, unclear := exactValue(g.get("v"), quotes)
		return found(Step{Action: Type, Value: v, TargetDescription: upperFirst(g.low("f"))}, unclear)
	}
	m := read(nameIt, c)
	if m == nil {
		if m = read(nameThe, c); m == nil || !nameIs(m.get("v")) {
			return Step{}, "", false
		}
	}
	v, unclear := exactValue(m.get("v"), quotes)
	return found(Step{Action: Type, Value: v, TargetDescription: `the "Name" field`}, unclear)
}

// selectAsClick reads a choice made in a place that is no list box as a click on the item
// shown there: `choose "Receipts" in the dialog` (the item the open box lists, not a value
// chosen from a list called "dialog"), "select draft-q3.txt in the left panel" (the item
// on that side of the page, not a value chosen from a list called "left panel").
func selectAsClick(m *match, quotes []string) (Step, string, bool) {
	if read(seq(the, grab("box", boxWords), end), m.get("t")) != nil && len(quotesIn(m.get("v"))) == 1 && read(seq(quoteTok, end), m.get("v")) != nil {
		t := strings.TrimSpace(m.get("v")) + " in the " + strings.ToLower(strings.TrimSpace(stripStart(articleStart, m.get("t"))))
		return found(exact(Step{Action: Click, TargetDescription: unmask(t, quotes, true)}, t, quotes, ""))
	}
	if read(seq(positionWords, end), "in "+strings.TrimSpace(m.get("t"))) == nil {
		return Step{}, "", false
	}
	t := strings.TrimSpace(m.get("v")) + " in " + strings.TrimSpace(m.get("t"))
	return found(exact(Step{Action: Click, TargetDescription: cleanOperand(t, quotes)}, t, quotes, ""))
}
