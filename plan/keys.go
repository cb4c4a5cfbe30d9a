package plan

import "strings"

// readKeyPress reads pressing a key or a shortcut, on the page or in an element.
func readKeyPress(c string, quotes []string) (Step, string, bool) {
	if m := read(pressKey, c); m != nil && read(seq(the, boxWords, end), m.get("t")) == nil {
		// ("hit F8 in the button bar" is the button F8, a click: a key goes into a field.)
		return Step{Action: Press, Value: keyFor(m.get("v")), TargetDescription: cleanOperand(m.get("t"), quotes)}, "", true
	}
	// A shortcut quoted as a page names it (`press "Control+End"`, `hit "Ctrl+S"`): a
	// chord of a modifier and a key is no control's name.
	if m := read(pressQuotedChord, c); m != nil {
		if n, ok := loneQuote(m.get("q")); ok && n < len(quotes) && quotedChord(quotes[n]) {
			return Step{Action: Press, Value: keyFor(quotes[n]), TargetDescription: cleanOperand(m.get("t"), quotes)}, "", true
		}
	}
	return Step{}, "", false
}

// pressQuotedChord is a key press whose key is quoted.
var pressQuotedChord = seq(verbsFor(sKey), grab("q", quoteTok), opt(word("key", "keys")), opt(word("in", "on", "inside"), grab("t", all)), end)

// quotedChord reports whether q is a modifier and a key joined by "+" ("Control+End",
// "Ctrl + S", "Shift+Tab").
func quotedChord(q string) bool {
	parts := strings.Split(q, "+")
	if len(parts) < 2 {
		return false
	}
	for i, p := range parts {
		p = strings.ToLower(strings.TrimSpace(p))
		if p == "" || (i < len(parts)-1 && !modifierKeys[p]) || strings.ContainsAny(p, " \t") {
			return false
		}
	}
	return true
}

// modifierKeys are the keys held in a chord.
var modifierKeys = map[string]bool{"ctrl": true, "control": true, "shift": true, "alt": true, "option": true, "meta": true, "cmd": true, "command": true}

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
