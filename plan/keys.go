package plan

import "strings"

// readKeyPress reads pressing a key or a shortcut, on the page or in an element.
func readKeyPress(c string, quotes []string) (Step, string, bool) {
	if m := read(pressKey, c); m != nil && read(seq(the, boxWords, end), m.get("t")) == nil {
		// ("hit F8 in the button bar" is the button F8, a click: a key goes into a field.)
		return Step{Action: Press, Value: keyFor(m.get("v")), TargetDescription: cleanOperand(m.get("t"), quotes)}, "", true
	}
	// A shortcut quoted as a page names it (`press "Control+End"`, `hit "Ctrl+S"`): a
	// chord of a modifier and a key is no control's name; nor is a key that only a
	// keyboard has (`press "Enter"`, `press "Esc"`); and a key said to be one is one
	// (`press the "Delete" key`). `press "Delete"` alone may be a button's name: a click.
	if m := read(pressQuotedChord, c); m != nil {
		if n, ok := loneQuote(m.get("q")); ok && n < len(quotes) && (quotedChord(quotes[n]) || keyboardOnly(quotes[n]) ||
			(m.get("k") != "" && read(seq(keyName, end), quotes[n]) != nil)) {
			return Step{Action: Press, Value: keyFor(quotes[n]), TargetDescription: cleanOperand(m.get("t"), quotes)}, "", true
		}
	}
	return Step{}, "", false
}

// pressQuotedChord is a key press whose key is quoted.
var pressQuotedChord = seq(verbsFor(sKey), the, grab("q", quoteTok), opt(grab("k", word("key", "keys"))), opt(word("in", "on", "inside"), grab("t", all)), end)

// keyboardOnly reports whether q names a key no control of a page is named after: Enter,
// Tab, Escape, Backspace and the arrows (not Delete, Home, End or F8, which buttons and
// links are named too).
func keyboardOnly(q string) bool {
	switch strings.Join(strings.Fields(strings.ToLower(q)), "") {
	case "enter", "return", "tab", "escape", "esc", "backspace", "arrowup", "arrowdown", "arrowleft", "arrowright":
		return true
	}
	return false
}

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
